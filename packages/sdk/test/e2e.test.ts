// The clients against a real HTTP server on 127.0.0.1 (node:http): ky + openapi-fetch over a real
// socket, redirects, Retry-After, dropped connections and the review-helper session cookie.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAssetClient, createReviewAuthClient } from '../src/index.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
const counters = new Map<string, number>();

function count(key: string): number {
  const n = (counters.get(key) ?? 0) + 1;
  counters.set(key, n);
  return n;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': 'srv',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

const ok = (data: unknown) => ({ code: 0, message: 'ok', data });
const task = (status: string, progress: number) => ({
  taskId: 't1',
  projectId: 'p1',
  prompt: 'a knight',
  assetType: 'sprite',
  taskStyle: null,
  params: { resolution: 64, format: 'spritesheet', frames: { directions: 4, framesPerDirection: 4 } },
  status,
  stage: status === 'running' ? 'asset_generator' : 'format_adapter',
  progress,
  retryCount: 0,
  error: null,
  createdAt: '2026-01-31T12:00:00.000Z',
  updatedAt: '2026-01-31T12:00:00.000Z',
});

async function handle(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const entry = {
    method: req.method ?? '',
    path: url.pathname,
    headers: req.headers,
    body: Buffer.concat(chunks).toString(),
  };
  seen.push(entry);
  const route = `${req.method} ${url.pathname}`;
  const authed = req.headers.authorization === 'Bearer jwt-e2e';

  switch (route) {
    case 'POST /auth/login': {
      const body = JSON.parse(entry.body) as { username: string; password: string };
      if (body.password !== 'secret1')
        return send(res, 401, { code: 401, message: '用户名或密码错误', data: null });
      const user = { id: 1, username: body.username, email: null, createdAt: 'x', updatedAt: 'x' };
      return send(res, 200, ok({ token: 'jwt-e2e', expiresIn: 3600, user }), {
        'set-cookie': 'assetloom_token=jwt-e2e; Path=/; HttpOnly; SameSite=Lax',
      });
    }
    case 'GET /api/v1/projects': {
      if (!authed) return send(res, 401, { code: 401, message: '未登录或 Token 已过期', data: null });
      const page = Number(url.searchParams.get('page'));
      const all = ['p3', 'p2', 'p1'].map((id) => ({
        id,
        name: id,
        createdAt: 'x',
        taskCount: 1,
        lastActivityAt: 'x',
      }));
      return send(res, 200, ok({ total: 3, projects: all.slice(page - 1, page) }));
    }
    case 'POST /api/v1/generate': {
      // The first submission is cut off after the server read it: the client cannot know whether it landed.
      if (count('generate') === 1) return req.socket.destroy();
      return send(res, 200, ok({ taskId: 't1' }));
    }
    case 'GET /api/v1/tasks/t1': {
      const n = count('task');
      if (n === 1) return send(res, 503, { code: 500, message: 'busy', data: null }, { 'retry-after': '0' });
      return send(res, 200, ok(n < 4 ? task('running', n * 20) : task('completed', 100)));
    }
    case 'GET /api/v1/assets/download': {
      const key = url.searchParams.get('key');
      if (!key) return send(res, 400, { code: 400, message: '参数错误', data: null });
      if (key !== 'p1/t1/sprite.png') return send(res, 404, { code: 404, message: '资源不存在', data: null });
      res.writeHead(302, { location: `/files/${key}?e=9999999999&token=sig` });
      return res.end();
    }
    case 'GET /files/p1/t1/sprite.png': {
      if (url.searchParams.get('token') !== 'sig')
        return send(res, 403, { code: 403, message: '无权访问该资源', data: null });
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG.length) });
      return res.end(PNG);
    }
    case 'GET /api/v1/health':
      return; // never answers: the client's timeout must end the wait
    case 'POST /api/auth/login': {
      const body = JSON.parse(entry.body) as { email?: string; password?: string };
      if (!body.email || !body.password) return send(res, 400, { error: '邮箱和密码为必填项' });
      if (body.password !== 'secret1') return send(res, 401, { error: '邮箱或密码错误' });
      return send(
        res,
        200,
        { ok: true },
        { 'set-cookie': `review_sid=sid-${count('sid')}; Path=/; HttpOnly; SameSite=Lax` },
      );
    }
    case 'POST /api/auth/logout':
      res.writeHead(302, {
        location: '/login',
        'set-cookie': 'review_sid=; Path=/; HttpOnly; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      });
      return res.end();
    case 'GET /login':
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<h1>login</h1>');
    default:
      return send(res, 404, { code: 404, message: '接口不存在', data: null });
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

describe('asset client over a real socket', () => {
  test('login, then authenticated pages, then generate → waitForTask → downloadAsset', async () => {
    const api = createAssetClient({ baseUrl, retry: { backoff: () => 1 } });
    const denied = await api.GET('/api/v1/projects');
    expect(denied.error).toMatchObject({ code: 401, message: '未登录或 Token 已过期', requestId: 'srv' });

    const bad = await api.login({ username: 'ada', password: 'nope' });
    expect(bad.error).toMatchObject({ code: 401, message: '用户名或密码错误' });
    const { data: login } = await api.login({ username: 'ada', password: 'secret1' });
    expect(login?.expiresIn).toBe(3600);

    const ids: string[] = [];
    for await (const project of api.paginate('/api/v1/projects', { pageSize: 1 })) ids.push(project.id);
    expect(ids).toEqual(['p3', 'p2', 'p1']);

    const submitted = await api.generate({ projectId: 'p1', prompt: 'a knight', assetType: 'sprite' });
    expect(submitted.data?.taskId).toBe('t1');
    const generateCalls = seen.filter((s) => s.path === '/api/v1/generate');
    expect(generateCalls).toHaveLength(2);
    expect(generateCalls[0]?.headers['idempotency-key']).toBe(submitted.data?.idempotencyKey);
    expect(generateCalls[1]?.headers['idempotency-key']).toBe(submitted.data?.idempotencyKey);
    expect(generateCalls[1]?.headers.authorization).toBe('Bearer jwt-e2e');

    const progress: number[] = [];
    const done = await api.waitForTask('t1', {
      pollIntervalMs: 5,
      onProgress: (t) => progress.push(t.progress),
    });
    expect(done.data?.status).toBe('completed');
    expect(progress).toEqual([40, 60, 100]);

    const file = await api.downloadAsset('p1/t1/sprite.png');
    expect(file.error).toBeUndefined();
    expect(Buffer.from(file.data?.bytes ?? [])).toEqual(PNG);
    expect(file.data?.contentType).toBe('image/png');
    expect(file.data?.url).toBe(`${baseUrl}/files/p1/t1/sprite.png?e=9999999999&token=sig`);
    const download = seen.filter((s) => s.path === '/api/v1/assets/download');
    expect(download[0]?.headers.authorization).toBeUndefined();

    const missing = await api.downloadAsset('p1/t1/none.png');
    expect(missing.error).toMatchObject({ code: 404, message: '资源不存在' });
  });

  test('a server that never answers → timeout; a closed port → network_error', async () => {
    const api = createAssetClient({ baseUrl, retry: false, timeoutMs: 100 });
    expect((await api.GET('/api/v1/health')).error?.code).toBe('timeout');

    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const offline = createAssetClient({ baseUrl: `http://127.0.0.1:${port}`, retry: { backoff: () => 1 } });
    const { error } = await offline.GET('/api/v1/health');
    expect(error?.code).toBe('network_error');
  });
});

describe('review-auth client over a real socket', () => {
  test('the session cookie is kept in a jar, sent back, and logout is not followed', async () => {
    const auth = createReviewAuthClient({ baseUrl });
    expect((await auth.login({ email: 'ada@example.com', password: 'wrong1' })).error).toMatchObject({
      code: 401,
      message: '邮箱或密码错误',
    });
    expect((await auth.login({ email: 'ada@example.com', password: 'secret1' })).data).toEqual({ ok: true });
    const before = seen.length;
    const { data } = await auth.logout();
    expect(data).toEqual({ ok: true, location: '/login' });
    const after = seen.slice(before);
    expect(after.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /api/auth/logout']);
    expect(after[0]?.headers.cookie).toMatch(/^review_sid=sid-\d+$/);
    const jar = await auth.cookieJar();
    expect(await jar?.getCookieString(`${baseUrl}/`)).toBe('');
  });
});
