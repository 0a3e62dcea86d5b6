/**
 * Pipeline threads (PIPELINE_THREADS): the pipeline drawn on a worker thread gives what it gives on
 * the event loop, byte for byte, while events (and files, unless they go to the filesystem driver,
 * which the thread writes itself) are handled by the main thread; aborts,
 * failing sinks and dead threads end runs as the in-process pipeline's callers expect.
 */

import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDrawingsFile } from '@assetloom/drawings';
import { runPipeline } from '@assetloom/generator';
import { createMemoryStorage, type PipelineProgressEvent, type PipelineRequest } from '@assetloom/pipeline';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createFsStorage } from '../src/storage/index.js';
import {
  createPipelineThreadPool,
  PipelineThreadError,
  type PipelineThreadPool,
} from '../src/tasks/pipeline-threads.js';
import { client, newUser, startTestServer, testEnv } from './helpers.js';
import { waitForTaskEnd } from './task-helpers.js';

const request = (prompt: string, seed = 7): PipelineRequest => ({
  prompt,
  assetType: 'sprite',
  projectStyle: { palette: 'pico-8' },
  params: { resolution: 32, frames: { directions: 4, framesPerDirection: 2 }, format: 'spritesheet', seed },
  keyPrefix: `t/${prompt.replace(/\W/g, '-')}/`,
});

const pools: PipelineThreadPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});
function pool(
  size = 1,
  imageProvider: Parameters<typeof createPipelineThreadPool>[0]['imageProvider'] = null,
) {
  const errors: Error[] = [];
  const p = createPipelineThreadPool({ size, imageProvider, onThreadError: (e) => errors.push(e) });
  pools.push(p);
  return { pool: p, errors };
}

describe('pipeline threads', () => {
  it('draw the same files and events as the pipeline on the event loop', async () => {
    const { pool: threads } = pool(2);
    for (const prompt of ['red fox', 'wizard with a staff']) {
      const here = createMemoryStorage();
      const hereEvents: PipelineProgressEvent[] = [];
      const local = await runPipeline(request(prompt), {
        storage: here,
        startSeq: 5,
        onEvent: (e) => void hereEvents.push(e),
      });
      const there = createMemoryStorage();
      const thereEvents: PipelineProgressEvent[] = [];
      const threaded = await threads.run(request(prompt), {
        storage: there,
        startSeq: 5,
        onEvent: (e) => void thereEvents.push(e),
      });
      expect(threaded, JSON.stringify(threaded)).toMatchObject({ ok: true });
      expect(threaded).toEqual(local);
      expect(there.keys().sort()).toEqual(here.keys().sort());
      for (const key of here.keys()) {
        expect(
          Buffer.from(there.get(key)?.bytes ?? []).equals(Buffer.from(here.get(key)?.bytes ?? [])),
          key,
        ).toBe(true);
        expect(there.get(key)?.contentType).toBe(here.get(key)?.contentType);
      }
      const strip = (events: PipelineProgressEvent[]) => events.map(({ at: _at, ...rest }) => rest);
      expect(strip(thereEvents)).toEqual(strip(hereEvents));
      expect(thereEvents[0]?.seq).toBe(5);
    }
    expect(threads.started).toBeGreaterThanOrEqual(1);
  });

  it('run tasks at once on up to `size` threads, each waiting for the main thread to store its files and handed the same set files', async () => {
    const { pool: threads } = pool(2);
    let inFlight = 0;
    let most = 0;
    const storage = {
      async put() {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
      },
    };
    const results = await Promise.all(
      ['slime', 'bat', 'ghost', 'crab'].map((p) => threads.run(request(p), { storage })),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(threads.started).toBe(2);
    expect(most).toBeGreaterThan(1);
    // the drawings' set files the threads drew from: read once here, one SharedArrayBuffer for both
    const sets = threads.sharedFiles.filter((name) => name.startsWith('sets/'));
    expect(sets.length).toBeGreaterThan(0);
    for (const name of sets)
      expect((await sharedDrawingsFile(name)).buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('write the files of the server’s filesystem driver on the thread; any other storage is asked on the main thread', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'assetloom-thread-files-'));
    try {
      const driver = createFsStorage({
        root: join(folder, 'objects'),
        secret: 'thread-files-secret-0123456789-abcdef',
      });
      await driver.check();
      const own = createPipelineThreadPool({
        size: 1,
        imageProvider: null,
        files: { storage: driver, settings: { root: driver.root, fsync: driver.fsync } },
      });
      pools.push(own);
      // The same object, its put watched: the thread writes, the main thread is never asked.
      const mainThreadPuts: string[] = [];
      const put = driver.put.bind(driver);
      driver.put = async (key, bytes, contentType) => {
        mainThreadPuts.push(key);
        return put(key, bytes, contentType);
      };
      const here = createMemoryStorage();
      const local = await runPipeline(request('lantern'), { storage: here });
      const threaded = await own.run(request('lantern'), { storage: driver });
      expect(threaded).toEqual(local);
      expect(mainThreadPuts).toEqual([]);
      expect(here.keys().length).toBeGreaterThan(1);
      for (const key of here.keys()) {
        const stored = await driver.get(key);
        expect(stored?.contentType, key).toBe(here.get(key)?.contentType);
        expect(Buffer.from(stored?.bytes ?? []).equals(Buffer.from(here.get(key)?.bytes ?? [])), key).toBe(
          true,
        );
      }
      // A wrapper of the driver (a copy with its own put) is not the driver: its put runs, on this thread.
      const wrapped = { ...driver, put: driver.put };
      const again = await own.run(request('lantern', 8), { storage: wrapped });
      expect(again.ok).toBe(true);
      expect(mainThreadPuts.length).toBe(here.keys().length);
      expect(await readdir(join(driver.root, '.tmp'))).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('end a run as the in-process pipeline does when the sink throws, storage fails or the caller aborts', async () => {
    const { pool: threads } = pool(1);
    const sinkFails = await threads.run(request('wolf'), {
      storage: createMemoryStorage(),
      onEvent: (e) => {
        if (e.stage === 'asset_generator') throw new Error('lease lost');
      },
    });
    expect(sinkFails).toMatchObject({ ok: false, code: 'event_sink_failed' });
    if (!sinkFails.ok) expect(sinkFails.detail).toContain('lease lost');

    const storageFails = await threads.run(request('wolf'), {
      storage: {
        put: async () => {
          throw new Error("EACCES: permission denied, open '/srv/x.part'");
        },
      },
    });
    expect(storageFails).toMatchObject({
      ok: false,
      code: 'storage_failed',
      error: '[assetloom/pipeline] the generated files could not be stored',
    });
    if (!storageFails.ok) expect(storageFails.detail).toContain('EACCES');

    const abort = new AbortController();
    const aborted = await threads.run(request('wolf'), {
      storage: createMemoryStorage(),
      signal: abort.signal,
      onEvent: async (e) => {
        if (e.stage === 'prompt_optimizer' && e.status === 'completed')
          abort.abort(new Error('worker stopping'));
      },
    });
    expect(aborted.ok).toBe(false);
    if (!aborted.ok) expect(['aborted', 'event_sink_failed']).toContain(aborted.code);

    // The thread is still good for the next task.
    expect((await threads.run(request('owl'), { storage: createMemoryStorage() })).ok).toBe(true);
    expect(threads.started).toBe(1);
  });

  it('reject the runs of a thread that dies, report it, and start a new thread for the next run', async () => {
    // A ComfyUI workflow without the nodes the provider fills: building the provider throws in the thread.
    const { pool: threads, errors } = pool(1, {
      kind: 'comfyui',
      baseUrl: 'http://127.0.0.1:9',
      timeoutMs: 1000,
      workflow: { '1': { class_type: 'Nothing', inputs: {} } },
    });
    await expect(threads.run(request('imp'), { storage: createMemoryStorage() })).rejects.toThrow(
      PipelineThreadError,
    );
    expect(errors.length).toBeGreaterThan(0);
    await expect(threads.run(request('imp'), { storage: createMemoryStorage() })).rejects.toThrow(
      PipelineThreadError,
    );
    expect(threads.started).toBe(2);
  });

  it('end an idle thread beyond the first without reporting a failure, and start a new one when two runs come again', async () => {
    const errors: Error[] = [];
    const threads = createPipelineThreadPool({
      size: 2,
      imageProvider: null,
      idleMs: 100,
      onThreadError: (e) => errors.push(e),
    });
    pools.push(threads);
    const both = () =>
      Promise.all(['slime', 'bat'].map((p) => threads.run(request(p), { storage: createMemoryStorage() })));
    expect((await both()).every((r) => r.ok)).toBe(true);
    expect(threads.started).toBe(2);
    const deadline = Date.now() + 5000;
    while (threads.live > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect([threads.live, threads.retired]).toEqual([1, 1]);
    // the first stays however long it idles
    await new Promise((r) => setTimeout(r, 300));
    expect(threads.live).toBe(1);
    expect((await both()).every((r) => r.ok)).toBe(true);
    expect([threads.started, threads.live]).toEqual([3, 2]);
    expect(errors).toEqual([]);
  });

  it('refuse injected providers, fetch and clocks (a thread builds its own from the settings)', async () => {
    const { pool: threads } = pool(1);
    await expect(
      threads.run(request('x'), {
        storage: createMemoryStorage(),
        providers: { image: { name: 'fake', generate: async () => ({}) } as never },
      }),
    ).rejects.toThrow(/settings only/);
    expect(threads.started).toBe(0);
  });

  it('are closed with their runs rejected', async () => {
    const { pool: threads } = pool(1);
    const running = expect(
      threads.run(request('dragon'), { storage: createMemoryStorage() }),
    ).rejects.toThrow(PipelineThreadError);
    await threads.close();
    await running;
    await expect(threads.run(request('dragon'), { storage: createMemoryStorage() })).rejects.toThrow(
      /closed/,
    );
  });
});

describe('PIPELINE_THREADS', () => {
  it('defaults to auto (one per core, within 1..WORKER_CONCURRENCY), takes 0 for the event loop, refuses junk', () => {
    const auto = loadConfig(testEnv({ WORKER_CONCURRENCY: '64' }));
    expect(auto.ok && auto.value.queue.pipelineThreads).toBe(Math.min(64, availableParallelism()));
    const one = loadConfig(testEnv({ WORKER_CONCURRENCY: '1', PIPELINE_THREADS: 'auto' }));
    expect(one.ok && one.value.queue.pipelineThreads).toBe(1);
    const off = loadConfig(testEnv({ PIPELINE_THREADS: '0' }));
    expect(off.ok && off.value.queue.pipelineThreads).toBe(0);
    const bad = loadConfig(testEnv({ PIPELINE_THREADS: 'many' }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toContain('PIPELINE_THREADS');
    if (!bad.ok) expect(bad.error.message).toContain('must be auto or an integer from 0');
    expect(loadConfig(testEnv({ PIPELINE_THREADS: '65' })).ok).toBe(false);
    const three = loadConfig(testEnv({ PIPELINE_THREADS: '3' }));
    expect(three.ok && three.value.queue.pipelineThreads).toBe(3);
  });
});

describe('PIPELINE_THREAD_IDLE_MS', () => {
  it('ends the threads beyond the first once they have run nothing for that long; the next task draws the same files', async () => {
    const osThreads = () => Number(/Threads:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    const server = await startTestServer(
      { kind: 'embedded' },
      {
        PIPELINE_THREADS: '2',
        WORKER_CONCURRENCY: '2',
        USER_MAX_RUNNING_TASKS: '0',
        PIPELINE_THREAD_IDLE_MS: '300',
      },
    );
    try {
      const worker = server.running.worker;
      if (worker === null) throw new Error('the test server runs its worker in process');
      const user = await newUser(server.url);
      const api = client(server.url);
      const project = await api.post('/api/v1/projects', { name: 'idle threads' }, { token: user.token });
      const submit = async (prompt: string, seed: number) => {
        const submitted = await api.post(
          '/api/v1/generate',
          { projectId: project.body.data.id, prompt, assetType: 'sprite', params: { resolution: 32, seed } },
          { token: user.token },
        );
        expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
        return String(submitted.body.data.taskId);
      };
      /** The task's files by name, downloaded. */
      const files = async (taskId: string) => {
        const task = await waitForTaskEnd(server.url, user.token, taskId);
        expect(task.status, JSON.stringify(task.error ?? null)).toBe('completed');
        const assets = await api.get(`/api/v1/tasks/${taskId}/assets`, { token: user.token });
        const out = new Map<string, Buffer>();
        for (const asset of assets.body.data.assets as { key: string; url: string }[]) {
          const res = await fetch(asset.url);
          expect(res.status).toBe(200);
          out.set(asset.key.slice(asset.key.lastIndexOf('/') + 1), Buffer.from(await res.arrayBuffer()));
        }
        return out;
      };
      // two tasks at once: two threads, counted while they draw
      let most = 0;
      let mostOs = 0;
      const watch = setInterval(() => {
        most = Math.max(most, worker.pipelineThreads);
        mostOs = Math.max(mostOs, osThreads());
      }, 10);
      const ids = await Promise.all([submit('a red fox', 11), submit('a grey wolf', 12)]);
      const before = await files(ids[0] as string);
      await files(ids[1] as string);
      clearInterval(watch);
      expect(most).toBe(2);
      // idle: the second thread ends, the first stays
      const deadline = Date.now() + 10_000;
      // (the OS thread is joined once the worker has ended, a little after the pool let it go)
      while ((worker.pipelineThreads > 1 || osThreads() >= mostOs) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(worker.pipelineThreads).toBe(1);
      expect(osThreads()).toBeLessThan(mostOs);
      await new Promise((r) => setTimeout(r, 600));
      expect(worker.pipelineThreads).toBe(1);
      // the next task draws on the thread that stayed, the same bytes as before
      const after = await files(await submit('a red fox', 11));
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      expect(before.size).toBeGreaterThan(0);
      for (const [name, bytes] of before) expect(after.get(name)?.equals(bytes), name).toBe(true);
      expect(worker.pipelineThreads).toBe(1);
    } finally {
      await server.destroy();
    }
  });
});

describe('a server embedded with an injected filesystem storage', () => {
  it('checks it at start, so its pipeline threads find the folders and store a task’s files', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'assetloom-injected-'));
    // the folder the driver keeps its objects in does not exist yet: its check() makes it
    const storage = createFsStorage({
      root: join(folder, 'objects'),
      secret: 'injected-storage-secret-0123456789-abcdef',
    });
    const server = await startTestServer(
      { kind: 'embedded' },
      { PIPELINE_THREADS: '1', WORKER_CONCURRENCY: '1' },
      { storage },
    );
    try {
      const user = await newUser(server.url);
      const api = client(server.url);
      const project = await api.post('/api/v1/projects', { name: 'injected' }, { token: user.token });
      const submitted = await api.post(
        '/api/v1/generate',
        {
          projectId: project.body.data.id,
          prompt: 'a red fox',
          assetType: 'sprite',
          params: { resolution: 32 },
        },
        { token: user.token },
      );
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      const task = await waitForTaskEnd(server.url, user.token, submitted.body.data.taskId);
      expect(task.status, JSON.stringify(task.error ?? null)).toBe('completed');
      expect(
        (await readdir(join(folder, 'objects'), { recursive: true })).some((f) => f.endsWith('.png')),
      ).toBe(true);
    } finally {
      await server.destroy();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
