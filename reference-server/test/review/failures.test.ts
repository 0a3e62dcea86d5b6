import {
  REVIEW_MESSAGES as M,
  type PasswordHasher,
  type ReviewStore,
  reviewErrorBody,
} from '@assetloom/core/review';
import { createEmbeddedReviewStore } from '@assetloom/core/store/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { ScryptPasswordHasher } from '../../src/password.js';
import type { KoaSessionStore } from '../../src/review/session-store.js';
import type { ReviewPartsOptions } from '../../src/review/setup.js';
import { type ReviewTestServer, send, startReviewServer, uniqueEmail } from './helpers.js';

/**
 * The 500 rows of spec 001, proven by injecting failing ports into a real listening server: the
 * review store (a real embedded store with one method replaced), the password hasher and the
 * session store. These are the app's dependency-injection seams, not mocks of the code under test.
 */
type Broken = 'users.byEmail' | 'users.create' | 'settings.insertMissing';

function breaking(store: ReviewStore, which: Broken): ReviewStore {
  const [repo, method] = which.split('.') as ['users' | 'settings', string];
  return {
    kind: store.kind,
    init: () => store.init(),
    close: () => store.close(),
    users: store.users,
    settings: store.settings,
    sessions: store.sessions,
    [repo]: {
      ...store[repo],
      [method]: async () => {
        throw new Error(`injected failure of ${which}`);
      },
    },
  } as ReviewStore;
}

const failingSave = (real: KoaSessionStore): KoaSessionStore => ({
  get: real.get,
  destroy: real.destroy,
  set: async () => {
    throw new Error('injected session save failure');
  },
});

const failingHasher: PasswordHasher = {
  hash: async () => {
    throw new Error('injected hashing failure');
  },
  verify: async () => false,
};

let server: ReviewTestServer | undefined;
afterEach(async () => {
  await server?.destroy();
  server = undefined;
});

async function start(review: Omit<ReviewPartsOptions, 'logger'>, env?: Record<string, string>) {
  server = await startReviewServer({ kind: 'embedded' }, { review, ...(env ? { env } : {}) });
  return server;
}

describe('review-auth 500 rows (injected failures)', () => {
  it('answers 500 服务器错误 when the user lookup fails at login', async () => {
    const s = await start({ store: breaking(createEmbeddedReviewStore(), 'users.byEmail') });
    const res = await send(s.url, 'POST', '/api/auth/login', {
      json: { email: 'a@b.io', password: 'secret1' },
    });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject(reviewErrorBody(M.server));
    expect(res.cookie).toBeUndefined();
    expect(s.logs.join('\n')).toContain('injected failure of users.byEmail');
  });

  it('answers 500 密码加密失败 when hashing fails', async () => {
    const s = await start({ hasher: failingHasher });
    const res = await send(s.url, 'POST', '/api/auth/register', {
      json: { email: uniqueEmail(), password: 'secret1' },
    });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject(reviewErrorBody(M.hashing));
  });

  it.each([
    ['the user insert', 'users.create'],
    ['the default settings insert', 'settings.insertMissing'],
  ] as const)('answers 500 注册失败 when %s fails, leaving no user behind', async (_name, which) => {
    const real = createEmbeddedReviewStore();
    const s = await start({ store: breaking(real, which) });
    const email = uniqueEmail();
    const res = await send(s.url, 'POST', '/api/auth/register', { json: { email, password: 'secret1' } });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject(reviewErrorBody(M.insert));
    expect(res.cookie).toBeUndefined();
    expect(await real.users.byEmail(email)).toBeNull();
  });

  it('answers 500 会话保存失败 when the session cannot be saved, at registration and at login', async () => {
    const store = createEmbeddedReviewStore();
    const s = await start({
      store,
      sessionStore: failingSave,
      hasher: new ScryptPasswordHasher({ logN: 10 }),
    });
    const email = uniqueEmail();
    const registered = await send(s.url, 'POST', '/api/auth/register', {
      json: { email, password: 'secret1' },
    });
    expect(registered.status).toBe(500);
    expect(registered.body).toMatchObject(reviewErrorBody(M.sessionSave));
    expect(registered.cookie ?? '').toBe('');
    // The user exists (spec 001: the session step failed, not the registration), so login reaches the session too.
    expect(await store.users.byEmail(email)).not.toBeNull();
    const login = await send(s.url, 'POST', '/api/auth/login', { json: { email, password: 'secret1' } });
    expect(login.status).toBe(500);
    expect(login.body).toMatchObject(reviewErrorBody(M.sessionSave));
    expect(login.cookie ?? '').toBe('');
  });

  it('shows an error page when the session store cannot be read, and still logs out', async () => {
    const store = createEmbeddedReviewStore();
    let broken = false;
    const s = await start({
      store,
      sessionStore: (real) => ({
        get: async (...args) => {
          if (broken) throw new Error('injected session read failure');
          return real.get(...args);
        },
        set: real.set,
        destroy: real.destroy,
      }),
    });
    const reg = await send(s.url, 'POST', '/api/auth/register', {
      json: { email: uniqueEmail(), password: 'secret1' },
    });
    expect(reg.status).toBe(200);
    broken = true;
    const page = await send(s.url, 'GET', '/', { cookie: reg.cookie as string });
    expect(page.status).toBe(500);
    expect(page.text).toContain('服务器错误');
    const logout = await send(s.url, 'POST', '/api/auth/logout', { cookie: reg.cookie as string });
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe('/login');
    expect(logout.cookie).toBe('');
    broken = false;
    // The fallback destroyed the server-side session as well.
    expect((await send(s.url, 'GET', '/', { cookie: reg.cookie as string })).status).toBe(302);
  });

  it('omits Secure on the session cookie in development only', async () => {
    const s = await start({}, { NODE_ENV: 'development' });
    const res = await send(s.url, 'POST', '/api/auth/register', {
      json: { email: uniqueEmail(), password: 'secret1' },
    });
    expect(res.status).toBe(200);
    expect(res.setCookie?.toLowerCase()).not.toContain('secure');
    expect(res.setCookie?.toLowerCase()).toContain('httponly');
  });
});
