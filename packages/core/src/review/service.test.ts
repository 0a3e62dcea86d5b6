import { describe, expect, it } from 'vitest';
import { fakeHasher, steppingClock } from '../../test/fakes.js';
import { createMemoryRateLimiter } from '../rate-limit.js';
import { createEmbeddedReviewStore } from './embedded.js';
import { REVIEW_MESSAGES as M } from './messages.js';
import { DEFAULT_SETTINGS } from './rules.js';
import { createReviewAuthService } from './service.js';
import type { ReviewStore } from './store.js';

function setup(options: { store?: ReviewStore; limit?: number } = {}) {
  const clock = steppingClock();
  const store = options.store ?? createEmbeddedReviewStore();
  const hasher = fakeHasher();
  const loginLimiter = createMemoryRateLimiter({ limit: options.limit ?? 3, windowMs: 60_000, clock });
  const service = createReviewAuthService({ store, hasher, clock, loginLimiter });
  return { clock, store, hasher, service, loginLimiter };
}

/** A store whose chosen method fails: the seam the HTTP suite uses too. */
function failing(
  store: ReviewStore,
  path: 'users.byEmail' | 'users.create' | 'settings.insertMissing',
): ReviewStore {
  const [repo, method] = path.split('.') as ['users' | 'settings', string];
  const broken = {
    ...store[repo],
    [method]: async () => {
      throw new Error(`injected ${path} failure`);
    },
  };
  return { ...store, [repo]: broken } as ReviewStore;
}

const expectError = (
  result: { ok: boolean; error?: { code: number; message: string } },
  code: number,
  message: string,
) => {
  expect(result.ok).toBe(false);
  expect(result.error?.code).toBe(code);
  expect(result.error?.message).toBe(message);
};

describe('review auth service', () => {
  it('registers with a trimmed, lower-cased e-mail, a hash and the seven default settings', async () => {
    const { service, store } = setup();
    const result = await service.register({ email: ' Ann@Example.com ', password: 'secret1' });
    expect(result).toEqual({
      ok: true,
      value: { id: 1, email: 'ann@example.com', createdAt: expect.any(String) },
    });
    const stored = await store.users.byEmail('ann@example.com');
    expect(stored?.passwordHash).not.toContain('secret1');
    const settings = await service.settingsOf(1);
    expect(settings.ok && settings.value).toEqual(
      Object.fromEntries(DEFAULT_SETTINGS.map((s) => [s.key, s.value])),
    );
  });

  it('leaves an existing setting key unchanged at registration', async () => {
    const { service, store } = setup();
    await store.settings.insertMissing(1, [{ key: 'review.top_n', value: '99' }], new Date());
    expect((await service.register({ email: 'a@b.io', password: 'secret1' })).ok).toBe(true);
    const settings = await service.settingsOf(1);
    expect(settings.ok && settings.value['review.top_n']).toBe('99');
    expect(settings.ok && Object.keys(settings.value)).toHaveLength(7);
  });

  it('answers 409 for an e-mail registered in another case', async () => {
    const { service } = setup();
    await service.register({ email: 'a@b.io', password: 'secret1' });
    expectError(await service.register({ email: 'A@B.IO', password: 'other-secret' }), 409, M.emailTaken);
  });

  it('gives an unknown e-mail and a wrong password the same 401, and still runs a verify for the unknown one', async () => {
    const { service, hasher } = setup();
    await service.register({ email: 'a@b.io', password: 'secret1' });
    const before = hasher.calls.verify;
    expectError(
      await service.login({ email: 'x@b.io', password: 'secret1' }, { ip: '1.1.1.1' }),
      401,
      M.badCredentials,
    );
    expect(hasher.calls.verify).toBe(before + 1);
    expectError(
      await service.login({ email: 'a@b.io', password: 'nope!!' }, { ip: '1.1.1.1' }),
      401,
      M.badCredentials,
    );
    const ok = await service.login({ email: '  A@B.IO', password: 'secret1' }, { ip: '1.1.1.1' });
    expect(ok.ok && ok.value.id).toBe(1);
  });

  it('throttles failed logins per e-mail + address with 429 and Retry-After, and a success resets', async () => {
    const { service, clock } = setup({ limit: 2 });
    await service.register({ email: 'a@b.io', password: 'secret1' });
    for (let i = 0; i < 2; i++)
      await service.login({ email: 'a@b.io', password: 'wrong!' }, { ip: '9.9.9.9' });
    const limited = await service.login({ email: 'a@b.io', password: 'secret1' }, { ip: '9.9.9.9' });
    expectError(limited, 429, M.tooManyAttempts);
    expect(!limited.ok && limited.error.retryAfter).toBeGreaterThanOrEqual(1);
    // Another address is not affected.
    expect((await service.login({ email: 'a@b.io', password: 'secret1' }, { ip: '8.8.8.8' })).ok).toBe(true);
    clock.advance(61_000);
    expect((await service.login({ email: 'a@b.io', password: 'secret1' }, { ip: '9.9.9.9' })).ok).toBe(true);
  });

  it.each([
    ['the lookup at login fails', 'users.byEmail', 'login', 500, M.server],
    ['the lookup at registration fails', 'users.byEmail', 'register', 500, M.insert],
    ['the user insert fails', 'users.create', 'register', 500, M.insert],
    ['the settings insert fails', 'settings.insertMissing', 'register', 500, M.insert],
  ] as const)('answers 500 when %s', async (_name, path, call, code, message) => {
    const base = createEmbeddedReviewStore();
    const { service } = setup({ store: failing(base, path) });
    const body = { email: 'a@b.io', password: 'secret1' };
    const result = call === 'login' ? await service.login(body, { ip: '1' }) : await service.register(body);
    expectError(result, code, message);
    // A failed registration leaves no user behind.
    expect(await base.users.byEmail('a@b.io')).toBeNull();
  });

  it('answers 500 密码加密失败 when hashing fails', async () => {
    const service = createReviewAuthService({
      store: createEmbeddedReviewStore(),
      hasher: {
        hash: async () => {
          throw new Error('out of memory');
        },
        verify: async () => false,
      },
    });
    expectError(await service.register({ email: 'a@b.io', password: 'secret1' }), 500, M.hashing);
  });

  it('answers 500 服务器错误 when verifying fails at login', async () => {
    const store = createEmbeddedReviewStore();
    const at = new Date();
    await store.users.create({ email: 'a@b.io', passwordHash: 'h', createdAt: at, updatedAt: at });
    const service = createReviewAuthService({
      store,
      hasher: {
        hash: async () => 'h',
        verify: async () => {
          throw new Error('boom');
        },
      },
    });
    expectError(await service.login({ email: 'a@b.io', password: 'secret1' }, { ip: '1' }), 500, M.server);
  });

  it('reads the user a session names, and nothing for ids that are not user ids', async () => {
    const { service } = setup();
    await service.register({ email: 'a@b.io', password: 'secret1' });
    expect(await service.userById(1)).toMatchObject({ ok: true, value: { email: 'a@b.io' } });
    for (const id of [2, 0, -1, 1.5, '1', null, { $gt: 0 }])
      expect(await service.userById(id)).toEqual({ ok: true, value: null });
  });
});
