import type { PipelineErrorCode } from './types/index.js';

/**
 * The one error class of @assetloom/pipeline. Library edges return results; this travels inside them.
 * `message` is fit to show an end user; `detail` holds the underlying error's text for logs.
 */
export class PipelineError extends Error {
  override readonly name = 'PipelineError';
  readonly code: PipelineErrorCode;
  readonly detail?: string;
  /** Fit to show an end user as it is (a refusal that names the word): see {@link exposedMessage}. */
  readonly expose?: boolean;
  constructor(
    code: PipelineErrorCode,
    message: string,
    options?: { cause?: unknown; detail?: string; expose?: boolean },
  ) {
    super(
      message.startsWith('[assetloom/pipeline]') ? message : `[assetloom/pipeline] ${message}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    if (options?.detail !== undefined) this.detail = options.detail;
    if (options?.expose) this.expose = true;
  }
}

/**
 * An error's message when its thrower marked it fit for end users (`expose: true`, the convention
 * of http-errors and Koa), else undefined. Raw errors — a file system's EACCES with its path, a
 * fetch failure with a host, a provider's reply body — are never shown to end users.
 */
export function exposedMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { expose, message } = error as { expose?: unknown; message?: unknown };
  // a PipelineError's message carries the package's prefix; the wrapping error carries its own
  return expose === true && typeof message === 'string' && message.length > 0
    ? message.replace(/^\[assetloom\/pipeline\] /, '')
    : undefined;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    ((error as { name: unknown }).name === 'AbortError' ||
      (error as { name: unknown }).name === 'TimeoutError')
  );
}
