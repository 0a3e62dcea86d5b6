import { createHash, randomBytes } from 'node:crypto';
import type { Clock, ReviewSessionRepository } from '@assetloom/core/review';

/** The session cookie's name (openapi/review-auth.yaml). */
export const SESSION_COOKIE = 'review_sid';
/** 7 days, rolling. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** 32 random bytes, base64url: 43 characters. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** A new session id: 256 random bits, base64url. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** What koa-session calls on its external store. */
export interface KoaSessionStore {
  get(
    key: string,
    maxAge: number | 'session' | undefined,
    data: { rolling: boolean; ctx?: object },
  ): Promise<unknown>;
  set(
    key: string,
    session: Record<string, unknown>,
    maxAge: number | 'session' | undefined,
    data: { rolling: boolean; changed: boolean; ctx?: object },
  ): Promise<void>;
  destroy(key: string, data?: unknown): Promise<void>;
}

/** A rolling refresh of unchanged data is written at most this often per session. */
export const REFRESH_WRITE_INTERVAL_MS = 60_000;

/**
 * The database behind koa-session. The store is keyed by SHA-256 of the cookie value, so the
 * database never holds a usable cookie; the session data is kept as JSON text. A cookie value that
 * is not a 43-character base64url id is never looked up. Rolling refreshes of unchanged data are
 * written at most once per {@link REFRESH_WRITE_INTERVAL_MS} (the cookie is still re-sent each time),
 * so page views do not each cost a database write.
 */
export function createSessionStore(sessions: ReviewSessionRepository, clock: Clock): KoaSessionStore {
  const keyOf = (sid: string) => createHash('sha256').update(sid).digest('base64url');
  /** When the session a request loaded was last written (its `updatedAt`), per request context. */
  const loaded = new WeakMap<object, { sid: string; updatedAt: number }>();
  return {
    async get(sid, _maxAge, options) {
      if (typeof sid !== 'string' || !SESSION_ID.test(sid)) return undefined;
      const record = await sessions.get(keyOf(sid), clock.now());
      if (!record) return undefined;
      if (options?.ctx) loaded.set(options.ctx, { sid, updatedAt: record.updatedAt.getTime() });
      let data: unknown;
      try {
        data = JSON.parse(record.data);
      } catch {
        return undefined;
      }
      return typeof data === 'object' && data !== null && !Array.isArray(data) ? data : undefined;
    },
    async set(sid, session, maxAge, data) {
      if (typeof sid !== 'string' || !SESSION_ID.test(sid)) {
        throw new TypeError('[assetloom/server] refusing to store a session under a malformed id');
      }
      const now = clock.now();
      const previous = data?.ctx ? loaded.get(data.ctx) : undefined;
      if (
        data?.changed === false &&
        previous?.sid === sid &&
        now.getTime() - previous.updatedAt < REFRESH_WRITE_INTERVAL_MS
      ) {
        return;
      }
      const lifetime = typeof maxAge === 'number' && maxAge > 0 ? maxAge : SESSION_MAX_AGE_MS;
      const userId = session.user_id;
      await sessions.set({
        id: keyOf(sid),
        data: JSON.stringify(session),
        userId: typeof userId === 'number' && Number.isSafeInteger(userId) ? userId : null,
        expiresAt: new Date(now.getTime() + lifetime),
        updatedAt: now,
      });
    },
    async destroy(sid) {
      if (typeof sid !== 'string' || !SESSION_ID.test(sid)) return;
      await sessions.destroy(keyOf(sid));
    },
  };
}
