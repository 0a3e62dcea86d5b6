import { describe, expect, test, vi } from 'vitest';
import { type AssetloomWarning, createAssetClient } from './asset-client.js';
import type { WebSocketConstructor, WebSocketLike } from './internal/socket.js';
import { socketUrl } from './internal/socket.js';
import { envelope, errorEnvelope, sequence } from './internal/testing.js';
import type { PipelineProgress, Task } from './types.js';

const baseUrl = 'http://api.test';

function task(over: Partial<Task> = {}): Task {
  return {
    taskId: 't1',
    projectId: 'p1',
    prompt: 'a knight',
    assetType: 'sprite',
    taskStyle: null,
    params: { resolution: 64, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
    status: 'running',
    stage: 'prompt_builder',
    progress: 0,
    retryCount: 0,
    error: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

const STAGES = ['prompt_optimizer', 'asset_generator', 'quality_supervisor', 'format_adapter'] as const;
function events(): PipelineProgress[] {
  const out: PipelineProgress[] = [];
  for (const stage of STAGES) {
    for (const status of ['running', 'completed'] as const) {
      out.push({
        seq: out.length + 1,
        at: '2026-01-01T00:00:00.000Z',
        stage,
        status,
        progress: status === 'running' ? 0 : 100,
        ...(stage === 'format_adapter' && status === 'completed' ? { result: { assets: [] } } : {}),
      });
    }
  }
  return out;
}

/** A scripted WebSocket: each connection plays one script (messages then a close code, or "refuse"). */
function fakeSockets(scripts: ({ messages: PipelineProgress[]; close: number } | 'refuse')[]) {
  const opened: { url: string; headers: Record<string, string> | undefined }[] = [];
  class Fake implements WebSocketLike {
    readyState = 0;
    onopen: ((event: unknown) => void) | null = null;
    onmessage: ((event: { data: unknown }) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;
    onclose: ((event: { code: number }) => void) | null = null;
    constructor(url: string, _protocols?: string | string[], options?: { headers?: Record<string, string> }) {
      opened.push({ url, headers: options?.headers });
      const script = scripts.shift() ?? 'refuse';
      setTimeout(() => {
        if (script === 'refuse') {
          this.onerror?.(new Error('Unexpected server response: 502'));
          this.onclose?.({ code: 1006 });
          return;
        }
        this.readyState = 1;
        this.onopen?.({});
        for (const m of script.messages) this.onmessage?.({ data: JSON.stringify(m) });
        this.readyState = 3;
        this.onclose?.({ code: script.close });
      }, 1);
    }
    close() {
      this.readyState = 3;
    }
  }
  return { ctor: Fake as unknown as WebSocketConstructor, opened };
}

describe('waitForTask over the WebSocket', () => {
  test('streams the events with a Bearer header, reports progress and ends with the task', async () => {
    const all = events();
    const sockets = fakeSockets([{ messages: all, close: 1000 }]);
    const fetch = sequence(
      envelope(task()),
      envelope(task({ status: 'completed', stage: 'format_adapter', progress: 100 })),
    );
    const api = createAssetClient({ baseUrl, fetch, token: 'tok', WebSocket: sockets.ctor, retry: false });
    const seen: number[] = [];
    const progress: string[] = [];
    const { data, error } = await api.waitForTask('t1', {
      onEvent: (e) => seen.push(e.seq),
      onProgress: (t) => progress.push(`${t.status}:${t.stage}:${t.progress}`),
    });
    expect(error).toBeUndefined();
    expect(data?.status).toBe('completed');
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(progress[0]).toBe('running:prompt_builder:0');
    expect(progress).toContain('running:asset_generator:25');
    expect(progress).toContain('saving:format_adapter:100');
    expect(sockets.opened).toEqual([
      { url: 'ws://api.test/api/v1/tasks/t1/ws', headers: { authorization: 'Bearer tok' } },
    ]);
    expect(fetch.calls).toHaveLength(2);
  });

  test('reconnects with ?since=<last seq> after a drop and sees nothing twice', async () => {
    const all = events();
    const sockets = fakeSockets([
      { messages: all.slice(0, 3), close: 1006 },
      { messages: all.slice(3), close: 1000 },
    ]);
    const fetch = sequence(envelope(task()), envelope(task({ status: 'completed', progress: 100 })));
    const api = createAssetClient({ baseUrl, fetch, token: 'tok', WebSocket: sockets.ctor, retry: false });
    const seen: number[] = [];
    const { data } = await api.waitForTask('t1', { onEvent: (e) => seen.push(e.seq) });
    expect(data?.status).toBe('completed');
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(sockets.opened.map((o) => o.url)).toEqual([
      'ws://api.test/api/v1/tasks/t1/ws',
      'ws://api.test/api/v1/tasks/t1/ws?since=3',
    ]);
  });

  test('a failed terminal event ends with task_failed', async () => {
    const failedEvent: PipelineProgress = {
      seq: 1,
      at: '2026-01-01T00:00:00.000Z',
      stage: 'asset_generator',
      status: 'failed',
      progress: 0,
      error: 'boom',
    };
    const sockets = fakeSockets([{ messages: [failedEvent], close: 1000 }]);
    const fetch = sequence(envelope(task()), envelope(task({ status: 'failed', error: 'boom' })));
    const api = createAssetClient({ baseUrl, fetch, WebSocket: sockets.ctor, retry: false });
    const { error } = await api.waitForTask('t1');
    expect(error).toMatchObject({ code: 'task_failed', message: 'boom' });
  });

  test("'auto' falls back to polling when no socket opens; 'ws' reports network_error", async () => {
    const sockets = fakeSockets(['refuse']);
    const fetch = sequence(envelope(task()), envelope(task({ status: 'completed', progress: 100 })));
    const api = createAssetClient({ baseUrl, fetch, WebSocket: sockets.ctor, retry: false });
    const { data } = await api.waitForTask('t1', { pollIntervalMs: 1 });
    expect(data?.status).toBe('completed');
    expect(sockets.opened).toHaveLength(1);

    const only = createAssetClient({
      baseUrl,
      fetch: sequence(envelope(task())),
      WebSocket: fakeSockets(['refuse']).ctor,
      retry: false,
    });
    const { error } = await only.waitForTask('t1', { transport: 'ws' });
    expect(error?.code).toBe('network_error');
    expect(error?.message).toMatch(/^\[assetloom\/sdk\]/);
  });

  test('a task that already ended needs no socket', async () => {
    const sockets = fakeSockets([]);
    const fetch = sequence(envelope(task({ status: 'completed', progress: 100 })));
    const api = createAssetClient({ baseUrl, fetch, WebSocket: sockets.ctor, retry: false });
    expect((await api.waitForTask('t1')).data?.status).toBe('completed');
    expect(sockets.opened).toHaveLength(0);
  });

  test.each([
    ['http://h:1', 'ws://h:1/api/v1/tasks/a%2Fb/ws?since=4'],
    ['https://h/prefix', 'wss://h/prefix/api/v1/tasks/a%2Fb/ws?since=4'],
  ])('socketUrl(%s)', (base, want) => {
    expect(socketUrl(base, 'a/b', 4)).toBe(want);
  });
});

describe('for await (const event of api.events(taskId))', () => {
  test('yields every event in order and ends after the terminal one', async () => {
    const all = events();
    const sockets = fakeSockets([{ messages: all, close: 1000 }]);
    const api = createAssetClient({
      baseUrl,
      fetch: sequence(envelope(task())),
      token: 'tok',
      WebSocket: sockets.ctor,
      retry: false,
    });
    const seen: string[] = [];
    for await (const event of api.events('t1')) seen.push(`${event.seq}:${event.stage}:${event.status}`);
    expect(seen).toHaveLength(8);
    expect(seen[0]).toBe('1:prompt_optimizer:running');
    expect(seen[7]).toBe('8:format_adapter:completed');
    expect(sockets.opened).toEqual([
      { url: 'ws://api.test/api/v1/tasks/t1/ws', headers: { authorization: 'Bearer tok' } },
    ]);
  });

  test('a drop reconnects with ?since=<last seq>: nothing lost, nothing twice', async () => {
    const all = events();
    const sockets = fakeSockets([
      { messages: all.slice(0, 3), close: 1006 },
      { messages: all.slice(2), close: 1000 }, // the server replays one the client already has
    ]);
    const api = createAssetClient({
      baseUrl,
      fetch: sequence(envelope(task())),
      WebSocket: sockets.ctor,
      retry: false,
    });
    const seen: number[] = [];
    for await (const event of api.events('t1')) seen.push(event.seq);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(sockets.opened.map((o) => o.url)).toEqual([
      'ws://api.test/api/v1/tasks/t1/ws',
      'ws://api.test/api/v1/tasks/t1/ws?since=3',
    ]);
  });

  test('since skips what the caller has; break closes the stream', async () => {
    const sockets = fakeSockets([{ messages: events().slice(4), close: 1000 }]);
    const api = createAssetClient({
      baseUrl,
      fetch: sequence(envelope(task())),
      WebSocket: sockets.ctor,
      retry: false,
    });
    const seen: number[] = [];
    for await (const event of api.events('t1', { since: 4 })) {
      seen.push(event.seq);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual([5, 6]);
    expect(sockets.opened[0]?.url).toBe('ws://api.test/api/v1/tasks/t1/ws?since=4');
  });

  test('a failed task ends the loop with its failed event', async () => {
    const failedEvent: PipelineProgress = {
      seq: 1,
      at: '2026-01-01T00:00:00.000Z',
      stage: 'asset_generator',
      status: 'failed',
      progress: 0,
      error: 'boom',
    };
    const api = createAssetClient({
      baseUrl,
      fetch: sequence(envelope(task())),
      WebSocket: fakeSockets([{ messages: [failedEvent], close: 1000 }]).ctor,
      retry: false,
    });
    const seen: PipelineProgress[] = [];
    for await (const event of api.events('t1')) seen.push(event);
    expect(seen.map((e) => e.error)).toEqual(['boom']);
  });

  test('errors are thrown: the HTTP refusal of the task, no socket, the caller’s signal', async () => {
    const notFound = createAssetClient({
      baseUrl,
      fetch: sequence(errorEnvelope(404, '任务不存在')),
      WebSocket: fakeSockets([]).ctor,
      retry: false,
    });
    await expect(notFound.events('nope').next()).rejects.toMatchObject({ code: 404, message: '任务不存在' });

    const refused = createAssetClient({
      baseUrl,
      fetch: sequence(envelope(task())),
      WebSocket: fakeSockets(['refuse']).ctor,
      retry: false,
    });
    await expect(refused.events('t1').next()).rejects.toMatchObject({
      code: 'network_error',
      message: expect.stringContaining('could not open the progress WebSocket'),
    });

    const controller = new AbortController();
    controller.abort();
    const stopped = createAssetClient({
      baseUrl,
      fetch: sequence(envelope(task())),
      WebSocket: fakeSockets([]).ctor,
      retry: false,
    });
    await expect(stopped.events('t1', { signal: controller.signal }).next()).rejects.toMatchObject({
      code: 'aborted',
    });
  });
});

describe('no WebSocket is a warning, not a silent fallback', () => {
  test("'auto' warns once that it polls and onEvent is not called", async () => {
    const warnings: AssetloomWarning[] = [];
    const api = createAssetClient({
      baseUrl,
      fetch: sequence(envelope(task()), envelope(task({ status: 'completed', progress: 100 }))),
      WebSocket: fakeSockets(['refuse', 'refuse']).ctor,
      retry: false,
      onWarning: (w) => warnings.push(w),
    });
    const onEvent = vi.fn();
    expect((await api.waitForTask('t1', { pollIntervalMs: 1, onEvent })).data?.status).toBe('completed');
    expect(onEvent).not.toHaveBeenCalled();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'no_websocket' });
    expect(warnings[0]?.message).toMatch(/polls and onEvent is not called/);
    await api.waitForTask('t1', { pollIntervalMs: 1, onEvent });
    expect(warnings).toHaveLength(1); // once per client

    // Polling chosen on purpose says nothing; console.warn is the default destination.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const quiet = createAssetClient({
        baseUrl,
        fetch: sequence(envelope(task({ status: 'completed', progress: 100 }))),
        retry: false,
      });
      await quiet.waitForTask('t1', { transport: 'poll' });
      expect(warn).not.toHaveBeenCalled();
      const loud = createAssetClient({
        baseUrl,
        fetch: sequence(envelope(task()), envelope(task({ status: 'completed', progress: 100 }))),
        WebSocket: fakeSockets(['refuse']).ctor,
        retry: false,
      });
      await loud.waitForTask('t1', { pollIntervalMs: 1 });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[assetloom\/sdk\] waitForTask\(t1\)/));
    } finally {
      warn.mockRestore();
    }
  });
});
