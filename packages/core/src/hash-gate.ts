import { systemClock } from './defaults.js';
import { AssetloomError, errors } from './errors.js';
import type { Clock } from './ports.js';

/**
 * Admission for password hashing (issue #29, decision 0030). Every login, registration and
 * password change costs a full scrypt hash (~0.5 s and 128 MiB at the production cost on a small
 * VM), so without a bound a flood of anonymous logins queued hundreds of hashes: answers took 8 s,
 * a real user's login too, and memory grew by half a gigabyte. The gate:
 *
 * - runs at most `concurrency` hashes at once (memory ≤ concurrency × scrypt's 128·N·r bytes);
 * - lets the rest wait in three bounded FIFO lanes, by the client's standing (key: its address):
 *   *trusted* (it logged in successfully within `trustedTtlMs`), *clean* (nothing known), and
 *   *suspect* (a failed login, or a refusal by the gate, within `suspectTtlMs`; this wins over
 *   trusted until the next success). Trusted hashes go first, then clean, then suspect;
 * - keeps slots free for the others: suspect hashes hold at most `suspectSlots` (concurrency − 1) of
 *   them, and while suspect work is running or waiting (a flood), clean and suspect hashes together
 *   hold at most concurrency − 1, so a client that has been logging in successfully — a real user
 *   during a flood — starts at once in the free slot;
 * - moves a waiting hash whose client turns suspect meanwhile to the suspect lane;
 * - refuses at once, without hashing, a hash that would have to wait when its client already has
 *   `perKey` hashes waiting (429 + Retry-After), or when its lane is full, or once it waited longer
 *   than `maxWaitMs` (503 服务繁忙，请稍后再试 + Retry-After, estimated from the recent hash time).
 *   A hash that finds a free slot always runs.
 *
 * In-process and bounded: the standing tables hold at most `maxSuspects` keys each (oldest dropped).
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
  /** How long a successful login makes its key trusted (default 24 hours). */
  trustedTtlMs?: number;
  /** Keys remembered as suspect, and as trusted, at most (default 100 000 each). */
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
  /** A failed login from `key`: its hashes wait behind the others for a while. */
  failed(key: string): void;
  /** A successful login from `key`: its hashes go first for a while. */
  succeeded(key: string): void;
  readonly stats: HashGateStats;
}

type Standing = 'trusted' | 'clean' | 'suspect';

interface Waiter {
  key: string;
  /** The lane it waits in (it runs with this standing). */
  standing: Standing;
  start: (standing: Standing) => void;
  refuse: (error: AssetloomError) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  done: boolean;
}

/** The Retry-After of a busy answer: about how long the hashes ahead need, at least 1 s. */
function retryAfterSeconds(ahead: number, slots: number, hashMs: number): number {
  return Math.max(1, Math.ceil(((ahead / Math.max(1, slots) + 1) * hashMs) / 1000));
}

/** A bounded table of keys with an expiry (insertion order = age). */
function expiringSet(max: number, now: () => number) {
  const until = new Map<string, number>();
  return {
    has(key: string): boolean {
      const end = until.get(key);
      if (end === undefined) return false;
      if (end <= now()) {
        until.delete(key);
        return false;
      }
      return true;
    },
    add(key: string, ttlMs: number): void {
      if (until.has(key)) until.delete(key);
      else if (until.size >= max) {
        const oldest = until.keys().next().value;
        if (oldest !== undefined) until.delete(oldest);
      }
      until.set(key, now() + ttlMs);
    },
    delete(key: string): void {
      until.delete(key);
    },
  };
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
  /** Slots clean and suspect keys may hold together while suspect work runs or waits (one stays free for trusted keys). */
  const cleanSlotsUnderAttack = Math.max(1, concurrency - 1);
  const suspectTtlMs = Math.max(1, Math.floor(options.suspectTtlMs ?? 15 * 60_000));
  const trustedTtlMs = Math.max(1, Math.floor(options.trustedTtlMs ?? 24 * 60 * 60_000));
  const maxKeys = Math.max(1, Math.floor(options.maxSuspects ?? 100_000));
  const clock = options.clock ?? systemClock;
  const now = () => clock.now().getTime();

  const running = { trusted: 0, clean: 0, suspect: 0 };
  let refusedPerKey = 0;
  let refusedBusy = 0;
  /** A moving average of how long one hash takes (ms), for Retry-After. */
  let hashMs = 500;
  const lanes: Record<Standing, Waiter[]> = { trusted: [], clean: [], suspect: [] };
  /** Hashes waiting per key (bounded by the lanes). */
  const waitingOf = new Map<string, number>();
  const suspects = expiringSet(maxKeys, now);
  const trusted = expiringSet(maxKeys, now);

  const total = () => running.trusted + running.clean + running.suspect;
  const waiting = () => lanes.trusted.length + lanes.clean.length + lanes.suspect.length;
  const underAttack = () => running.suspect > 0 || lanes.suspect.length > 0;

  function standingOf(key: string): Standing {
    if (suspects.has(key)) return 'suspect';
    return trusted.has(key) ? 'trusted' : 'clean';
  }

  /** Whether a hash of this standing may take a slot now. */
  function slotFor(standing: Standing): boolean {
    if (total() >= concurrency) return false;
    if (standing === 'trusted') return true;
    // While suspect work runs or waits, clean and suspect hashes together leave a slot free.
    const untrusted = running.clean + running.suspect;
    if (standing === 'suspect') return running.suspect < suspectSlots && untrusted < cleanSlotsUnderAttack;
    return !underAttack() || untrusted < cleanSlotsUnderAttack;
  }

  /** A waiter of `key` left the lanes (started, refused or timed out). */
  function release(key: string): void {
    const n = (waitingOf.get(key) ?? 1) - 1;
    if (n <= 0) waitingOf.delete(key);
    else waitingOf.set(key, n);
  }

  function markSuspect(key: string): void {
    trusted.delete(key);
    suspects.add(key, suspectTtlMs);
  }

  function busy(key: string): AssetloomError {
    refusedBusy += 1;
    markSuspect(key);
    return errors.busy(retryAfterSeconds(waiting(), concurrency, hashMs));
  }

  function settle(waiter: Waiter): void {
    waiter.done = true;
    if (waiter.timer !== undefined) clearTimeout(waiter.timer);
  }

  /**
   * Waiters of the trusted and clean lanes whose key has become suspect since they queued (their
   * address failed or was refused meanwhile) move to the suspect lane, or are refused when it is full.
   */
  function demote(): void {
    for (const standing of ['trusted', 'clean'] as const) {
      const lane = lanes[standing];
      for (let i = 0; i < lane.length; ) {
        const waiter = lane[i] as Waiter;
        if (waiter.done) {
          lane.splice(i, 1);
          continue;
        }
        if (!suspects.has(waiter.key)) {
          i++;
          continue;
        }
        lane.splice(i, 1);
        if (lanes.suspect.length < queueSize) {
          waiter.standing = 'suspect';
          lanes.suspect.push(waiter);
        } else {
          settle(waiter);
          release(waiter.key);
          waiter.refuse(busy(waiter.key));
        }
      }
    }
  }

  /** Starts waiters while slots are free: trusted first, then clean, then suspect, each within its share. */
  function pump(): void {
    demote();
    for (;;) {
      let next: Waiter | undefined;
      for (const standing of ['trusted', 'clean', 'suspect'] as const) {
        const lane = lanes[standing];
        while (lane.length > 0 && (lane[0] as Waiter).done) lane.shift();
        if (lane.length > 0 && slotFor(standing)) {
          next = lane.shift();
          break;
        }
      }
      if (next === undefined) return;
      settle(next);
      release(next.key);
      next.start(next.standing);
    }
  }

  return {
    get stats() {
      return { running: total(), waiting: waiting(), refusedPerKey, refusedBusy };
    },
    failed(key) {
      markSuspect(key);
    },
    succeeded(key) {
      suspects.delete(key);
      trusted.add(key, trustedTtlMs);
    },
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const standing = standingOf(key);
      const execute = async (as: Standing): Promise<T> => {
        running[as] += 1;
        const started = now();
        try {
          return await work();
        } finally {
          running[as] -= 1;
          hashMs = hashMs * 0.8 + Math.max(1, now() - started) * 0.2;
          pump();
        }
      };
      if (standing !== 'suspect' && lanes[standing].length >= queueSize) demote();
      if (lanes[standing].length === 0 && slotFor(standing)) return execute(standing);
      const mine = waitingOf.get(key) ?? 0;
      if (mine >= perKey) {
        refusedPerKey += 1;
        markSuspect(key);
        return Promise.reject(errors.tooManyRequests(retryAfterSeconds(0, concurrency, hashMs)));
      }
      const lane = lanes[standing];
      if (lane.length >= queueSize) return Promise.reject(busy(key));
      waitingOf.set(key, mine + 1);
      return new Promise<T>((resolve, reject) => {
        const waiter: Waiter = {
          key,
          standing,
          start: (as) => {
            execute(as).then(resolve, reject);
          },
          refuse: reject,
          timer: undefined,
          done: false,
        };
        waiter.timer = setTimeout(() => {
          if (waiter.done) return;
          settle(waiter);
          for (const queue of Object.values(lanes)) {
            const index = queue.indexOf(waiter);
            if (index >= 0) queue.splice(index, 1);
          }
          release(key);
          reject(busy(key));
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
