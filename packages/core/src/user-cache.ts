import type { Clock } from './ports.js';
import type { Store, UserRecord } from './store.js';

/** At most this many users are remembered (the oldest entry goes first). */
const MAX_ENTRIES = 10_000;

export interface UserCache {
  /**
   * The user for a token that names `tokenVersion`: from memory when a read younger than the TTL
   * saw that very version, else from the store (and remembered).
   */
  forToken(id: number, tokenVersion: number): Promise<UserRecord | null>;
  /** Drops a user (its password changed in this process). */
  forget(id: number): void;
}

/**
 * Remembers the user records that authenticated requests read, for `ttlMs`, so a request that
 * reads one task sends one database command instead of two (issue #17's budget). A token is only
 * accepted from memory when the remembered record has the token's version; any other version reads
 * the store. The price, with several API processes: a token revoked by a password change made on
 * ANOTHER process is still accepted here for at most `ttlMs` (the process that made the change
 * forgets the user at once). `ttlMs` 0 turns the cache off (decision 0019).
 */
export function createUserCache(store: Pick<Store, 'users'>, ttlMs: number, clock: Clock): UserCache {
  const ttl = Number.isFinite(ttlMs) && ttlMs > 0 ? ttlMs : 0;
  const entries = new Map<number, { user: UserRecord; at: number }>();
  /** Bumped by forget: a read that started before it must not bring the old record back. */
  const generations = new Map<number, number>();
  return {
    async forToken(id, tokenVersion) {
      if (ttl === 0) return store.users.byId(id);
      const now = clock.now().getTime();
      const hit = entries.get(id);
      if (hit !== undefined && now - hit.at < ttl && hit.user.tokenVersion === tokenVersion) return hit.user;
      const generation = generations.get(id) ?? 0;
      const user = await store.users.byId(id);
      if (user === null) {
        entries.delete(id);
        return null;
      }
      if ((generations.get(id) ?? 0) === generation) {
        entries.delete(id);
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as number);
        entries.set(id, { user, at: now });
      }
      return user;
    },
    forget(id) {
      entries.delete(id);
      generations.set(id, (generations.get(id) ?? 0) + 1);
    },
  };
}
