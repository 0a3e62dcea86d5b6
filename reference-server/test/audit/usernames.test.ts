import { injectMongoUri } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type StoreTarget, startTestServer, type TestServer, uniqueName } from '../helpers.js';

/**
 * Audit finding 7: `alice\u200b`, `ALICE` next to `alice`, `adm\u202Enimx`, `ab\u0000cd`, and `café`
 * in NFC and NFD were all accepted as different users. Usernames are now NFC, refuse control,
 * format, bidi and separator characters with 400 参数错误, and are unique case- and
 * width-insensitively (the registered case is kept and shown); review-helper e-mails are NFC too and
 * refuse the same characters with 400 邮箱格式不正确. Decision 0027.
 */
const mongoUri = injectMongoUri('username normalisation on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];

const PARAM_ERROR = {
  code: 400,
  message: '参数错误',
  data: expect.objectContaining({ reason: 'invalid_request' }),
};
const TAKEN = { code: 409, message: '用户名已被注册', data: { reason: 'username_taken' } };

describe.each(targets)('usernames on the %s store', (_name, target) => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    if (target === null) return;
    server = await startTestServer(target);
    api = client(server.url);
  });
  afterAll(async () => {
    await server?.destroy();
  });
  const test = target === null ? it.skip : it;
  const register = (username: string, password = 'secret-pass') =>
    api.post('/auth/register', { username, password });
  const login = (username: string, password = 'secret-pass') =>
    api.post('/auth/login', { username, password });

  // `#` marks where a unique suffix goes.
  test.each([
    ['a zero-width space', 'alice#\u200b'],
    ['a right-to-left override', 'adm\u202enimx#'],
    ['a left-to-right isolate', 'ab\u2066cd#'],
    ['NUL', 'ab\u0000cd#'],
    ['a tab', 'ab\tcd#'],
    ['a line separator', 'ab\u2028cd#'],
    ['a no-break space', 'ab\u00a0cd#'],
    ['a byte-order mark', '\ufeffalice#'],
    ['a leading space', ' alice#'],
    ['a trailing space', 'alice# '],
    ['a private-use character', 'ab\ue000cd#'],
  ])('refuses %s with 400 参数错误', async (_case, name) => {
    const res = await register(name.replace('#', uniqueName('').slice(-6)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(PARAM_ERROR);
  });

  test('NFC and NFD spellings are one name', async () => {
    const suffix = uniqueName('').slice(-8);
    const nfc = `caf\u00e9${suffix}`;
    const nfd = `cafe\u0301${suffix}`;
    expect((await register(nfc)).status).toBe(201);
    const again = await register(nfd);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(TAKEN);
    const viaNfd = await login(nfd);
    expect(viaNfd.status).toBe(200);
    expect(viaNfd.body.data.user.username).toBe(nfc);
  });

  test('names are unique case- and width-insensitively; the registered case is kept', async () => {
    const base = uniqueName('Al');
    expect((await register(base)).status).toBe(201);
    for (const variant of [base.toLowerCase(), base.toUpperCase(), toFullWidth(base)]) {
      const res = await register(variant);
      expect(res.status, variant).toBe(409);
      expect(res.body).toEqual(TAKEN);
    }
    const lower = await login(base.toLowerCase());
    expect(lower.status).toBe(200);
    expect(lower.body.data.user.username).toBe(base);
    const me = await api.get('/api/v1/auth/me', { token: lower.body.data.token });
    expect(me.body.data.username).toBe(base);
  });

  test('look-alikes across scripts are one name: Cyrillic а beside Latin a is refused (issue #37)', async () => {
    const suffix = uniqueName('').slice(-6);
    expect((await register(`paypal${suffix}`)).status).toBe(201);
    // р, а, у and а are Cyrillic; the confusables skeleton (Unicode TR 39) makes them Latin
    for (const lookAlike of [
      `\u0440\u0430\u0443\u0440\u0430l${suffix}`,
      `p\u0430ypal${suffix}`,
      `PAYPAL${suffix}`,
    ]) {
      const res = await register(lookAlike);
      expect(res.status, lookAlike).toBe(409);
      expect(res.body).toEqual(TAKEN);
    }
    expect((await register(`paypals${suffix}`)).status).toBe(201);
  });

  test('failed logins of one name in any case count together', async () => {
    const base = uniqueName('Bo');
    expect((await register(base)).status).toBe(201);
    const spellings = [base, base.toLowerCase(), base.toUpperCase(), base, base.toLowerCase()];
    for (const name of spellings) expect((await login(name, 'wrong-pass')).status).toBe(401);
    const limited = await login(base.toUpperCase(), 'wrong-pass');
    expect(limited.status).toBe(429);
  });

  describe('review-helper e-mails', () => {
    const reviewPost = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };

    test.each([
      ['a zero-width space', 'a\u200bb@example.com'],
      ['a right-to-left override', 'ab\u202e@example.com'],
      ['NUL', 'a\u0000b@example.com'],
    ])('refuses %s with 400 邮箱格式不正确', async (_case, email) => {
      const res = await reviewPost('/api/auth/register', { email, password: 'secret-pass' });
      expect(res).toEqual({
        status: 400,
        body: {
          error: '邮箱格式不正确',
          reason: 'email_invalid',
          errors: [expect.objectContaining({ in: 'body', path: '/email' })],
        },
      });
    });

    test('NFC and NFD spellings are one e-mail', async () => {
      const local = uniqueName('jose');
      const nfc = `${local}\u00e9@example.com`;
      const nfd = `${local}e\u0301@example.com`;
      expect((await reviewPost('/api/auth/register', { email: nfd, password: 'secret-pass' })).status).toBe(
        200,
      );
      const again = await reviewPost('/api/auth/register', { email: nfc, password: 'secret-pass' });
      expect(again).toEqual({ status: 409, body: { error: '该邮箱已被注册', reason: 'email_taken' } });
      expect((await reviewPost('/api/auth/login', { email: nfc, password: 'secret-pass' })).status).toBe(200);
    });
  });
});

function toFullWidth(text: string): string {
  return [...text]
    .map((c) => (c >= '!' && c <= '~' ? String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0) : c))
    .join('');
}
