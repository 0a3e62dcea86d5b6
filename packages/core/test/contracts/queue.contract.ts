import { afterEach, describe, expect, it } from 'vitest';
import { createTaskQueue, isTerminalEvent, TaskLeaseLostError, terminalEventFor } from '../../src/queue.js';
import type { AssetRecord, Store, TaskRecord } from '../../src/store.js';
import { makeTaskRecord, steppingClock } from '../fakes.js';

const T0 = Date.parse('2026-03-01T08:00:00.000Z');

const taskRecord = (over: Partial<TaskRecord> = {}): TaskRecord =>
  makeTaskRecord(over, new Date(T0 - 60_000));

function assetOf(t: TaskRecord, name: string): AssetRecord {
  return {
    taskId: t.id,
    projectId: t.projectId,
    ownerId: t.ownerId,
    key: `projects/${t.projectId}/tasks/${t.id}/${name}`,
    format: 'png',
    width: 16,
    height: 16,
    metadata: { frameWidth: 16, frameHeight: 16, frameCount: 1, directions: 1 },
    contentType: 'image/png',
    createdAt: new Date(T0),
  };
}

const ev = (seq: number, stage: string, status: string, extra: Record<string, unknown> = {}) => ({
  seq,
  at: new Date(T0).toISOString(),
  stage,
  status,
  progress: status === 'completed' ? 100 : 0,
  ...extra,
});

/**
 * The durable-queue contract over a Store adapter: claims by unique insert, lease renewal,
 * takeover after expiry, guarded writes, terminal events. `makeStore` must answer a FRESH, empty
 * store on every call (the scan is global).
 */
export function describeQueueContract(name: string, makeStore: () => Store | Promise<Store>): void {
  describe(`Task queue contract: ${name}`, () => {
    const opened: Store[] = [];
    async function fresh(): Promise<Store> {
      const store = await makeStore();
      await store.init();
      opened.push(store);
      return store;
    }
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it('claims a task once; others see nothing while the lease lives', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      const a = createTaskQueue({ store, owner: 'worker-a', leaseMs: 10_000, clock });
      const b = createTaskQueue({ store, owner: 'worker-b', leaseMs: 10_000, clock });
      const [claimed] = await a.claim(4);
      expect(claimed?.attempt).toBe(1);
      expect(claimed?.startSeq).toBe(1);
      expect(await b.claim(4)).toEqual([]);
      const stored = await store.tasks.byId(t.id);
      expect(stored).toMatchObject({ attempts: 1, status: 'running', lease: { owner: 'worker-a' } });
      expect(await a.claim(4)).toEqual([]);
    });

    it('gives each of 6 tasks to exactly one of 12 racing workers', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const tasks = Array.from({ length: 6 }, (_, i) => taskRecord({ createdAt: new Date(T0 - 60_000 + i) }));
      for (const t of tasks) await store.tasks.insert(t);
      const queues = Array.from({ length: 12 }, (_, i) =>
        createTaskQueue({ store, owner: `w${i}`, leaseMs: 10_000, clock }),
      );
      const claimed = (await Promise.all(queues.map((q) => q.claim(2)))).flat();
      const ids = claimed.map((c) => c.task.id).sort();
      expect(ids).toEqual(tasks.map((t) => t.id).sort());
    });

    it('one user never holds more than userMaxRunning tasks; another user is claimed for first (issue #37)', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      // user 1 queued six heavy tasks, then user 2 one sprite, newest of all
      const heavy = Array.from({ length: 6 }, (_, i) =>
        taskRecord({ ownerId: 1, createdAt: new Date(T0 - 60_000 + i) }),
      );
      for (const t of heavy) await store.tasks.insert(t);
      const a = createTaskQueue({ store, owner: 'worker-a', leaseMs: 10_000, clock, userMaxRunning: 1 });
      const b = createTaskQueue({ store, owner: 'worker-b', leaseMs: 10_000, clock, userMaxRunning: 1 });
      const first = await a.claim(2);
      // two free slots, but user 1 may hold one: the second slot stays free
      expect(first.map((c) => c.task.id)).toEqual([heavy[0]?.id]);
      const sprite = taskRecord({ ownerId: 2, createdAt: new Date(T0 - 1_000) });
      await store.tasks.insert(sprite);
      // the other worker (or process) takes user 2's sprite, not user 1's next heavy task
      const second = await b.claim(2);
      expect(second.map((c) => c.task.id)).toEqual([sprite.id]);
      expect(await a.claim(2)).toEqual([]);
    });

    it('without a cap, the users holding the fewest running tasks are claimed for first, oldest first among them', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const mine = Array.from({ length: 3 }, (_, i) =>
        taskRecord({ ownerId: 1, createdAt: new Date(T0 - 60_000 + i) }),
      );
      const theirs = taskRecord({ ownerId: 2, createdAt: new Date(T0 - 30_000) });
      for (const t of [...mine, theirs]) await store.tasks.insert(t);
      const q = createTaskQueue({ store, owner: 'worker-a', leaseMs: 10_000, clock });
      const [held] = await q.claim(1);
      expect(held?.task.id).toBe(mine[0]?.id);
      // user 1 holds one now: user 2's task goes before user 1's older ones
      const next = await q.claim(2);
      expect(next.map((c) => c.task.id)).toEqual([theirs.id, mine[1]?.id]);
    });

    it('records events and progress, keeps the task current, then completes with its assets', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      const q = createTaskQueue({ store, owner: 'w', leaseMs: 10_000, clock });
      const [c] = await q.claim(1);
      if (!c) throw new Error('no claim');
      await c.record(ev(1, 'prompt_optimizer', 'running'), { stage: 'prompt_builder', progress: 0 });
      await c.record(ev(2, 'asset_generator', 'running'), { stage: 'asset_generator', progress: 25 });
      await c.record(ev(3, 'quality_supervisor', 'failed', { retryCount: 1, rejectReason: 'blank' }), {
        stage: 'quality_supervisor',
        progress: 50,
        retryCount: 1,
      });
      await c.record(ev(4, 'format_adapter', 'running'), {
        stage: 'format_adapter',
        progress: 75,
        status: 'saving',
      });
      expect(await store.tasks.byId(t.id)).toMatchObject({
        status: 'saving',
        stage: 'format_adapter',
        progress: 75,
        retryCount: 1,
        lastSeq: 4,
      });
      await expect(c.record(ev(4, 'format_adapter', 'running'), {})).rejects.toThrow(/seq/);
      expect(await c.renew()).toBe(true);
      const done = await c.finish(
        { status: 'completed', assets: [assetOf(t, 'sprite.png'), assetOf(t, 'sprite.json')] },
        ev(5, 'format_adapter', 'completed', { result: { assets: [] } }),
      );
      expect(done).toMatchObject({ status: 'completed', progress: 100, lease: null, lastSeq: 5 });
      expect((await store.assets.listByTask(t.id)).map((a) => a.key).sort()).toEqual([
        assetOf(t, 'sprite.json').key,
        assetOf(t, 'sprite.png').key,
      ]);
      const events = await store.events.list(t.id, 0);
      expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(isTerminalEvent(events[4]?.event)).toBe(true);
      expect(c.lost).toBe(true);
      await expect(c.record(ev(6, 'x', 'running'), {})).rejects.toBeInstanceOf(TaskLeaseLostError);
      // the dedupe slot is free again: an identical task may now be inserted
      await store.tasks.insert({ ...taskRecord(), dedupeKey: t.dedupeKey });
    });

    it('takes over an expired lease as attempt 2; the old owner can no longer write', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      const a = createTaskQueue({ store, owner: 'a', leaseMs: 1000, clock });
      const b = createTaskQueue({ store, owner: 'b', leaseMs: 1000, clock });
      const [old] = await a.claim(1);
      if (!old) throw new Error('no claim');
      await old.record(ev(1, 'prompt_optimizer', 'running'), { stage: 'prompt_builder', progress: 0 });
      // the worker "dies": an event got persisted but the task never heard of it
      await store.events.append({
        taskId: t.id,
        seq: 2,
        event: ev(2, 'prompt_optimizer', 'completed'),
        at: clock.now(),
      });
      clock.advance(5000);
      const [next] = await b.claim(1);
      expect(next?.attempt).toBe(2);
      expect(next?.startSeq).toBe(3);
      expect(await old.renew()).toBe(false);
      await expect(
        old.record(ev(3, 'asset_generator', 'running'), { stage: 'asset_generator' }),
      ).rejects.toBeInstanceOf(TaskLeaseLostError);
      await expect(old.finish({ status: 'failed', error: 'stale' })).rejects.toBeInstanceOf(
        TaskLeaseLostError,
      );
      expect(await store.tasks.byId(t.id)).toMatchObject({ status: 'running', attempts: 2, error: null });
    });

    it('release hands the task back at once: the next claim is attempt 2', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      const a = createTaskQueue({ store, owner: 'a', leaseMs: 60_000, clock });
      const b = createTaskQueue({ store, owner: 'b', leaseMs: 60_000, clock });
      const [held] = await a.claim(1);
      if (!held) throw new Error('no claim');
      expect(await b.claim(1)).toEqual([]);
      await held.release();
      expect(held.lost).toBe(true);
      const [next] = await b.claim(1);
      expect(next?.attempt).toBe(2);
    });

    it('recovers a claim whose worker died before mirroring it onto the task', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      await store.claims.insert({
        taskId: t.id,
        attempt: 1,
        owner: 'dead',
        until: new Date(T0 + 1000),
        at: new Date(T0),
      });
      const q = createTaskQueue({ store, owner: 'q', leaseMs: 1000, clock });
      expect(await q.claim(1)).toEqual([]); // the dead worker's claim still looks alive
      clock.advance(2000);
      const [c] = await q.claim(1);
      expect(c?.attempt).toBe(2);
    });

    it('fails a task whose workers keep dying after maxAttempts, with a terminal event', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord({ stage: 'asset_generator' });
      await store.tasks.insert(t);
      const q = createTaskQueue({ store, owner: 'q', leaseMs: 1000, clock, maxAttempts: 2 });
      for (let attempt = 1; attempt <= 2; attempt++) {
        const [c] = await q.claim(1);
        expect(c?.attempt).toBe(attempt);
        clock.advance(2000);
      }
      expect(await q.claim(1)).toEqual([]);
      const failed = await store.tasks.byId(t.id);
      expect(failed).toMatchObject({ status: 'failed', lease: null });
      expect(failed?.error).toMatch(/giving up after 2 attempts/);
      const events = await store.events.list(t.id, 0);
      expect(events).toHaveLength(1);
      expect(isTerminalEvent(events[0]?.event)).toBe(true);
      expect(await store.tasks.listClaimable(clock.now(), 10)).toEqual([]);
    });

    it('takeovers of live workers that renewed too late do not use up the attempts; the last holder finishes', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord({ stage: 'asset_generator' });
      await store.tasks.insert(t);
      const queues = Array.from({ length: 6 }, (_, i) =>
        createTaskQueue({ store, owner: `slow-${i}`, leaseMs: 1000, clock, maxAttempts: 2 }),
      );
      let holder = (await queues[0]?.claim(1))?.[0];
      for (let i = 1; i < 6; i++) {
        // starved: the lease runs out while the worker is still alive
        clock.advance(2000);
        const [next] = await (queues[i]?.claim(1) ?? []);
        expect(next?.attempt).toBe(i + 1);
        // the late worker wakes up, finds the task taken over and says so on its claim
        expect(await holder?.renew()).toBe(false);
        holder = next;
      }
      if (!holder) throw new Error('no claim');
      const claims = await store.claims.listByTask(t.id);
      expect(claims.map((c) => c.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(claims.slice(0, 5).every((c) => c.outlivedAt instanceof Date)).toBe(true);
      expect(claims[5]?.outlivedAt).toBeUndefined();
      const done = await holder.finish({ status: 'completed', assets: [assetOf(t, 'a.png')] });
      expect(done).toMatchObject({ status: 'completed', attempts: 6, error: null });
    });

    it('a handed-back claim (shutdown) does not count as a crash', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      const q = createTaskQueue({ store, owner: 'q', leaseMs: 60_000, clock, maxAttempts: 1 });
      const [first] = await q.claim(1);
      await first?.release();
      const [second] = await q.claim(1);
      expect(second?.attempt).toBe(2);
      expect((await store.tasks.byId(t.id))?.status).toBe('running');
    });

    it('gives up after maxTakeovers when the leases keep running out under live workers, and says why', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      const opts = { store, leaseMs: 1000, clock, maxAttempts: 2, maxTakeovers: 3 };
      let holder = (await createTaskQueue({ ...opts, owner: 'w0' }).claim(1))[0];
      for (let i = 1; i <= 3; i++) {
        clock.advance(2000);
        const [next] = await createTaskQueue({ ...opts, owner: `w${i}` }).claim(1);
        expect(await holder?.renew()).toBe(false);
        holder = next;
      }
      expect(holder).toBeUndefined();
      const failed = await store.tasks.byId(t.id);
      expect(failed?.status).toBe('failed');
      expect(failed?.error).toMatch(/taken over 3 times: 2 of its workers renewed their lease too late/);
      expect(failed?.error).toMatch(/TASK_LEASE_MS/);
    });

    it('counts a crashed holder among the dead even after late ones', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      const opts = { store, leaseMs: 1000, clock, maxAttempts: 2 };
      const [late] = await createTaskQueue({ ...opts, owner: 'late' }).claim(1);
      clock.advance(2000);
      await createTaskQueue({ ...opts, owner: 'dies-1' }).claim(1); // never heard from again
      expect(await late?.renew()).toBe(false);
      clock.advance(2000);
      await createTaskQueue({ ...opts, owner: 'dies-2' }).claim(1); // never heard from again
      clock.advance(2000);
      expect(await createTaskQueue({ ...opts, owner: 'last' }).claim(1)).toEqual([]);
      const failed = await store.tasks.byId(t.id);
      expect(failed?.error).toMatch(
        /abandoned by 2 workers \(crash or lost lease\) \(1 more renewed their lease too late\)/,
      );
    });

    it('a re-run after a crash between assets and completion records no duplicate asset', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      await store.assets.insertMany([assetOf(t, 'sprite.png')]);
      const q = createTaskQueue({ store, owner: 'q', leaseMs: 1000, clock });
      const [c] = await q.claim(1);
      if (!c) throw new Error('no claim');
      await c.finish({ status: 'completed', assets: [assetOf(t, 'sprite.png'), assetOf(t, 'sprite.json')] });
      expect(await store.assets.listByTask(t.id)).toHaveLength(2);
    });

    it('fails a task with its error and a terminal event; terminalEventFor repairs a missing one', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      const q = createTaskQueue({ store, owner: 'q', leaseMs: 1000, clock });
      const [c] = await q.claim(1);
      if (!c) throw new Error('no claim');
      const ended = await c.finish(
        { status: 'failed', error: 'quality check failed', retryCount: 2, stage: 'quality_supervisor' },
        ev(1, 'quality_supervisor', 'failed', { error: 'quality check failed' }),
      );
      expect(ended).toMatchObject({ status: 'failed', error: 'quality check failed', retryCount: 2 });
      const repaired = terminalEventFor(ended, 9);
      expect(repaired).toMatchObject({
        seq: 9,
        stage: 'quality_supervisor',
        status: 'failed',
        error: 'quality check failed',
      });
      expect(isTerminalEvent(repaired)).toBe(true);
      expect(isTerminalEvent({ stage: 'format_adapter', status: 'running' })).toBe(false);
      expect(isTerminalEvent(null)).toBe(false);
    });

    const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('batchMs: events recorded together are stored in order with the task moved to the last one', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      const q = createTaskQueue({ store, owner: 'w', leaseMs: 10_000, clock, batchMs: 20 });
      const [c] = await q.claim(1);
      if (!c) throw new Error('no claim');
      await c.record(ev(1, 'prompt_optimizer', 'running'), { stage: 'prompt_builder', progress: 0 });
      await c.record(ev(2, 'prompt_optimizer', 'completed'), { stage: 'prompt_builder', progress: 10 });
      await c.record(ev(3, 'asset_generator', 'running'), { stage: 'asset_generator', progress: 25 });
      await expect(c.record(ev(3, 'asset_generator', 'running'), {})).rejects.toThrow(/seq/);
      await settle(120);
      expect(await store.tasks.byId(t.id)).toMatchObject({
        stage: 'asset_generator',
        progress: 25,
        lastSeq: 3,
      });
      expect((await store.events.list(t.id, 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
      // finish writes what is pending first, then ends the task
      await c.record(ev(4, 'format_adapter', 'running'), {
        stage: 'format_adapter',
        progress: 75,
        status: 'saving',
      });
      const done = await c.finish(
        { status: 'completed', assets: [assetOf(t, 'sprite.png')] },
        ev(5, 'format_adapter', 'completed', { result: { assets: [] } }),
      );
      expect(done).toMatchObject({ status: 'completed', lastSeq: 5 });
      const events = await store.events.list(t.id, 0);
      expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(events.map((e) => (e.event as { stage: string }).stage)).toEqual([
        'prompt_optimizer',
        'prompt_optimizer',
        'asset_generator',
        'format_adapter',
        'format_adapter',
      ]);
    });

    it('batchMs: a batch whose claim was taken over writes nothing; record and finish then throw', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      // The batch must still be waiting when b takes the claim over: 1 s leaves room for a slow
      // database on a loaded machine (at 30 ms the batch flushed before b's claim landed).
      const a = createTaskQueue({ store, owner: 'a', leaseMs: 1000, clock, batchMs: 1000 });
      const b = createTaskQueue({ store, owner: 'b', leaseMs: 1000, clock });
      const [old] = await a.claim(1);
      if (!old) throw new Error('no claim');
      await old.record(ev(1, 'prompt_optimizer', 'running'), { stage: 'prompt_builder', progress: 0 });
      clock.advance(5000);
      const [next] = await b.claim(1);
      expect(next?.attempt).toBe(2);
      expect(next?.startSeq).toBe(1);
      await settle(1300);
      expect(await store.events.list(t.id, 0)).toEqual([]);
      await expect(
        old.record(ev(2, 'asset_generator', 'running'), { stage: 'asset_generator' }),
      ).rejects.toBeInstanceOf(TaskLeaseLostError);
      await expect(old.finish({ status: 'failed', error: 'stale' })).rejects.toBeInstanceOf(
        TaskLeaseLostError,
      );
      expect(await store.tasks.byId(t.id)).toMatchObject({ status: 'running', attempts: 2 });
    });

    it('batchMs: a batch meeting a seq a stale writer took keeps every event, numbered past it', async () => {
      const store = await fresh();
      const clock = steppingClock(T0);
      const t = taskRecord();
      await store.tasks.insert(t);
      const q = createTaskQueue({ store, owner: 'w', leaseMs: 10_000, clock, batchMs: 20 });
      const [c] = await q.claim(1);
      if (!c) throw new Error('no claim');
      // a stale writer slipped seq 2 in
      await store.events.append({ taskId: t.id, seq: 2, event: ev(2, 'stale', 'running'), at: clock.now() });
      await c.record(ev(1, 'prompt_optimizer', 'running'), { stage: 'prompt_builder', progress: 0 });
      await c.record(ev(2, 'prompt_optimizer', 'completed'), { stage: 'prompt_builder', progress: 10 });
      await c.record(ev(3, 'asset_generator', 'running'), { stage: 'asset_generator', progress: 25 });
      await c.finish({ status: 'failed', error: 'x' }, ev(4, 'asset_generator', 'failed', { error: 'x' }));
      const events = await store.events.list(t.id, 0);
      const stages = events.map(
        (e) =>
          `${e.seq}:${(e.event as { stage: string; status: string }).stage}/${(e.event as { status: string }).status}`,
      );
      expect(stages).toEqual([
        '1:prompt_optimizer/running',
        '2:stale/running',
        '3:prompt_optimizer/completed',
        '4:asset_generator/running',
        '5:asset_generator/failed',
      ]);
    });

    it('rejects bad options', () => {
      expect(() => createTaskQueue({ store: {} as Store, owner: '' })).toThrow(/owner/);
      expect(() => createTaskQueue({ store: {} as Store, owner: 'x', leaseMs: 5 })).toThrow(/leaseMs/);
      expect(() => createTaskQueue({ store: {} as Store, owner: 'x', maxAttempts: 0 })).toThrow(
        /maxAttempts/,
      );
    });
  });
}
