/** Every failure this package reports carries one of these codes. */
export type TestingErrorCode =
  | 'INVALID_ARGUMENT'
  | 'TIMEOUT'
  | 'LOCK_TIMEOUT'
  | 'GO_MISSING'
  | 'FERRETDB_TAG_UNRESOLVED'
  | 'FERRETDB_BUILD_FAILED'
  | 'FERRETDB_START_FAILED'
  | 'MONGO_UNREACHABLE'
  | 'MONGO_UNAVAILABLE'
  | 'CHROMIUM_MISSING'
  | 'CHROMIUM_LAUNCH_FAILED'
  | 'REAL_SERVER_MISSING'
  | 'REAL_SERVER_START_FAILED';

/** The one error class of `@assetloom/testing`; messages start with `[assetloom/testing]`. */
export class TestingError extends Error {
  override readonly name = 'TestingError';
  readonly code: TestingErrorCode;

  constructor(code: TestingErrorCode, message: string, options?: { cause?: unknown }) {
    super(message.startsWith('[assetloom/testing]') ? message : `[assetloom/testing] ${message}`, options);
    this.code = code;
  }
}

/** A readable description of anything thrown (without this package's own message prefix). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message.replace(/^\[assetloom\/testing\] /, '');
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
