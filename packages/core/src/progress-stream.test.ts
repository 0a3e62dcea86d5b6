import { describe, expect, it } from 'vitest';
import { makeTaskRecord } from '../test/fakes.js';
import { createEmbeddedStore } from './embedded.js';
import { type FollowTaskEventsOptions, followTaskEvents, type TaskStreamItem } from './progress-stream.js';
import type { AssetRecord, Store, TaskRecord } from './store.js';

const T0 = new Date('2026-03-01T08:00:00.000Z');

const taskRecord = (over: Partial<TaskRecord> = {}): TaskRecord => makeTaskRecord(over, T0);

const running = (seq: number) => ({ seq, stage: 'asset_generator', status: 'running', progress: seq });
const completed = (seq: number) => ({
  seq,
  stage: 'format_adapter',
  status: 'completed',
  progress: 100,
  result: { assets: [] },
});

async function append(store: Store, taskId: string, events: Array<{ seq: number }>) {
  for (const event of events) await store.events.append({ taskId, seq: event.seq, event, at: T0 });
}

/** A wait that a test can release (the in-process notifier's role). */
function manualWait() {
  let release: (() => void) | undefined;
  let waits = 0;
  return {
    get waits() {
      return waits;
    },
    wake() {
      const r = release;
      release = undefined;
      r?.();
    },
    wait: (_ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        waits++;
        release = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
      }),
  };
}

async function collect(store: Store, taskId: string, options: FollowTaskEventsOptions = {}) {
  const out: TaskStreamItem[] = [];
  for await (const item of followTaskEvents(store, taskId, { pollMs: 5, ...options })) out.push(item);
  return out;
}

const seqs = (items: TaskStreamItem[]) => items.map((i) => (i.kind === 'event' ? i.seq : i.kind));

describe('followTaskEvents', () => {
  it.each([
    { since: 0, expected: [1, 2, 3] },
    { since: 1, expected: [2, 3] },
    { since: 2, expected: [3] },
  ])(
    'replays the events after since=$since in seq order and ends after the terminal one',
    async ({ since, expected }) => {
      const store = createEmbeddedStore();
      const task = taskRecord({ status: 'completed', lastSeq: 3 });
      await store.tasks.insert(task);
      await append(store, task.id, [completed(3), running(1), running(2)]);
      const items = await collect(store, task.id, { since });
      expect(seqs(items)).toEqual(expected);
      expect(items.at(-1)).toMatchObject({ kind: 'event', terminal: true });
    },
  );

  it('answers ended when the reader already saw the terminal event', async () => {
    const store = createEmbeddedStore();
    const task = taskRecord({ status: 'completed', lastSeq: 2 });
    await store.tasks.insert(task);
    await append(store, task.id, [running(1), completed(2)]);
    expect(seqs(await collect(store, task.id, { since: 2 }))).toEqual(['ended']);
    expect(seqs(await collect(store, task.id, { since: 99 }))).toEqual(['ended']);
  });

  it('follows events appended later, woken by the wait hook', async () => {
    const store = createEmbeddedStore();
    const task = taskRecord({ lastSeq: 1 });
    await store.tasks.insert(task);
    await append(store, task.id, [running(1)]);
    const waiter = manualWait();
    const seen: TaskStreamItem[] = [];
    const done = (async () => {
      for await (const item of followTaskEvents(store, task.id, { wait: waiter.wait, pollMs: 60_000 })) {
        seen.push(item);
      }
    })();
    // The first empty poll reads the task (still running), then waits: nothing more arrives until woken.
    while (waiter.waits === 0) await new Promise((r) => setTimeout(r, 1));
    expect(seqs(seen)).toEqual([1]);
    await append(store, task.id, [running(2), completed(3)]);
    waiter.wake();
    await done;
    expect(seqs(seen)).toEqual([1, 2, 3]);
  });

  it('reads the task only on every n-th empty poll', async () => {
    const store = createEmbeddedStore();
    const task = taskRecord();
    await store.tasks.insert(task);
    let taskReads = 0;
    const counting: Store = {
      ...store,
      tasks: {
        ...store.tasks,
        byId: (id: string) => {
          taskReads++;
          return store.tasks.byId(id);
        },
      },
    };
    const abort = new AbortController();
    let waits = 0;
    const items = await collect(counting, task.id, {
      checkTaskEvery: 5,
      signal: abort.signal,
      wait: async () => {
        if (++waits === 10) abort.abort();
      },
    });
    expect(items).toEqual([]);
    expect(taskReads).toBe(2);
  });

  it('repairs a missing terminal event once, from the task record and its assets', async () => {
    const store = createEmbeddedStore();
    const task = taskRecord({ status: 'completed', stage: 'format_adapter', progress: 100, lastSeq: 2 });
    await store.tasks.insert(task);
    await append(store, task.id, [running(1), running(2)]);
    const asset: AssetRecord = {
      taskId: task.id,
      projectId: task.projectId,
      ownerId: task.ownerId,
      key: `projects/proj/tasks/${task.id}/sheet.png`,
      format: 'png',
      width: 16,
      height: 16,
      metadata: { frameCount: 1 },
      contentType: 'image/png',
      createdAt: T0,
    };
    await store.assets.insertMany([asset]);
    const repairedAt = new Date('2026-03-02T00:00:00.000Z');
    const items = await collect(store, task.id, { since: 2, now: () => repairedAt });
    expect(seqs(items)).toEqual([3]);
    expect(items[0]).toMatchObject({
      kind: 'event',
      terminal: true,
      event: {
        seq: 3,
        stage: 'format_adapter',
        status: 'completed',
        result: {
          assets: [{ key: asset.key, format: 'png', width: 16, height: 16, metadata: { frameCount: 1 } }],
        },
      },
    });
    const stored = await store.events.list(task.id, 0);
    expect(stored.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(stored[2]?.at).toEqual(repairedAt);
    // A second reader finds the repaired event instead of adding another.
    expect(seqs(await collect(store, task.id))).toEqual([1, 2, 3]);
    expect(await store.events.list(task.id, 0)).toHaveLength(3);
  });

  it('repairs a failed task with its error', async () => {
    const store = createEmbeddedStore();
    const task = taskRecord({
      status: 'failed',
      stage: 'asset_generator',
      error: 'provider down',
      lastSeq: 0,
    });
    await store.tasks.insert(task);
    const items = await collect(store, task.id);
    expect(items).toMatchObject([
      {
        kind: 'event',
        seq: 1,
        terminal: true,
        event: { stage: 'asset_generator', status: 'failed', error: 'provider down' },
      },
    ]);
  });

  it('answers deleted when the task is gone', async () => {
    const store = createEmbeddedStore();
    expect(seqs(await collect(store, 'no-such-task'))).toEqual(['deleted']);
  });

  it('ends without another item when aborted while waiting', async () => {
    const store = createEmbeddedStore();
    const task = taskRecord({ lastSeq: 1 });
    await store.tasks.insert(task);
    await append(store, task.id, [running(1)]);
    const abort = new AbortController();
    const seen: TaskStreamItem[] = [];
    const done = (async () => {
      for await (const item of followTaskEvents(store, task.id, { signal: abort.signal, pollMs: 60_000 })) {
        seen.push(item);
      }
    })();
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 1));
    abort.abort();
    await done;
    expect(seqs(seen)).toEqual([1]);
  });

  it('yields nothing for an already aborted signal and passes store failures on', async () => {
    const store = createEmbeddedStore();
    const abort = new AbortController();
    abort.abort();
    expect(await collect(store, 'x', { signal: abort.signal })).toEqual([]);
    const broken: Store = {
      ...store,
      events: { ...store.events, list: () => Promise.reject(new Error('store down')) },
    };
    await expect(collect(broken, 'x')).rejects.toThrow('store down');
  });
});
