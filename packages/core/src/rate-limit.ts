import { systemClock } from './defaults.js';
import type { Clock, RateLimiter, RateLimitResult } from './ports.js';

export interface MemoryRateLimiterOptions {
  /** Attempts allowed per window (≥ 1). */
  limit: number;
  /** Window length in milliseconds (≥ 1). */
  windowMs: number;
  clock?: Clock;
  /** Upper bound on tracked keys; expired entries are swept first, then the oldest go (default 100 000). */
  maxKeys?: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * A fixed-window limiter held in memory (one process). Memory stays bounded: expired windows are
 * swept when the table grows past `maxKeys`, and if every window is live the oldest are dropped.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): RateLimiter {
  const limit = Math.floor(options.limit);
  const windowMs = Math.floor(options.windowMs);
  if (!Number.isFinite(limit) || limit < 1) {
    throw new RangeError('[assetloom/core] createMemoryRateLimiter: limit must be an integer ≥ 1');
  }
  if (!Number.isFinite(windowMs) || windowMs < 1) {
    throw new RangeError('[assetloom/core] createMemoryRateLimiter: windowMs must be an integer ≥ 1');
  }
  const clock = options.clock ?? systemClock;
  const maxKeys = Math.max(1, Math.floor(options.maxKeys ?? 100_000));
  const windows = new Map<string, Window>();

  function current(key: string, now: number): Window | undefined {
    const w = windows.get(key);
    if (w && now - w.start >= windowMs) {
      windows.delete(key);
      return undefined;
    }
    return w;
  }

  function result(w: Window | undefined, now: number, extra: number): RateLimitResult {
    if (!w || w.count + extra <= limit) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)) };
  }

  function sweep(now: number): void {
    for (const [key, w] of windows) if (now - w.start >= windowMs) windows.delete(key);
    // Maps iterate in insertion order, so what is left at the front is the oldest.
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(key);
    }
  }

  return {
    async hit(key) {
      const now = clock.now().getTime();
      let w = current(key, now);
      if (!w) {
        if (windows.size >= maxKeys) sweep(now);
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count++;
      return result(w, now, 0);
    },
    async check(key) {
      const now = clock.now().getTime();
      return result(current(key, now), now, 1);
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}
