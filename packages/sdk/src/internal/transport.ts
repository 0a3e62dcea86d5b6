import ky, { isHTTPError, isTimeoutError, type ShouldRetryState } from 'ky';
import { parseRetryAfter } from './util.js';

/** The fetch signature the SDK calls: a `Request` in, a `Response` out (globalThis.fetch fits). */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** Why an attempt is being retried. */
export type RetryReason = 'status' | 'network_error' | 'timeout';

export interface RetryEvent {
  /** 1 for the first retry. */
  attempt: number;
  method: string;
  url: string;
  reason: RetryReason;
  /** The HTTP status that caused the retry, for `reason === 'status'`. */
  status?: number;
}

/** A wait before a retry, announced before it starts (see `RetryOptions.onWait`). */
export interface RetryWaitEvent extends RetryEvent {
  /** How long the SDK waits before sending the request again, in ms. */
  delayMs: number;
  /** Seconds the server asked for (`Retry-After` of a 429 or 503), when it did: `delayMs` follows it. */
  retryAfter?: number;
}

export interface RetryOptions {
  /** Retries after the first attempt. Default 2 (three attempts in all). */
  limit?: number;
  /** First backoff step in ms; step n is `baseDelayMs * 2^(n-1)`, capped by `maxDelayMs`, with full jitter. Default 300. */
  baseDelayMs?: number;
  /** Upper bound of one backoff delay in ms. Default 10 000. */
  maxDelayMs?: number;
  /**
   * A `Retry-After` (429 or 503) longer than this is not waited for: the answer goes back to the caller
   * with `error.retryAfter` set. Default 60 000.
   */
  maxRetryAfterMs?: number;
  /** Statuses retried for idempotent requests. Default 408, 429, 500, 502, 503, 504. */
  statusCodes?: readonly number[];
  /** Retry an attempt that ran past `timeoutMs`. Default true. */
  retryOnTimeout?: boolean;
  /**
   * Replaces the exponential backoff with full jitter: the exact delay in ms before retry `attempt`
   * (1-based). `Retry-After` still wins when the server sends it. Tests pass `() => 0`.
   */
  backoff?: (attempt: number) => number;
  /** Called before each retry (after the delay): for logging and metrics. */
  onRetry?: (event: RetryEvent) => void;
  /**
   * Called when a wait before a retry starts, with its length (`delayMs`) and, on a 429 or 503, the
   * server's `retryAfter`: show "rate limited, retrying in 12 s" instead of a silent pause. Waits
   * never run past the call's `deadline`: one that would is not started, and the answer comes back.
   */
  onWait?: (event: RetryWaitEvent) => void;
}

export interface TransportOptions {
  fetch?: FetchLike | undefined;
  retry?: RetryOptions | false | undefined;
  /** Per attempt, in ms; `false` for none. Default 30 000. */
  timeoutMs?: number | false | undefined;
  /** Extra veto: return false for requests that must never be repeated. */
  isRetryable?: ((request: Request) => boolean) | undefined;
  /**
   * `Date.now()` value past which no retry starts: a retry whose wait would end after it is not
   * made (the last answer or error comes back). The caller's signal stops an attempt under way.
   */
  deadlineAt?: number | undefined;
  /** Told about a wait the caller has no `onWait` hook for (a long 429 wait, for instance). */
  onUnobservedWait?: ((event: RetryWaitEvent) => void) | undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRY = {
  limit: 2,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
  statusCodes: [408, 429, 500, 502, 503, 504],
  retryOnTimeout: true,
} as const satisfies RetryOptions;

/** HTTP methods that are idempotent by definition; POST joins them when the request carries an `Idempotency-Key`. */
const IDEMPOTENT_METHODS = ['get', 'head', 'put', 'delete', 'options'];
const RETRY_AFTER_STATUSES = [429, 503];
/** ky refuses timeouts above the largest setTimeout delay. */
const MAX_TIMEOUT_MS = 2_147_483_647;

function checkCount(name: string, value: number | undefined, min: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || Number.isNaN(value) || value < min) {
    throw new RangeError(`[assetloom/sdk] ${name} must be a number ≥ ${min}; got ${String(value)}.`);
  }
}

/** Validates retry and timeout options once, at client creation, with messages that say what to pass. */
export function validateTransportOptions(options: Pick<TransportOptions, 'retry' | 'timeoutMs'>): void {
  const { retry, timeoutMs } = options;
  if (timeoutMs !== undefined && timeoutMs !== false) checkCount('timeoutMs', timeoutMs, 1);
  if (retry === undefined || retry === false) return;
  if (typeof retry !== 'object' || retry === null) {
    throw new TypeError('[assetloom/sdk] retry must be an object of retry options or false.');
  }
  checkCount('retry.limit', retry.limit, 0);
  checkCount('retry.baseDelayMs', retry.baseDelayMs, 0);
  checkCount('retry.maxDelayMs', retry.maxDelayMs, 0);
  checkCount('retry.maxRetryAfterMs', retry.maxRetryAfterMs, 0);
  if (retry.statusCodes !== undefined && !Array.isArray(retry.statusCodes)) {
    throw new TypeError('[assetloom/sdk] retry.statusCodes must be an array of HTTP statuses.');
  }
}

/** Merges per-request retry options over the client's. `false` on either side turns retries off. */
export function mergeRetry(
  base: RetryOptions | false | undefined,
  override: RetryOptions | false | undefined,
): RetryOptions | false {
  if (override === false) return false;
  if (override === undefined) return base ?? {};
  return { ...(base === false ? {} : (base ?? {})), ...override };
}

/**
 * A fetch that retries on ky: exponential backoff with full jitter for idempotent requests (and POSTs
 * that carry an `Idempotency-Key`, which are repeated with the same key), `Retry-After` honoured on
 * 429 and 503, a timeout per attempt. Never throws for an HTTP status: the last answer is returned
 * as it came, so the envelope can be read.
 */
export function createTransport(options: TransportOptions = {}): FetchLike {
  const baseFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const retry =
    options.retry === false ? { ...DEFAULT_RETRY, limit: 0 } : { ...DEFAULT_RETRY, ...options.retry };
  const timeout =
    options.timeoutMs === false ? false : Math.min(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const statusCodes = [...retry.statusCodes];
  const backoff = 'backoff' in retry ? retry.backoff : undefined;
  const onRetry = 'onRetry' in retry ? retry.onRetry : undefined;
  const onWait = 'onWait' in retry ? retry.onWait : undefined;
  const { deadlineAt, onUnobservedWait } = options;

  return async (request: Request) => {
    const methods = request.headers.has('idempotency-key')
      ? [...IDEMPOTENT_METHODS, 'post']
      : IDEMPOTENT_METHODS;
    const allowed = options.isRetryable ? options.isRetryable(request) : true;
    // The SDK decides every retry and its wait here (ky then waits exactly `nextWait`), so the wait
    // can be announced before it starts and checked against the deadline.
    let nextWait = 0;
    const shouldRetry = ({ error, retryCount }: ShouldRetryState): boolean => {
      if (request.signal.aborted) return false;
      let reason: RetryReason;
      let status: number | undefined;
      let retryAfter: number | undefined;
      if (isHTTPError(error)) {
        status = error.response.status;
        if (!statusCodes.includes(status)) return false;
        reason = 'status';
        if (RETRY_AFTER_STATUSES.includes(status)) {
          retryAfter = parseRetryAfter(error.response.headers.get('retry-after'));
        }
      } else if (isTimeoutError(error)) {
        if (!retry.retryOnTimeout) return false;
        reason = 'timeout';
      } else if (error.name === 'AbortError') {
        return false;
      } else {
        reason = 'network_error';
      }
      let delayMs: number;
      if (retryAfter !== undefined) {
        delayMs = retryAfter * 1000;
        if (delayMs > retry.maxRetryAfterMs) return false;
      } else if (backoff) {
        delayMs = Math.min(retry.maxDelayMs, Math.max(0, backoff(retryCount)));
      } else {
        delayMs = Math.random() * Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (retryCount - 1));
      }
      if (deadlineAt !== undefined && Date.now() + delayMs >= deadlineAt) return false;
      nextWait = delayMs;
      const event: RetryWaitEvent = {
        attempt: retryCount,
        method: request.method,
        url: request.url,
        reason,
        ...(status === undefined ? {} : { status }),
        delayMs,
        ...(retryAfter === undefined ? {} : { retryAfter }),
      };
      if (onWait) onWait(event);
      else onUnobservedWait?.(event);
      return true;
    };
    try {
      return await ky(request, {
        fetch: (input, init) => baseFetch(input as Request, init),
        timeout,
        throwHttpErrors: (status) => statusCodes.includes(status),
        retry: {
          limit: allowed ? retry.limit : 0,
          methods: methods as never,
          statusCodes,
          afterStatusCodes: RETRY_AFTER_STATUSES,
          backoffLimit: Number.POSITIVE_INFINITY,
          delay: () => nextWait,
          retryOnTimeout: retry.retryOnTimeout,
          shouldRetry,
        },
        hooks: onRetry
          ? {
              beforeRetry: [
                ({ request: retried, error, retryCount }) => {
                  const status = isHTTPError(error) ? error.response.status : undefined;
                  const reason: RetryReason =
                    status !== undefined
                      ? 'status'
                      : error.name === 'TimeoutError'
                        ? 'timeout'
                        : 'network_error';
                  onRetry({
                    attempt: retryCount,
                    method: retried.method,
                    url: retried.url,
                    reason,
                    ...(status === undefined ? {} : { status }),
                  });
                },
              ],
            }
          : {},
      });
    } catch (error) {
      // The caller gave up (their signal, or the call's deadline): that is the outcome, not the answer.
      if (request.signal.aborted) throw request.signal.reason ?? error;
      // Retries are spent (or the status is not retried for this request): hand back the last answer.
      if (isHTTPError(error)) return error.response;
      throw error;
    }
  };
}
