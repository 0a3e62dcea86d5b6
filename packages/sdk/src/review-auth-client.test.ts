import { CookieJar } from 'tough-cookie';
import { describe, expect, test } from 'vitest';
import { hangingFetch, json, scriptedFetch, sequence } from './internal/testing.js';
import { createReviewAuthClient } from './review-auth-client.js';

const baseUrl = 'http://review.test';
const credentials = { email: 'ada@example.com', password: 'secret1' };

describe('login and register', () => {
  test.each(['login', 'register'] as const)(
    '%s → { ok: true } and the session cookie is kept (Node jar)',
    async (name) => {
      const fetch = scriptedFetch((request) =>
        request.url.endsWith('/api/auth/me')
          ? json(200, {})
          : json(200, { ok: true }, { 'set-cookie': 'review_sid=abc; Path=/; HttpOnly; SameSite=Lax' }),
      );
      const auth = createReviewAuthClient({ baseUrl, fetch, cookies: 'jar' });
      const result = await auth[name](credentials);
      expect(result).toMatchObject({ data: { ok: true }, error: undefined });
      expect(fetch.calls[0]?.url).toBe(`${baseUrl}/api/auth/${name}`);
      expect(JSON.parse(fetch.calls[0]?.body ?? '')).toEqual(credentials);
      expect(fetch.calls[0]?.headers.get('cookie')).toBeNull();
      const jar = await auth.cookieJar();
      expect(await jar?.getCookieString(`${baseUrl}/`)).toBe('review_sid=abc');
      await auth.logout();
      expect(fetch.calls[1]?.headers.get('cookie')).toBe('review_sid=abc');
    },
  );

  test.each([
    [400, '邮箱和密码为必填项'],
    [401, '邮箱或密码错误'],
    [403, '请求来源不被允许'],
    [409, '该邮箱已被注册'],
    [500, '会话保存失败'],
  ] as const)('HTTP %i {error} → AssetloomApiError with that code and message', async (status, message) => {
    const auth = createReviewAuthClient({ baseUrl, fetch: sequence(json(status, { error: message })) });
    const { error } = await auth.login(credentials);
    expect(error).toMatchObject({ code: status, httpStatus: status, message });
  });

  test('429 reports Retry-After and is not retried (a POST without idempotency key)', async () => {
    const fetch = sequence(json(429, { error: '登录尝试过于频繁，请稍后再试' }, { 'retry-after': '30' }));
    const { error } = await createReviewAuthClient({ baseUrl, fetch }).login(credentials);
    expect(error).toMatchObject({ code: 429, retryAfter: 30, message: '登录尝试过于频繁，请稍后再试' });
    expect(fetch.calls).toHaveLength(1);
  });

  test('answers of the wrong shape → invalid_response; network errors and timeouts are typed', async () => {
    const odd = createReviewAuthClient({ baseUrl, fetch: sequence(json(200, { ok: 'yes' })) });
    expect((await odd.login(credentials)).error?.code).toBe('invalid_response');
    const html = createReviewAuthClient({
      baseUrl,
      fetch: sequence(new Response('<h1>oops</h1>', { status: 502 })),
    });
    expect((await html.login(credentials)).error).toMatchObject({
      code: 'invalid_response',
      httpStatus: 502,
    });
    const offline = createReviewAuthClient({ baseUrl, fetch: sequence(new TypeError('fetch failed')) });
    expect((await offline.register(credentials)).error?.code).toBe('network_error');
    const slow = createReviewAuthClient({ baseUrl, fetch: hangingFetch(), timeoutMs: 10 });
    expect((await slow.login(credentials)).error?.code).toBe('timeout');
  });

  test('throwing style', async () => {
    const auth = createReviewAuthClient({
      baseUrl,
      fetch: sequence(json(200, { ok: true }), json(401, { error: '邮箱或密码错误' })),
      throwOnError: true,
    });
    await expect(auth.login(credentials)).resolves.toEqual({ ok: true });
    await expect(auth.login(credentials)).rejects.toMatchObject({ code: 401, message: '邮箱或密码错误' });
  });
});

describe('logout', () => {
  test('the 302 to /login is not followed and reports success; the expired cookie leaves the jar', async () => {
    const fetch = scriptedFetch((request) =>
      request.url.endsWith('/logout')
        ? new Response(null, {
            status: 302,
            headers: {
              location: '/login',
              'set-cookie': 'review_sid=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
            },
          })
        : json(200, { ok: true }, { 'set-cookie': 'review_sid=abc; Path=/; HttpOnly' }),
    );
    const auth = createReviewAuthClient({ baseUrl, fetch, cookies: 'jar' });
    await auth.login(credentials);
    const { data, error } = await auth.logout();
    expect(error).toBeUndefined();
    expect(data).toEqual({ ok: true, location: '/login' });
    expect(fetch.calls[1]?.redirect).toBe('manual');
    expect(fetch.calls).toHaveLength(2);
    const jar = await auth.cookieJar();
    expect(await jar?.getCookieString(`${baseUrl}/`)).toBe('');
  });

  test("a browser's opaque redirect counts as success; 403 is an error", async () => {
    const opaque = {
      type: 'opaqueredirect',
      status: 0,
      ok: false,
      headers: new Headers(),
      text: async () => '',
    };
    const browserLike = createReviewAuthClient({
      baseUrl,
      fetch: async () => opaque as unknown as Response,
      cookies: 'browser',
    });
    expect((await browserLike.logout()).data).toEqual({ ok: true, location: undefined });
    const refused = createReviewAuthClient({
      baseUrl,
      fetch: sequence(json(403, { error: '请求来源不被允许' })),
    });
    expect((await refused.logout()).error).toMatchObject({ code: 403, message: '请求来源不被允许' });
  });
});

describe('where the cookie lives', () => {
  test("'browser' sends credentials: 'include' and keeps no jar", async () => {
    const fetch = sequence(json(200, { ok: true }, { 'set-cookie': 'review_sid=abc; Path=/' }));
    const auth = createReviewAuthClient({ baseUrl, fetch, cookies: 'browser' });
    await auth.login(credentials);
    await auth.login(credentials);
    expect(fetch.calls.map((c) => c.credentials)).toEqual(['include', 'include']);
    expect(fetch.calls[1]?.headers.get('cookie')).toBeNull();
    expect(await auth.cookieJar()).toBeUndefined();
  });

  test("'auto' in Node uses a jar; a caller's tough-cookie jar is used and shared", async () => {
    const jar = new CookieJar();
    await jar.setCookie('other=1; Path=/', `${baseUrl}/`);
    const fetch = sequence(json(200, { ok: true }, { 'set-cookie': 'review_sid=xyz; Path=/; HttpOnly' }));
    const auth = createReviewAuthClient({ baseUrl, fetch, cookies: jar });
    await auth.login(credentials);
    await auth.login(credentials);
    expect(fetch.calls[0]?.headers.get('cookie')).toBe('other=1');
    expect(fetch.calls[1]?.headers.get('cookie')).toBe('other=1; review_sid=xyz');
    expect(await auth.cookieJar()).toBe(jar);

    const auto = createReviewAuthClient({ baseUrl, fetch: sequence(json(200, { ok: true })) });
    expect(await auto.cookieJar()).toBeDefined();
  });

  test('cookies for another domain or a malformed Set-Cookie are dropped, not fatal', async () => {
    const fetch = sequence(
      json(200, { ok: true }, { 'set-cookie': 'review_sid=abc; Domain=evil.test; Path=/' }),
      json(200, { ok: true }),
    );
    const auth = createReviewAuthClient({ baseUrl, fetch, cookies: 'jar' });
    expect((await auth.login(credentials)).data).toEqual({ ok: true });
    await auth.login(credentials);
    expect(fetch.calls[1]?.headers.get('cookie')).toBeNull();
  });

  test.each([
    ['no baseUrl', {}],
    ['an unknown cookies mode', { baseUrl, cookies: 'sometimes' }],
    ['a jar without methods', { baseUrl, cookies: {} }],
  ])('%s → a clear error at creation', (_name, options) => {
    expect(() => createReviewAuthClient(options as never)).toThrow(/\[assetloom\/sdk\]/);
  });
});
