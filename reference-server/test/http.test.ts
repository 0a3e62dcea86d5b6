import { injectMongoUri } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  newUser,
  type StoreTarget,
  startTestServer,
  type TestServer,
  uniqueName,
} from './helpers.js';

/**
 * Every endpoint of this issue and every error row of spec 000 over a real listening server, on the
 * embedded store and on MongoDB (MONGODB_URI or the FerretDB the global setup starts). Every
 * response is checked against the OpenAPI document by the client in helpers.ts.
 */
const mongoUri = injectMongoUri('reference-server HTTP suite on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];

describe.each(targets)('HTTP API on the %s store', (_name, target) => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let alice: Awaited<ReturnType<typeof newUser>>;
  let bob: Awaited<ReturnType<typeof newUser>>;

  beforeAll(async () => {
    if (target === null) return;
    server = await startTestServer(target);
    api = client(server.url);
    alice = await newUser(server.url, { email: `${uniqueName('a')}@example.com` });
    bob = await newUser(server.url);
  });
  afterAll(async () => {
    await server?.destroy();
  });

  const suite = target === null ? describe.skip : describe;

  suite('health and the envelope', () => {
    it('answers health publicly with status, version and time', async () => {
      const res = await api.get('/api/v1/health');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code: 0, message: 'ok', data: { status: 'ok' } });
      expect(Date.parse(res.body.data.time)).not.toBeNaN();
    });

    it('echoes a sane X-Request-Id and replaces anything else', async () => {
      const echoed = await api.get('/api/v1/health', { headers: { 'x-request-id': 'trace-123' } });
      expect(echoed.headers.get('x-request-id')).toBe('trace-123');
      const long = await api.get('/api/v1/health', { headers: { 'x-request-id': 'x'.repeat(200) } });
      expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it.each([
      ['GET', '/nope'],
      ['GET', '/api/v1/nope'],
      ['POST', '/api/v2/projects'],
      ['GET', '/api/v1/tasks/abc/unknown'],
    ])('answers %s %s with 404 接口不存在', async (method, path) => {
      const res = await api.call(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 404, message: '接口不存在', data: { reason: 'route_not_found' } });
    });

    it.each([
      ['DELETE', '/api/v1/health'],
      ['PATCH', '/api/v1/projects'],
      ['POST', '/api/v1/auth/me'],
      ['GET', '/auth/login'],
      ['PUT', '/api/v1/tasks/abc'],
    ])('answers %s %s with 405 请求方法不允许 and Allow', async (method, path) => {
      const res = await api.call(method, path);
      expect(res.status).toBe(405);
      expect(res.body).toEqual({
        code: 405,
        message: '请求方法不允许',
        data: { reason: 'method_not_allowed' },
      });
      expect(res.headers.get('allow')).toBeTruthy();
    });
  });

  suite('register', () => {
    it('creates a user with 201 {id, username}', async () => {
      const username = uniqueName('reg');
      const res = await api.post('/auth/register', {
        username,
        password: 'abcdef',
        email: `${username}@x.org`,
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({ id: expect.any(Number), username });
    });

    it.each([
      ['username of 2 characters', { username: 'ab', password: 'abcdef' }],
      ['username of 33 characters', { username: 'a'.repeat(33), password: 'abcdef' }],
      ['password too short', { username: 'valid-name', password: '12345' }],
      ['password too long', { username: 'valid-name', password: 'p'.repeat(65) }],
      ['invalid e-mail', { username: 'valid-name', password: 'abcdef', email: 'not-an-email' }],
      ['missing username', { password: 'abcdef' }],
      ['missing password', { username: 'valid-name' }],
      ['unknown field (mass assignment)', { username: 'valid-name', password: 'abcdef', tokenVersion: 9 }],
      ['operator object as username', { username: { $gt: '' }, password: 'abcdef' }],
      ['number as username', { username: 12345, password: 'abcdef' }],
    ])('rejects %s with 400 参数错误', async (_case, body) => {
      const res = await api.post('/auth/register', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 400,
        message: '参数错误',
        data: expect.objectContaining({ reason: 'invalid_request' }),
      });
    });

    it('answers 409 用户名已被注册 for a taken username', async () => {
      const res = await api.post('/auth/register', { username: alice.username, password: 'another' });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('用户名已被注册');
    });

    it('answers 409 邮箱已被注册 for a taken e-mail', async () => {
      const username = uniqueName('mail');
      const email = `${username}@example.com`;
      expect((await api.post('/auth/register', { username, password: 'abcdef', email })).status).toBe(201);
      const res = await api.post('/auth/register', { username: `${username}2`, password: 'abcdef', email });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('邮箱已被注册');
    });

    it('lets many users register without an e-mail', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await api.post('/auth/register', { username: uniqueName('nomail'), password: 'abcdef' });
        expect(res.status).toBe(201);
      }
    });
  });

  suite('login', () => {
    it('answers token, expiresIn and user, and sets the httpOnly cookie', async () => {
      const res = await api.post('/auth/login', { username: alice.username, password: alice.password });
      expect(res.status).toBe(200);
      expect(res.body.data.expiresIn).toBe(server.config.auth.tokenTtlSeconds);
      expect(res.body.data.user).toMatchObject({ id: alice.id, username: alice.username });
      expect(res.body.data.user.email).toMatch(/@example\.com$/);
      const cookie = res.headers.get('set-cookie') ?? '';
      expect(cookie).toContain(`assetloom_token=${res.body.data.token}`);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).toMatch(/Secure/); // NODE_ENV=test is not development
    });

    it('gives the same 401 for an unknown user and a wrong password', async () => {
      const unknown = await api.post('/auth/login', { username: uniqueName('ghost'), password: 'whatever' });
      const wrong = await api.post('/auth/login', { username: bob.username, password: 'wrong-password' });
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect(unknown.body).toEqual({
        code: 401,
        message: '用户名或密码错误',
        data: { reason: 'bad_credentials' },
      });
      expect(wrong.body).toEqual(unknown.body);
    });

    it.each([
      ['operator objects', { username: { $gt: '' }, password: { $gt: '' } }],
      ['$ne operator', { username: { $ne: null }, password: 'x' }],
      ['missing password', { username: 'someone' }],
      ['an array body', [1, 2]],
      ['a null body', null],
    ])('rejects %s with 400', async (_case, body) => {
      const res = await api.call('POST', '/auth/login', {
        raw: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('参数错误');
    });

    it('rate-limits failed logins per username + IP with 429 and Retry-After', async () => {
      const victim = await newUser(server.url);
      for (let i = 0; i < server.config.auth.loginMaxFailures; i++) {
        const res = await api.post('/auth/login', { username: victim.username, password: 'wrong-guess' });
        expect(res.status).toBe(401);
      }
      const limited = await api.post('/auth/login', { username: victim.username, password: 'wrong-guess' });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        code: 429,
        message: '请求过于频繁，请稍后再试',
        data: { reason: 'too_many_requests' },
      });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Even the right password waits now; another username from the same IP does not.
      const right = await api.post('/auth/login', { username: victim.username, password: victim.password });
      expect(right.status).toBe(429);
      const other = await api.post('/auth/login', { username: bob.username, password: bob.password });
      expect(other.status).toBe(200);
    });
  });

  suite('current user and password change', () => {
    it('answers me with a string id', async () => {
      const res = await api.get('/api/v1/auth/me', { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: String(alice.id), username: alice.username });
    });

    it.each([
      ['no Authorization header', {}],
      ['an empty bearer', { authorization: 'Bearer ' }],
      ['a Basic credential', { authorization: 'Basic YWxpY2U6cGFzcw==' }],
      ['garbage', { authorization: 'Bearer not.a.jwt' }],
    ])('answers 401 未登录或 Token 已过期 with %s', async (_case, headers) => {
      const res = await api.get('/api/v1/auth/me', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 401, message: '未登录或 Token 已过期', data: null });
    });

    it('answers 400 原密码不正确 for a wrong old password and 400 参数错误 for a short new one', async () => {
      const wrong = await api.put(
        '/api/v1/auth/password',
        { oldPassword: 'not-it', newPassword: 'brand-new' },
        { token: alice.token },
      );
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe('原密码不正确');
      const short = await api.put(
        '/api/v1/auth/password',
        { oldPassword: alice.password, newPassword: '123' },
        { token: alice.token },
      );
      expect(short.status).toBe(400);
      expect(short.body.message).toBe('参数错误');
    });

    it('changes the password, answers a fresh token and invalidates older tokens', async () => {
      const user = await newUser(server.url);
      const res = await api.put(
        '/api/v1/auth/password',
        { oldPassword: user.password, newPassword: 'new-password-1' },
        { token: user.token },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toContain(`assetloom_token=${res.body.data.token}`);
      expect((await api.get('/api/v1/auth/me', { token: user.token })).status).toBe(401);
      expect((await api.get('/api/v1/auth/me', { token: res.body.data.token })).status).toBe(200);
      const oldLogin = await api.post('/auth/login', { username: user.username, password: user.password });
      expect(oldLogin.status).toBe(401);
      const newLogin = await api.post('/auth/login', { username: user.username, password: 'new-password-1' });
      expect(newLogin.status).toBe(200);
    });
  });

  suite('projects', () => {
    it('creates, lists (newest first), reads, renames and deletes', async () => {
      const owner = await newUser(server.url);
      const empty = await api.get('/api/v1/projects', { token: owner.token });
      expect(empty.body.data).toEqual({ total: 0, projects: [] });

      const first = await api.post('/api/v1/projects', { name: 'First' }, { token: owner.token });
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ name: 'First', style: { kvPairs: {} }, taskCount: 0 });
      const style = { artStyle: 'pixel', palette: 'sweetie16', lineWeight: '1', lighting: 'top-left' };
      const second = await api.post('/api/v1/projects', { name: 'Second', style }, { token: owner.token });
      expect(second.body.data.style).toEqual({ kvPairs: style });

      const list = await api.get('/api/v1/projects', { token: owner.token });
      expect(list.body.data.total).toBe(2);
      expect(list.body.data.projects.map((p: { name: string }) => p.name)).toEqual(['Second', 'First']);

      const page2 = await api.get('/api/v1/projects?page=2&pageSize=1', { token: owner.token });
      expect(page2.body.data).toMatchObject({ total: 2, projects: [{ name: 'First' }] });

      const id = first.body.data.id as string;
      const read = await api.get(`/api/v1/projects/${id}`, { token: owner.token });
      expect(read.body.data).toEqual({
        id,
        name: 'First',
        createdAt: first.body.data.createdAt,
        updatedAt: expect.any(String),
      });

      const renamed = await api.put(`/api/v1/projects/${id}`, { name: 'Renamed' }, { token: owner.token });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data.name).toBe('Renamed');
      expect(Date.parse(renamed.body.data.updatedAt)).toBeGreaterThanOrEqual(
        Date.parse(read.body.data.updatedAt),
      );

      const deleted = await api.del(`/api/v1/projects/${id}`, { token: owner.token });
      expect(deleted.body).toEqual({ code: 0, message: 'ok', data: null });
      expect((await api.get(`/api/v1/projects/${id}`, { token: owner.token })).status).toBe(404);
      expect((await api.get('/api/v1/projects', { token: owner.token })).body.data.total).toBe(1);
    });

    it('answers repeated reads byte-exact and follows every change between them', async () => {
      const owner = await newUser(server.url);
      const created = await api.post('/api/v1/projects', { name: '骑士工程' }, { token: owner.token });
      const id = created.body.data.id as string;
      const exact = (res: { headers: Headers; text: string; body: unknown }) => {
        expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
        expect(res.text).toBe(JSON.stringify(res.body));
        return res.body as { data: { projects: { name: string; taskCount: number }[] } };
      };
      const first = await api.get('/api/v1/projects', { token: owner.token });
      const again = await api.get('/api/v1/projects', { token: owner.token });
      expect(exact(again)).toEqual(exact(first));
      expect(first.body.data.projects[0]).toMatchObject({ name: '骑士工程', taskCount: 0 });

      await api.put(`/api/v1/projects/${id}`, { name: '改名后的工程 "quoted"' }, { token: owner.token });
      const renamed = exact(await api.get('/api/v1/projects', { token: owner.token }));
      expect(renamed.data.projects[0]?.name).toBe('改名后的工程 "quoted"');

      const generated = await api.post(
        '/api/v1/generate',
        { projectId: id, prompt: '一个像素骑士', assetType: 'sprite' },
        { token: owner.token },
      );
      const taskId = generated.body.data.taskId as string;
      expect(
        exact(await api.get('/api/v1/projects', { token: owner.token })).data.projects[0]?.taskCount,
      ).toBe(1);
      // the in-process worker moves the task on: every read shows where it is, never an older state
      type TaskBody = { data: { taskId: string; status: string; progress: number } };
      let task = exact(
        await api.get(`/api/v1/tasks/${taskId}`, { token: owner.token }),
      ) as unknown as TaskBody;
      for (let i = 0; i < 400 && (task.data.status === 'running' || task.data.status === 'saving'); i++) {
        await new Promise((resolveWait) => setTimeout(resolveWait, 25));
        const next = exact(
          await api.get(`/api/v1/tasks/${taskId}`, { token: owner.token }),
        ) as unknown as TaskBody;
        expect(next.data.taskId).toBe(taskId);
        expect(next.data.progress).toBeGreaterThanOrEqual(task.data.progress);
        task = next;
      }
      expect(task.data).toMatchObject({ status: 'completed', progress: 100 });
      expect(exact(await api.get(`/api/v1/tasks/${taskId}`, { token: owner.token }))).toEqual(task);

      // another user reads neither the list nor the task, however often it was answered before
      const other = await newUser(server.url);
      expect((await api.get(`/api/v1/tasks/${taskId}`, { token: other.token })).status).toBe(403);
      expect((await api.get('/api/v1/projects', { token: other.token })).body.data).toEqual({
        total: 0,
        projects: [],
      });

      await api.del(`/api/v1/projects/${id}`, { token: owner.token });
      expect(exact(await api.get('/api/v1/projects', { token: owner.token })).data.projects).toEqual([]);
      expect((await api.get(`/api/v1/tasks/${taskId}`, { token: owner.token })).status).toBe(404);
    });

    it.each([
      ['missing name', {}],
      ['blank name', { name: '   ' }],
      ['empty name', { name: '' }],
      ['name of 101 characters', { name: 'n'.repeat(101) }],
      ['a non-string style value', { name: 'p', style: { artStyle: 3 } }],
      ['a nested style value', { name: 'p', style: { artStyle: { $gt: '' } } }],
      ['a style key of 65 characters', { name: 'p', style: { ['k'.repeat(65)]: 'v' } }],
      [
        '33 style pairs',
        { name: 'p', style: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v'])) },
      ],
      ['an unknown field', { name: 'p', ownerId: 1 }],
      ['taskCount from the client', { name: 'p', taskCount: 99 }],
    ])('rejects a create with %s (400 参数错误)', async (_case, body) => {
      const res = await api.post('/api/v1/projects', body, { token: alice.token });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('参数错误');
    });

    it.each([
      ['page=0', 'page=0'],
      ['pageSize=0', 'pageSize=0'],
      ['pageSize=101', 'pageSize=101'],
      ['page=abc', 'page=abc'],
      ['page=1.5', 'page=1.5'],
      ['a repeated page', 'page=1&page=2'],
      ['a repeated pageSize', 'pageSize=1&pageSize=1'],
    ])('rejects a list with %s (400 参数错误)', async (_case, query) => {
      const res = await api.get(`/api/v1/projects?${query}`, { token: alice.token });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('参数错误');
    });

    it('ignores unknown and operator-looking query parameters (they never reach the store)', async () => {
      const plain = await api.get('/api/v1/projects', { token: alice.token });
      const odd = await api.get('/api/v1/projects?page[$gt]=0&pageSize[$ne]=1&$where=1&sort=-name', {
        token: alice.token,
      });
      expect(odd.status).toBe(200);
      expect(odd.body.data).toEqual(plain.body.data);
    });

    it('accepts pageSize at the bounds 1 and 100', async () => {
      expect((await api.get('/api/v1/projects?pageSize=1', { token: alice.token })).status).toBe(200);
      expect((await api.get('/api/v1/projects?pageSize=100', { token: alice.token })).status).toBe(200);
    });

    it('answers 404 工程不存在 for unknown and malformed ids and 403 无权访问该工程 for foreign ones', async () => {
      const created = await api.post('/api/v1/projects', { name: 'Alice only' }, { token: alice.token });
      const id = created.body.data.id as string;
      for (const path of [
        `/api/v1/projects/${id}`,
        `/api/v1/projects/${id}/tasks`,
        `/api/v1/projects/${id}/style`,
      ]) {
        const foreign = await api.get(path, { token: bob.token });
        expect(foreign.status).toBe(403);
        expect(foreign.body).toEqual({
          code: 403,
          message: '无权访问该工程',
          data: { reason: 'project_forbidden' },
        });
      }
      expect((await api.put(`/api/v1/projects/${id}`, { name: 'x' }, { token: bob.token })).status).toBe(403);
      expect(
        (await api.put(`/api/v1/projects/${id}/style`, { kvPairs: {} }, { token: bob.token })).status,
      ).toBe(403);
      expect((await api.del(`/api/v1/projects/${id}`, { token: bob.token })).status).toBe(403);
      // Still there for its owner.
      expect((await api.get(`/api/v1/projects/${id}`, { token: alice.token })).status).toBe(200);

      const malformed = [
        'AAAAAAAAAAAAAAAAAAAAAA',
        'x'.repeat(65),
        encodeURIComponent('{"$gt":""}'),
        '%24where',
        encodeURIComponent('../../etc'),
        '%E0%A4%A',
      ];
      for (const bad of malformed) {
        for (const suffix of ['', '/tasks', '/style']) {
          const res = await api.get(`/api/v1/projects/${bad}${suffix}`, { token: alice.token });
          expect(res.status, `${bad}${suffix}`).toBe(404);
          expect(res.body.message).toBe('工程不存在');
        }
        expect((await api.del(`/api/v1/projects/${bad}`, { token: alice.token })).status).toBe(404);
      }
    });

    it('needs a token for every project endpoint', async () => {
      for (const [method, path] of [
        ['GET', '/api/v1/projects'],
        ['POST', '/api/v1/projects'],
        ['GET', '/api/v1/projects/abc'],
        ['PUT', '/api/v1/projects/abc'],
        ['DELETE', '/api/v1/projects/abc'],
        ['GET', '/api/v1/projects/abc/tasks'],
        ['GET', '/api/v1/projects/abc/style'],
        ['PUT', '/api/v1/projects/abc/style'],
        ['POST', '/api/v1/generate'],
        ['GET', '/api/v1/tasks/abc'],
      ] as const) {
        const res = await api.call(method, path, {
          json: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        expect(res.status, `${method} ${path}`).toBe(401);
      }
    });
  });

  suite('styles', () => {
    it('reads and replaces the whole map', async () => {
      const created = await api.post(
        '/api/v1/projects',
        { name: 'Styled', style: { artStyle: 'pixel', mood: 'calm' } },
        { token: alice.token },
      );
      const id = created.body.data.id as string;
      const read = await api.get(`/api/v1/projects/${id}/style`, { token: alice.token });
      expect(read.body.data).toEqual({ kvPairs: { artStyle: 'pixel', mood: 'calm' } });
      // A palette the generator does not read is refused with the ones it does (decision 0037)…
      const unknown = await api.put(
        `/api/v1/projects/${id}/style`,
        { kvPairs: { palette: 'db32' } },
        { token: alice.token },
      );
      expect(unknown.status).toBe(400);
      expect(unknown.body.data.errors).toEqual([
        expect.objectContaining({ in: 'body', path: '/kvPairs/palette', rule: 'styleValue' }),
      ]);
      expect(unknown.body.data.errors[0].allowed).toContain('endesga32');
      // …and the map is unchanged; a known one replaces the whole map.
      expect((await api.get(`/api/v1/projects/${id}/style`, { token: alice.token })).body.data).toEqual({
        kvPairs: { artStyle: 'pixel', mood: 'calm' },
      });
      const put = await api.put(
        `/api/v1/projects/${id}/style`,
        { kvPairs: { palette: 'endesga32' } },
        { token: alice.token },
      );
      expect(put.body.data).toEqual({ kvPairs: { palette: 'endesga32' } });
      expect((await api.get(`/api/v1/projects/${id}/style`, { token: alice.token })).body.data).toEqual({
        kvPairs: { palette: 'endesga32' },
      });
    });

    it('stores keys that look like operators or paths as plain keys', async () => {
      const created = await api.post('/api/v1/projects', { name: 'Odd keys' }, { token: alice.token });
      const id = created.body.data.id as string;
      const kvPairs = { $gt: 'a', 'a.b': 'c', __proto__x: 'd', constructor: 'e' };
      const put = await api.put(`/api/v1/projects/${id}/style`, { kvPairs }, { token: alice.token });
      expect(put.status).toBe(200);
      const read = await api.get(`/api/v1/projects/${id}/style`, { token: alice.token });
      expect(read.body.data.kvPairs).toEqual(kvPairs);
    });

    it.each([
      ['a missing kvPairs', {}],
      ['a number value', { kvPairs: { a: 1 } }],
      ['a null value', { kvPairs: { a: null } }],
      ['an array', { kvPairs: ['a'] }],
      ['an extra field', { kvPairs: {}, extra: true }],
      ['a 257-character value', { kvPairs: { a: 'v'.repeat(257) } }],
    ])('rejects %s with 400', async (_case, body) => {
      const created = await api.post('/api/v1/projects', { name: 'Strict' }, { token: alice.token });
      const res = await api.put(`/api/v1/projects/${created.body.data.id}/style`, body, {
        token: alice.token,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('参数错误');
    });
  });

  suite('generate and tasks', () => {
    let projectId: string;
    beforeAll(async () => {
      if (target === null) return;
      const created = await api.post(
        '/api/v1/projects',
        { name: 'Tasks', style: { artStyle: 'pixel' } },
        { token: alice.token },
      );
      projectId = created.body.data.id;
    });

    it('creates a running task with the defaults filled in, and lists it', async () => {
      const res = await api.post(
        '/api/v1/generate',
        { projectId, prompt: 'a knight', assetType: 'sprite' },
        { token: alice.token },
      );
      expect(res.status).toBe(200);
      const taskId = res.body.data.taskId as string;
      const task = await api.get(`/api/v1/tasks/${taskId}`, { token: alice.token });
      expect(task.body.data).toMatchObject({
        taskId,
        projectId,
        prompt: 'a knight',
        assetType: 'sprite',
        taskStyle: null,
        params: { resolution: 64, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
        status: 'running',
        stage: 'prompt_builder',
        progress: 0,
        retryCount: 0,
        error: null,
      });
      const list = await api.get(`/api/v1/projects/${projectId}/tasks`, { token: alice.token });
      expect(list.body.data.tasks[0]).toMatchObject({ id: taskId, prompt: 'a knight', status: 'running' });
      const projects = await api.get('/api/v1/projects?pageSize=100', { token: alice.token });
      const item = projects.body.data.projects.find((p: { id: string }) => p.id === projectId);
      expect(item.taskCount).toBeGreaterThanOrEqual(1);
      expect(Date.parse(item.lastActivityAt)).toBeGreaterThanOrEqual(Date.parse(task.body.data.createdAt));
    });

    it('returns the existing task for a duplicate, also under concurrency', async () => {
      const body = { projectId, prompt: 'a castle', assetType: 'background', params: { resolution: 128 } };
      const results = await Promise.all(
        Array.from({ length: 20 }, () => api.post('/api/v1/generate', body, { token: alice.token })),
      );
      const ids = new Set(results.map((r) => r.body.data.taskId));
      expect(ids.size).toBe(1);
      const list = await api.get(`/api/v1/projects/${projectId}/tasks?pageSize=100`, { token: alice.token });
      expect(list.body.data.tasks.filter((t: { prompt: string }) => t.prompt === 'a castle')).toHaveLength(1);
      // background ignores frames: the same request with frames is the same task.
      const withFrames = await api.post(
        '/api/v1/generate',
        { ...body, params: { resolution: 128, frames: { directions: 8 } } },
        { token: alice.token },
      );
      expect(withFrames.body.data.taskId).toBe([...ids][0]);
    });

    it('params.seed: kept on the task, a separate task per seed, and the drawing records how it read the prompt', async () => {
      const body = (seed: number) => ({
        projectId,
        prompt: 'a red fox',
        assetType: 'sprite',
        params: { resolution: 32, seed, frames: { directions: 1, framesPerDirection: 1 } },
      });
      const a = await api.post('/api/v1/generate', body(7), { token: alice.token });
      const b = await api.post('/api/v1/generate', body(8), { token: alice.token });
      expect(a.status).toBe(200);
      expect(b.body.data.taskId).not.toBe(a.body.data.taskId);
      const again = await api.post('/api/v1/generate', body(7), { token: alice.token });
      expect(again.body.data.taskId).toBe(a.body.data.taskId);
      const taskId = a.body.data.taskId as string;
      let task = await api.get(`/api/v1/tasks/${taskId}`, { token: alice.token });
      expect(task.body.data.params.seed).toBe(7);
      for (
        let i = 0;
        i < 400 && task.body.data.status !== 'completed' && task.body.data.status !== 'failed';
        i++
      ) {
        await new Promise((r) => setTimeout(r, 25));
        task = await api.get(`/api/v1/tasks/${taskId}`, { token: alice.token });
      }
      expect(task.body.data.status).toBe('completed');
      const assets = await api.get(`/api/v1/tasks/${taskId}/assets`, { token: alice.token });
      const meta = assets.body.data.assets[0].metadata;
      expect(meta.interpretation).toMatchObject({ subject: 'fox', understood: ['red', 'fox'], ignored: [] });
      expect(
        meta.provenance.quality.checks.find((c: { name: string }) => c.name === 'prompt_adherence').passed,
      ).toBe(true);
      const bad = await api.post('/api/v1/generate', body(-1), { token: alice.token });
      expect(bad.status).toBe(400);
    });

    it('honours Idempotency-Key', async () => {
      const headers = { 'idempotency-key': `key-${uniqueName()}` };
      const a = await api.post(
        '/api/v1/generate',
        { projectId, prompt: 'idem 1', assetType: 'ui' },
        { token: alice.token, headers },
      );
      const b = await api.post(
        '/api/v1/generate',
        { projectId, prompt: 'idem 2', assetType: 'ui' },
        { token: alice.token, headers },
      );
      expect(b.body.data.taskId).toBe(a.body.data.taskId);
    });

    it.each([
      ['an empty prompt', { prompt: '' }],
      ['a blank prompt', { prompt: '   \n\t' }],
      ['a missing prompt', { prompt: undefined }],
    ])('answers 400 prompt 不能为空 for %s', async (_case, patch) => {
      const res = await api.post(
        '/api/v1/generate',
        { projectId, assetType: 'sprite', ...patch },
        { token: alice.token },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 400,
        message: 'prompt 不能为空',
        data: expect.objectContaining({ reason: 'empty_prompt' }),
      });
    });

    it.each([
      ['an unknown assetType', { assetType: 'model3d' }],
      ['resolution 8', { params: { resolution: 8 } }],
      ['resolution 2048', { params: { resolution: 2048 } }],
      ['directions 3', { params: { frames: { directions: 3 } } }],
      ['framesPerDirection 17', { params: { frames: { framesPerDirection: 17 } } }],
      ['an unknown format', { params: { format: 'gif' } }],
      ['an unknown field', { priority: 'high' }],
      ['a non-string taskStyle value', { taskStyle: { mood: 1 } }],
      ['an operator as projectId', { projectId: { $ne: null } }],
    ])('answers 400 参数错误 for %s', async (_case, patch) => {
      const res = await api.post(
        '/api/v1/generate',
        { projectId, prompt: 'p', assetType: 'sprite', ...patch },
        { token: alice.token },
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('参数错误');
    });

    it('answers 403 无权访问该工程 for an unknown or foreign project', async () => {
      for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', projectId]) {
        const res = await api.post(
          '/api/v1/generate',
          { projectId: id, prompt: 'p', assetType: 'sprite' },
          { token: bob.token },
        );
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          code: 403,
          message: '无权访问该工程',
          data: { reason: 'project_forbidden' },
        });
      }
    });

    it('answers 404 任务不存在 for unknown and malformed task ids, 403 无权访问该任务 for foreign ones', async () => {
      const res = await api.post(
        '/api/v1/generate',
        { projectId, prompt: 'mine', assetType: 'ui' },
        { token: alice.token },
      );
      const foreign = await api.get(`/api/v1/tasks/${res.body.data.taskId}`, { token: bob.token });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toEqual({
        code: 403,
        message: '无权访问该任务',
        data: { reason: 'task_forbidden' },
      });
      for (const bad of ['AAAAAAAAAAAAAAAAAAAAAA', 't'.repeat(80), encodeURIComponent('{"$gt":""}')]) {
        const unknown = await api.get(`/api/v1/tasks/${bad}`, { token: alice.token });
        expect(unknown.status).toBe(404);
        expect(unknown.body).toEqual({
          code: 404,
          message: '任务不存在',
          data: { reason: 'task_not_found' },
        });
      }
    });

    it('cascades a project delete to its tasks', async () => {
      const project = await api.post('/api/v1/projects', { name: 'Doomed' }, { token: alice.token });
      const id = project.body.data.id as string;
      const task = await api.post(
        '/api/v1/generate',
        { projectId: id, prompt: 'doomed', assetType: 'sprite' },
        { token: alice.token },
      );
      expect((await api.del(`/api/v1/projects/${id}`, { token: alice.token })).status).toBe(200);
      expect((await api.get(`/api/v1/tasks/${task.body.data.taskId}`, { token: alice.token })).status).toBe(
        404,
      );
      expect((await api.get(`/api/v1/projects/${id}/tasks`, { token: alice.token })).status).toBe(404);
    });
  });
});
