import { describe, expect, it } from 'vitest';
import { AssetloomError } from '../../src/errors.js';
import type { ReviewStore } from '../../src/review/store.js';
import { DuplicateKeyError } from '../../src/store.js';

const at = new Date('2026-02-01T10:00:00.000Z');
const user = (email: string) => ({ email, passwordHash: `hash-of-${email}`, createdAt: at, updatedAt: at });

/** The ReviewStore contract every adapter passes (embedded in memory, embedded on disk, MongoDB). */
export function describeReviewStoreContract(
  name: string,
  fresh: () => ReviewStore | Promise<ReviewStore>,
): void {
  describe(`ReviewStore contract (${name})`, () => {
    async function withStore(fn: (store: ReviewStore) => Promise<void>): Promise<void> {
      const store = await fresh();
      await store.init();
      try {
        await fn(store);
      } finally {
        await store.close();
      }
    }

    it('creates users with ids 1, 2, 3 and finds them by e-mail and id', () =>
      withStore(async (store) => {
        const a = await store.users.create(user('a@x.io'));
        const b = await store.users.create(user('b@x.io'));
        const c = await store.users.create(user('c@x.io'));
        expect([a.id, b.id, c.id]).toEqual([1, 2, 3]);
        expect(await store.users.byEmail('b@x.io')).toEqual({ ...user('b@x.io'), id: 2 });
        expect((await store.users.byId(3))?.email).toBe('c@x.io');
        expect(await store.users.byEmail('nobody@x.io')).toBeNull();
        expect(await store.users.byId(99)).toBeNull();
      }));

    it('refuses a second user with the same e-mail (DuplicateKeyError "email")', () =>
      withStore(async (store) => {
        await store.users.create(user('dup@x.io'));
        const err = await store.users.create(user('dup@x.io')).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DuplicateKeyError);
        expect((err as DuplicateKeyError).field).toBe('email');
      }));

    it('gives concurrent registrations distinct ids and exactly one winner per e-mail', () =>
      withStore(async (store) => {
        const emails = Array.from({ length: 12 }, (_, i) => `p${i}@x.io`);
        const results = await Promise.allSettled(
          [...emails, 'p0@x.io', 'p1@x.io'].map((e) => store.users.create(user(e))),
        );
        const created = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        const rejected = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
        expect(created).toHaveLength(12);
        expect(new Set(created.map((u) => u.id)).size).toBe(12);
        expect(new Set(created.map((u) => u.email))).toEqual(new Set(emails));
        expect(rejected).toHaveLength(2);
        for (const reason of rejected) expect((reason as DuplicateKeyError).field).toBe('email');
      }));

    it('deletes a user, and the next one reuses no live id', () =>
      withStore(async (store) => {
        const a = await store.users.create(user('a@x.io'));
        const b = await store.users.create(user('b@x.io'));
        expect(await store.users.delete(a.id)).toBe(true);
        expect(await store.users.delete(a.id)).toBe(false);
        const c = await store.users.create(user('c@x.io'));
        expect(c.id).toBe(b.id + 1);
      }));

    it('inserts missing settings and leaves an existing key unchanged', () =>
      withStore(async (store) => {
        expect(await store.settings.insertMissing(7, [{ key: 'review.top_n', value: '50' }], at)).toBe(1);
        const later = new Date(at.getTime() + 1000);
        const inserted = await store.settings.insertMissing(
          7,
          [
            { key: 'review.top_n', value: '20' },
            { key: 'llm.api_key', value: '' },
          ],
          later,
        );
        expect(inserted).toBe(1);
        const list = await store.settings.list(7);
        expect(list.map((s) => [s.key, s.value])).toEqual([
          ['llm.api_key', ''],
          ['review.top_n', '50'],
        ]);
        expect(list.find((s) => s.key === 'review.top_n')?.createdAt).toEqual(at);
        expect(await store.settings.list(8)).toEqual([]);
        expect(await store.settings.deleteByUser(7)).toBe(2);
      }));

    it('keeps setting keys such as "$where" or "a.b" as plain data', () =>
      withStore(async (store) => {
        await store.settings.insertMissing(
          1,
          [
            { key: '$where', value: 'x' },
            { key: 'a.b', value: 'y' },
            { key: '__proto__', value: 'z' },
          ],
          at,
        );
        expect((await store.settings.list(1)).map((s) => s.key)).toEqual(['$where', '__proto__', 'a.b']);
      }));

    it('stores, replaces, expires, destroys and purges sessions', () =>
      withStore(async (store) => {
        const record = {
          id: 's1',
          data: '{"user_id":1}',
          userId: 1,
          expiresAt: new Date(at.getTime() + 60_000),
          updatedAt: at,
        };
        await store.sessions.set(record);
        expect(await store.sessions.get('s1', at)).toEqual(record);
        const replaced = { ...record, data: '{"user_id":2}', userId: 2 };
        await store.sessions.set(replaced);
        expect((await store.sessions.get('s1', at))?.data).toBe('{"user_id":2}');
        expect(await store.sessions.get('s1', new Date(at.getTime() + 60_000))).toBeNull();
        await store.sessions.set({
          ...record,
          id: 's2',
          userId: null,
          expiresAt: new Date(at.getTime() + 10),
        });
        expect(await store.sessions.purgeExpired(new Date(at.getTime() + 1000))).toBe(1);
        expect(await store.sessions.get('s1', at)).not.toBeNull();
        await store.sessions.destroy('s1');
        await store.sessions.destroy('s1');
        expect(await store.sessions.get('s1', at)).toBeNull();
      }));

    it.each([
      ['an operator object as e-mail', (s: ReviewStore) => s.users.byEmail({ $ne: '' } as unknown as string)],
      ['a string user id', (s: ReviewStore) => s.users.byId('1' as unknown as number)],
      [
        'an operator object as session id',
        (s: ReviewStore) => s.sessions.get({ $gt: '' } as unknown as string, at),
      ],
      ['a fractional user id for settings', (s: ReviewStore) => s.settings.list(1.5)],
    ])('rejects %s with 400 before any query', async (_name, call) =>
      withStore(async (store) => {
        const err = await call(store).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AssetloomError);
        expect((err as AssetloomError).code).toBe(400);
      }),
    );
  });
}
