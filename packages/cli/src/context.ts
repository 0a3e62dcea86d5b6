import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  type AssetClient,
  type AssetClientOptions,
  AssetloomApiError,
  createAssetClient,
} from '@assetloom/sdk';
import { type CliConfig, configPath, readConfig, sessionOf } from './config-file.js';
import { apiFailure, CliError, EXIT, UsageError } from './errors.js';

export { apiFailure, CliError, EXIT, exitForApiError, UsageError } from './errors.js';

export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** Where `--password-stdin` and the palette picker read from (process.stdin). */
  stdin?: AsyncIterable<Uint8Array | string> & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

/** What the CLI passes to createAssetClient beyond the base URL (tests inject fetch and WebSocket). */
export type ClientOverrides = Partial<Omit<AssetClientOptions, 'baseUrl'>>;

/** The options every command takes. */
export const GLOBAL_OPTIONS = {
  server: { type: 'string' },
  'base-url': { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
  lang: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses a command's arguments with the global options; unknown options are usage errors. */
export function parseCommand<O extends Options>(
  argv: string[],
  options: O,
): ReturnType<
  typeof parseArgs<{
    args: string[];
    allowPositionals: true;
    strict: true;
    options: typeof GLOBAL_OPTIONS & O;
  }>
> {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { ...GLOBAL_OPTIONS, ...options },
    });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/** An integer option within bounds (undefined when not given). */
export function intOption(
  name: string,
  raw: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/** `key=value` pairs (repeatable options such as --style) as a map; a pair without `=` is a usage error. */
export function keyValues(name: string, pairs: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0)
      throw new UsageError(`--${name} takes key=value (e.g. palette=sweetie16); got ${JSON.stringify(pair)}`);
    out[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return out;
}

/** One run of a command: the resolved server, token and config, the output mode and a client. */
export class Context {
  readonly server: string;
  readonly json: boolean;
  readonly configFile: string;
  readonly config: CliConfig;
  readonly language: string;
  /** Where the token came from, for messages. */
  readonly tokenSource: 'option' | 'env' | 'config' | 'none';
  readonly #token: string | undefined;
  #api: AssetClient | undefined;

  constructor(
    readonly io: CliIo,
    values: { server?: string; 'base-url'?: string; token?: string; json?: boolean; lang?: string },
    readonly overrides: ClientOverrides = {},
  ) {
    this.json = values.json === true;
    this.configFile = configPath(io.env);
    this.config = readConfig(this.configFile);
    const server =
      values.server ??
      values['base-url'] ??
      io.env.ASSETLOOM_SERVER ??
      io.env.ASSETLOOM_BASE_URL ??
      this.config.server ??
      DEFAULT_SERVER;
    if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(server)) {
      throw new UsageError(
        `--server must be an http(s) URL such as ${DEFAULT_SERVER}; got ${JSON.stringify(server)}`,
      );
    }
    this.server = server.replace(/\/+$/, '');
    const saved = sessionOf(this.config, this.server)?.token;
    this.#token = values.token ?? io.env.ASSETLOOM_TOKEN ?? saved;
    this.tokenSource =
      values.token !== undefined ? 'option' : io.env.ASSETLOOM_TOKEN ? 'env' : saved ? 'config' : 'none';
    const lang = values.lang ?? (/^zh/i.test(io.env.LANG ?? '') ? 'zh' : 'en');
    if (lang !== 'en' && lang !== 'zh')
      throw new UsageError(`--lang must be en or zh; got ${JSON.stringify(lang)}`);
    this.language = lang;
  }

  /** The SDK client for the server (the token attached when there is one). */
  get api(): AssetClient {
    this.#api ??= createAssetClient({
      baseUrl: this.server,
      language: this.language,
      ...(this.#token ? { token: this.#token } : {}),
      ...this.overrides,
    });
    return this.#api;
  }

  /** Stops with exit 3 before a call that needs a token when none is known. */
  requireToken(): void {
    if (this.#token) return;
    throw new CliError(
      `not logged in to ${this.server}: run "assetloom login --username <name>" (or set ASSETLOOM_TOKEN)`,
      EXIT.auth,
    );
  }

  /** Human output (stdout), unless --json. */
  print(text: string): void {
    if (!this.json) this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Progress and notes (stderr), unless --json. */
  note(text: string): void {
    if (!this.json) this.io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** The command's result: one JSON document on stdout with --json. */
  result(value: unknown): void {
    if (this.json) this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** Unwraps an SDK result, or throws the failure as the user should read it. */
  unwrap<T>(
    what: string,
    result: { data: T; error: undefined } | { data: undefined; error: AssetloomApiError },
  ): T {
    if (result.error) throw apiFailure(what, result.error);
    return result.data as T;
  }
}

/**
 * A project by id or name: the id is tried first (one GET), then the names of the caller's
 * projects. Exit 2 when none or several match.
 */
export async function resolveProject(ctx: Context, wanted: string): Promise<string> {
  const api = ctx.api;
  const byId = await api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId: wanted } } });
  if (byId.data) return byId.data.id;
  if (byId.error && byId.error.code !== 404 && byId.error.code !== 403 && byId.error.code !== 400) {
    throw apiFailure('could not read your projects', byId.error);
  }
  const matches: string[] = [];
  try {
    for await (const p of api.paginate('/api/v1/projects')) if (p.name === wanted) matches.push(p.id);
  } catch (error) {
    if (AssetloomApiError.is(error)) throw apiFailure('could not read your projects', error);
    throw error;
  }
  if (matches.length === 1) return matches[0] as string;
  throw new UsageError(
    matches.length === 0
      ? `no project with id or name ${JSON.stringify(wanted)}: "assetloom projects" lists yours, "assetloom projects create <name>" makes one`
      : `${matches.length} projects are named ${JSON.stringify(wanted)}; pass the project id instead ("assetloom projects")`,
  );
}
