import { systemClock } from './defaults.js';
import { AssetloomError, errors } from './errors.js';
import type { Clock } from './ports.js';

/**
 * Admission for password hashing (issue #29, decision 0030). Every login, registration and
 * password change costs a full scrypt hash (~0.6 s and 128 MiB at the production cost on a small
 * VM), so without a bound a flood of anonymous logins queued hundreds of hashes: answers took 8 s,
 * a real user's login too, and memory grew by half a gigabyte. The gate:
 *
 * - runs at most `concurrency` hashes at once (memory ≤ concurrency × scrypt's 128·N·r bytes);
 * - lets the rest wait in two bounded FIFO lanes: "clean" clients first, then "suspect" ones — a
 *   client (key: its address) becomes suspect for `suspectTtlMs` after a failed login or after the
 *   gate refused it (it was sending more than its share), and suspect
 *   hashes may hold at most `suspectSlots` of the slots, so with `concurrency` ≥ 2 one slot is
 *   always free for a client that has not been failing (a real user during a flood);
 * - refuses at once, without hashing, a hash that would have to wait when its client already has
 *   `perKey` hashes waiting (429 + Retry-After), or when its lane is full, or once it waited longer
 *   than `maxWaitMs` (503 服务繁忙，请稍后再试 + Retry-After, estimated from the recent hash time).
 *   A hash that finds a free slot always runs.
 *
 * In-process and bounded: the suspect table holds at most `maxSuspects` keys (oldest dropped).
 */
export interface HashGateOptions {
  /** Hashes running at once (≥ 1). */
  concurrency: number;
  /** Hashes waiting at most, per lane (≥ 0). */
  queueSize: number;
  /** Hashes one key may have waiting (default 4); more that would wait are refused with 429. */
  perKey?: number;
  /** A hash that waited this long is refused with 503 instead (default 3000 ms). */
  maxWaitMs?: number;
  /** Slots suspect keys may hold at once (default concurrency − 1, at least 1). */
  suspectSlots?: number;
  /** How long a failed login makes its key suspect (default 15 minutes). */
  suspectTtlMs?: number;
  /** Keys remembered as suspect at most (default 100 000). */
  maxSuspects?: number;
  clock?: Clock;
}

export interface HashGateStats {
  running: number;
  waiting: number;
  /** Hashes refused since start: by the per-key bound (429) and by the lanes (503). */
  refusedPerKey: number;
  refusedBusy: number;
}

export interface HashGate {
  /** Runs one hash or verify for `key` (the client address) within the bounds, or throws 429/503. */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** A failed login from `key`: its hashes wait behind clean ones for a while. */
  failed(key: string): void;
  readonly stats: HashGateStats;
}

interface Waiter {
  key: string;
  /** Whether it runs in the suspect share (decided when it starts). */
  suspect: boolean;
  start: (suspect: boolean) => void;
  refuse: (error: AssetloomError) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  done: boolean;
}

/** The Retry-After of a busy answer: about how long the hashes ahead need, at least 1 s. */
function retryAfterSeconds(ahead: number, slots: number, hashMs: number): number {
  return Math.max(1, Math.ceil(((ahead / Math.max(1, slots) + 1) * hashMs) / 1000));
}

export function createHashGate(options: HashGateOptions): HashGate {
  const concurrency = Math.floor(options.concurrency);
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new RangeError('[assetloom/core] createHashGate: concurrency must be an integer ≥ 1');
  }
  const queueSize = Math.max(0, Math.floor(options.queueSize));
  const perKey = Math.max(1, Math.floor(options.perKey ?? 4));
  const maxWaitMs = Math.max(1, Math.floor(options.maxWaitMs ?? 3000));
  const suspectSlots = Math.min(
    concurrency,
    Math.max(1, Math.floor(options.suspectSlots ?? concurrency - 1)),
  );
  const suspectTtlMs = Math.max(1, Math.floor(options.suspectTtlMs ?? 15 * 60_000));
  const maxSuspects = Math.max(1, Math.floor(options.maxSuspects ?? 100_000));
  const clock = options.clock ?? systemClock;

  let running = 0;
  let runningSuspect = 0;
  let refusedPerKey = 0;
  let refusedBusy = 0;
  /** A moving average of how long one hash takes (ms), for Retry-After. */
  let hashMs = 500;
  const clean: Waiter[] = [];
  const suspect: Waiter[] = [];
  /** Hashes waiting per key (bounded by the lanes). */
  const waitingOf = new Map<string, number>();
  const suspects = new Map<string, number>();

  const now = () => clock.now().getTime();

  function isSuspect(key: string): boolean {
    const until = suspects.get(key);
    if (until === undefined) return false;
    if (until <= now()) {
      suspects.delete(key);
      return false;
    }
    return true;
  }

  /** A waiter of `key` left the lanes (started, refused or timed out). */
  function release(key: string): void {
    const n = (waitingOf.get(key) ?? 1) - 1;
    if (n <= 0) waitingOf.delete(key);
    else waitingOf.set(key, n);
  }

  function markSuspect(key: string): void {
    if (suspects.has(key)) suspects.delete(key);
    else if (suspects.size >= maxSuspects) {
      // Maps iterate in insertion order: drop the oldest.
      const oldest = suspects.keys().next().value;
      if (oldest !== undefined) suspects.delete(oldest);
    }
    suspects.set(key, now() + suspectTtlMs);
  }

  function busy(key: string, ahead: number): AssetloomError {
    refusedBusy += 1;
    markSuspect(key);
    return errors.busy(retryAfterSeconds(ahead, concurrency, hashMs));
  }

  /** Takes a waiter out of the lanes for good (started, refused or timed out). */
  function settle(waiter: Waiter): void {
    waiter.done = true;
    if (waiter.timer !== undefined) clearTimeout(waiter.timer);
  }

  /**
   * Clean-lane waiters whose key has become suspect since they queued (their address failed or was
   * refused meanwhile) move to the suspect lane, or are refused when it is full: the clean lane holds
   * only clients that are not failing, so a real user behind a flood's first requests gets in.
   */
  function demote(): void {
    for (let i = 0; i < clean.length; ) {
      const waiter = clean[i] as Waiter;
      if (waiter.done || !isSuspect(waiter.key)) {
        if (waiter.done) clean.splice(i, 1);
        else i++;
        continue;
      }
      clean.splice(i, 1);
      if (suspect.length < queueSize) {
        waiter.suspect = true;
        suspect.push(waiter);
      } else {
        settle(waiter);
        release(waiter.key);
        waiter.refuse(busy(waiter.key, clean.length + suspect.length));
      }
    }
  }

  /** Starts waiters while slots are free: clean ones first, suspect ones within their share. */
  function pump(): void {
    demote();
    while (running < concurrency) {
      let next: Waiter | undefined;
      if (clean.length > 0) next = clean.shift();
      else if (suspect.length > 0 && runningSuspect < suspectSlots) next = suspect.shift();
      if (next === undefined) return;
      if (next.done) continue;
      settle(next);
      release(next.key);
      next.start(next.suspect);
    }
  }

  return {
    get stats() {
      return { running, waiting: clean.length + suspect.length, refusedPerKey, refusedBusy };
    },
    failed(key) {
      markSuspect(key);
    },
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const flagged = isSuspect(key);
      const execute = async (asSuspect: boolean): Promise<T> => {
        running += 1;
        if (asSuspect) runningSuspect += 1;
        const started = now();
        try {
          return await work();
        } finally {
          running -= 1;
          if (asSuspect) runningSuspect -= 1;
          hashMs = hashMs * 0.8 + Math.max(1, now() - started) * 0.2;
          pump();
        }
      };
      if (!flagged && clean.length >= queueSize) demote();
      const canStart =
        running < concurrency &&
        (flagged ? runningSuspect < suspectSlots && suspect.length === 0 : clean.length === 0);
      if (canStart) return execute(flagged);
      const mine = waitingOf.get(key) ?? 0;
      if (mine >= perKey) {
        refusedPerKey += 1;
        markSuspect(key);
        return Promise.reject(errors.tooManyRequests(retryAfterSeconds(0, concurrency, hashMs)));
      }
      const lane = flagged ? suspect : clean;
      if (lane.length >= queueSize) {
        return Promise.reject(busy(key, clean.length + suspect.length));
      }
      waitingOf.set(key, mine + 1);
      return new Promise<T>((resolve, reject) => {
        const waiter: Waiter = {
          key,
          suspect: flagged,
          start: (asSuspect) => {
            execute(asSuspect).then(resolve, reject);
          },
          refuse: reject,
          timer: undefined,
          done: false,
        };
        waiter.timer = setTimeout(() => {
          if (waiter.done) return;
          settle(waiter);
          for (const queue of [clean, suspect]) {
            const index = queue.indexOf(waiter);
            if (index >= 0) queue.splice(index, 1);
          }
          release(key);
          reject(busy(key, clean.length + suspect.length));
        }, maxWaitMs);
        (waiter.timer as { unref?: () => void }).unref?.();
        lane.push(waiter);
      });
    },
  };
}

/** Whether an error is the gate's refusal (429 per key, 503 busy) — nothing was hashed. */
export function isHashGateRefusal(error: unknown): error is AssetloomError {
  return error instanceof AssetloomError && (error.code === 429 || error.code === 503);
}
