import { decodePng } from '@assetloom/pipeline';
import { type AssetClient, createAssetClient, type PipelineProgress } from '@assetloom/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAssetMock, installWebSocketGlobal } from '../src/index.js';

installWebSocketGlobal();

const BASE = 'http://mock.test';
const mock = createAssetMock({
  baseUrl: BASE,
  clock: 'manual',
  stepMs: 1000,
  seed: {
    users: [
      { username: 'ada', password: 'secret123' },
      { username: 'bob', password: 'secret456' },
    ],
    projects: [{ owner: 'ada', name: 'Forest', style: { artStyle: 'pixel', palette: 'sweetie16' } }],
  },
});
const server = setupServer(...mock.handlers);
const { controls } = mock;

function client(): AssetClient {
  return createAssetClient({
    baseUrl: BASE,
    WebSocket: controls.WebSocket,
    retry: { limit: 2, backoff: () => 0 },
  });
}

async function loggedIn(username = 'ada', password = 'secret123'): Promise<AssetClient> {
  const api = client();
  const login = await api.login({ username, password });
  if (login.error) throw login.error;
  return api;
}

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await controls.ready;
});
afterEach(() => server.resetHandlers());
afterAll(async () => {
  await controls.close();
  server.close();
});

describe('GET /api/v1/capabilities', () => {
  it('states the built-in procedural provider, as the reference server does on its defaults', async () => {
    const res = await fetch(`${BASE}/api/v1/capabilities`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const answer = await client().getCapabilities(); // public: no login
    expect(answer.error).toBeUndefined();
    expect(answer.data).toMatchObject({
      provider: { name: 'procedural', kind: 'procedural' },
      inputs: { image: false, mask: false, references: false, pixelate: true, paletteFrom: true },
      uploads: true,
      limits: { maxResolution: 1024, maxUploadSide: 4096 },
    });
  });
});

describe('HTTP behaviour of the server', () => {
  it.each([
    ['unknown route', 'GET', '/api/v1/nope', 404, '接口不存在', { reason: 'route_not_found' }],
    ['wrong method', 'DELETE', '/api/v1/generate', 405, '请求方法不允许', { reason: 'method_not_allowed' }],
    ['no token', 'GET', '/api/v1/projects', 401, '未登录或 Token 已过期', null],
  ])('%s', async (_name, method, path, status, message, data) => {
    const res = await fetch(`${BASE}${path}`, { method });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({ code: status, message, data });
    if (status === 405) expect(res.headers.get('allow')).toBe('POST');
  });

  it('echoes a client request id and refuses non-JSON and compressed (415), oversized (413) and malformed (400) bodies', async () => {
    const post = (body: string, type = 'application/json') =>
      fetch(`${BASE}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': type, 'x-request-id': 'trace-1' },
        body,
      });
    const text = await post('username=a', 'text/plain');
    expect(text.status).toBe(415);
    expect(text.headers.get('x-request-id')).toBe('trace-1');
    expect((await post('x'.repeat(70_000))).status).toBe(413);
    const compressed = await fetch(`${BASE}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: '{"username":"a","password":"b"}',
    });
    expect(compressed.status).toBe(415);
    expect((await compressed.json()).data).toEqual({ reason: 'unsupported_content_encoding' });
    const bad = await post('{"username":');
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('参数错误');
  });

  it('validates requests against the OpenAPI document (the same 400s as the server)', async () => {
    const api = await loggedIn();
    const projectId = controls.seeded.projects.Forest as string;
    const empty = await api.generate({ projectId, prompt: '', assetType: 'sprite' });
    expect(empty.error?.code).toBe(400);
    expect(empty.error?.message).toBe('prompt 不能为空');
    const page = await api.GET('/api/v1/projects', { params: { query: { pageSize: 101 } } });
    expect(page.error?.code).toBe(400);
    const foreign = await (await loggedIn('bob', 'secret456')).GET('/api/v1/projects/{projectId}', {
      params: { path: { projectId } },
    });
    expect(foreign.error?.code).toBe(403);
  });
});

describe('tasks under the manual clock', () => {
  it('moves a task through the real pipeline stages as virtual time passes, then serves real PNGs', async () => {
    const api = await loggedIn();
    const projectId = controls.seeded.projects.Forest as string;
    const submitted = await api.generate({
      projectId,
      prompt: 'a brave knight',
      assetType: 'sprite',
      params: { resolution: 32, frames: { directions: 1, framesPerDirection: 2 } },
    });
    if (submitted.error) throw submitted.error;
    const { taskId } = submitted.data;
    const read = async () => (await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } })).data;
    await controls.advance(0);
    expect(await read()).toMatchObject({ status: 'running', stage: 'prompt_builder', progress: 0 });
    await controls.advance(1000);
    expect((await read())?.progress).toBe(25);
    await controls.advance(2000);
    expect(await read()).toMatchObject({ stage: 'asset_generator' });
    await controls.runToCompletion(taskId);
    expect(await read()).toMatchObject({ status: 'completed', progress: 100 });

    const assets = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (assets.error) throw assets.error;
    const png = assets.data.assets.find((a) => a.key.endsWith('.png'));
    expect(png?.url).toMatch(new RegExp(`^${BASE}/files/projects/.+\\?e=\\d+&token=[\\w-]{43}$`));
    const file = await api.downloadAsset(png as { key: string; url: string });
    if (file.error) throw file.error;
    expect(file.data.contentType).toBe('image/png');
    const decoded = decodePng(file.data.bytes);
    expect(decoded.ok && decoded.image.width).toBe(png?.width);

    // a tampered signature is refused, a missing key is 404, the redirect re-signs
    // each of the last three characters changed (a fixed 'AAA' would be no change now and then)
    const url = String(png?.url);
    const tampered = await fetch(
      `${url.slice(0, -3)}${[...url.slice(-3)].map((c) => (c === 'A' ? 'B' : 'A')).join('')}`,
    );
    expect(tampered.status).toBe(403);
    const redirect = await fetch(`${BASE}/api/v1/assets/download?key=${encodeURIComponent(png?.key ?? '')}`, {
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toMatch(/\/files\/projects\//);
    const missing = await fetch(`${BASE}/api/v1/assets/download?key=projects/x/none.png`);
    expect(missing.status).toBe(404);
  });

  it('streams the progress events over the WebSocket to waitForTask', async () => {
    const api = await loggedIn();
    const projectId = controls.seeded.projects.Forest as string;
    const submitted = await api.generate({ projectId, prompt: 'a green slime', assetType: 'sprite' });
    if (submitted.error) throw submitted.error;
    const events: PipelineProgress[] = [];
    const progress: number[] = [];
    const waiting = api.waitForTask(submitted.data.taskId, {
      transport: 'ws',
      onEvent: (e) => events.push(e),
      onProgress: (t) => progress.push(t.progress),
    });
    await controls.runToCompletion(submitted.data.taskId);
    const done = await waiting;
    if (done.error) throw done.error;
    expect(done.data.status).toBe('completed');
    expect(events.map((e) => `${e.stage}:${e.status}`)).toEqual([
      'prompt_optimizer:running',
      'prompt_optimizer:completed',
      'asset_generator:running',
      'asset_generator:completed',
      'quality_supervisor:running',
      'quality_supervisor:completed',
      'format_adapter:running',
      'format_adapter:completed',
    ]);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.at(-1)?.result?.assets?.[0]?.url).toMatch(/\/files\//);
    expect(progress.at(-1)).toBe(100);
  });

  it('rejects quality on demand: one rejection retries, exhausting the retries fails the task', async () => {
    const api = await loggedIn();
    const projectId = controls.seeded.projects.Forest as string;
    controls.rejectQualityNext(1);
    const once = await api.generate({ projectId, prompt: 'a ghost', assetType: 'sprite' });
    if (once.error) throw once.error;
    await controls.runToCompletion(once.data.taskId);
    const retried = await api.GET('/api/v1/tasks/{taskId}', {
      params: { path: { taskId: once.data.taskId } },
    });
    expect(retried.data).toMatchObject({ status: 'completed', retryCount: 1 });

    controls.rejectQualityNext(3);
    const doomed = await api.generate({ projectId, prompt: 'a robot', assetType: 'sprite' });
    if (doomed.error) throw doomed.error;
    const waiting = api.waitForTask(doomed.data.taskId, { transport: 'poll', pollIntervalMs: 1 });
    await controls.runToCompletion(doomed.data.taskId);
    const failed = await waiting;
    expect(failed.error?.code).toBe('task_failed');
    expect(failed.error?.task).toMatchObject({ status: 'failed', retryCount: 2 });
    expect(failed.error?.task?.error).toBeTruthy();
  });

  it('fails generation in the provider on demand', async () => {
    const api = await loggedIn();
    controls.failGenerationNext(1, 'the GPU caught fire');
    const submitted = await api.generate({
      projectId: controls.seeded.projects.Forest as string,
      prompt: 'a coin',
      assetType: 'sprite',
    });
    if (submitted.error) throw submitted.error;
    await controls.runToCompletion(submitted.data.taskId);
    const task = await api.GET('/api/v1/tasks/{taskId}', {
      params: { path: { taskId: submitted.data.taskId } },
    });
    expect(task.data?.status).toBe('failed');
    expect(task.data?.error).toContain('the GPU caught fire');
  });
});

describe('injected failures', () => {
  it('answers 429 with Retry-After, and the SDK retries it', async () => {
    const api = await loggedIn();
    controls.failNext({ operationId: 'listProjects', status: 429, retryAfter: 0 });
    const retries: unknown[] = [];
    const list = await api.GET('/api/v1/projects', {
      retry: { limit: 2, backoff: () => 0, onRetry: (e) => retries.push(e) },
    });
    expect(list.error).toBeUndefined();
    expect(retries).toHaveLength(1);

    controls.failNext({ path: '/api/v1/auth/me', status: 500, times: 2 });
    const me = await api.GET('/api/v1/auth/me', { retry: false });
    expect(me.error?.code).toBe(500);
    expect(me.error?.message).toBe('服务器内部错误');
    const again = await fetch(`${BASE}/api/v1/auth/me`);
    expect(again.status).toBe(500);
    expect((await api.GET('/api/v1/auth/me')).data?.username).toBe('ada');

    controls.failNext({ operationId: 'getHealth', status: 'network' });
    await expect(fetch(`${BASE}/api/v1/health`)).rejects.toThrow();
    controls.failNext({ operationId: 'getHealth', status: 429, retryAfter: 7 });
    const limited = await fetch(`${BASE}/api/v1/health`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
  });

  it('refuses bad failure rules', () => {
    expect(() => controls.failNext({ operationId: 'nope', status: 500 })).toThrow(/unknown operationId/);
    expect(() => controls.failNext({ status: 418 as 500 })).toThrow(/status/);
    expect(() => controls.setLatency(-1)).toThrow(/latency/);
  });
});

describe('review-helper authentication', () => {
  it('registers, logs in with the review_sid cookie, and logs out', async () => {
    const reg = await fetch(`${BASE}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'rev@example.com', password: 'secret1' }),
    });
    expect(reg.status).toBe(200);
    expect(await reg.json()).toEqual({ ok: true });
    const cookie = reg.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^review_sid=[\w-]{43};/);
    const dup = await fetch(`${BASE}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'rev@example.com', password: 'secret1' }),
    });
    expect(dup.status).toBe(409);
    const sid = cookie.split(';')[0] as string;
    const landing = await fetch(`${BASE}/`, { headers: { cookie: sid }, redirect: 'manual' });
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('rev@example.com');
    const out = await fetch(`${BASE}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie: sid },
      redirect: 'manual',
    });
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/login');
    const after = await fetch(`${BASE}/`, { headers: { cookie: sid }, redirect: 'manual' });
    expect(after.status).toBe(302);
    const cross = await fetch(`${BASE}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.test' },
      body: JSON.stringify({ email: 'rev@example.com', password: 'secret1' }),
    });
    expect(cross.status).toBe(403);
  });
});

describe('reset', () => {
  it('forgets users, tasks, files and tokens, and re-seeds', async () => {
    const api = await loggedIn();
    await api.POST('/api/v1/projects', { body: { name: 'Temp' } });
    await controls.reset();
    expect((await api.GET('/api/v1/auth/me')).error?.code).toBe(401);
    const again = await loggedIn();
    const names = [];
    for await (const p of again.paginate('/api/v1/projects')) names.push(p.name);
    expect(names).toEqual(['Forest']);
    expect(controls.files.keys()).toEqual([]);
  });
});
