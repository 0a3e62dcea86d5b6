import { afterEach, describe, expect, it } from 'vitest';
import { makeTaskRecord } from '../test/fakes.js';
import { createEmbeddedStore } from './embedded.js';
import { createSharedEventPoller, type SharedEventPoller } from './event-poller.js';
import { followTaskEvents } from './progress-stream.js';
import type { Store } from './store.js';

const at = new Date('2026-03-01T08:00:00.000Z');
const ev = (seq: number, stage = 'asset_generator', status = 'running', extra: object = {}) => ({
  seq,
  at: at.toISOString(),
  stage,
  status,
  progress: 0,
  ...extra,
});

/** The embedded store with its event and task reads counted. */
async function counted(): Promise<{ store: Store; reads: { events: number; tasks: number } }> {
  const inner = createEmbeddedStore();
  await inner.init();
  const reads = { events: 0, tasks: 0 };
  const store: Store = {
    ...inner,
    events: {
      ...inner.events,
      list: (taskId, after) => {
        reads.events++;
        return inner.events.list(taskId, after);
      },
      listForTasks: (cursors) => {
        reads.events++;
        return inner.events.listForTasks?.(cursors) ?? Promise.resolve([]);
      },
    },
    tasks: {
      ...inner.tasks,
      byId: (id) => {
        reads.tasks++;
        return inner.tasks.byId(id);
      },
      statusByIds: (ids) => {
        reads.tasks++;
        return inner.tasks.statusByIds?.(ids) ?? Promise.resolve(new Map());
      },
    },
  };
  return { store, reads };
}

const pollers: SharedEventPoller[] = [];
afterEach(() => {
  for (const p of pollers.splice(0)) p.close();
});

describe('the shared event poller', () => {
  it('30 streams on 10 tasks: every stream gets its events in order, with one events read per round', async () => {
    const { store, reads } = await counted();
    const tasks = Array.from({ length: 10 }, () => makeTaskRecord());
    for (const t of tasks) await store.tasks.insert(t);
    const poller = createSharedEventPoller({ store, intervalMs: 20, checkTasksEvery: 5 });
    pollers.push(poller);
    const follow = async (taskId: string) => {
      const seqs: number[] = [];
      for await (const item of followTaskEvents(store, taskId, { poller, pollMs: 20 })) {
        if (item.kind === 'event') seqs.push(item.seq);
      }
      return seqs;
    };
    const streams = tasks.flatMap((t) => [follow(t.id), follow(t.id), follow(t.id)]);
    await new Promise((r) => setTimeout(r, 60));
    const before = reads.events;
    for (let seq = 1; seq <= 4; seq++) {
      for (const t of tasks) await store.events.append({ taskId: t.id, seq, event: ev(seq), at });
      await new Promise((r) => setTimeout(r, 25));
    }
    for (const t of tasks) {
      await store.events.append({
        taskId: t.id,
        seq: 5,
        event: ev(5, 'format_adapter', 'completed', { result: { assets: [] } }),
        at,
      });
    }
    const all = await Promise.all(streams);
    for (const seqs of all) expect(seqs).toEqual([1, 2, 3, 4, 5]);
    const rounds = reads.events - before;
    // ~8 rounds of 20 ms happened; 30 streams polling alone would have made ~240 reads
    expect(rounds).toBeLessThan(30);
    expect(poller.following).toBe(0);
  });

  it('reports a deleted task, and a task that ended without a terminal event gets it repaired', async () => {
    const { store } = await counted();
    const gone = makeTaskRecord({ projectId: 'proj_gone' });
    const ended = makeTaskRecord();
    await store.tasks.insert(gone);
    await store.tasks.insert(ended);
    await store.events.append({ taskId: ended.id, seq: 1, event: ev(1), at });
    const poller = createSharedEventPoller({ store, intervalMs: 10, checkTasksEvery: 2 });
    pollers.push(poller);
    const items = async (taskId: string) => {
      const out: string[] = [];
      for await (const item of followTaskEvents(store, taskId, { poller, pollMs: 10 })) {
        out.push(item.kind === 'event' ? `${item.seq}${item.terminal ? '!' : ''}` : item.kind);
      }
      return out;
    };
    const a = items(gone.id);
    const b = items(ended.id);
    await new Promise((r) => setTimeout(r, 40));
    await store.tasks.deleteByProject(gone.projectId);
    await store.tasks.update(ended.id, { status: 'failed', error: 'worker died', updatedAt: at });
    expect(await a).toEqual(['deleted']);
    expect(await b).toEqual(['1', '2!']);
  });

  it('an aborted wait ends quietly; a store failure rejects that round’s waits', async () => {
    const { store } = await counted();
    const t = makeTaskRecord();
    await store.tasks.insert(t);
    const poller = createSharedEventPoller({ store, intervalMs: 10 });
    pollers.push(poller);
    const abort = new AbortController();
    const waiting = poller.next(t.id, 0, abort.signal);
    abort.abort();
    await expect(waiting).resolves.toEqual({ events: [], ended: false });
    const broken = createSharedEventPoller({
      store: {
        ...store,
        events: { ...store.events, listForTasks: () => Promise.reject(new Error('db down')) },
      },
      intervalMs: 10,
    });
    pollers.push(broken);
    await expect(broken.next(t.id, 0, new AbortController().signal)).rejects.toThrow('db down');
    broken.close();
    await expect(broken.next(t.id, 0, new AbortController().signal)).rejects.toThrow(/closed/);
  });
});
