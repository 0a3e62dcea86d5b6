import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomId } from '../../src/defaults.js';
import { AssetloomError } from '../../src/errors.js';
import { createAssetService } from '../../src/service.js';
import {
  type AssetRecord,
  DuplicateKeyError,
  type ProjectRecord,
  type Store,
  type TaskRecord,
  type UserRecord,
} from '../../src/store.js';
import { fakeHasher, fakeTokens, makeTaskRecord, steppingClock } from '../fakes.js';

const T0 = Date.parse('2026-01-31T12:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);
/** Owner ids far from the counter's range, unique per call, so tests never see each other's rows. */
let ownerSeq = 1_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const nextOwner = () => ++ownerSeq;

function user(id: number, over: Partial<UserRecord> = {}): UserRecord {
  return {
    id,
    username: `u_${id}_${randomId().slice(0, 6)}`,
    email: null,
    passwordHash: 'hash',
    tokenVersion: 0,
    createdAt: at(0),
    updatedAt: at(0),
    ...over,
  };
}

function project(ownerId: number, over: Partial<ProjectRecord> = {}): ProjectRecord {
  return {
    id: randomId(),
    ownerId,
    name: 'Forest',
    style: { artStyle: 'pixel' },
    taskCount: 0,
    lastActivityAt: at(0),
    createdAt: at(0),
    updatedAt: at(0),
    ...over,
  };
}

function task(ownerId: number, projectId: string, over: Partial<TaskRecord> = {}): TaskRecord {
  return makeTaskRecord(
    {
      ownerId,
      projectId,
      params: { resolution: 64, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
      ...over,
    },
    at(0),
  );
}

function asset(p: ProjectRecord, taskId: string, key: string, ms = 0): AssetRecord {
  return {
    taskId,
    projectId: p.id,
    ownerId: p.ownerId,
    key,
    format: 'png',
    width: 256,
    height: 256,
    metadata: {
      frameWidth: 64,
      frameHeight: 64,
      frameCount: 16,
      directions: 4,
      provenance: { style: { 'a.b': '$x' } },
    },
    contentType: 'image/png',
    createdAt: at(ms),
  };
}

async function expectDuplicate(promise: Promise<unknown>, field: string): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `expected DuplicateKeyError(${field})`).toBeInstanceOf(DuplicateKeyError);
  expect((err as DuplicateKeyError).field).toBe(field);
}

async function expectRejectedArgument(promise: Promise<unknown>): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AssetloomError);
  expect((err as AssetloomError).code).toBe(400);
}

/**
 * The repository contract every Store adapter must meet. `makeStore` is called once for the suite
 * (tests use fresh random ids and owner ids, so they never see each other's rows).
 */
export function describeStoreContract(name: string, makeStore: () => Store | Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await makeStore();
      await store.init();
      await store.init(); // idempotent
    });
    afterAll(async () => {
      await store?.close();
    });

    describe('users', () => {
      it('issues increasing, distinct ids even when asked concurrently', async () => {
        const ids = await Promise.all(Array.from({ length: 40 }, () => store.users.nextId()));
        expect(new Set(ids).size).toBe(40);
        for (const id of ids) expect(Number.isSafeInteger(id) && id >= 1).toBe(true);
        const later = await store.users.nextId();
        expect(later).toBeGreaterThan(Math.max(...ids));
      });

      it('round-trips a user by id and by username', async () => {
        const u = user(await store.users.nextId(), { email: 'Knight@Example.com' });
        await store.users.insert(u);
        expect(await store.users.byId(u.id)).toEqual(u);
        expect(await store.users.byUsername(u.username)).toEqual(u);
        expect(await store.users.byUsername(`${u.username}x`)).toBeNull();
        expect(await store.users.byId(u.id + 10_000_000)).toBeNull();
      });

      it('rejects a taken username with DuplicateKeyError(username)', async () => {
        const u = user(await store.users.nextId());
        await store.users.insert(u);
        await expectDuplicate(store.users.insert({ ...u, id: await store.users.nextId() }), 'username');
      });

      it('keeps e-mails unique where present (case-insensitively) and allows many users without one', async () => {
        const a = user(await store.users.nextId(), { email: `mage${ownerSeq}@example.com` });
        await store.users.insert(a);
        const b = user(await store.users.nextId(), { email: `MAGE${ownerSeq}@example.com` });
        await expectDuplicate(store.users.insert(b), 'email');
        await store.users.insert(user(await store.users.nextId()));
        await store.users.insert(user(await store.users.nextId()));
      });

      it('updates the password hash, token version and updatedAt from the version before', async () => {
        const u = user(await store.users.nextId(), { tokenVersion: 2 });
        await store.users.insert(u);
        expect(await store.users.updatePassword(u.id, 'new-hash', 3, at(5000))).toBe(true);
        const got = await store.users.byId(u.id);
        expect(got).toMatchObject({
          passwordHash: 'new-hash',
          tokenVersion: 3,
          updatedAt: at(5000),
          createdAt: at(0),
        });
        // Not from another version: the stored one is 3 now.
        expect(await store.users.updatePassword(u.id, 'late-hash', 3, at(6000))).toBe(false);
        expect(await store.users.updatePassword(u.id, 'skip-hash', 5, at(6000))).toBe(false);
        expect(await store.users.updatePassword(u.id + 10_000_000, 'x', 1, at(6000))).toBe(false);
        expect(await store.users.byId(u.id)).toMatchObject({ passwordHash: 'new-hash', tokenVersion: 3 });
      });

      it('lets exactly one of simultaneous changes from one version win (compare-and-swap)', async () => {
        const u = user(await store.users.nextId());
        await store.users.insert(u);
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            store.users.updatePassword(u.id, `hash-${i}`, 1, at(7000 + i)),
          ),
        );
        const winners = results.flatMap((won, i) => (won ? [i] : []));
        expect(winners).toHaveLength(1);
        expect(await store.users.byId(u.id)).toMatchObject({
          passwordHash: `hash-${winners[0]}`,
          tokenVersion: 1,
        });
      });

      it('accepts only primitives: operator objects never reach a filter', async () => {
        const u = user(await store.users.nextId());
        await store.users.insert(u);
        const evil = [{ $gt: '' }, { $ne: null }, { $regex: '.*' }, ['x'], null, undefined, 1];
        for (const value of evil) {
          await expectRejectedArgument(store.users.byUsername(value as unknown as string));
        }
        for (const value of [{ $gt: 0 }, '1', 1.5, Number.NaN, null]) {
          await expectRejectedArgument(store.users.byId(value as unknown as number));
        }
      });
    });

    describe('projects', () => {
      it('round-trips a project, style keys that look like operators or paths included', async () => {
        const style = JSON.parse(
          '{"a.b":"dots","$gt":"dollar","__proto__":"proto","constructor":"c","":"empty"}',
        );
        const p = project(nextOwner(), { style });
        await store.projects.insert(p);
        const got = await store.projects.byId(p.id);
        expect(got).toEqual(p);
        expect(Object.keys(got!.style).sort()).toEqual(['', '$gt', '__proto__', 'a.b', 'constructor']);
        expect(Object.getOwnPropertyDescriptor(got!.style, '__proto__')?.value).toBe('proto');
        expect(Object.getPrototypeOf(got!.style)).toBe(Object.prototype);
        expect(await store.projects.byId(randomId())).toBeNull();
      });

      it('lists an owner’s projects newest first, id descending on ties, with total and pages', async () => {
        const owner = nextOwner();
        const made: ProjectRecord[] = [];
        for (let i = 0; i < 7; i++) {
          // Two share each timestamp so the id tie-break matters.
          const p = project(owner, { createdAt: at(Math.floor(i / 2) * 1000), name: `p${i}` });
          made.push(p);
          await store.projects.insert(p);
        }
        await store.projects.insert(project(nextOwner()));
        const expected = [...made].sort(
          (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
        );
        const first = await store.projects.listByOwner(owner, { skip: 0, limit: 3 });
        const second = await store.projects.listByOwner(owner, { skip: 3, limit: 3 });
        const third = await store.projects.listByOwner(owner, { skip: 6, limit: 3 });
        expect(first.total).toBe(7);
        expect([...first.items, ...second.items, ...third.items].map((p) => p.id)).toEqual(
          expected.map((p) => p.id),
        );
        expect((await store.projects.listByOwner(owner, { skip: 7, limit: 3 })).items).toEqual([]);
        expect(await store.projects.listByOwner(owner, { skip: Number.MAX_SAFE_INTEGER, limit: 3 })).toEqual({
          total: 7,
          items: [],
        });
        expect(await store.projects.listByOwner(nextOwner(), { skip: 0, limit: 3 })).toEqual({
          total: 0,
          items: [],
        });
      });

      it('updates name and style (replacing the whole map) and answers the new record', async () => {
        const p = project(nextOwner());
        await store.projects.insert(p);
        const renamed = await store.projects.update(p.id, { name: 'Cave', updatedAt: at(10) });
        expect(renamed).toMatchObject({ name: 'Cave', style: p.style, updatedAt: at(10) });
        const restyled = await store.projects.update(p.id, { style: { mood: 'dark' }, updatedAt: at(20) });
        expect(restyled?.style).toEqual({ mood: 'dark' });
        expect(await store.projects.update(randomId(), { name: 'x', updatedAt: at(0) })).toBeNull();
      });

      it('touch adds to taskCount and only moves lastActivityAt forward', async () => {
        const p = project(nextOwner());
        await store.projects.insert(p);
        expect(await store.projects.touch(p.id, { taskCountDelta: 1, lastActivityAt: at(100) })).toBe(true);
        expect(await store.projects.touch(p.id, { taskCountDelta: 2, lastActivityAt: at(50) })).toBe(true);
        expect(await store.projects.byId(p.id)).toMatchObject({ taskCount: 3, lastActivityAt: at(100) });
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.projects.touch(p.id, { taskCountDelta: 1, lastActivityAt: at(i) }),
          ),
        );
        expect((await store.projects.byId(p.id))?.taskCount).toBe(23);
        expect(await store.projects.touch(randomId(), { taskCountDelta: 1, lastActivityAt: at(0) })).toBe(
          false,
        );
      });

      it('deletes', async () => {
        const p = project(nextOwner());
        await store.projects.insert(p);
        expect(await store.projects.delete(p.id)).toBe(true);
        expect(await store.projects.byId(p.id)).toBeNull();
        expect(await store.projects.delete(p.id)).toBe(false);
      });

      it('rejects non-primitive ids and windows', async () => {
        await expectRejectedArgument(store.projects.byId({ $ne: '' } as unknown as string));
        await expectRejectedArgument(
          store.projects.listByOwner({ $gt: 0 } as unknown as number, { skip: 0, limit: 1 }),
        );
        await expectRejectedArgument(store.projects.listByOwner(1, { skip: -1, limit: 1 }));
        await expectRejectedArgument(store.projects.listByOwner(1, { skip: 0, limit: 0 }));
        await expectRejectedArgument(store.projects.delete({ $exists: true } as unknown as string));
      });
    });

    describe('tasks', () => {
      it('answers a user’s tasks in flight and the bytes of their completed tasks (the budgets)', async () => {
        const owner = nextOwner();
        const other = nextOwner();
        const p = project(owner);
        const running = task(owner, p.id, { dedupeKey: 'k-run' });
        const saving = task(owner, p.id, { dedupeKey: 'k-save', status: 'saving' });
        const done = task(owner, p.id, { dedupeKey: 'k-done' });
        const done2 = task(owner, p.id, { dedupeKey: 'k-done2' });
        const theirs = task(other, p.id, { dedupeKey: 'k-theirs' });
        for (const t of [running, saving, done, done2, theirs]) await store.tasks.insert(t);
        await store.tasks.update(done.id, { status: 'completed', storedBytes: 1500, updatedAt: at(5) });
        await store.tasks.update(done2.id, { status: 'completed', storedBytes: 500, updatedAt: at(5) });
        const active = await store.tasks.activeByOwner(owner, 100);
        expect(active.map((t) => t.id).sort()).toEqual([running.id, saving.id].sort());
        expect((await store.tasks.activeByOwner(other, 100)).map((t) => t.id)).toEqual([theirs.id]);
        expect(await store.tasks.activeByOwner(owner, 1)).toHaveLength(1);
        expect(await store.tasks.storedBytesByOwner(owner)).toBe(2000);
        expect(await store.tasks.storedBytesByOwner(other)).toBe(0);
        expect((await store.tasks.byId(done.id))?.storedBytes).toBe(1500);
      });

      it('round-trips a task and lists a project’s tasks newest first', async () => {
        const owner = nextOwner();
        const p = project(owner);
        const made = [
          task(owner, p.id, { createdAt: at(1), taskStyle: { 'x.y': '1', $set: '2' } }),
          task(owner, p.id, {
            createdAt: at(3),
            assetType: 'background',
            params: { resolution: 128, format: 'individual' },
          }),
          task(owner, p.id, { createdAt: at(2), lease: { owner: 'w1', until: at(99) } }),
        ];
        for (const t of made) await store.tasks.insert(t);
        expect(await store.tasks.byId(made[0]!.id)).toEqual(made[0]);
        expect(await store.tasks.byId(made[1]!.id)).toEqual(made[1]);
        expect(await store.tasks.byId(made[2]!.id)).toEqual(made[2]);
        const list = await store.tasks.listByProject(p.id, { skip: 0, limit: 10 });
        expect(list.total).toBe(3);
        expect(list.items.map((t) => t.id)).toEqual([made[1]!.id, made[2]!.id, made[0]!.id]);
        expect((await store.tasks.idsByProject(p.id)).sort()).toEqual(made.map((t) => t.id).sort());
        expect(await store.tasks.byId(randomId())).toBeNull();
      });

      it('keeps the character a task was made through and lists a character’s tasks newest first (decision 0057)', async () => {
        const owner = nextOwner();
        const p = project(owner);
        const hero = randomId();
        const mine = [
          task(owner, p.id, { createdAt: at(1), characterId: hero }),
          task(owner, p.id, { createdAt: at(3), characterId: hero }),
          task(owner, p.id, { createdAt: at(2), characterId: hero }),
        ];
        const plain = task(owner, p.id, { createdAt: at(4) });
        const another = task(owner, p.id, { createdAt: at(5), characterId: randomId() });
        for (const t of [...mine, plain, another]) await store.tasks.insert(t);
        expect(await store.tasks.byId(mine[0]!.id)).toEqual(mine[0]);
        expect((await store.tasks.byId(plain.id))?.characterId).toBeUndefined();
        const list = await store.tasks.listByCharacter(hero, { skip: 0, limit: 10 });
        expect(list.total).toBe(3);
        expect(list.items.map((t) => t.id)).toEqual([mine[1]!.id, mine[2]!.id, mine[0]!.id]);
        expect(list.items.every((t) => t.characterId === hero)).toBe(true);
        const second = await store.tasks.listByCharacter(hero, { skip: 1, limit: 1 });
        expect(second).toMatchObject({ total: 3, items: [{ id: mine[2]!.id }] });
        // an update keeps it; an unknown character has none; a non-string id is refused, never a query
        await store.tasks.update(mine[0]!.id, { status: 'completed', updatedAt: at(9) });
        expect((await store.tasks.byId(mine[0]!.id))?.characterId).toBe(hero);
        expect(await store.tasks.listByCharacter(randomId(), { skip: 0, limit: 10 })).toEqual({
          total: 0,
          items: [],
        });
        await expectRejectedArgument(
          store.tasks.listByCharacter({ $gt: '' } as unknown as string, { skip: 0, limit: 1 }),
        );
      });

      it('allows one active task per dedupe key and user; finished tasks free the key', async () => {
        const owner = nextOwner();
        const key = randomId();
        const first = task(owner, 'p', { dedupeKey: key });
        await store.tasks.insert(first);
        await expectDuplicate(store.tasks.insert(task(owner, 'p', { dedupeKey: key })), 'dedupeKey');
        // Another user with the same key is independent.
        await store.tasks.insert(task(nextOwner(), 'p', { dedupeKey: key }));
        expect((await store.tasks.findActiveByDedupeKey(owner, key))?.id).toBe(first.id);

        const saving = await store.tasks.update(first.id, {
          status: 'saving',
          progress: 90,
          updatedAt: at(5),
        });
        expect(saving).toMatchObject({ status: 'saving', progress: 90, updatedAt: at(5) });
        expect((await store.tasks.findActiveByDedupeKey(owner, key))?.id).toBe(first.id);

        await store.tasks.update(first.id, { status: 'completed', progress: 100, updatedAt: at(6) });
        expect(await store.tasks.findActiveByDedupeKey(owner, key)).toBeNull();
        const second = task(owner, 'p', { dedupeKey: key });
        await store.tasks.insert(second);
        expect((await store.tasks.findActiveByDedupeKey(owner, key))?.id).toBe(second.id);
        await store.tasks.update(second.id, { status: 'failed', error: 'boom', updatedAt: at(7) });
        expect(await store.tasks.byId(second.id)).toMatchObject({ status: 'failed', error: 'boom' });
        expect(await store.tasks.findActiveByDedupeKey(owner, key)).toBeNull();
      });

      it('keeps idempotency keys unique per user until released', async () => {
        const owner = nextOwner();
        const t = task(owner, 'p', { idempotencyKey: 'req-1' });
        await store.tasks.insert(t);
        await expectDuplicate(
          store.tasks.insert(task(owner, 'p', { idempotencyKey: 'req-1' })),
          'idempotencyKey',
        );
        await store.tasks.insert(task(nextOwner(), 'p', { idempotencyKey: 'req-1' }));
        expect((await store.tasks.findByIdempotencyKey(owner, 'req-1'))?.id).toBe(t.id);
        await store.tasks.update(t.id, { idempotencyKey: null, updatedAt: at(1) });
        expect(await store.tasks.findByIdempotencyKey(owner, 'req-1')).toBeNull();
        expect((await store.tasks.byId(t.id))?.idempotencyKey).toBeNull();
        await store.tasks.insert(task(owner, 'p', { idempotencyKey: 'req-1' }));
      });

      it('updates stage, progress, retries, lease and attempts; unknown ids answer null', async () => {
        const t = task(nextOwner(), 'p');
        await store.tasks.insert(t);
        const got = await store.tasks.update(t.id, {
          stage: 'quality_supervisor',
          progress: 55,
          retryCount: 1,
          lastSeq: 7,
          lease: { owner: 'worker-a', until: at(30_000) },
          attempts: 2,
          updatedAt: at(9),
        });
        expect(got).toEqual({
          ...t,
          stage: 'quality_supervisor',
          progress: 55,
          retryCount: 1,
          lastSeq: 7,
          lease: { owner: 'worker-a', until: at(30_000) },
          attempts: 2,
          updatedAt: at(9),
        });
        expect((await store.tasks.update(t.id, { lease: null, updatedAt: at(10) }))?.lease).toBeNull();
        expect(await store.tasks.update(randomId(), { progress: 1, updatedAt: at(0) })).toBeNull();
      });

      it('deletes a project’s tasks only', async () => {
        const owner = nextOwner();
        const a = project(owner);
        const b = project(owner);
        await store.tasks.insert(task(owner, a.id));
        await store.tasks.insert(task(owner, a.id));
        const keep = task(owner, b.id);
        await store.tasks.insert(keep);
        expect(await store.tasks.deleteByProject(a.id)).toBe(2);
        expect(await store.tasks.idsByProject(a.id)).toEqual([]);
        expect(await store.tasks.byId(keep.id)).toEqual(keep);
      });

      it('rejects non-primitive arguments', async () => {
        await expectRejectedArgument(store.tasks.byId({ $gt: '' } as unknown as string));
        await expectRejectedArgument(store.tasks.findActiveByDedupeKey(1, { $ne: 'x' } as unknown as string));
        await expectRejectedArgument(store.tasks.findByIdempotencyKey({ $gt: 0 } as unknown as number, 'k'));
        await expectRejectedArgument(
          store.tasks.listByProject(['p'] as unknown as string, { skip: 0, limit: 1 }),
        );
        await expectRejectedArgument(store.tasks.deleteByProject({ $exists: true } as unknown as string));
      });
    });

    describe('events', () => {
      it('appends events with unique (taskId, seq) and lists after a seq, in order', async () => {
        const taskId = randomId();
        for (const seq of [2, 1, 3]) {
          await store.events.append({
            taskId,
            seq,
            event: { stage: 'prompt_optimizer', status: 'running', progress: 0, seq, message: 'a.b $c' },
            at: at(seq),
          });
        }
        await expectDuplicate(store.events.append({ taskId, seq: 2, event: {}, at: at(0) }), 'seq');
        await store.events.append({ taskId: randomId(), seq: 1, event: {}, at: at(0) });
        const all = await store.events.list(taskId, 0);
        expect(all.map((e) => e.seq)).toEqual([1, 2, 3]);
        expect(all[0]).toEqual({
          taskId,
          seq: 1,
          event: { stage: 'prompt_optimizer', status: 'running', progress: 0, seq: 1, message: 'a.b $c' },
          at: at(1),
        });
        expect((await store.events.list(taskId, 2)).map((e) => e.seq)).toEqual([3]);
        expect(await store.events.list(taskId, 3)).toEqual([]);
      });

      it('appendMany stores several events in order; a taken seq is a DuplicateKeyError(seq)', async () => {
        const taskId = randomId();
        const many = store.events.appendMany?.bind(store.events);
        if (many === undefined) return;
        await many([1, 2, 3].map((seq) => ({ taskId, seq, event: { seq, stage: 'x' }, at: at(seq) })));
        expect((await store.events.list(taskId, 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
        await expectDuplicate(many([{ taskId, seq: 3, event: {}, at: at(0) }]), 'seq');
        await many([]);
        await expectRejectedArgument(
          many([{ taskId: { $ne: '' } as unknown as string, seq: 9, event: {}, at: at(0) }]),
        );
      });

      it('listForTasks answers each task’s events after its own seq, by task then seq', async () => {
        const list = store.events.listForTasks?.bind(store.events);
        if (list === undefined) return;
        const [a, b, c, quiet] = [randomId(), randomId(), randomId(), randomId()];
        for (const taskId of [a, b, c]) {
          for (const seq of [1, 2, 3, 4])
            await store.events.append({ taskId, seq, event: { seq }, at: at(seq) });
        }
        const found = await list([
          { taskId: a, afterSeq: 0 },
          { taskId: b, afterSeq: 2 },
          { taskId: c, afterSeq: 2 },
          { taskId: quiet, afterSeq: 0 },
        ]);
        const got = found.map((e) => `${e.taskId === a ? 'a' : e.taskId === b ? 'b' : 'c'}${e.seq}`);
        expect([...got].sort()).toEqual(['a1', 'a2', 'a3', 'a4', 'b3', 'b4', 'c3', 'c4']);
        for (const id of [a, b, c]) {
          const seqs = found.filter((e) => e.taskId === id).map((e) => e.seq);
          expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
        }
        expect(await list([{ taskId: a, afterSeq: 4 }])).toEqual([]);
        expect(await list([])).toEqual([]);
        await expectRejectedArgument(list([{ taskId: a, afterSeq: { $gt: 0 } as unknown as number }]));
      });

      it('statusByIds answers the status of each existing task', async () => {
        const statuses = store.tasks.statusByIds?.bind(store.tasks);
        if (statuses === undefined) return;
        const running = makeTaskRecord();
        const failed = makeTaskRecord({ status: 'failed', error: 'x' });
        await store.tasks.insert(running);
        await store.tasks.insert(failed);
        const got = await statuses([running.id, failed.id, randomId()]);
        expect(Object.fromEntries(got)).toEqual({ [running.id]: 'running', [failed.id]: 'failed' });
        expect((await statuses([])).size).toBe(0);
        await expectRejectedArgument(statuses([{ $ne: '' } as unknown as string]));
      });

      it('deletes the events of the given tasks', async () => {
        const a = randomId();
        const b = randomId();
        const c = randomId();
        for (const taskId of [a, b, c]) await store.events.append({ taskId, seq: 1, event: {}, at: at(0) });
        expect(await store.events.deleteByTask([a, b])).toBe(2);
        expect(await store.events.deleteByTask([])).toBe(0);
        expect(await store.events.list(a, 0)).toEqual([]);
        expect(await store.events.list(c, 0)).toHaveLength(1);
        await expectRejectedArgument(store.events.deleteByTask([{ $ne: '' } as unknown as string]));
      });
    });

    describe('claims and the claimable scan', () => {
      it('inserts a claim once per (taskId, attempt), renews only for its owner, finds the latest', async () => {
        const taskId = randomId();
        const claim = { taskId, attempt: 1, owner: 'w1', until: at(30_000), at: at(0) };
        await store.claims.insert(claim);
        await expectDuplicate(store.claims.insert({ ...claim, owner: 'w2' }), 'claim');
        expect(await store.claims.get(taskId, 1)).toEqual(claim);
        expect(await store.claims.get(taskId, 2)).toBeNull();
        expect(await store.claims.renew(taskId, 1, 'w2', at(90_000))).toBe(false);
        expect(await store.claims.renew(taskId, 1, 'w1', at(60_000))).toBe(true);
        expect((await store.claims.get(taskId, 1))?.until).toEqual(at(60_000));
        await store.claims.insert({ taskId, attempt: 2, owner: 'w2', until: at(120_000), at: at(61_000) });
        expect((await store.claims.latest(taskId))?.attempt).toBe(2);
        expect(await store.claims.latest(randomId())).toBeNull();
        expect(await store.claims.deleteByTask([taskId])).toBe(2);
        expect(await store.claims.deleteByTask([])).toBe(0);
        await expectRejectedArgument(store.claims.get({ $gt: '' } as unknown as string, 1));
      });

      it('lets exactly one of 30 concurrent claimers of the same attempt win', async () => {
        const taskId = randomId();
        const results = await Promise.allSettled(
          Array.from({ length: 30 }, (_, i) =>
            store.claims.insert({ taskId, attempt: 1, owner: `w${i}`, until: at(1000), at: at(0) }),
          ),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) {
          if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DuplicateKeyError);
        }
      });

      it('lists running/saving tasks without a live lease, oldest first', async () => {
        const owner = nextOwner();
        const p = project(owner);
        const free = task(owner, p.id, { createdAt: at(-3_000_000_000) });
        const expired = task(owner, p.id, {
          createdAt: at(-2_999_999_000),
          status: 'saving',
          lease: { owner: 'w', until: at(-1) },
        });
        const held = task(owner, p.id, {
          createdAt: at(-2_999_998_000),
          lease: { owner: 'w', until: at(5000) },
        });
        const done = task(owner, p.id, { createdAt: at(-2_999_997_000), status: 'completed' });
        for (const t of [done, held, expired, free]) await store.tasks.insert(t);
        const mine = new Set([free.id, expired.id, held.id, done.id]);
        const listed = (await store.tasks.listClaimable(at(0), 1000)).filter((t) => mine.has(t.id));
        expect(listed.map((t) => t.id)).toEqual([free.id, expired.id]);
        await expect(store.tasks.listClaimable(at(0), 0)).rejects.toThrow(/limit/);
      });

      it('applies a guarded update only while attempts match and the task is active', async () => {
        const owner = nextOwner();
        const p = project(owner);
        const t = task(owner, p.id, { attempts: 2 });
        await store.tasks.insert(t);
        expect(await store.tasks.updateIfClaimed(t.id, 1, { progress: 50, updatedAt: at(1) })).toBeNull();
        const moved = await store.tasks.updateIfClaimed(t.id, 2, { progress: 50, updatedAt: at(1) });
        expect(moved?.progress).toBe(50);
        await store.tasks.updateIfClaimed(t.id, 2, { status: 'completed', updatedAt: at(2) });
        expect(await store.tasks.updateIfClaimed(t.id, 2, { progress: 60, updatedAt: at(3) })).toBeNull();
        expect((await store.tasks.byId(t.id))?.progress).toBe(50);
        expect(
          await store.tasks.updateIfClaimed(randomId(), 2, { progress: 1, updatedAt: at(3) }),
        ).toBeNull();
      });
    });

    describe('assets', () => {
      it('stores asset records, lists them by task, finds by key and cascades by project', async () => {
        const p = project(nextOwner());
        const other = project(nextOwner());
        const taskId = randomId();
        const list = [
          asset(p, taskId, `${p.id}/${taskId}/sheet.png`, 1),
          asset(p, taskId, `${p.id}/${taskId}/sheet.json`, 2),
        ];
        await store.assets.insertMany(list);
        await store.assets.insertMany([]);
        await store.assets.insertMany([asset(other, randomId(), `${other.id}/x.png`)]);
        expect(await store.assets.listByTask(taskId)).toEqual(list);
        expect(await store.assets.byKey(list[0]!.key)).toEqual(list[0]);
        expect(await store.assets.byKey('missing/key.png')).toBeNull();
        await expectDuplicate(store.assets.insertMany([asset(p, taskId, list[0]!.key)]), 'key');
        expect((await store.assets.deleteByProject(p.id)).sort()).toEqual(list.map((a) => a.key).sort());
        expect(await store.assets.listByTask(taskId)).toEqual([]);
        expect(await store.assets.byKey(`${other.id}/x.png`)).not.toBeNull();
        await expectRejectedArgument(store.assets.byKey({ $gt: '' } as unknown as string));
      });
    });

    describe('service over this store', () => {
      it('registers concurrently: one winner per username, distinct ids, 409 for the rest', async () => {
        const clock = steppingClock();
        const service = createAssetService({ store, hasher: fakeHasher(), tokens: fakeTokens(clock), clock });
        const base = `cr_${randomId().slice(0, 8)}`;
        const same = await Promise.allSettled(
          Array.from({ length: 20 }, () => service.register({ username: base, password: 'secret-1' })),
        );
        expect(same.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of same) {
          if (r.status === 'rejected')
            expect(r.reason).toMatchObject({ code: 409, message: '用户名已被注册' });
        }
        const distinct = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            service.register({ username: `${base}_${i}`, password: 'secret-1' }),
          ),
        );
        expect(new Set(distinct.map((r) => r.id)).size).toBe(20);
      });

      it('dedupes 200 concurrent identical submissions into one task with one taskId', async () => {
        const clock = steppingClock();
        const service = createAssetService({ store, hasher: fakeHasher(), tokens: fakeTokens(clock), clock });
        const username = `dd_${randomId().slice(0, 10)}`;
        await service.register({ username, password: 'secret-1' });
        const login = await service.login({ username, password: 'secret-1' }, { ip: '127.0.0.1' });
        const me = await service.authenticate(login.token);
        const p = await service.createProject(me, { name: 'Dedupe', style: { artStyle: 'pixel' } });
        const body = {
          projectId: p.id,
          prompt: 'a knight with a sword',
          assetType: 'sprite' as const,
          taskStyle: { mood: 'brave', scene: 'castle' },
          params: { resolution: 64 },
        };
        const results = await Promise.all(
          Array.from({ length: 200 }, () => service.submitTask(me, { ...body })),
        );
        const ids = new Set(results.map((r) => r.taskId));
        expect(ids.size).toBe(1);
        expect(results.filter((r) => r.created)).toHaveLength(1);
        const tasks = await service.listProjectTasks(me, p.id, { page: 1, pageSize: 100 });
        expect(tasks.total).toBe(1);
        expect(tasks.tasks[0]?.id).toBe([...ids][0]);
        const listed = await service.listProjects(me, { page: 1, pageSize: 20 });
        expect(listed.projects.find((x) => x.id === p.id)?.taskCount).toBe(1);
        // Same request with defaults spelled out and style keys reordered is the same task.
        const again = await service.submitTask(me, {
          ...body,
          taskStyle: { scene: 'castle', mood: 'brave' },
          params: { resolution: 64, format: 'spritesheet', frames: { directions: 4, framesPerDirection: 4 } },
        });
        expect(again).toEqual({ taskId: [...ids][0], created: false });
      });
    });
  });
}
