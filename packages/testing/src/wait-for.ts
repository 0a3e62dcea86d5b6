import { describeError, TestingError } from './errors.js';

export interface WaitForOptions {
  /** Give up after this many milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Pause between attempts (default 50 ms). */
  intervalMs?: number;
  /** Says what was awaited, for the timeout message. */
  description?: string;
  /** Stops waiting early: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `predicate` until it returns a truthy value (which is then resolved) or the time runs
 * out. A predicate that throws counts as "not yet"; its last error is kept as the `cause` of the
 * TIMEOUT error and quoted in its message.
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 50;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new TestingError(
      'INVALID_ARGUMENT',
      `waitFor: timeoutMs must be a finite number ≥ 0, got ${timeoutMs}`,
    );
  }
  if (!Number.isFinite(intervalMs) || intervalMs < 0) {
    throw new TestingError(
      'INVALID_ARGUMENT',
      `waitFor: intervalMs must be a finite number ≥ 0, got ${intervalMs}`,
    );
  }
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  let attempts = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    attempts += 1;
    try {
      const value = await predicate();
      if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    await sleep(Math.min(intervalMs, remaining));
  }
  const what = options.description ?? 'condition';
  const last = lastError === undefined ? '' : `; last error: ${describeError(lastError)}`;
  throw new TestingError(
    'TIMEOUT',
    `waitFor: ${what} not met within ${timeoutMs} ms (${attempts} attempts)${last}. Raise timeoutMs or check what the predicate waits on.`,
    { cause: lastError },
  );
}
