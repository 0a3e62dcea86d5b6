import type { EnvelopeErrorCode, Task } from './types.js';

/** Failures detected on the client side rather than answered by the server in an envelope. */
export type ClientErrorCode =
  /** The request never got an HTTP answer (DNS, refused connection, reset socket, CORS). */
  | 'network_error'
  /** The attempt (or `waitForTask`) ran past its `timeoutMs`. */
  | 'timeout'
  /** The caller's `AbortSignal` fired. */
  | 'aborted'
  /** The server answered something that is not the documented shape (not JSON, no envelope, wrong status). */
  | 'invalid_response'
  /** `getToken()` threw, so the request was not sent. */
  | 'token_unavailable'
  /** `waitForTask` saw the task end in status `failed`; `task` holds it and `message` its `error`. */
  | 'task_failed';

/** Every `code` an {@link AssetloomApiError} can carry: the envelope codes plus the client-side ones. */
export type AssetloomErrorCode = EnvelopeErrorCode | ClientErrorCode;

export interface AssetloomApiErrorInit {
  code: AssetloomErrorCode;
  message: string;
  httpStatus?: number | undefined;
  requestId?: string | undefined;
  retryAfter?: number | undefined;
  task?: Task | undefined;
  cause?: unknown;
}

const brand = Symbol.for('@assetloom/sdk/AssetloomApiError');

/**
 * The one error class of @assetloom/sdk.
 *
 * For envelope errors `code` is the envelope code (400, 401, …) and `message` the server's Chinese
 * message, unchanged, so it can be shown to users. Client-side failures carry a string `code` and a
 * message that starts with `[assetloom/sdk]`.
 */
export class AssetloomApiError extends Error {
  override readonly name = 'AssetloomApiError';
  readonly code: AssetloomErrorCode;
  /** The HTTP status of the answer, `undefined` when there was none (network error, timeout, abort). */
  readonly httpStatus: number | undefined;
  /** `X-Request-Id` of the answer, or the id the SDK sent when no answer came. Quote it in bug reports. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (`Retry-After` of a 429 or 503), when it said so. */
  readonly retryAfter: number | undefined;
  /** The failed task, for `code === 'task_failed'`. */
  readonly task: Task | undefined;
  declare readonly [brand]: true;

  constructor(init: AssetloomApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.task = init.task;
    Object.defineProperty(this, brand, { value: true });
  }

  /** True for the codes the server answered in an envelope (numbers); false for client-side failures. */
  get isEnvelopeError(): boolean {
    return typeof this.code === 'number';
  }

  /**
   * `instanceof` that also holds across two copies of the SDK in one bundle (e.g. a CJS and an ESM
   * copy): it checks a registered symbol rather than the prototype chain.
   */
  static is(value: unknown): value is AssetloomApiError {
    return typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true;
  }
}
