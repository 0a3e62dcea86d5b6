import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './rate-limit.js';

function manualClock(start = 0) {
  let t = start;
  return { now: () => new Date(t), set: (ms: number) => (t = ms) };
}

describe('createMemoryRateLimiter', () => {
  it('allows `limit` hits per window, then answers the seconds left', async () => {
    const clock = manualClock(1_000_000);
    const limiter = createMemoryRateLimiter({ limit: 3, windowMs: 60_000, clock });
    expect(await limiter.check('k')).toEqual({ allowed: true, retryAfterSeconds: 0 });
    for (let i = 0; i < 3; i++) expect((await limiter.hit('k')).allowed).toBe(true);
    expect(await limiter.check('k')).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(await limiter.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 60 });
    clock.set(1_000_000 + 59_001);
    expect(await limiter.check('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.set(1_000_000 + 60_000);
    expect(await limiter.check('k')).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect((await limiter.hit('other')).allowed).toBe(true);
  });

  it('reset clears a key', async () => {
    const limiter = createMemoryRateLimiter({ limit: 1, windowMs: 1000, clock: manualClock() });
    await limiter.hit('k');
    expect((await limiter.check('k')).allowed).toBe(false);
    await limiter.reset('k');
    expect((await limiter.check('k')).allowed).toBe(true);
  });

  it('keeps memory bounded: expired windows are swept and the oldest live ones dropped', async () => {
    const clock = manualClock();
    const limiter = createMemoryRateLimiter({ limit: 1, windowMs: 1000, clock, maxKeys: 10 });
    for (let i = 0; i < 10; i++) await limiter.hit(`old${i}`);
    clock.set(5000);
    for (let i = 0; i < 10; i++) await limiter.hit(`new${i}`);
    // The old windows expired and were swept; the new ones are all still limited.
    for (let i = 0; i < 10; i++) expect((await limiter.check(`new${i}`)).allowed).toBe(false);
    await limiter.hit('newest');
    expect((await limiter.check('newest')).allowed).toBe(false);
    expect((await limiter.check('new0')).allowed).toBe(true);
  });

  it.each([
    [{ limit: 0, windowMs: 1000 }],
    [{ limit: 1, windowMs: 0 }],
    [{ limit: Number.NaN, windowMs: 1000 }],
  ])('rejects bad options %j', (options) => {
    expect(() => createMemoryRateLimiter(options)).toThrow(/\[assetloom\/core\]/);
  });
});
