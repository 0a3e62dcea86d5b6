import { afterEach, describe, expect, test, vi } from 'vitest';
import { type AssetClientOptions, createAssetClient } from './asset-client.js';
import { AssetloomApiError } from './errors.js';
import {
  envelope,
  errorEnvelope,
  hangingFetch,
  json,
  type ScriptedFetch,
  scriptedFetch,
  sequence,
} from './internal/testing.js';
import { orThrow } from './or-throw.js';
import type { Task } from './types.js';

const baseUrl = 'http://api.test';
const fast = { backoff: () => 0 };

function client(fetch: ScriptedFetch, extra: Partial<AssetClientOptions> = {}) {
  return createAssetClient({ baseUrl, fetch, retry: fast, ...extra });
}

function task(overrides: Partial<Task> = {}): Task {
  return {
    taskId: 't1',
    projectId: 'p1',
    prompt: 'a knight',
    assetType: 'sprite',
    taskStyle: null,
    params: { resolution: 64, format: 'spritesheet', frames: { directions: 4, framesPerDirection: 4 } },
    status: 'running',
    stage: 'prompt_builder',
    progress: 0,
    retryCount: 0,
    error: null,
    createdAt: '2026-01-31T12:00:00.000Z',
    updatedAt: '2026-01-31T12:00:00.000Z',
    ...overrides,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the envelope is unwrapped once', () => {
  test('success: data is the envelope data, with the response', async () => {
    const fetch = sequence(envelope(task(), 200, { 'x-request-id': 'srv-1' }));
    const result = await client(fetch).GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: 't1' } } });
    expect(result.error).toBeUndefined();
    expect(result.data).toEqual(task());
    expect(result.response?.status).toBe(200);
    expect(fetch.calls[0]?.url).toBe('http://api.test/api/v1/tasks/t1');
  });

  test('path and query parameters are encoded', async () => {
    const fetch = sequence(envelope({ total: 0, tasks: [] }));
    await client(fetch).GET('/api/v1/projects/{projectId}/tasks', {
      params: { path: { projectId: 'a/b c' }, query: { page: 2, pageSize: 5 } },
    });
    expect(fetch.calls[0]?.url).toBe('http://api.test/api/v1/projects/a%2Fb%20c/tasks?page=2&pageSize=5');
  });

  test('every call sends an X-Request-Id, the same on each retry', async () => {
    const fetch = sequence(errorEnvelope(503, 'busy'), envelope(null));
    await client(fetch).DELETE('/api/v1/projects/{projectId}', { params: { path: { projectId: 'p' } } });
    const ids = fetch.calls.map((c) => c.headers.get('x-request-id'));
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toBe(ids[0]);
  });

  test.each([
    ['400 参数错误', errorEnvelope(400, '参数错误'), 400, '参数错误'],
    ['401 expired token', errorEnvelope(401, '未登录或 Token 已过期'), 401, '未登录或 Token 已过期'],
    ['403 other user', errorEnvelope(403, '无权访问该任务'), 403, '无权访问该任务'],
    ['404 unknown task', errorEnvelope(404, '任务不存在'), 404, '任务不存在'],
    ['405', errorEnvelope(405, '请求方法不允许'), 405, '请求方法不允许'],
    ['500', errorEnvelope(500, '服务器内部错误'), 500, '服务器内部错误'],
  ] as const)('envelope error %s → typed AssetloomApiError', async (_name, answer, code, message) => {
    const fetch = scriptedFetch(() => {
      const r = answer.clone();
      return new Response(r.body, { status: r.status, headers: { 'x-request-id': 'req-42' } });
    });
    const result = await client(fetch, { retry: false }).GET('/api/v1/tasks/{taskId}', {
      params: { path: { taskId: 't1' } },
    });
    expect(result.data).toBeUndefined();
    expect(result.error).toBeInstanceOf(AssetloomApiError);
    expect(result.error).toMatchObject({ code, message, httpStatus: code, requestId: 'req-42' });
    expect(result.error?.isEnvelopeError).toBe(true);
  });

  test('429 carries retryAfter when the server asks for more than the SDK waits', async () => {
    const fetch = sequence(errorEnvelope(429, '请求过于频繁，请稍后再试', { 'retry-after': '90' }));
    const { error } = await client(fetch).POST('/api/v1/generate', {
      body: { projectId: 'p', prompt: 'x', assetType: 'ui' },
    });
    expect(error).toMatchObject({ code: 429, httpStatus: 429, retryAfter: 90 });
  });

  test.each([
    ['an HTML 502 from a proxy', new Response('<html>bad gateway</html>', { status: 502 }), 502],
    ['a 200 without envelope', json(200, { hello: 'world' }), 200],
    ['a 200 with a non-zero code', json(200, { code: 7, message: 'odd', data: null }), 200],
    ['a 200 that is not JSON', new Response('not json', { status: 200 }), undefined],
    ['an empty 204', new Response(null, { status: 204 }), 204],
    ['an error with an unknown envelope code', json(418, { code: 418, message: 'teapot', data: null }), 418],
  ])('%s → invalid_response', async (_name, answer, httpStatus) => {
    const fetch = scriptedFetch(() => answer.clone());
    const { error } = await client(fetch, { retry: false }).GET('/api/v1/health');
    expect(error?.code).toBe('invalid_response');
    expect(error?.httpStatus).toBe(httpStatus);
  });

  test('a network error → network_error with the request id that was sent', async () => {
    const fetch = sequence(new TypeError('fetch failed'));
    const { error, response } = await client(fetch).GET('/api/v1/health', { requestId: 'mine-1' });
    expect(response).toBeUndefined();
    expect(error).toMatchObject({ code: 'network_error', httpStatus: undefined, requestId: 'mine-1' });
    expect(error?.message).toMatch(/^\[assetloom\/sdk\] GET http:\/\/api\.test\/api\/v1\/health failed/);
    expect(error?.cause).toBeInstanceOf(TypeError);
    expect(fetch.calls).toHaveLength(3);
  });

  test('a timeout → timeout', async () => {
    const fetch = hangingFetch();
    const { error } = await client(fetch, { retry: false }).GET('/api/v1/health', { timeoutMs: 20 });
    expect(error?.code).toBe('timeout');
    expect(error?.message).toContain('20 ms');
  });

  test("the caller's AbortSignal → aborted", async () => {
    const fetch = hangingFetch();
    const controller = new AbortController();
    const pending = client(fetch).GET('/api/v1/health', { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    expect((await pending).error?.code).toBe('aborted');
  });

  test('an AbortSignal.timeout() of the caller → timeout', async () => {
    const { error } = await client(hangingFetch()).GET('/api/v1/health', { signal: AbortSignal.timeout(10) });
    expect(error?.code).toBe('timeout');
  });
});

describe('throwing style', () => {
  test('throwOnError: data is returned, errors are thrown', async () => {
    const fetch = sequence(
      envelope({ status: 'ok', version: '1', time: 'now' }),
      errorEnvelope(404, '工程不存在'),
    );
    const api = createAssetClient({ baseUrl, fetch, throwOnError: true, retry: false });
    await expect(api.GET('/api/v1/health')).resolves.toEqual({ status: 'ok', version: '1', time: 'now' });
    await expect(
      api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId: 'x' } } }),
    ).rejects.toMatchObject({ name: 'AssetloomApiError', code: 404, message: '工程不存在' });
  });

  test('orThrow() converts one result-style call', async () => {
    const fetch = sequence(envelope({ taskId: 't9' }), errorEnvelope(403, '无权访问该工程'));
    const api = client(fetch, { retry: false });
    const body = { projectId: 'p', prompt: 'x', assetType: 'ui' as const };
    await expect(orThrow(api.POST('/api/v1/generate', { body }))).resolves.toEqual({ taskId: 't9' });
    await expect(orThrow(api.POST('/api/v1/generate', { body }))).rejects.toMatchObject({ code: 403 });
  });
});

describe('authentication', () => {
  const loginData = {
    token: 'jwt-1',
    expiresIn: 3600,
    user: { id: 1, username: 'ada', email: null, createdAt: 'x', updatedAt: 'x' },
  };

  test('login() keeps the token and later calls send it; public endpoints never get it', async () => {
    const fetch = scriptedFetch((request) =>
      request.url.endsWith('/auth/login') ? envelope(loginData) : envelope({ total: 0, projects: [] }),
    );
    const api = client(fetch);
    const { data } = await api.login({ username: 'ada', password: 'secret1' });
    expect(data?.token).toBe('jwt-1');
    expect(api.token).toBe('jwt-1');
    await api.GET('/api/v1/projects');
    await api.GET('/api/v1/health');
    expect(fetch.calls.map((c) => c.headers.get('authorization'))).toEqual([null, 'Bearer jwt-1', null]);
    expect(JSON.parse(fetch.calls[0]?.body ?? '')).toEqual({ username: 'ada', password: 'secret1' });
    api.logout();
    await api.GET('/api/v1/projects');
    expect(fetch.calls[3]?.headers.get('authorization')).toBeNull();
  });

  test('a failed login keeps the previous token and is not retried', async () => {
    const fetch = sequence(errorEnvelope(429, '请求过于频繁，请稍后再试', { 'retry-after': '1' }));
    const api = client(fetch, { token: 'old' });
    const { error } = await api.login({ username: 'ada', password: 'bad' });
    expect(error).toMatchObject({ code: 429, retryAfter: 1 });
    expect(api.token).toBe('old');
    expect(fetch.calls).toHaveLength(1);
  });

  test('getToken() is asked when no token is stored; a throwing getToken → token_unavailable', async () => {
    const fetch = sequence(envelope({ total: 0, projects: [] }));
    const api = client(fetch, { getToken: async () => 'from-store' });
    await api.GET('/api/v1/projects');
    expect(fetch.calls[0]?.headers.get('authorization')).toBe('Bearer from-store');

    const broken = client(fetch, {
      getToken: () => {
        throw new Error('vault locked');
      },
    });
    const { error } = await broken.GET('/api/v1/projects');
    expect(error?.code).toBe('token_unavailable');
    expect(fetch.calls).toHaveLength(1);
  });

  test('changePassword() is never retried and stores the fresh token', async () => {
    const retried = sequence(errorEnvelope(503, 'busy'));
    await client(retried, { token: 't' }).changePassword({ oldPassword: 'a', newPassword: 'bbbbbb' });
    expect(retried.calls).toHaveLength(1);

    const fetch = sequence(envelope({ token: 'jwt-2', expiresIn: 60 }));
    const api = client(fetch, { token: 'jwt-1' });
    const { data } = await api.changePassword({ oldPassword: 'secret1', newPassword: 'secret2' });
    expect(data).toEqual({ token: 'jwt-2', expiresIn: 60 });
    expect(api.token).toBe('jwt-2');
    expect(fetch.calls[0]?.method).toBe('PUT');
  });
});

describe('paginate()', () => {
  const project = (i: number) => ({
    id: `p${i}`,
    name: `P${i}`,
    createdAt: 'x',
    taskCount: 0,
    lastActivityAt: 'x',
  });

  test('walks every page until total is reached', async () => {
    const all = Array.from({ length: 5 }, (_, i) => project(i));
    const fetch = scriptedFetch((request) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      return envelope({ total: 5, projects: all.slice((page - 1) * 2, page * 2) });
    });
    const seen: string[] = [];
    for await (const item of client(fetch).paginate('/api/v1/projects', { pageSize: 2 })) seen.push(item.id);
    expect(seen).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect(fetch.calls.map((c) => new URL(c.url).search)).toEqual([
      '?page=1&pageSize=2',
      '?page=2&pageSize=2',
      '?page=3&pageSize=2',
    ]);
  });

  test("a project's tasks; an item pushed to the next page by a new task is not repeated", async () => {
    const item = (i: number) => ({
      id: `t${i}`,
      prompt: 'x',
      assetType: 'ui',
      status: 'running',
      createdAt: 'x',
    });
    const fetch = sequence(
      envelope({ total: 3, tasks: [item(3), item(2)] }),
      envelope({ total: 4, tasks: [item(2), item(1)] }),
    );
    const ids: string[] = [];
    const tasks = client(fetch).paginate('/api/v1/projects/{projectId}/tasks', {
      projectId: 'p1',
      pageSize: 2,
    });
    for await (const t of tasks) ids.push(t.id);
    expect(ids).toEqual(['t3', 't2', 't1']);
    expect(fetch.calls[0]?.url).toBe('http://api.test/api/v1/projects/p1/tasks?page=1&pageSize=2');
  });

  test('an empty list ends at once; errors are thrown from the iterator', async () => {
    const empty = sequence(envelope({ total: 0, projects: [] }));
    const none: unknown[] = [];
    for await (const p of client(empty).paginate('/api/v1/projects')) none.push(p);
    expect(none).toEqual([]);

    const failing = sequence(
      envelope({ total: 3, projects: [project(1)] }),
      errorEnvelope(401, '未登录或 Token 已过期'),
    );
    const iterator = client(failing).paginate('/api/v1/projects', { pageSize: 1 });
    await expect(iterator.next()).resolves.toMatchObject({ value: { id: 'p1' } });
    await expect(iterator.next()).rejects.toMatchObject({ code: 401 });
  });

  test('bad options are refused with a clear message', async () => {
    const api = client(sequence(envelope({ total: 0, projects: [] })));
    await expect(api.paginate('/api/v1/projects', { pageSize: 500 }).next()).rejects.toThrow(/pageSize/);
    await expect(
      api.paginate('/api/v1/projects/{projectId}/tasks', { projectId: '' }).next(),
    ).rejects.toThrow(/projectId/);
  });
});

describe('generate()', () => {
  const body = { projectId: 'p1', prompt: 'a knight', assetType: 'sprite' as const };

  test('sends a fresh Idempotency-Key and reuses it on the retry', async () => {
    const fetch = sequence(
      new TypeError('socket hang up'),
      errorEnvelope(503, 'busy'),
      envelope({ taskId: 't1' }),
    );
    const { data } = await client(fetch).generate(body);
    const keys = fetch.calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(data).toEqual({ taskId: 't1', idempotencyKey: keys[0] });
  });

  test('two generate() calls use two keys; a given key is sent as is', async () => {
    const fetch = sequence(envelope({ taskId: 't1' }));
    const api = client(fetch);
    await api.generate(body);
    await api.generate(body);
    await api.generate(body, { idempotencyKey: 'order-77' });
    const keys = fetch.calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('order-77');
  });

  test('an invalid key is refused before anything is sent', async () => {
    const fetch = sequence(envelope({ taskId: 't1' }));
    const { error } = await client(fetch).generate(body, { idempotencyKey: 'has space' });
    expect(error?.code).toBe(400);
    expect(error?.httpStatus).toBeUndefined();
    expect(fetch.calls).toHaveLength(0);
  });
});

describe('waitForTask()', () => {
  test('polls with backoff, reports progress changes and resolves with the completed task', async () => {
    vi.useFakeTimers();
    const states = [
      task(),
      task(),
      task({ stage: 'asset_generator', progress: 40 }),
      task({ status: 'saving', stage: 'format_adapter', progress: 90 }),
      task({ status: 'completed', stage: 'format_adapter', progress: 100 }),
    ];
    const fetch = sequence(...states.map((t) => () => envelope(t)));
    const progress: string[] = [];
    const pending = client(fetch).waitForTask('t1', {
      transport: 'poll',
      pollIntervalMs: 100,
      maxPollIntervalMs: 1000,
      onProgress: (t) => progress.push(`${t.status}:${t.stage}:${t.progress}`),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100); // first interval
    expect(fetch.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(149); // nothing changed: the next wait grows to 150 ms
    expect(fetch.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(200);
    const result = await pending;
    expect(result.data?.status).toBe('completed');
    expect(progress).toEqual([
      'running:prompt_builder:0',
      'running:asset_generator:40',
      'saving:format_adapter:90',
      'completed:format_adapter:100',
    ]);
  });

  test('a failed task → task_failed with the task and its reason', async () => {
    const failed = task({
      status: 'failed',
      stage: 'quality_supervisor',
      retryCount: 2,
      error: '质量检查未通过',
    });
    const { error } = await client(sequence(envelope(failed))).waitForTask('t1');
    expect(error).toMatchObject({ code: 'task_failed', message: '质量检查未通过', httpStatus: 200 });
    expect(error?.task).toEqual(failed);
  });

  test('timeoutMs → timeout; signal → aborted; envelope errors end the wait', async () => {
    vi.useFakeTimers();
    const running = sequence(envelope(task()));
    const timedOut = client(running).waitForTask('t1', {
      transport: 'poll',
      timeoutMs: 2500,
      pollIntervalMs: 1000,
    });
    await vi.advanceTimersByTimeAsync(2500);
    expect((await timedOut).error?.code).toBe('timeout');

    const controller = new AbortController();
    const aborted = client(running).waitForTask('t1', { transport: 'poll', signal: controller.signal });
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    expect((await aborted).error?.code).toBe('aborted');

    const missing = await client(sequence(errorEnvelope(404, '任务不存在'))).waitForTask('nope');
    expect(missing.error).toMatchObject({ code: 404, message: '任务不存在' });
  });

  test('throwing style rejects a failed task', async () => {
    const failed = task({ status: 'failed', error: 'boom' });
    const api = createAssetClient({ baseUrl, fetch: sequence(envelope(failed)), throwOnError: true });
    await expect(api.waitForTask('t1')).rejects.toMatchObject({ code: 'task_failed', message: 'boom' });
  });

  test('bad options are refused', async () => {
    const api = client(sequence(envelope(task())));
    await expect(api.waitForTask('t1', { pollIntervalMs: 0 })).rejects.toThrow(/pollIntervalMs/);
    // @ts-expect-error only 'auto', 'ws' and 'poll' exist
    await expect(api.waitForTask('t1', { transport: 'sse' })).rejects.toThrow(/transport/);
  });
});

describe('downloadAsset()', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  const file = () => new Response(png, { status: 200, headers: { 'content-type': 'image/png' } });
  const future = Math.floor(Date.now() / 1000) + 3600;

  test('by key: the public download endpoint, no Authorization, no custom headers', async () => {
    const fetch = sequence(file());
    const { data } = await client(fetch, { token: 'jwt' }).downloadAsset('p1/t1/sprite.png');
    expect(data?.bytes).toEqual(png);
    expect(data?.contentType).toBe('image/png');
    expect(fetch.calls[0]?.url).toBe('http://api.test/api/v1/assets/download?key=p1%2Ft1%2Fsprite.png');
    expect(fetch.calls[0]?.redirect).toBe('follow');
    expect([...(fetch.calls[0]?.headers.keys() ?? [])]).toEqual([]);
  });

  test('an asset with a valid signed url is fetched from it (relative urls resolve against baseUrl)', async () => {
    const fetch = sequence(file());
    await client(fetch).downloadAsset({ key: 'k', url: `/files/k?e=${future}&token=abc` });
    expect(fetch.calls[0]?.url).toBe(`http://api.test/files/k?e=${future}&token=abc`);
  });

  test('an expired signed url goes straight to the key; a refused one falls back to it', async () => {
    const expired = sequence(file());
    await client(expired).downloadAsset({ key: 'k', url: '/files/k?e=1000&token=abc' });
    expect(expired.calls.map((c) => c.url)).toEqual(['http://api.test/api/v1/assets/download?key=k']);

    const refused = sequence(errorEnvelope(403, '无权访问该资源'), file());
    const { data } = await client(refused).downloadAsset({
      key: 'k',
      url: `https://cdn.test/k?e=${future}&token=x`,
    });
    expect(data?.bytes).toEqual(png);
    expect(refused.calls.map((c) => c.url)).toEqual([
      `https://cdn.test/k?e=${future}&token=x`,
      'http://api.test/api/v1/assets/download?key=k',
    ]);
  });

  test('404 → 资源不存在; bad input → 400 without a request; network errors → network_error', async () => {
    const missing = await client(sequence(errorEnvelope(404, '资源不存在'))).downloadAsset('nope');
    expect(missing.error).toMatchObject({ code: 404, message: '资源不存在' });
    const none = sequence(file());
    // @ts-expect-error a number is not an asset
    expect((await client(none).downloadAsset(42)).error?.code).toBe(400);
    expect((await client(none).downloadAsset('')).error?.code).toBe(400);
    expect(none.calls).toHaveLength(0);
    const offline = await client(sequence(new TypeError('fetch failed'))).downloadAsset('k');
    expect(offline.error?.code).toBe('network_error');
  });
});

describe('bad options never crash later', () => {
  test.each([
    ['no options', undefined],
    ['no baseUrl', {}],
    ['a fetch that is not a function', { baseUrl, fetch: 'nope' }],
    ['a negative timeout', { baseUrl, timeoutMs: -1 }],
    ['a negative retry limit', { baseUrl, retry: { limit: -1 } }],
  ])('%s → TypeError/RangeError at creation', (_name, options) => {
    expect(() => createAssetClient(options as never)).toThrow(/\[assetloom\/sdk\]/);
  });
});

describe('issue #32: PATCH, default headers, AbortSignal on every method', () => {
  test('PATCH sends the body once (it is not idempotent, so not retried)', async () => {
    const fetch = sequence(errorEnvelope(500, '服务器内部错误'), envelope({ id: 'w1', enabled: false }));
    const { error } = await client(fetch).PATCH('/api/v1/projects/{projectId}/webhooks/{webhookId}', {
      params: { path: { projectId: 'p1', webhookId: 'w1' } },
      body: { enabled: false },
    });
    expect(error?.code).toBe(500);
    expect(fetch.calls).toHaveLength(1);
    expect(fetch.calls[0]).toMatchObject({
      method: 'PATCH',
      url: 'http://api.test/api/v1/projects/p1/webhooks/w1',
      body: '{"enabled":false}',
    });
  });

  test('headers go with every API call (a function is asked each time), never with downloads', async () => {
    let lang = 'en';
    const fetch = scriptedFetch((request) =>
      request.url.includes('/download')
        ? new Response(new Uint8Array([1]))
        : envelope({ total: 0, projects: [] }),
    );
    const api = client(fetch, { headers: () => ({ 'Accept-Language': lang }) });
    await api.GET('/api/v1/projects');
    lang = 'zh-CN';
    await api.GET('/api/v1/projects', { headers: { 'X-Extra': '1' } });
    await api.GET('/api/v1/projects', { headers: { 'Accept-Language': 'fr' } });
    await api.downloadAsset('users/u/a.png');
    expect(fetch.calls.map((c) => c.headers.get('accept-language'))).toEqual(['en', 'zh-CN', 'fr', null]);
    expect(fetch.calls[1]?.headers.get('x-extra')).toBe('1');
    expect(() => createAssetClient({ baseUrl, headers: 42 as never })).toThrow(/headers must be/);
  });

  test.each([
    ['GET', (api: ReturnType<typeof client>, signal: AbortSignal) => api.GET('/api/v1/projects', { signal })],
    [
      'POST',
      (api: ReturnType<typeof client>, signal: AbortSignal) =>
        api.POST('/api/v1/projects', { body: { name: 'x' }, signal }),
    ],
    [
      'PUT',
      (api: ReturnType<typeof client>, signal: AbortSignal) =>
        api.PUT('/api/v1/projects/{projectId}', {
          params: { path: { projectId: 'p' } },
          body: { name: 'x' },
          signal,
        }),
    ],
    [
      'PATCH',
      (api: ReturnType<typeof client>, signal: AbortSignal) =>
        api.PATCH('/api/v1/projects/{projectId}/webhooks/{webhookId}', {
          params: { path: { projectId: 'p', webhookId: 'w' } },
          body: { enabled: true },
          signal,
        }),
    ],
    [
      'DELETE',
      (api: ReturnType<typeof client>, signal: AbortSignal) =>
        api.DELETE('/api/v1/projects/{projectId}', { params: { path: { projectId: 'p' } }, signal }),
    ],
    [
      'login',
      (api: ReturnType<typeof client>, signal: AbortSignal) =>
        api.login({ username: 'ada', password: 'secret1' }, { signal }),
    ],
    [
      'changePassword',
      (api: ReturnType<typeof client>, signal: AbortSignal) =>
        api.changePassword({ oldPassword: 'secret1', newPassword: 'secret2' }, { signal }),
    ],
    [
      'generate',
      (api: ReturnType<typeof client>, signal: AbortSignal) =>
        api.generate({ projectId: 'p', prompt: 'a knight', assetType: 'sprite' }, { signal }),
    ],
    [
      'waitForTask',
      (api: ReturnType<typeof client>, signal: AbortSignal) =>
        api.waitForTask('t1', { signal, transport: 'poll' }),
    ],
    [
      'downloadAsset',
      (api: ReturnType<typeof client>, signal: AbortSignal) => api.downloadAsset('a.png', { signal }),
    ],
    [
      'paginate',
      async (api: ReturnType<typeof client>, signal: AbortSignal) => {
        try {
          for await (const _ of api.paginate('/api/v1/projects', { signal })) break;
          return { error: undefined };
        } catch (error) {
          return { error: error as AssetloomApiError };
        }
      },
    ],
    [
      'events',
      async (api: ReturnType<typeof client>, signal: AbortSignal) => {
        try {
          await api.events('t1', { signal }).next();
          return { error: undefined };
        } catch (error) {
          return { error: error as AssetloomApiError };
        }
      },
    ],
  ] as const)('%s stops with code aborted when its signal fires', async (_name, run) => {
    const fetch = hangingFetch();
    const controller = new AbortController();
    const pending = run(client(fetch, { timeoutMs: false }), controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const { error } = (await pending) as { error?: AssetloomApiError };
    expect(error?.code).toBe('aborted');
    expect(fetch.calls.length).toBeGreaterThan(0);
  });
});

describe('issue #41: language, and hints for a 401 or 415', () => {
  test('language is sent as Accept-Language with every API call; headers and a call win', async () => {
    let lang = 'en';
    const fetch = sequence(envelope({ total: 0, projects: [] }));
    await client(fetch, { language: 'en' }).GET('/api/v1/health');
    await client(fetch, { language: () => lang }).GET('/api/v1/projects');
    lang = 'zh';
    await client(fetch, { language: () => lang }).GET('/api/v1/projects');
    await client(fetch, { language: 'en', headers: { 'Accept-Language': 'zh-CN' } }).GET('/api/v1/projects');
    await client(fetch, { language: 'en' }).GET('/api/v1/projects', { headers: { 'Accept-Language': 'fr' } });
    await client(fetch, { language: 'en' }).getStyleCatalog();
    expect(fetch.calls.map((c) => c.headers.get('accept-language'))).toEqual([
      'en',
      'en',
      'zh',
      'zh-CN',
      'fr',
      'en',
    ]);
  });

  test('credentials go on every API request, not on downloads; a wrong value → TypeError', async () => {
    const fetch = scriptedFetch((request) =>
      request.url.includes('/download')
        ? new Response(new Uint8Array([1]))
        : envelope({ total: 0, projects: [] }),
    );
    const api = client(fetch, { credentials: 'include' });
    await api.GET('/api/v1/projects');
    await api.downloadAsset('users/u/a.png');
    expect(fetch.calls.map((c) => c.credentials)).toEqual(['include', 'same-origin']);
    expect(() => createAssetClient({ baseUrl, credentials: 'always' as never })).toThrow(
      /credentials must be 'omit', 'same-origin' or 'include'/,
    );
  });

  test.each([
    ['a number', 42],
    ['an empty string', ''],
    ['a sentence', 'English please'],
  ])('language as %s → TypeError at creation', (_name, language) => {
    expect(() => createAssetClient({ baseUrl, language: language as never })).toThrow(
      /\[assetloom\/sdk\] language must be a language tag/,
    );
  });

  test('401 without a token: the hint says to log in; the message stays the server’s', async () => {
    const fetch = sequence(errorEnvelope(401, '未登录或 Token 已过期'));
    const { error } = await client(fetch).GET('/api/v1/projects');
    expect(error?.message).toBe('未登录或 Token 已过期');
    expect(error?.hint).toMatch(/^\[assetloom\/sdk\] No token was sent: this usually means login\(\)/);
    expect(String(error)).toContain(error?.hint);
    expect(error?.stack?.split('\n')[0]).toContain('No token was sent');
  });

  test('401 with a token: the hint names expiry and a restarted server or mock', async () => {
    const fetch = sequence(errorEnvelope(401, 'Not logged in, or the token has expired'));
    const { error } = await client(fetch, { token: 'stale' }).GET('/api/v1/projects');
    expect(error?.hint).toMatch(/refused the token this client sent: this usually means it expired/);
    expect(error?.hint).toMatch(/JWT_SECRET/);
  });

  test('401 of a login (wrong password) and 415 of a non-JSON upload carry no hint', async () => {
    const fetch = sequence(errorEnvelope(401, '用户名或密码错误'));
    const login = await client(fetch).login({ username: 'ada', password: 'nope12' });
    expect(login.error?.hint).toBeUndefined();
    const upload = await client(sequence(errorEnvelope(415, '不支持的媒体类型')), { token: 't' }).uploadImage(
      new Uint8Array([1, 2, 3]),
      { contentType: 'image/bmp' },
    );
    expect(upload.error?.code).toBe(415);
    expect(upload.error?.hint).toBeUndefined();
  });

  test('415 to a request sent as JSON: the hint says its headers were lost on the way', async () => {
    const fetch = sequence(errorEnvelope(415, '请求体必须是 JSON'));
    const { error } = await client(fetch, { token: 't' }).POST('/api/v1/projects', { body: { name: 'x' } });
    expect(fetch.calls[0]?.headers.get('content-type')).toBe('application/json');
    expect(error?.hint).toMatch(
      /sent this request as JSON, but it reached the server without its Content-Type/,
    );
  });
});
