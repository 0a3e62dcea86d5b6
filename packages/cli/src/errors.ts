import type { AssetloomApiError } from '@assetloom/sdk';

/** Exit codes of every `assetloom` command. */
export const EXIT = {
  ok: 0,
  /** The generation ran and failed (quality retries exhausted, a subject nothing draws, provider failure). */
  taskFailed: 1,
  /** Bad arguments (see --help), a request the server refused as invalid (400, 409, 413, 415), or something that does not exist (a project name, a task id). */
  usage: 2,
  /** Not logged in: no token, a wrong username or password, an expired token. */
  auth: 3,
  /** The API refused or could not be reached (network, 4xx/5xx other than auth). */
  api: 4,
  /** A file could not be read or written (the config file too). */
  io: 5,
  /** `pixelize`: the input is not a PNG (or a broken one). */
  badInput: 6,
} as const;

/** Bad arguments: exit 2, the message says what to pass. */
export class UsageError extends Error {}

/** A failure with its exit code and a message for the user. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exit: number,
  ) {
    super(message);
  }
}

/**
 * The exit code of an API error: 3 for a 401, 1 for a failed task, 2 for what the server refused
 * as asked (400 invalid, 404 not found, 409 taken, 413 too large, 415 not a picture), 4 otherwise.
 */
export function exitForApiError(error: { code: unknown }): number {
  if (error.code === 401) return EXIT.auth;
  if (error.code === 'task_failed') return EXIT.taskFailed;
  if (
    error.code === 400 ||
    error.code === 404 ||
    error.code === 409 ||
    error.code === 413 ||
    error.code === 415
  ) {
    return EXIT.usage;
  }
  return EXIT.api;
}

/**
 * An API error as the user reads it: the server's message, the fields it refused (with the values
 * allowed), and what to do for a 401.
 */
export function apiFailure(what: string, error: AssetloomApiError): CliError {
  const fields = error.errors
    .map((f) => `\n  ${f.path || '/'}: ${f.message}${f.allowed ? ` (allowed: ${f.allowed.join(', ')})` : ''}`)
    .join('');
  const status = typeof error.code === 'number' ? ` (${error.code})` : '';
  const next =
    error.code === 401
      ? '\n  Log in with: assetloom login --username <name> (or set ASSETLOOM_TOKEN)'
      : error.code === 'network_error'
        ? '\n  Is the server running? Set it with --server <url> or ASSETLOOM_SERVER.'
        : '';
  return new CliError(`${what}: ${error.message}${status}${fields}${next}`, exitForApiError(error));
}
