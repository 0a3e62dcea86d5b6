import type { PipelineErrorCode } from './types.js';

/** The one error class of @assetloom/pipeline. Library edges return results; this travels inside them. */
export class PipelineError extends Error {
  override readonly name = 'PipelineError';
  readonly code: PipelineErrorCode;
  constructor(code: PipelineErrorCode, message: string, options?: { cause?: unknown }) {
    super(message.startsWith('[assetloom/pipeline]') ? message : `[assetloom/pipeline] ${message}`, options);
    this.code = code;
  }
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
