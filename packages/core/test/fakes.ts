import { randomId } from '../src/defaults.js';
import type { Clock, IdGenerator, PasswordHasher, TokenClaims, TokenService } from '../src/ports.js';
import type { TaskRecord } from '../src/store.js';

/** A fast, deterministic hasher for tests (the server uses scrypt). */
export function fakeHasher(): PasswordHasher & { calls: { hash: number; verify: number } } {
  const calls = { hash: 0, verify: 0 };
  return {
    calls,
    async hash(password) {
      calls.hash++;
      return `fake$${[...password].reverse().join('')}`;
    },
    async verify(password, stored) {
      calls.verify++;
      if (typeof stored !== 'string' || !stored.startsWith('fake$')) return false;
      return stored === `fake$${[...password].reverse().join('')}`;
    },
  };
}

/** An in-memory token service: opaque random tokens mapped to claims, with expiry on the given clock. */
export function fakeTokens(clock: Clock, ttlSeconds = 3600): TokenService & { expireAll(): void } {
  const issued = new Map<string, { claims: TokenClaims; exp: number }>();
  let n = 0;
  return {
    async issue(claims) {
      const token = `tok.${++n}.${Math.random().toString(36).slice(2)}`;
      issued.set(token, { claims: { ...claims }, exp: clock.now().getTime() + ttlSeconds * 1000 });
      return { token, expiresIn: ttlSeconds };
    },
    async verify(token) {
      const entry = issued.get(token);
      if (!entry || entry.exp <= clock.now().getTime()) return null;
      return { ...entry.claims };
    },
    expireAll() {
      for (const entry of issued.values()) entry.exp = 0;
    },
  };
}

/** A clock the test moves by hand; each now() also advances 1 ms so records stay strictly ordered. */
export function steppingClock(start = Date.parse('2026-01-31T12:00:00.000Z'), stepMs = 1) {
  let t = start;
  return {
    now: () => {
      const d = new Date(t);
      t += stepMs;
      return d;
    },
    advance(ms: number) {
      t += ms;
    },
  } satisfies Clock & { advance(ms: number): void };
}

/** A clock that never moves (for tie-break tests). */
export function fixedClock(at = Date.parse('2026-01-31T12:00:00.000Z')): Clock {
  return { now: () => new Date(at) };
}

/** Sequential ids with a prefix, in the issued id alphabet. */
export function sequentialIds(prefix = 'id'): IdGenerator {
  let n = 0;
  return { id: () => `${prefix}${String(++n).padStart(6, '0')}` };
}

/** A running task record as a fresh submission stores it; `over` replaces any field. */
export function makeTaskRecord(
  over: Partial<TaskRecord> = {},
  at = new Date('2026-03-01T08:00:00.000Z'),
): TaskRecord {
  return {
    id: randomId(),
    ownerId: 7,
    projectId: 'proj',
    prompt: 'a knight',
    assetType: 'sprite',
    taskStyle: null,
    params: { resolution: 16, frames: { directions: 1, framesPerDirection: 1 }, format: 'spritesheet' },
    status: 'running',
    stage: 'prompt_builder',
    progress: 0,
    retryCount: 0,
    error: null,
    dedupeKey: randomId(),
    idempotencyKey: null,
    lastSeq: 0,
    lease: null,
    attempts: 0,
    createdAt: at,
    updatedAt: at,
    ...over,
  };
}
