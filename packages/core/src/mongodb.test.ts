import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient, MongoServerError } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { describeQueueContract } from '../test/contracts/queue.contract.js';
import { describeStoreContract } from '../test/contracts/store.contract.js';
import { makeTaskRecord } from '../test/fakes.js';
import { randomId } from './defaults.js';
import { createMongoStore, mapDuplicateKey } from './mongodb.js';
import { DuplicateKeyError, type Store } from './store.js';

const uri = injectMongoUri('@assetloom/core MongoDB store contract');
const dbNames: string[] = [];

function freshStore() {
  const dbName = uniqueDbName('core_contract');
  dbNames.push(dbName);
  return createMongoStore({ uri: uri!, dbName });
}

afterAll(async () => {
  if (!uri || dbNames.length === 0) return;
  const client = new MongoClient(uri);
  try {
    await client.connect();
    for (const name of dbNames)
      await client
        .db(name)
        .dropDatabase()
        .catch(() => undefined);
  } finally {
    await client.close();
  }
});

describe.skipIf(!uri)('MongoDB store', () => {
  describeStoreContract('mongodb', freshStore);
  describeQueueContract('mongodb', freshStore);

  it('creates its indexes at init, including the unique ones', async () => {
    const store = freshStore();
    await store.init();
    const client = new MongoClient(uri!);
    try {
      await client.connect();
      const db = client.db(dbNames.at(-1)!);
      const names = async (c: string) => (await db.collection(c).indexes()).map((i) => i.name).sort();
      expect(await names('users')).toEqual([
        '_id_',
        'users_emailKey_unique',
        'users_usernameKey_unique',
        'users_username_unique',
      ]);
      expect(await names('tasks')).toEqual(
        expect.arrayContaining(['tasks_activeKey_unique', 'tasks_idemKey_unique', 'tasks_project_newest']),
      );
      expect(await names('events')).toContain('events_taskId_seq_unique');
      expect(await names('assets')).toContain('assets_key_unique');
      const unique = (await db.collection('users').indexes()).filter((i) => i.unique).map((i) => i.name);
      expect(unique.sort()).toEqual([
        'users_emailKey_unique',
        'users_usernameKey_unique',
        'users_username_unique',
      ]);
    } finally {
      await client.close();
      await store.close();
    }
  });

  it('counts every task of a burst submitted through two stores at once, on a server whose updates race', async () => {
    const dbName = uniqueDbName('core_count');
    dbNames.push(dbName);
    // Two "processes" (each its own client) on one database; on FerretDB v1 updates are
    // read-modify-write, so the count takes the recount path — forced here on MongoDB too.
    const stores = [0, 1].map(() => createMongoStore({ uri: uri!, dbName, atomicIncrements: false }));
    try {
      await Promise.all(stores.map((s) => s.init()));
      const [a, b] = stores as [Store, Store];
      const owner = await a.users.nextId();
      const at = new Date();
      const project = {
        id: randomId(),
        ownerId: owner,
        name: 'burst',
        style: {},
        taskCount: 0,
        lastActivityAt: at,
        createdAt: at,
        updatedAt: at,
      };
      await a.projects.insert(project);
      const total = 48;
      await Promise.all(
        Array.from({ length: total }, async (_, i) => {
          const via = i % 2 === 0 ? a : b;
          await via.tasks.insert(
            makeTaskRecord({ ownerId: owner, projectId: project.id, dedupeKey: `burst-${i}` }),
          );
          expect(await via.projects.countNewTask?.(project.id, new Date())).toBe(true);
        }),
      );
      for (const s of stores) expect((await s.projects.byId(project.id))?.taskCount).toBe(total);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('opens a database that already holds its indexes and data (a restart, a second process)', async () => {
    const first = freshStore();
    await first.init();
    const dbName = dbNames.at(-1)!;
    await first.close();
    for (let i = 0; i < 2; i++) {
      const again = createMongoStore({ uri: uri!, dbName });
      await again.init();
      expect(await again.tasks.byId('nothing')).toBeNull();
      await again.close();
    }
  });

  it('starts several processes at once on a fresh database (they race for the same indexes)', async () => {
    const dbName = uniqueDbName('core_race');
    // Separate clients, like separate processes: each lists the missing indexes and creates them.
    for (let round = 0; round < 3; round++) {
      const name = `${dbName}_${round}`;
      dbNames.push(name);
      const stores = Array.from({ length: 4 }, () => createMongoStore({ uri: uri!, dbName: name }));
      try {
        await Promise.all(stores.map((s) => s.init()));
        for (const s of stores) expect(await s.tasks.byId('nothing')).toBeNull();
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
      const client = new MongoClient(uri!);
      try {
        const names = (await client.db(name).collection('tasks').indexes()).map((i) => i.name);
        expect(names).toEqual(expect.arrayContaining(['tasks_activeKey_unique', 'tasks_idemKey_unique']));
      } finally {
        await client.close();
      }
    }
  });
});

describe('E11000 mapping', () => {
  const dup = (message: string, extra: Record<string, unknown> = {}) =>
    Object.assign(new MongoServerError({ message, code: 11000 }), extra);
  it.each([
    [
      'username index by name',
      dup(
        'E11000 duplicate key error collection: db.users index: users_username_unique dup key: { username: "a" }',
      ),
      'username',
    ],
    [
      'email slot by name',
      dup('E11000 duplicate key error collection: db.users index: users_emailKey_unique dup key'),
      'email',
    ],
    [
      'dedupe slot by key pattern',
      dup('E11000 duplicate key error', { keyPattern: { activeKey: 1 } }),
      'dedupeKey',
    ],
    ['event seq by key pattern', dup('E11000', { keyPattern: { taskId: 1, seq: 1 } }), 'seq'],
    ['unknown index', dup('E11000 duplicate key error'), 'id'],
  ])('%s', (_name, err, field) => {
    let thrown: unknown;
    try {
      mapDuplicateKey(err);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(DuplicateKeyError);
    expect((thrown as DuplicateKeyError).field).toBe(field);
  });

  it('passes other errors through', () => {
    const other = new MongoServerError({ message: 'not master', code: 10107 });
    expect(() => mapDuplicateKey(other)).toThrow(other);
  });
});

describe('MongoDB store argument guards', () => {
  it('rejects operator objects before any I/O (no server needed)', async () => {
    const store = createMongoStore({
      uri: 'mongodb://127.0.0.1:9/none',
      clientOptions: { serverSelectionTimeoutMS: 100, connectTimeoutMS: 100 },
    });
    const attempts: Promise<unknown>[] = [
      store.users.byUsername({ $gt: '' } as unknown as string),
      store.users.byId({ $ne: null } as unknown as number),
      store.projects.byId({ $regex: '.*' } as unknown as string),
      store.projects.listByOwner(1, { skip: -1, limit: 10 }),
      store.tasks.byId(['a'] as unknown as string),
      store.tasks.findActiveByDedupeKey(1, { $exists: true } as unknown as string),
      store.events.list('t', { $gt: 0 } as unknown as number),
      store.assets.byKey({ $ne: '' } as unknown as string),
    ];
    for (const attempt of attempts) {
      await expect(attempt).rejects.toMatchObject({ name: 'AssetloomError', code: 400 });
    }
    await store.close();
  });
});
