import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { injectMongoUri, type LlamaWireFixture, readFixture } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newUser, type StoreTarget, startTestServer, type TestServer } from './helpers.js';
import { expectPipelineProgress, openStream, pngSize, waitForTaskEnd } from './task-helpers.js';

/** A refused `since` as the stream's 400 names it (decision 0037). */
const SINCE_REFUSED = {
  reason: 'invalid_request',
  errors: [{ in: 'query', path: '/since', rule: 'type', message: '应为整数' }],
};

/**
 * The generation path of issue #6 (queue, worker, events, assets) end to end over real sockets, on the embedded store and on
 * MongoDB (MONGODB_URI or the FerretDB the global setup starts): generate → worker → persisted
 * events → WebSocket → signed assets → download; optimize; dedupe under 200 concurrent requests;
 * project deletion removing stored objects. Small resolutions keep it quick.
 */
const mongoUri = injectMongoUri('reference-server generation suite on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];

/**
 * A fake OpenAI-compatible chat endpoint on 127.0.0.1: it answers with the replies recorded from
 * llama.cpp's real server (packages/pipeline/test/fixtures/llama-wire.json, issue #30), the
 * assistant's text replaced by three sections.
 */
async function fakeLlm(): Promise<{ url: string; calls: number; close(): Promise<void> }> {
  const wire = readFixture<LlamaWireFixture>('llama-wire.json');
  const reply = structuredClone(wire.reply.body) as {
    choices: Array<{ message: { content: string }; finish_reason: string }>;
  };
  reply.choices[0]!.message.content = '【主题】骑士\n【风格】像素风\n【技术】64×64, 透明背景';
  reply.choices[0]!.finish_reason = 'stop';
  const state = { calls: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.calls++;
      const ok = req.url === '/v1/chat/completions' && req.headers.authorization === 'Bearer sk-fake';
      res.writeHead(ok ? 200 : wire.unauthorized.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? reply : wire.unauthorized.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get calls() {
      return state.calls;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(targets)('generation on the %s store', (_name, target) => {
  let server: TestServer;
  let idle: TestServer; // same kind of store, no worker: tasks stay running
  let llm: Awaited<ReturnType<typeof fakeLlm>>;
  let api: ReturnType<typeof client>;
  let alice: Awaited<ReturnType<typeof newUser>>;
  let bob: Awaited<ReturnType<typeof newUser>>;
  let projectId: string;

  beforeAll(async () => {
    if (target === null) return;
    llm = await fakeLlm();
    server = await startTestServer(target, { WORKER_CONCURRENCY: '2', EVENT_POLL_MS: '50' });
    idle = await startTestServer(target, {
      WORKER_IN_PROCESS: 'false',
      GENERATE_MAX_REQUESTS: '1000',
      LLM_API_KEY: 'sk-fake',
      LLM_BASE_URL: llm.url,
      LLM_TIMEOUT_MS: '5000',
    });
    api = client(server.url);
    alice = await newUser(server.url);
    bob = await newUser(server.url);
    const created = await api.post(
      '/api/v1/projects',
      { name: 'Runtime', style: { palette: 'pico8', artStyle: 'pixel' } },
      { token: alice.token },
    );
    projectId = created.body.data.id;
  });
  afterAll(async () => {
    await server?.destroy();
    await idle?.destroy();
    await llm?.close();
  });

  const suite = target === null ? describe.skip : describe;

  suite('generate → events → assets → download', () => {
    it('runs a task with the spec defaults and streams the eight events in order', async () => {
      const submitted = await api.post(
        '/api/v1/generate',
        { projectId, prompt: 'a brave knight', assetType: 'sprite', params: { resolution: 16 } },
        { token: alice.token },
      );
      expect(submitted.status).toBe(200);
      const taskId = submitted.body.data.taskId as string;
      const stream = await openStream(server.url, taskId, { token: alice.token });
      expect(stream.refused).toBeUndefined();
      expect(stream.closeCode).toBe(1000);
      for (const m of stream.messages) expectPipelineProgress(m);
      expect(stream.messages.map((m) => `${m.stage}:${m.status}`)).toEqual([
        'prompt_optimizer:running',
        'prompt_optimizer:completed',
        'asset_generator:running',
        'asset_generator:completed',
        'quality_supervisor:running',
        'quality_supervisor:completed',
        'format_adapter:running',
        'format_adapter:completed',
      ]);
      expect(stream.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const last = stream.messages.at(-1) as { result: { assets: { key: string; url: string }[] } };
      expect(last.result.assets.length).toBeGreaterThan(0);
      expect(last.result.assets[0]?.url).toMatch(/\/files\/.+\?e=\d+&token=[\w-]+/);

      const task = await api.get(`/api/v1/tasks/${taskId}`, { token: alice.token });
      expect(task.body.data).toMatchObject({
        status: 'completed',
        stage: 'format_adapter',
        progress: 100,
        retryCount: 0,
        error: null,
        params: { resolution: 16, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
      });

      const assets = await api.get(`/api/v1/tasks/${taskId}/assets`, { token: alice.token });
      expect(assets.status).toBe(200);
      const sheet = (
        assets.body.data.assets as {
          key: string;
          url: string;
          width: number;
          height: number;
          format: string;
          metadata: Record<string, number>;
        }[]
      ).find((a) => a.key.endsWith('sprite.png'));
      expect(sheet).toMatchObject({ format: 'png', width: 64, height: 64 });
      expect(sheet?.metadata).toMatchObject({
        frameWidth: 16,
        frameHeight: 16,
        frameCount: 16,
        directions: 4,
      });
      const url = new URL(sheet?.url as string);
      const expiry = Number(url.searchParams.get('e'));
      const now = Math.floor(Date.now() / 1000);
      expect(expiry).toBeGreaterThanOrEqual(now + 3590);
      expect(expiry).toBeLessThanOrEqual(now + 3601);
      const file = await fetch(sheet?.url as string);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^image\/png/);
      expect(pngSize(new Uint8Array(await file.arrayBuffer()))).toEqual({ width: 64, height: 64 });

      // the download redirect points at a signed URL of the same key
      const redirect = await fetch(
        `${server.url}/api/v1/assets/download?key=${encodeURIComponent(sheet?.key as string)}`,
        {
          redirect: 'manual',
        },
      );
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toContain('token=');
      // tampering with the token is refused (its first character changed: a fixed suffix would
      // leave the token as it was whenever it already ended that way, about once in a thousand runs)
      const token = url.searchParams.get('token') as string;
      url.searchParams.set('token', `${token.startsWith('A') ? 'B' : 'A'}${token.slice(1)}`);
      expect((await fetch(url)).status).toBe(403);
    });

    it('replays after ?since= on reconnect and closes at once after a seen terminal event', async () => {
      const submitted = await api.post(
        '/api/v1/generate',
        {
          projectId,
          prompt: 'a slime',
          assetType: 'animation',
          params: { resolution: 16, frames: { directions: 1, framesPerDirection: 2 } },
        },
        { token: alice.token },
      );
      const taskId = submitted.body.data.taskId as string;
      await waitForTaskEnd(server.url, alice.token, taskId);
      const tail = await openStream(server.url, taskId, { token: alice.token, since: 5 });
      expect(tail.messages.map((m) => m.seq)).toEqual([6, 7, 8]);
      expect(tail.closeCode).toBe(1000);
      const after = await openStream(server.url, taskId, { token: alice.token, since: 8 });
      expect(after.messages).toEqual([]);
      expect(after.closeCode).toBe(1000);
      // the cookie set at login works too (no Origin, or this host's Origin)
      const viaCookie = await openStream(server.url, taskId, {
        cookie: alice.token,
        origin: server.url,
        since: 7,
      });
      expect(viaCookie.messages.map((m) => m.seq)).toEqual([8]);
    });

    it('fails a task whose provider throws: failed event with error, task failed, no assets', async () => {
      const failing = await startTestServer(
        target as StoreTarget,
        {},
        {
          imageProvider: {
            name: 'broken',
            async generate() {
              throw new Error('GPU on fire');
            },
          },
        },
      );
      try {
        const user = await newUser(failing.url);
        const f = client(failing.url);
        const p = await f.post('/api/v1/projects', { name: 'F' }, { token: user.token });
        const submitted = await f.post(
          '/api/v1/generate',
          { projectId: p.body.data.id, prompt: 'doomed', assetType: 'ui', params: { resolution: 16 } },
          { token: user.token },
        );
        const taskId = submitted.body.data.taskId as string;
        const stream = await openStream(failing.url, taskId, { token: user.token });
        const last = stream.messages.at(-1) as Record<string, unknown>;
        for (const m of stream.messages) expectPipelineProgress(m);
        // the reason is named; the provider's own error text stays in the server log
        const reason = '[assetloom/pipeline] image provider "broken" failed';
        expect(last).toMatchObject({ stage: 'asset_generator', status: 'failed', error: reason });
        expect(stream.closeCode).toBe(1000);
        const task = await f.get(`/api/v1/tasks/${taskId}`, { token: user.token });
        expect(task.body.data).toMatchObject({ status: 'failed', stage: 'asset_generator', error: reason });
        expect(
          (await f.get(`/api/v1/tasks/${taskId}/assets`, { token: user.token })).body.data.assets,
        ).toEqual([]);
      } finally {
        await failing.destroy();
      }
    });

    it('deleting a project removes its stored objects', async () => {
      const p = await api.post('/api/v1/projects', { name: 'Doomed' }, { token: alice.token });
      const submitted = await api.post(
        '/api/v1/generate',
        {
          projectId: p.body.data.id,
          prompt: 'a coin',
          assetType: 'sprite',
          params: { resolution: 16, frames: { directions: 1, framesPerDirection: 1 } },
        },
        { token: alice.token },
      );
      await waitForTaskEnd(server.url, alice.token, submitted.body.data.taskId);
      const assets = await api.get(`/api/v1/tasks/${submitted.body.data.taskId}/assets`, {
        token: alice.token,
      });
      const keys = (assets.body.data.assets as { key: string; url: string }[]).map((a) => a.key);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(await server.running.storage.exists(key)).toBe(true);
      const url = (assets.body.data.assets as { url: string }[])[0]?.url as string;
      expect((await api.del(`/api/v1/projects/${p.body.data.id}`, { token: alice.token })).status).toBe(200);
      for (const key of keys) expect(await server.running.storage.exists(key)).toBe(false);
      expect((await fetch(url)).status).toBe(404);
    });
  });

  suite('the WebSocket upgrade is checked before it happens', () => {
    let taskId: string;
    beforeAll(async () => {
      if (target === null) return;
      const submitted = await api.post(
        '/api/v1/generate',
        { projectId, prompt: 'a gem', assetType: 'sprite', params: { resolution: 16 } },
        { token: alice.token },
      );
      taskId = submitted.body.data.taskId;
    });

    it.each([
      ['no credential', {}, 401, '未登录或 Token 已过期', null],
      ['a bad token', { token: 'x.y.z' }, 401, '未登录或 Token 已过期', null],
      ['a malformed since', { since: 'abc' }, 400, '参数错误', SINCE_REFUSED],
      ['a negative since', { since: '-1' }, 400, '参数错误', SINCE_REFUSED],
    ])('refuses %s', async (_case, extra, status, message, data) => {
      const options = { ...(extra as { token?: string; since?: string }) };
      if (!('token' in options) && status !== 401) options.token = alice.token;
      const res = await openStream(server.url, taskId, options);
      expect(res.refused?.status).toBe(status);
      expect(res.refused?.body).toEqual({ code: status, message, data });
    });

    it('refuses another user’s task (403), an unknown one and a malformed id (404)', async () => {
      const foreign = await openStream(server.url, taskId, { token: bob.token });
      expect(foreign.refused).toMatchObject({ status: 403, body: { code: 403, message: '无权访问该任务' } });
      for (const id of ['NoSuchTask0000000000000', 'bad$id']) {
        const missing = await openStream(server.url, id, { token: bob.token });
        expect(missing.refused).toMatchObject({ status: 404, body: { code: 404, message: '任务不存在' } });
      }
    });

    it('refuses the cookie from a foreign Origin (cross-site WebSocket hijacking)', async () => {
      const res = await openStream(server.url, taskId, {
        cookie: alice.token,
        origin: 'https://evil.example',
      });
      expect(res.refused).toMatchObject({ status: 403, body: { code: 403 } });
    });

    it('answers a plain GET of the stream path with 400 after the same checks', async () => {
      expect((await api.get(`/api/v1/tasks/${taskId}/ws`)).status).toBe(401);
      expect((await api.get(`/api/v1/tasks/${taskId}/ws`, { token: bob.token })).status).toBe(403);
      expect((await api.get(`/api/v1/tasks/${taskId}/ws`, { token: alice.token })).status).toBe(400);
    });
  });

  suite('submission without a worker (tasks stay running)', () => {
    let carol: Awaited<ReturnType<typeof newUser>>;
    let carolProject: string;
    beforeAll(async () => {
      if (target === null) return;
      carol = await newUser(idle.url);
      const p = await client(idle.url).post('/api/v1/projects', { name: 'Idle' }, { token: carol.token });
      carolProject = p.body.data.id;
    });

    it('dedupes 200 concurrent identical HTTP requests into one task', async () => {
      const body = JSON.stringify({ projectId: carolProject, prompt: 'a dragon', assetType: 'background' });
      const responses = await Promise.all(
        Array.from({ length: 200 }, () =>
          fetch(`${idle.url}/api/v1/generate`, {
            method: 'POST',
            headers: { authorization: `Bearer ${carol.token}`, 'content-type': 'application/json' },
            body,
          }).then(async (r) => ({
            status: r.status,
            body: (await r.json()) as { data: { taskId: string } },
          })),
        ),
      );
      expect(responses.every((r) => r.status === 200)).toBe(true);
      const ids = new Set(responses.map((r) => r.body.data.taskId));
      expect(ids.size).toBe(1);
      const list = await client(idle.url).get(`/api/v1/projects/${carolProject}/tasks`, {
        token: carol.token,
      });
      expect(list.body.data.total).toBe(1);
      const project = await client(idle.url).get('/api/v1/projects', { token: carol.token });
      expect(project.body.data.projects[0].taskCount).toBe(1);
      // while running, the assets list is empty
      const [taskId] = [...ids];
      const assets = await client(idle.url).get(`/api/v1/tasks/${taskId}/assets`, { token: carol.token });
      expect(assets.body.data).toEqual({ assets: [] });
      const task = await client(idle.url).get(`/api/v1/tasks/${taskId}`, { token: carol.token });
      expect(task.body.data).toMatchObject({
        status: 'running',
        stage: 'prompt_builder',
        progress: 0,
        retryCount: 0,
        error: null,
      });
    });

    it('honours Idempotency-Key: the same key returns the same task even for another body', async () => {
      const i = client(idle.url);
      const first = await i.post(
        '/api/v1/generate',
        { projectId: carolProject, prompt: 'key one', assetType: 'ui' },
        { token: carol.token, headers: { 'idempotency-key': 'order-42' } },
      );
      const second = await i.post(
        '/api/v1/generate',
        { projectId: carolProject, prompt: 'key two', assetType: 'ui' },
        { token: carol.token, headers: { 'idempotency-key': 'order-42' } },
      );
      expect(second.body.data.taskId).toBe(first.body.data.taskId);
    });

    it('answers 403 for unknown or foreign projects and 400 for an empty prompt', async () => {
      const i = client(idle.url);
      const stranger = await newUser(idle.url);
      for (const pid of ['NoSuchProject000000000', carolProject]) {
        const res = await i.post(
          '/api/v1/generate',
          { projectId: pid, prompt: 'x', assetType: 'ui' },
          { token: stranger.token },
        );
        expect(res.body).toEqual({
          code: 403,
          message: '无权访问该工程',
          data: { reason: 'project_forbidden' },
        });
      }
      const empty = await i.post(
        '/api/v1/generate',
        { projectId: carolProject, prompt: '  ', assetType: 'ui' },
        { token: carol.token },
      );
      expect(empty.body).toEqual({
        code: 400,
        message: 'prompt 不能为空',
        data: expect.objectContaining({ reason: 'empty_prompt' }),
      });
    });
  });

  suite('POST /api/v1/prompt/optimize', () => {
    it('builds the three sections from the template without an LLM key', async () => {
      const res = await api.post(
        '/api/v1/prompt/optimize',
        {
          tags: ['pixel art', 'dark'],
          assetType: 'sprite',
          prompt: 'a skeleton archer',
          userNote: 'bright eyes',
        },
        { token: alice.token },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('x-prompt-source')).toBe('template');
      expect(res.body.data.prompt).toMatch(/【主题】[\s\S]*【风格】[\s\S]*【技术】/);
      expect(res.body.data.rawText).toBe(res.body.data.prompt);
    });

    it("writes the sections' text in the caller's language, the spec's markers kept (issue #41)", async () => {
      const res = await api.post(
        '/api/v1/prompt/optimize',
        { tags: ['pixel art'], assetType: 'sprite', prompt: 'a skeleton archer' },
        { token: alice.token, headers: { 'accept-language': 'en-GB,en;q=0.9' } },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-language')).toBe('en');
      expect(res.body.data.prompt).toMatch(
        /^【主题】2D game character\/item sprite \(sprite\): a skeleton archer\n/,
      );
      expect(res.body.data.prompt.replace(/【(主题|风格|技术)】/g, '')).not.toMatch(/[\u4e00-\u9fff]/);
      const chinese = await api.post(
        '/api/v1/prompt/optimize',
        { tags: ['pixel art'], assetType: 'sprite', prompt: 'a skeleton archer' },
        { token: alice.token },
      );
      expect(chinese.headers.get('content-language')).toBe('zh-CN');
      expect(chinese.body.data.prompt).toContain('透明背景');
    });

    it('asks the configured LLM when a key is set', async () => {
      const before = llm.calls;
      const user = await newUser(idle.url);
      const res = await client(idle.url).post(
        '/api/v1/prompt/optimize',
        { tags: ['pixel'], assetType: 'sprite', prompt: 'a knight' },
        { token: user.token },
      );
      expect(res.headers.get('x-prompt-source')).toBe('llm');
      expect(res.body.data.prompt).toContain('【主题】骑士');
      expect(llm.calls).toBe(before + 1);
    });

    it.each([
      ['no tags', { tags: [], assetType: 'sprite' }],
      ['a bad assetType', { tags: ['a'], assetType: 'video' }],
      ['a non-string tag', { tags: [1], assetType: 'ui' }],
      ['an unknown field', { tags: ['a'], assetType: 'ui', extra: true }],
    ])('answers 400 参数错误 for %s', async (_case, body) => {
      const res = await api.post('/api/v1/prompt/optimize', body, { token: alice.token });
      expect(res.body).toEqual({
        code: 400,
        message: '参数错误',
        data: expect.objectContaining({ reason: 'invalid_request' }),
      });
    });

    it('needs a token', async () => {
      expect((await api.post('/api/v1/prompt/optimize', { tags: ['a'], assetType: 'ui' })).status).toBe(401);
    });
  });
});
