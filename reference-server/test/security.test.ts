import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  expectDocumented,
  newUser,
  startTestServer,
  TEST_SECRET,
  type TestServer,
} from './helpers.js';

/** The security cases of issue #5 over a real server (embedded store; the cases do not depend on it). */
describe('security', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let user: Awaited<ReturnType<typeof newUser>>;

  beforeAll(async () => {
    server = await startTestServer({ kind: 'embedded' });
    api = client(server.url);
    user = await newUser(server.url);
  });
  afterAll(async () => {
    await server?.destroy();
  });

  const unauthenticated = { code: 401, message: '未登录或 Token 已过期', data: null };
  const now = () => Math.floor(Date.now() / 1000);
  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

  describe('tokens', () => {
    it('accepts the issued token', async () => {
      expect((await api.get('/api/v1/auth/me', { token: user.token })).status).toBe(200);
    });

    it('refuses alg none', async () => {
      const claims = jwt.decode(user.token) as jwt.JwtPayload;
      const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
      const res = await api.get('/api/v1/auth/me', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthenticated);
    });

    it('refuses a tampered payload and a tampered signature', async () => {
      const [header, payload, signature] = user.token.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as jwt.JwtPayload;
      const forged = `${header}.${base64url({ ...claims, sub: String(user.id + 1) })}.${signature}`;
      expect((await api.get('/api/v1/auth/me', { token: forged })).body).toEqual(unauthenticated);
      const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      expect((await api.get('/api/v1/auth/me', { token: flipped })).body).toEqual(unauthenticated);
    });

    it('refuses an expired token', async () => {
      const claims = jwt.decode(user.token) as jwt.JwtPayload;
      const token = jwt.sign({ ...claims, iat: now() - 7200, exp: now() - 3600 }, TEST_SECRET, {
        algorithm: 'HS256',
      });
      expect((await api.get('/api/v1/auth/me', { token })).body).toEqual(unauthenticated);
    });

    it('refuses a token without exp, another secret, another HMAC algorithm, or an unknown user', async () => {
      const claims = jwt.decode(user.token) as jwt.JwtPayload;
      const { exp: _exp, ...noExp } = claims;
      const cases = [
        jwt.sign(noExp, TEST_SECRET, { algorithm: 'HS256' }),
        jwt.sign(claims, 'another-secret-that-is-long-enough-0123456789', { algorithm: 'HS256' }),
        jwt.sign(claims, TEST_SECRET, { algorithm: 'HS512' }),
        jwt.sign({ ...claims, sub: '987654321' }, TEST_SECRET, { algorithm: 'HS256' }),
        jwt.sign({ ...claims, tv: claims.tv + 1 }, TEST_SECRET, { algorithm: 'HS256' }),
        jwt.sign({ ...claims, sub: { $gt: '' } } as unknown as object, TEST_SECRET, { algorithm: 'HS256' }),
      ];
      for (const token of cases) {
        const res = await api.get('/api/v1/auth/me', { token });
        expect(res.body, token).toEqual(unauthenticated);
      }
    });

    it('does not accept the cookie in place of the Authorization header on REST endpoints', async () => {
      const res = await api.get('/api/v1/auth/me', { headers: { cookie: `assetloom_token=${user.token}` } });
      expect(res.status).toBe(401);
    });
  });

  describe('request bodies', () => {
    const limit = () => server.config.http.bodyLimitBytes;

    it('answers 413 请求体过大 for a body over the limit (Content-Length)', async () => {
      const res = await api.call('POST', '/api/v1/projects', {
        token: user.token,
        raw: JSON.stringify({ name: 'x'.repeat(limit()) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        code: 413,
        message: '请求体过大',
        // the bound it met (decision 0052): BODY_LIMIT_BYTES
        data: { reason: 'payload_too_large', limit: { max: limit(), unit: 'bytes' } },
      });
    });

    it('answers 413 for an oversized chunked body without Content-Length', async () => {
      const big = Buffer.from(JSON.stringify({ username: 'x'.repeat(limit() * 2), password: 'abcdef' }));
      const { status, body } = await rawRequest(server.url, '/auth/register', big, {
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      });
      expect(status).toBe(413);
      expectDocumented('POST', '/auth/register', status, JSON.parse(body));
    });

    it.each([
      ['text/plain', 'text/plain'],
      ['form encoding', 'application/x-www-form-urlencoded'],
      ['multipart', 'multipart/form-data; boundary=x'],
      ['JSON in latin1', 'application/json; charset=latin1'],
    ])('answers 415 请求体必须是 JSON for %s', async (_case, type) => {
      const res = await api.call('POST', '/auth/login', {
        raw: JSON.stringify({ username: 'a', password: 'b' }),
        headers: { 'content-type': type },
      });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        code: 415,
        message: '请求体必须是 JSON',
        data: { reason: 'unsupported_media_type' },
      });
    });

    it.each([
      ['gzip', 'gzip', '/api/v1/projects', 'application/json'],
      ['deflate', 'deflate', '/api/v1/projects', 'application/json'],
      ['gzip, identity', 'gzip, identity', '/api/v1/projects', 'application/json'],
      ['an upload in gzip', 'gzip', '/api/v1/uploads', 'image/png'],
    ])(
      'answers 415 不支持的内容编码 for a %s body, never reading it as plain bytes (issue #37)',
      async (_case, encoding, path, type) => {
        const raw = gzipSync(Buffer.from(JSON.stringify({ name: 'Compressed' })));
        const res = await api.call('POST', path, {
          token: user.token,
          raw: new Uint8Array(raw),
          headers: { 'content-type': type, 'content-encoding': encoding },
        });
        expect(res.status).toBe(415);
        expect(res.body).toEqual({
          code: 415,
          message: '不支持的内容编码',
          data: { reason: 'unsupported_content_encoding' },
        });
        const english = await api.call('POST', path, {
          token: user.token,
          raw: new Uint8Array(raw),
          headers: { 'content-type': type, 'content-encoding': encoding, 'accept-language': 'en' },
        });
        expect(english.body.message).toMatch(/must not be compressed/);
      },
    );

    it('reads a body whose Content-Encoding is identity', async () => {
      const res = await api.call('POST', '/api/v1/projects', {
        token: user.token,
        raw: JSON.stringify({ name: 'Plain' }),
        headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      });
      expect(res.status).toBe(200);
    });

    it('answers 415 for a body without a content type', async () => {
      const { status, body } = await rawRequest(
        server.url,
        '/auth/login',
        Buffer.from('{"username":"a"}'),
        {},
      );
      expect(status).toBe(415);
      expectDocumented('POST', '/auth/login', status, JSON.parse(body));
    });

    it.each([
      ['truncated JSON', '{"username": "a", '],
      ['single quotes', "{'username': 'a'}"],
      ['trailing garbage', '{"username":"abc","password":"abcdef"} x'],
      ['an empty body', ''],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
    ])('answers 400 参数错误 for %s', async (_case, raw) => {
      const res = await api.call('POST', '/auth/register', {
        raw: typeof raw === 'string' ? raw : new Uint8Array(raw),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 400,
        message: '参数错误',
        data: expect.objectContaining({ reason: 'invalid_request' }),
      });
    });

    it('rejects __proto__ and constructor keys in bodies without polluting anything', async () => {
      const raw = '{"name":"p","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
      const res = await api.call('POST', '/api/v1/projects', {
        token: user.token,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    });

    it('accepts application/json with charset=utf-8 and vendor +json types', async () => {
      for (const type of ['application/json; charset=utf-8', 'application/vnd.assetloom+json']) {
        const res = await api.call('POST', '/api/v1/projects', {
          token: user.token,
          raw: JSON.stringify({ name: `typed ${type}` }),
          headers: { 'content-type': type },
        });
        expect(res.status, type).toBe(200);
      }
    });
  });

  describe('operator injection', () => {
    it('never lets a client object reach a filter', async () => {
      const cases: [string, string, unknown][] = [
        ['POST', '/auth/login', { username: { $gt: '' }, password: { $gt: '' } }],
        ['POST', '/auth/login', { username: { $regex: '.*' }, password: 'x' }],
        ['POST', '/auth/register', { username: { $gt: '' }, password: 'abcdef' }],
        ['POST', '/api/v1/generate', { projectId: { $gt: '' }, prompt: 'x', assetType: 'sprite' }],
        ['PUT', '/api/v1/auth/password', { oldPassword: { $gt: '' }, newPassword: 'abcdefg' }],
      ];
      for (const [method, path, json] of cases) {
        const res = await api.call(method, path, { json, token: user.token });
        expect(res.status, `${method} ${path}`).toBe(400);
      }
      // Unknown query keys are dropped by the validator; operator-looking values of known keys are 400.
      const viaQuery = await api.get('/api/v1/projects?page[$gt]=0&pageSize[$ne]=1', { token: user.token });
      expect(viaQuery.status).toBe(200);
      expect((await api.get('/api/v1/projects?page={"$gt":0}', { token: user.token })).status).toBe(400);
    });
  });
});

/** A request over node:http, for bodies fetch will not send (chunked without length, no content type). */
function rawRequest(
  base: string,
  path: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = request(`${base}${path}`, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolvePromise({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    // The server may answer and stop reading before the whole body is sent.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    if (headers['transfer-encoding'] === 'chunked') {
      for (let offset = 0; offset < body.length; offset += 16 * 1024)
        req.write(body.subarray(offset, offset + 16 * 1024));
    } else {
      req.setHeader('content-length', String(body.length));
      req.write(body);
    }
    req.end();
  });
}
