import { createHash } from 'node:crypto';
import { REVIEW_MESSAGES as M, type ReviewStore, reviewErrorBody } from '@assetloom/core/review';
import { injectMongoUri } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreTarget } from '../helpers.js';
import { type ReviewTestServer, send, startReviewServer, uniqueEmail } from './helpers.js';

/**
 * Every endpoint rule and every error row of spec 001 over a real listening server (asset API and
 * review helper in one process), on the embedded store and on MongoDB (MONGODB_URI or the FerretDB
 * the global setup starts). JSON answers are checked against openapi/review-auth.yaml.
 */
const mongoUri = injectMongoUri('reference-server review-auth HTTP suite on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];
const SID = /^[A-Za-z0-9_-]{43}$/;
const digest = (sid: string) => createHash('sha256').update(sid).digest('base64url');

describe.each(targets)('review-auth HTTP on the %s store', (_name, target) => {
  const suite = target === null ? describe.skip : describe;
  let server: ReviewTestServer;
  let base: string;
  let store: ReviewStore;
  const post = (path: string, json?: unknown, options: Parameters<typeof send>[3] = {}) =>
    send(base, 'POST', path, { ...options, ...(json === undefined ? {} : { json }) });
  const get = (path: string, cookie?: string) =>
    send(base, 'GET', path, cookie === undefined ? {} : { cookie });

  async function registered(password = 'secret1') {
    const email = uniqueEmail();
    const res = await post('/api/auth/register', { email, password });
    expect(res.status).toBe(200);
    return { email, password, cookie: res.cookie as string };
  }

  beforeAll(async () => {
    if (target === null) return;
    server = await startReviewServer(target);
    base = server.url;
    store = server.running.review.store;
  });
  afterAll(async () => {
    await server?.destroy();
  });

  suite('pages', () => {
    it.each([
      ['/login', '/api/auth/login', 'current-password'],
      ['/register', '/api/auth/register', 'new-password'],
    ])('GET %s serves an accessible form posting to %s', async (path, endpoint, autocomplete) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain('<html lang="zh-CN">');
      expect(res.text).toContain('<label for="email">邮箱</label>');
      expect(res.text).toContain('<label for="password">密码</label>');
      expect(res.text).toContain(`data-endpoint="${endpoint}"`);
      expect(res.text).toContain(`autocomplete="${autocomplete}"`);
      expect(res.text).toContain('role="alert" aria-live="assertive"');
      expect(res.text).toContain('<script src="/assets/review-auth.js" defer></script>');
      expect(res.text).not.toMatch(/<script>|<style>| style=| on[a-z]+=/);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.cookie).toBeUndefined();
    });

    it('serves the page script and stylesheet from the same origin', async () => {
      const js = await get('/assets/review-auth.js');
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(js.text).toContain("fetch(form.getAttribute('data-endpoint')");
      const css = await get('/assets/review-auth.css');
      expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    });

    it('redirects the landing page to /login without a session, or with an unknown or malformed one', async () => {
      for (const cookie of [undefined, 'A'.repeat(43), '../../etc', '{"$gt":""}']) {
        const res = await get('/', cookie);
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe('/login');
      }
    });

    it('answers a wrong method with 405 and Allow, and leaves the asset API beside it alone', async () => {
      const wrong = await send(base, 'GET', '/api/auth/login');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
      expect((await send(base, 'DELETE', '/login')).headers.get('allow')).toBe('GET, HEAD');
      const health = await get('/api/v1/health');
      expect(health.body).toMatchObject({ code: 0, data: { status: 'ok' } });
      const assetRoute = await post('/auth/login', { username: 'nobody', password: 'whatever' });
      expect(assetRoute.body).toMatchObject({ code: 401 });
    });
  });

  suite('POST /api/auth/register', () => {
    it('registers with a trimmed, lower-cased e-mail, a scrypt hash, the seven settings, and signs in', async () => {
      const email = uniqueEmail('Mixed.Case');
      const res = await post('/api/auth/register', {
        email: `  ${email.toUpperCase()}\t`,
        password: 'secret1',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(res.cookie).toMatch(SID);
      const attributes = (res.setCookie ?? '').toLowerCase();
      expect(attributes).toContain('path=/');
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=lax');
      expect(attributes).toContain('secure'); // NODE_ENV=test is not development
      const expires = Date.parse(/expires=([^;]+)/.exec(attributes)?.[1] ?? '');
      expect(expires - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
      expect(expires - Date.now()).toBeLessThanOrEqual(7 * 86_400_000 + 1000);

      const user = await store.users.byEmail(email.toLowerCase());
      expect(user).not.toBeNull();
      expect(user?.passwordHash).toMatch(/^scrypt\$/);
      expect(user?.passwordHash).not.toContain('secret1');
      expect(Number.isSafeInteger(user?.id)).toBe(true);
      const settings = await store.settings.list(user?.id as number);
      expect(Object.fromEntries(settings.map((s) => [s.key, s.value]))).toEqual({
        'llm.endpoint': expect.any(String),
        'llm.api_key': '',
        'llm.model': expect.any(String),
        'review.top_n': '20',
        'review.concurrency': '5',
        'cache.max_age_days': '7',
        'cache.max_size_mb': '5000',
      });

      const landing = await get('/', res.cookie);
      expect(landing.status).toBe(200);
      expect(landing.text).toContain(`<strong id="signed-in-email">${email.toLowerCase()}</strong>`);
      // The session lives server-side under a digest of the id; the cookie value itself is not stored.
      const session = await store.sessions.get(digest(res.cookie as string), new Date());
      expect(session?.userId).toBe(user?.id);
      expect(await store.sessions.get(res.cookie as string, new Date())).toBeNull();
    });

    it('leaves a setting that already exists for the new user unchanged', async () => {
      const first = await registered();
      const firstId = (await store.users.byEmail(first.email))?.id as number;
      await store.settings.insertMissing(firstId + 1, [{ key: 'review.top_n', value: '99' }], new Date());
      const second = await registered();
      const secondId = (await store.users.byEmail(second.email))?.id as number;
      expect(secondId).toBe(firstId + 1);
      const settings = await store.settings.list(secondId);
      expect(settings).toHaveLength(7);
      expect(settings.find((s) => s.key === 'review.top_n')?.value).toBe('99');
    });

    it.each([
      ['no body', undefined, M.required],
      ['an empty object', {}, M.required],
      ['a missing password', { email: 'a@b.io' }, M.required],
      ['a missing e-mail', { password: 'secret1' }, M.required],
      ['an empty e-mail', { email: '', password: 'secret1' }, M.required],
      ['an empty password', { email: 'a@b.io', password: '' }, M.required],
      ['a number as password', { email: 'a@b.io', password: 1234567 }, M.required],
      ['an operator object as e-mail', { email: { $ne: null }, password: 'secret1' }, M.required],
      ['an array body', [{ email: 'a@b.io', password: 'secret1' }], M.required],
      ['a password over 1024 bytes', { email: 'a@b.io', password: 'x'.repeat(1025) }, M.required],
      ['an e-mail without @', { email: 'ann.example.com', password: 'secret1' }, M.invalidEmail],
      ['an e-mail without a dot', { email: 'ann@example', password: 'secret1' }, M.invalidEmail],
      ['a 5-byte password', { email: 'short@b.io', password: '12345' }, M.passwordTooShort],
      [
        'a 5-byte password with one CJK character',
        { email: 'short@b.io', password: '密ab' },
        M.passwordTooShort,
      ],
    ])('answers 400 for %s', async (_name, json, message) => {
      const res = await post('/api/auth/register', json);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(reviewErrorBody(message));
      expect(res.cookie).toBeUndefined();
    });

    it.each([
      ['malformed JSON', '{"email":', 'application/json'],
      ['a form body', 'email=a%40b.io&password=secret1', 'application/x-www-form-urlencoded'],
      ['text', 'hello', 'text/plain'],
    ])('answers 400 邮箱和密码为必填项 for %s', async (_name, raw, type) => {
      const res = await post('/api/auth/register', undefined, { raw, headers: { 'content-type': type } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(reviewErrorBody(M.required));
    });

    it('accepts a 6-byte password of two CJK characters', async () => {
      const res = await post('/api/auth/register', { email: uniqueEmail(), password: '密码' });
      expect(res.status).toBe(200);
    });

    it('answers 409 该邮箱已被注册 for a taken e-mail in any case and spacing', async () => {
      const { email } = await registered();
      const res = await post('/api/auth/register', {
        email: ` ${email.toUpperCase()} `,
        password: 'another1',
      });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject(reviewErrorBody(M.emailTaken));
    });

    it('lets exactly one of several concurrent registrations of one e-mail win', async () => {
      const email = uniqueEmail('race');
      const results = await Promise.all(
        Array.from({ length: 4 }, () => post('/api/auth/register', { email, password: 'secret1' })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    });
  });

  suite('POST /api/auth/login', () => {
    it('signs in with the e-mail trimmed and lower-cased, under a new session id', async () => {
      const { email, password, cookie: registrationCookie } = await registered();
      const res = await post(
        '/api/auth/login',
        { email: `\n${email.toUpperCase()} `, password },
        { cookie: registrationCookie },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(res.cookie).toMatch(SID);
      expect(res.cookie).not.toBe(registrationCookie);
      expect((await get('/', res.cookie)).status).toBe(200);
      // The id was regenerated: the old one is gone server-side.
      expect((await get('/', registrationCookie)).status).toBe(302);
    });

    it('gives an unknown e-mail and a wrong password the same 401 邮箱或密码错误', async () => {
      const { email } = await registered();
      const unknown = await post('/api/auth/login', { email: uniqueEmail('nobody'), password: 'secret1' });
      const wrong = await post('/api/auth/login', { email, password: 'wrong-password' });
      for (const res of [unknown, wrong]) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject(reviewErrorBody(M.badCredentials));
        expect(res.cookie).toBeUndefined();
      }
    });

    it.each([
      ['no body', undefined],
      ['a missing password', { email: 'a@b.io' }],
      ['an empty e-mail', { email: '  ', password: 'secret1' }],
      ['a boolean e-mail', { email: true, password: 'secret1' }],
    ])('answers 400 邮箱和密码为必填项 for %s', async (_name, json) => {
      const res = await post('/api/auth/login', json);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(reviewErrorBody(M.required));
    });

    it('throttles failed logins per e-mail with 429 and Retry-After, other e-mails unaffected', async () => {
      const { email, password } = await registered();
      for (let i = 0; i < server.config.auth.loginMaxFailures; i++) {
        expect((await post('/api/auth/login', { email, password: 'wrong-password' })).status).toBe(401);
      }
      const limited = await post('/api/auth/login', { email, password });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject(reviewErrorBody(M.tooManyAttempts));
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const other = await registered();
      expect((await post('/api/auth/login', { email: other.email, password: other.password })).status).toBe(
        200,
      );
    });
  });

  suite('POST /api/auth/logout', () => {
    it('destroys the session server-side, clears the cookie and redirects to /login', async () => {
      const { cookie } = await registered();
      expect(await store.sessions.get(digest(cookie), new Date())).not.toBeNull();
      const res = await post('/api/auth/logout', undefined, { cookie });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/login');
      expect(res.cookie).toBe('');
      expect(res.setCookie?.toLowerCase()).toContain('expires=thu, 01 jan 1970');
      expect(await store.sessions.get(digest(cookie), new Date())).toBeNull();
      expect((await get('/', cookie)).status).toBe(302);
    });

    it('redirects to /login without a session too', async () => {
      const res = await post('/api/auth/logout');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/login');
    });
  });

  suite('CSRF', () => {
    it.each([
      ['a foreign Origin', { origin: 'https://evil.example' }],
      ['an opaque Origin', { origin: 'null' }],
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ])('refuses every POST with %s (403 请求来源不被允许)', async (_name, headers) => {
      const { email, password, cookie } = await registered();
      for (const [path, json] of [
        ['/api/auth/login', { email, password }],
        ['/api/auth/register', { email: uniqueEmail(), password }],
        ['/api/auth/logout', undefined],
      ] as const) {
        const res = await post(path, json, { headers, cookie });
        expect(res.status, path).toBe(403);
        expect(res.body).toMatchObject(reviewErrorBody(M.crossSite));
      }
      // The logout above was refused: the session still works.
      expect((await get('/', cookie)).status).toBe(200);
    });

    it('accepts the pages own same-origin requests', async () => {
      const { email, password } = await registered();
      const origin = new URL(base).origin;
      const res = await post(
        '/api/auth/login',
        { email, password },
        { headers: { origin, 'sec-fetch-site': 'same-origin' } },
      );
      expect(res.status).toBe(200);
    });
  });

  suite('rolling session', () => {
    it('re-sends the cookie with a fresh 7-day expiry on every page and keeps the id', async () => {
      const { cookie } = await registered();
      const res = await get('/', cookie);
      expect(res.status).toBe(200);
      expect(res.cookie).toBe(cookie);
      const expires = Date.parse(/expires=([^;]+)/i.exec(res.setCookie ?? '')?.[1] ?? '');
      expect(expires - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    });

    it('moves the server-side expiry forward once the last write is a minute old', async () => {
      const { cookie } = await registered();
      const id = digest(cookie);
      const stored = await store.sessions.get(id, new Date());
      const old = new Date(Date.now() - 2 * 60_000);
      const soon = new Date(Date.now() + 60 * 60_000);
      await store.sessions.set({
        ...(stored as NonNullable<typeof stored>),
        updatedAt: old,
        expiresAt: soon,
      });
      expect((await get('/', cookie)).status).toBe(200);
      const refreshed = await store.sessions.get(id, new Date());
      expect(refreshed?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 7 * 86_400_000 - 60_000);
      // A second view within the minute does not write again.
      expect((await get('/', cookie)).status).toBe(200);
      expect((await store.sessions.get(id, new Date()))?.updatedAt).toEqual(refreshed?.updatedAt);
    });
  });

  suite('logs', () => {
    it('never contain a password or a session id', async () => {
      const password = 'very-secret-password-123';
      const email = uniqueEmail('logged');
      const reg = await post('/api/auth/register', { email, password });
      await post('/api/auth/login', { email, password: `${password}-wrong` });
      const all = server.logs.join('\n');
      expect(all).toContain('request completed');
      expect(all).not.toContain(password);
      expect(all).not.toContain(reg.cookie as string);
    });
  });
});
