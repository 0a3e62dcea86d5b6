import {
  appendFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeQueueContract } from '../test/contracts/queue.contract.js';
import { describeStoreContract } from '../test/contracts/store.contract.js';
import { makeTaskRecord } from '../test/fakes.js';
import { createEmbeddedStore } from './embedded.js';
import type { AssetRecord } from './store.js';
import { StoreWriteError } from './store.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-core-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describeStoreContract('embedded (memory)', () => createEmbeddedStore());
describeStoreContract('embedded (files)', async () => createEmbeddedStore({ dir: await tempDir() }));
describeQueueContract('embedded (memory)', () => createEmbeddedStore());
describeQueueContract('embedded (files)', async () => createEmbeddedStore({ dir: await tempDir() }));

describe('embedded store on disk', () => {
  it('reports its kind', async () => {
    expect(createEmbeddedStore().kind).toBe('memory');
    expect(createEmbeddedStore({ dir: await tempDir() }).kind).toBe('embedded');
  });

  it('keeps every write in its data file without a close (a killed process loses nothing written)', async () => {
    const dir = await tempDir();
    const live = createEmbeddedStore({ dir });
    await live.init();
    const at = new Date('2026-03-01T00:00:00.000Z');
    const id = await live.users.nextId();
    await live.users.insert({
      id,
      username: 'unclosed',
      email: 'u@example.com',
      passwordHash: 'h',
      tokenVersion: 0,
      createdAt: at,
      updatedAt: at,
    });
    await live.projects.insert({
      id: 'p_unclosed',
      ownerId: id,
      name: 'Written',
      style: {},
      taskCount: 0,
      lastActivityAt: at,
      createdAt: at,
      updatedAt: at,
    });
    await live.projects.touch('p_unclosed', { taskCountDelta: 2, lastActivityAt: at });
    // Every line appended so far is a whole NeDB document (no compaction has run since the open).
    for (const name of ['users', 'projects', 'counters']) {
      const lines = (await readFile(join(dir, `${name}.db`), 'utf8')).split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(JSON.parse(line)).toBeTypeOf('object');
    }
    // A copy of the folder taken now is what a kill -9 leaves: it opens with every write in it.
    const copy = await tempDir();
    for (const file of await readdir(dir)) await writeFile(join(copy, file), await readFile(join(dir, file)));
    const reopened = createEmbeddedStore({ dir: copy });
    await reopened.init();
    expect((await reopened.users.byUsername('unclosed'))?.id).toBe(id);
    expect((await reopened.projects.byId('p_unclosed'))?.taskCount).toBe(2);
    await reopened.close();
    await live.close();
  });

  it('survives a close and reopen: records, counters and unique indexes', async () => {
    const dir = join(await tempDir(), 'nested', 'data');
    const first = createEmbeddedStore({ dir });
    await first.init();
    const id = await first.users.nextId();
    const now = new Date('2026-02-01T00:00:00.000Z');
    await first.users.insert({
      id,
      username: 'persisted',
      email: 'p@example.com',
      passwordHash: 'h',
      tokenVersion: 2,
      createdAt: now,
      updatedAt: now,
    });
    await first.projects.insert({
      id: 'proj_1',
      ownerId: id,
      name: 'Kept',
      style: { 'a.b': 'c' },
      taskCount: 0,
      lastActivityAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await first.projects.touch('proj_1', {
      taskCountDelta: 4,
      lastActivityAt: new Date(now.getTime() + 1000),
    });
    await first.events.append({ taskId: 't1', seq: 1, event: { stage: 'prompt_optimizer' }, at: now });
    await first.close();
    await expect(first.users.byId(id)).rejects.toThrow(/closed/);
    expect((await readdir(dir)).sort()).toEqual(
      [
        'assets.db',
        'characters.db',
        'counters.db',
        'events.db',
        'projects.db',
        'task_claims.db',
        'tasks.db',
        'upload_deletions.db',
        'upload_slots.db',
        'upload_uses.db',
        'uploads.db',
        'users.db',
        'webhook_deliveries.db',
        'webhooks.db',
      ].sort(),
    );

    const second = createEmbeddedStore({ dir });
    await second.init();
    expect(await second.users.byUsername('persisted')).toMatchObject({
      id,
      email: 'p@example.com',
      tokenVersion: 2,
    });
    expect(await second.projects.byId('proj_1')).toMatchObject({
      style: { 'a.b': 'c' },
      taskCount: 4,
      lastActivityAt: new Date(now.getTime() + 1000),
    });
    expect(await second.users.nextId()).toBe(id + 1);
    await expect(
      second.users.insert({ ...(await second.users.byId(id))!, id: id + 1, email: null }),
    ).rejects.toMatchObject({ field: 'username' });
    await expect(second.events.append({ taskId: 't1', seq: 1, event: {}, at: now })).rejects.toMatchObject({
      field: 'seq',
    });
    await second.close();
  });
});

describe('embedded reads of unchanged documents', () => {
  const now = new Date('2026-03-01T00:00:00.000Z');
  const project = (id: string, minutes: number) => ({
    id,
    ownerId: 1,
    name: `Project ${id}`,
    style: { palette: 'sweetie16' },
    taskCount: 0,
    lastActivityAt: new Date(now.getTime() + minutes * 60_000),
    createdAt: new Date(now.getTime() + minutes * 60_000),
    updatedAt: new Date(now.getTime() + minutes * 60_000),
  });

  it('share one frozen record per stored version; an update makes a new one with the new values', async () => {
    const store = createEmbeddedStore();
    await store.init();
    await store.projects.insert(project('p1', 0));
    await store.projects.insert(project('p2', 1));

    const first = await store.projects.listByOwner(1, { skip: 0, limit: 20 });
    const again = await store.projects.listByOwner(1, { skip: 0, limit: 20 });
    expect(first.items.map((p) => p.id)).toEqual(['p2', 'p1']);
    expect(again.items[0]).toBe(first.items[0]);
    expect(await store.projects.byId('p1')).toBe(first.items[1]);
    const record = first.items[0] as { name: string; style: Record<string, string> };
    expect(Object.isFrozen(record) && Object.isFrozen(record.style)).toBe(true);
    expect(() => {
      record.name = 'changed in place';
    }).toThrow(TypeError);

    await store.projects.touch('p2', { taskCountDelta: 1, lastActivityAt: new Date(now.getTime() + 9e6) });
    const touched = await store.projects.listByOwner(1, { skip: 0, limit: 20 });
    expect(touched.items[0]).not.toBe(first.items[0]);
    expect(touched.items[0]).toMatchObject({ id: 'p2', taskCount: 1 });
    expect(touched.items[1]).toBe(first.items[1]); // p1 unchanged: still the same record
    await store.close();
  });

  it('answer the same frozen page while its key is unchanged, and a new one after any write to it', async () => {
    const store = createEmbeddedStore();
    await store.init();
    await store.projects.insert(project('p1', 0));
    await store.projects.insert(project('p2', 1));
    await store.projects.insert({ ...project('q1', 2), ownerId: 2 });
    const window = { skip: 0, limit: 20 };
    const names = async (owner: number, w = window) =>
      (await store.projects.listByOwner(owner, w)).items.map((p) => `${p.id}:${p.name}:${p.taskCount}`);

    const first = await store.projects.listByOwner(1, window);
    expect(await store.projects.listByOwner(1, window)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.items)).toBe(true);
    expect(() => first.items.push(first.items[0] as never)).toThrow(TypeError);
    // another key, and another window of this key, answer their own pages
    expect(await names(2)).toEqual(['q1:Project q1:0']);
    expect(await names(1, { skip: 1, limit: 1 })).toEqual(['p1:Project p1:0']);
    expect(await store.projects.listByOwner(1, window)).toEqual(first);
    // a write under another key leaves this key's page as it was
    const unchanged = await store.projects.listByOwner(1, window);
    await store.projects.insert({ ...project('q2', 3), ownerId: 2 });
    expect(await store.projects.listByOwner(1, window)).toBe(unchanged);

    // every kind of write under the key shows in the next read
    await store.projects.insert(project('p3', 4));
    expect(await names(1)).toEqual(['p3:Project p3:0', 'p2:Project p2:0', 'p1:Project p1:0']);
    await store.projects.touch('p1', { taskCountDelta: 1, lastActivityAt: new Date(now.getTime() + 9e6) });
    expect(await names(1)).toEqual(['p3:Project p3:0', 'p2:Project p2:0', 'p1:Project p1:1']);
    await store.projects.update('p2', { name: '改名', updatedAt: new Date(now.getTime() + 9e6) });
    expect(await names(1)).toEqual(['p3:Project p3:0', 'p2:改名:0', 'p1:Project p1:1']);
    await store.projects.delete('p3');
    expect(await store.projects.listByOwner(1, window)).toMatchObject({ total: 2 });
    expect(await names(1)).toEqual(['p2:改名:0', 'p1:Project p1:1']);
    expect(await names(2)).toEqual(['q2:Project q2:0', 'q1:Project q1:0']);
    await store.close();
  });

  it('keep task pages of a project in step with task updates', async () => {
    const store = createEmbeddedStore();
    await store.init();
    const task = (id: string, minutes: number) =>
      makeTaskRecord(
        { id, ownerId: 1, projectId: 'p1', prompt: `task ${id}`, dedupeKey: `key-${id}` },
        new Date(now.getTime() + minutes * 60_000),
      );
    await store.tasks.insert(task('t1', 0));
    await store.tasks.insert(task('t2', 1));
    const statuses = async () =>
      (await store.tasks.listByProject('p1', { skip: 0, limit: 10 })).items.map((t) => `${t.id}:${t.status}`);
    expect(await statuses()).toEqual(['t2:running', 't1:running']);
    await store.tasks.update('t1', { status: 'completed', progress: 100, updatedAt: new Date() });
    expect(await statuses()).toEqual(['t2:running', 't1:completed']);
    await store.tasks.deleteByProject('p1');
    expect(await store.tasks.listByProject('p1', { skip: 0, limit: 10 })).toEqual({ total: 0, items: [] });
    await store.close();
  });

  it('stay correct when more keys are read than it remembers pages', async () => {
    const store = createEmbeddedStore();
    await store.init();
    const owners = 1100; // past the 1024 pages one store remembers
    for (let owner = 1; owner <= owners; owner++) {
      await store.projects.insert({ ...project(`o${owner}`, owner), ownerId: owner });
    }
    for (let pass = 0; pass < 2; pass++) {
      for (let owner = 1; owner <= owners; owner++) {
        const page = await store.projects.listByOwner(owner, { skip: 0, limit: 20 });
        expect(page.items.map((p) => p.id)).toEqual([`o${owner}`]);
      }
    }
    await store.projects.update('o1', { name: 'renamed', updatedAt: new Date(now.getTime() + 9e9) });
    expect((await store.projects.listByOwner(1, { skip: 0, limit: 20 })).items[0]).toMatchObject({
      name: 'renamed',
    });
    await store.close();
  });

  it('list newest first whatever order the documents were stored in', async () => {
    const store = createEmbeddedStore();
    await store.init();
    // stored out of order, then one replaced (an update moves it to the end of its index key)
    for (const [id, minutes] of [
      ['b', 2],
      ['a', 1],
      ['d', 4],
      ['c', 3],
    ] as const) {
      await store.projects.insert(project(id, minutes));
    }
    await store.projects.update('a', { name: 'renamed', updatedAt: new Date(now.getTime() + 1e7) });
    const listed = await store.projects.listByOwner(1, { skip: 0, limit: 20 });
    expect(listed.items.map((p) => p.id)).toEqual(['d', 'c', 'b', 'a']);
    expect(listed.items[3]).toMatchObject({ name: 'renamed' });
    await store.close();
  });
});

/**
 * Faults at the append: a collection's data file is swapped for a folder, so NeDB's append fails
 * with EISDIR — a real filesystem fault that stops root as well (chmod does not). `heal` puts the
 * file back, as when permissions come back after a read-only spell.
 */
async function breakFile(dir: string, collection: string): Promise<() => Promise<void>> {
  const file = join(dir, `${collection}.db`);
  await rename(file, `${file}.aside`);
  await mkdir(file);
  return async () => {
    await rmdir(file);
    await rename(`${file}.aside`, file);
  };
}

describe('embedded store when appending to its data file fails', () => {
  const at = new Date('2026-04-01T00:00:00.000Z');
  const project = (id: string, ownerId = 1) => ({
    id,
    ownerId,
    name: `Project ${id}`,
    style: { palette: 'sweetie16' },
    taskCount: 0,
    lastActivityAt: at,
    createdAt: at,
    updatedAt: at,
  });
  async function opened() {
    const dir = await tempDir();
    const store = createEmbeddedStore({ dir });
    await store.init();
    return { dir, store };
  }

  it('rejects a failed insert and leaves no trace of it, now or after a restart', async () => {
    const { dir, store } = await opened();
    await store.projects.insert(project('kept'));
    const heal = await breakFile(dir, 'projects');
    const failed = await store.projects.insert(project('lost')).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(StoreWriteError);
    expect((failed as Error).message).toMatch(/projects\.db.*not applied/);
    expect(((failed as Error).cause as NodeJS.ErrnoException).code).toBe('EISDIR');
    expect(await store.projects.byId('lost')).toBeNull();
    expect((await store.projects.listByOwner(1, { skip: 0, limit: 20 })).items.map((p) => p.id)).toEqual([
      'kept',
    ]);
    await heal();
    expect(await store.projects.byId('lost')).toBeNull();
    // the id is free again, and the next write goes to the file
    await store.projects.insert({ ...project('lost'), name: 'second try' });
    await store.close();

    const reopened = createEmbeddedStore({ dir });
    await reopened.init();
    const listed = await reopened.projects.listByOwner(1, { skip: 0, limit: 20 });
    expect(listed.items.map((p) => `${p.id}:${p.name}`).sort()).toEqual([
      'kept:Project kept',
      'lost:second try',
    ]);
    await reopened.close();
  });

  it('keeps the old values when an update, a counter move or a delete cannot be written', async () => {
    const { dir, store } = await opened();
    await store.projects.insert(project('p1'));
    expect(await store.users.nextId()).toBe(1);
    const healProjects = await breakFile(dir, 'projects');
    const healCounters = await breakFile(dir, 'counters');
    await expect(
      store.projects.update('p1', { name: 'renamed', updatedAt: new Date(at.getTime() + 1000) }),
    ).rejects.toBeInstanceOf(StoreWriteError);
    await expect(
      store.projects.touch('p1', { taskCountDelta: 1, lastActivityAt: new Date(at.getTime() + 2000) }),
    ).rejects.toBeInstanceOf(StoreWriteError);
    await expect(store.projects.delete('p1')).rejects.toBeInstanceOf(StoreWriteError);
    await expect(store.users.nextId()).rejects.toBeInstanceOf(StoreWriteError);
    expect(await store.projects.byId('p1')).toMatchObject({
      name: 'Project p1',
      taskCount: 0,
      lastActivityAt: at,
    });
    await healProjects();
    await healCounters();
    expect(await store.projects.byId('p1')).toMatchObject({ name: 'Project p1', taskCount: 0 });
    expect(await store.users.nextId()).toBe(2); // the failed move of the counter skipped nothing
    await store.close();

    const reopened = createEmbeddedStore({ dir });
    await reopened.init();
    expect(await reopened.projects.byId('p1')).toMatchObject({ name: 'Project p1', taskCount: 0 });
    expect(await reopened.users.nextId()).toBe(3);
    await reopened.close();
  });

  it('never offers a task whose insert failed to the queue, and frees its unique keys', async () => {
    const { dir, store } = await opened();
    const task = makeTaskRecord(
      {
        id: 't-lost',
        ownerId: 1,
        projectId: 'p1',
        prompt: 'a knight',
        dedupeKey: 'k1',
        idempotencyKey: 'i1',
      },
      at,
    );
    const heal = await breakFile(dir, 'tasks');
    await expect(store.tasks.insert(task)).rejects.toBeInstanceOf(StoreWriteError);
    await heal();
    expect(await store.tasks.listClaimable(new Date(at.getTime() + 60_000), 10)).toEqual([]);
    expect(await store.tasks.byId('t-lost')).toBeNull();
    expect(await store.tasks.findActiveByDedupeKey(1, 'k1')).toBeNull();
    expect(await store.tasks.findByIdempotencyKey(1, 'i1')).toBeNull();
    // the same dedupe and idempotency keys insert cleanly afterwards
    await store.tasks.insert({ ...task, id: 't-kept' });
    expect((await store.tasks.listClaimable(new Date(at.getTime() + 60_000), 10)).map((t) => t.id)).toEqual([
      't-kept',
    ]);
    await store.close();
  });

  it('rolls back every document of a failed batch insert', async () => {
    const { dir, store } = await opened();
    const asset = (key: string): AssetRecord => ({
      key,
      taskId: 't1',
      projectId: 'p1',
      ownerId: 1,
      format: 'png',
      width: 16,
      height: 16,
      metadata: {},
      contentType: 'image/png',
      createdAt: at,
    });
    const heal = await breakFile(dir, 'assets');
    await expect(store.assets.insertMany([asset('a.png'), asset('b.png')])).rejects.toBeInstanceOf(
      StoreWriteError,
    );
    await heal();
    expect(await store.assets.listByTask('t1')).toEqual([]);
    expect(await store.assets.byKey('a.png')).toBeNull();
    await store.assets.insertMany([asset('a.png'), asset('b.png')]);
    expect((await store.assets.listByTask('t1')).map((a) => a.key)).toEqual(['a.png', 'b.png']);
    await store.close();
  });

  it('never shows readers a write that is still being appended and then fails', async () => {
    const { dir, store } = await opened();
    const heal = await breakFile(dir, 'projects');
    let settled = false;
    const insert = store.projects.insert(project('maybe')).finally(() => {
      settled = true;
    });
    insert.catch(() => undefined);
    const seen: string[] = [];
    for (let round = 0; round < 10_000 && !settled; round++) {
      if ((await store.projects.byId('maybe')) !== null) seen.push('byId');
      if ((await store.projects.listByOwner(1, { skip: 0, limit: 20 })).total > 0) seen.push('list');
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect(insert).rejects.toBeInstanceOf(StoreWriteError);
    expect(seen).toEqual([]);
    await heal();
    await store.close();
  });

  it('rewrites the file on the next write after a failed append, so a torn line cannot spoil it', async () => {
    const { dir, store } = await opened();
    for (let i = 0; i < 3; i++) await store.projects.insert(project(`p${i}`));
    const heal = await breakFile(dir, 'projects');
    await expect(store.projects.insert(project('torn'))).rejects.toBeInstanceOf(StoreWriteError);
    await heal();
    // what an append cut short by a full disk leaves behind: part of a line, no newline
    await appendFile(join(dir, 'projects.db'), '{"_id":"torn","ownerId":1,"na');
    await store.projects.insert(project('after'));
    const text = await readFile(join(dir, 'projects.db'), 'utf8');
    expect(text).not.toContain('"torn"');
    expect(text.endsWith('\n')).toBe(true);
    await store.close();

    const reopened = createEmbeddedStore({ dir });
    await reopened.init(); // NeDB refuses to load a file with more than 10 % corrupt lines
    expect(
      (await reopened.projects.listByOwner(1, { skip: 0, limit: 20 })).items.map((p) => p.id).sort(),
    ).toEqual(['after', 'p0', 'p1', 'p2']);
    await reopened.close();
  });
});
