import { createProceduralProvider } from '@assetloom/generator';
import {
  createMemoryStorage,
  type ImageProvider,
  type ImageRequest,
  type PipelineAsset,
  type PipelineProgressEvent,
} from '@assetloom/pipeline';
import { describe, expect, it } from 'vitest';
import { makeTaskRecord } from '../test/fakes.js';
import { randomId } from './defaults.js';
import { createEmbeddedStore } from './embedded.js';
import { createTaskQueue, isTerminalEvent } from './queue.js';
import type { ProjectRecord, Store, TaskRecord } from './store.js';
import { runClaimedTask, TaskStoppedError, taskUpdateFor, toAssetRecord, toAssetView } from './task-run.js';

const T0 = new Date('2026-03-01T08:00:00.000Z');

const asset: PipelineAsset = {
  key: 'projects/p/tasks/t/sheet.png',
  format: 'png',
  width: 32,
  height: 16,
  contentType: 'image/png',
  metadata: { frameWidth: 16, frameHeight: 16, frameCount: 2, directions: 1 } as PipelineAsset['metadata'],
};

const task = { id: 't', projectId: 'p', ownerId: 7 };

function event(over: Partial<PipelineProgressEvent>): PipelineProgressEvent {
  return {
    seq: 1,
    at: T0.toISOString(),
    stage: 'prompt_optimizer',
    status: 'running',
    progress: 0,
    message: 'm',
    ...over,
  } as PipelineProgressEvent;
}

describe('taskUpdateFor (event → task record move)', () => {
  const cases: Array<{
    name: string;
    event: PipelineProgressEvent;
    retryCount: number;
    expected: { kind: 'progress' | 'finish'; fields: Record<string, unknown> };
  }> = [
    {
      name: 'prompt optimizer running → running at prompt_builder',
      event: event({ stage: 'prompt_optimizer', status: 'running', progress: 0 }),
      retryCount: 0,
      expected: {
        kind: 'progress',
        fields: { status: 'running', stage: 'prompt_builder', progress: 0, retryCount: 0 },
      },
    },
    {
      name: 'asset generator half-way → running at asset_generator',
      event: event({ stage: 'asset_generator', status: 'running', progress: 50 }),
      retryCount: 1,
      expected: { kind: 'progress', fields: { status: 'running', stage: 'asset_generator', retryCount: 1 } },
    },
    {
      name: 'quality supervisor completed → still running',
      event: event({ stage: 'quality_supervisor', status: 'completed', progress: 100 }),
      retryCount: 2,
      expected: {
        kind: 'progress',
        fields: { status: 'running', stage: 'quality_supervisor', retryCount: 2 },
      },
    },
    {
      name: 'format adapter running → saving',
      event: event({ stage: 'format_adapter', status: 'running', progress: 0 }),
      retryCount: 0,
      expected: { kind: 'progress', fields: { status: 'saving', stage: 'format_adapter' } },
    },
    {
      name: 'a failed event without error text is progress, not an end',
      event: event({ stage: 'quality_supervisor', status: 'failed', progress: 100 }),
      retryCount: 1,
      expected: {
        kind: 'progress',
        fields: { status: 'running', stage: 'quality_supervisor', retryCount: 1 },
      },
    },
    {
      name: 'a failed event with error text fails the task where it stopped',
      event: event({ stage: 'asset_generator', status: 'failed', progress: 0, error: 'provider down' }),
      retryCount: 2,
      expected: {
        kind: 'finish',
        fields: { status: 'failed', error: 'provider down', stage: 'asset_generator', retryCount: 2 },
      },
    },
    {
      name: 'format adapter completed finishes the task with its assets',
      event: event({
        stage: 'format_adapter',
        status: 'completed',
        progress: 100,
        result: { assets: [asset] },
      }),
      retryCount: 1,
      expected: { kind: 'finish', fields: { status: 'completed', retryCount: 1 } },
    },
  ];

  it.each(cases)('$name', ({ event: e, retryCount, expected }) => {
    const update = taskUpdateFor(e, { task, retryCount, at: T0 });
    expect(update.kind).toBe(expected.kind);
    const fields = update.kind === 'finish' ? update.outcome : update.patch;
    expect(fields).toMatchObject(expected.fields);
    expect(update.event.seq).toBe(e.seq);
    expect(isTerminalEvent(update.event)).toBe(update.kind === 'finish');
  });

  it('progress is the overall figure across the stages, never falling back', () => {
    const figures = [
      event({ stage: 'prompt_optimizer', status: 'running', progress: 0 }),
      event({ stage: 'asset_generator', status: 'running', progress: 50 }),
      event({ stage: 'quality_supervisor', status: 'running', progress: 0 }),
      event({ stage: 'format_adapter', status: 'running', progress: 0 }),
    ].map((e) => {
      const u = taskUpdateFor(e, { task, retryCount: 0, at: T0 });
      return u.kind === 'progress' ? (u.patch.progress ?? -1) : -1;
    });
    expect(figures).toEqual([...figures].sort((a, b) => a - b));
    expect(figures.every((p) => p >= 0 && p <= 100)).toBe(true);
  });

  it('the completion event carries asset views and the outcome carries records', () => {
    const update = taskUpdateFor(
      event({ stage: 'format_adapter', status: 'completed', progress: 100, result: { assets: [asset] } }),
      { task, retryCount: 0, at: T0 },
    );
    if (update.kind !== 'finish' || update.outcome.status !== 'completed')
      throw new Error('not a completion');
    expect(update.event.result).toEqual({ assets: [toAssetView(asset)] });
    expect((update.event.result as { assets: object[] }).assets[0]).not.toHaveProperty('contentType');
    expect(update.outcome.assets).toEqual([toAssetRecord(asset, task, T0)]);
    expect(update.outcome.assets[0]).toMatchObject({
      taskId: 't',
      projectId: 'p',
      ownerId: 7,
      createdAt: T0,
    });
  });

  it('a completion without a result finishes with no assets', () => {
    const update = taskUpdateFor(event({ stage: 'format_adapter', status: 'completed', progress: 100 }), {
      task,
      retryCount: 0,
      at: T0,
    });
    expect(update).toMatchObject({ kind: 'finish', outcome: { status: 'completed', assets: [] } });
  });
});

async function seed(
  store: Store,
  style: Record<string, string> = {},
  over: Partial<TaskRecord> = {},
): Promise<TaskRecord> {
  const project: ProjectRecord = {
    id: randomId(),
    ownerId: 7,
    name: 'Demo',
    style,
    taskCount: 1,
    lastActivityAt: T0,
    createdAt: T0,
    updatedAt: T0,
  };
  await store.projects.insert(project);
  const record = makeTaskRecord({ projectId: project.id, prompt: 'a small knight', ...over }, T0);
  await store.tasks.insert(record);
  return record;
}

async function claimOne(store: Store) {
  const queue = createTaskQueue({ store, owner: 'test-worker' });
  const [claimed] = await queue.claim(1);
  if (claimed === undefined) throw new Error('nothing claimed');
  return claimed;
}

describe('runClaimedTask over the embedded store and the real pipeline', () => {
  it('runs the task to completion, persisting every event in seq order and recording the assets', async () => {
    const store = createEmbeddedStore();
    const storage = createMemoryStorage();
    const seeded = await seed(store);
    const claimed = await claimOne(store);
    const notified: string[] = [];
    const result = await runClaimedTask(claimed, {
      store,
      storage,
      signal: new AbortController().signal,
      maxQualityRetries: 2,
      llm: null,
      imageProvider: createProceduralProvider(),
      projectDeletedError: '[assetloom/core] the project was deleted',
      notify: (id) => notified.push(id),
    });
    expect(result.ok).toBe(true);
    const task = await store.tasks.byId(seeded.id);
    expect(task).toMatchObject({ status: 'completed', progress: 100, stage: 'format_adapter', error: null });
    const events = await store.events.list(seeded.id, 0);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => isTerminalEvent(e.event))).toHaveLength(1);
    expect(isTerminalEvent(events.at(-1)?.event)).toBe(true);
    expect(notified).toHaveLength(events.length);
    const assets = await store.assets.listByTask(seeded.id);
    expect(assets.length).toBeGreaterThan(0);
    for (const a of assets) expect(storage.get(a.key)?.contentType).toBe(a.contentType);
    const terminal = events.at(-1)?.event as { result: { assets: Array<{ key: string }> } };
    expect(terminal.result.assets.map((a) => a.key)).toEqual(assets.map((a) => a.key));
  });

  it('pauses between events and stamps events and assets with the given clock', async () => {
    const store = createEmbeddedStore();
    const seeded = await seed(store);
    const claimed = await claimOne(store);
    let virtual = T0.getTime();
    let pauses = 0;
    await runClaimedTask(claimed, {
      store,
      storage: createMemoryStorage(),
      signal: new AbortController().signal,
      maxQualityRetries: 0,
      llm: null,
      imageProvider: createProceduralProvider(),
      projectDeletedError: 'gone',
      pause: async () => {
        pauses++;
        virtual += 1000;
      },
      now: () => new Date(virtual),
      renewEachEvent: true,
    });
    const events = await store.events.list(seeded.id, 0);
    expect(pauses).toBe(events.length - 1);
    expect(events.map((e) => (e.event as { at: string }).at)).toEqual(
      events.map((_, i) => new Date(T0.getTime() + i * 1000).toISOString()),
    );
    const assets = await store.assets.listByTask(seeded.id);
    expect(assets.every((a) => a.createdAt.getTime() === virtual)).toBe(true);
  });

  it('hands a background’s canvas (params.width × params.height) to the pipeline and records its size', async () => {
    const store = createEmbeddedStore();
    const seeded = await seed(
      store,
      {},
      {
        assetType: 'background',
        prompt: 'a meadow',
        params: { resolution: 64, format: 'spritesheet', width: 320, height: 180 },
      },
    );
    const claimed = await claimOne(store);
    const asked: ImageRequest[] = [];
    const provider: ImageProvider = {
      name: 'sized',
      async generate(req) {
        asked.push(req);
        const width = req.width ?? req.resolution;
        const height = req.height ?? req.resolution;
        const data = new Uint8Array(width * height * 4);
        for (let i = 0; i < width * height; i++)
          data.set(i < (width * height) / 2 ? [110, 170, 230, 255] : [80, 150, 70, 255], i * 4);
        return { frames: [{ width, height, data }], animation: 'background' };
      },
    };
    const result = await runClaimedTask(claimed, {
      store,
      storage: createMemoryStorage(),
      signal: new AbortController().signal,
      maxQualityRetries: 0,
      llm: null,
      imageProvider: provider,
      projectDeletedError: 'gone',
    });
    expect(result.ok).toBe(true);
    expect(asked[0]).toMatchObject({ width: 320, height: 180 });
    const [png] = (await store.assets.listByTask(seeded.id)).filter((a) => a.format === 'png');
    expect([png?.width, png?.height]).toEqual([320, 180]);
  });

  it('fails the task with the given message when its project is gone', async () => {
    const store = createEmbeddedStore();
    const seeded = await seed(store);
    const claimed = await claimOne(store);
    await store.projects.delete(seeded.projectId);
    const result = await runClaimedTask(claimed, {
      store,
      storage: createMemoryStorage(),
      signal: new AbortController().signal,
      maxQualityRetries: 0,
      llm: null,
      imageProvider: createProceduralProvider(),
      projectDeletedError: '[assetloom/core] the project was deleted',
    });
    expect(result).toEqual({
      ok: false,
      code: 'project_deleted',
      error: '[assetloom/core] the project was deleted',
    });
    expect(await store.tasks.byId(seeded.id)).toMatchObject({
      status: 'failed',
      error: '[assetloom/core] the project was deleted',
    });
  });

  it('writes nothing once stopped, and a throwing pause ends the attempt the same way', async () => {
    const store = createEmbeddedStore();
    const seeded = await seed(store);
    const claimed = await claimOne(store);
    const abort = new AbortController();
    const result = await runClaimedTask(claimed, {
      store,
      storage: createMemoryStorage(),
      signal: abort.signal,
      maxQualityRetries: 0,
      llm: null,
      imageProvider: createProceduralProvider(),
      projectDeletedError: 'gone',
      pause: async () => {
        abort.abort(new TaskStoppedError('worker stopping'));
      },
    });
    expect(result).toMatchObject({ ok: false, code: 'event_sink_failed' });
    const events = await store.events.list(seeded.id, 0);
    expect(events).toHaveLength(1);
    expect(await store.tasks.byId(seeded.id)).toMatchObject({ status: 'running', lastSeq: 1 });
  });
});
