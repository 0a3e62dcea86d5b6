import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TaskRecord } from '@assetloom/core';
import { createEmbeddedStore } from '@assetloom/core/store/embedded';
import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openObjectStorage, type RunningServer, startServer } from '../../src/server.js';
import type { ObjectStorage, PutOptions } from '../../src/storage/index.js';
import { client, newUser, startTestServer, type TestServer, testEnv } from '../helpers.js';
import { startS3rver, type TestS3 } from '../storage/helpers.js';

/**
 * Audit finding 1: deleting a project while its task ran answered 200, yet files the run wrote after
 * the delete stayed under objects/projects/P, asset records stayed in the store, and the download
 * redirect still answered 302. Spec 000: the delete cascades to all tasks, assets and stored
 * objects. Decision 0029: the delete cancels the project's running tasks (the abort reaches the
 * pipeline threads and the storage puts), waits for them in this process, and every writer sweeps
 * what it wrote after a cancel; the download answers only for tasks that exist and completed.
 *
 * Every combination of store (embedded, MongoDB/FerretDB) and object storage (filesystem, S3 on
 * s3rver) at three moments of a run: while the frames are generated, while the files are stored
 * (each put held up), while the asset records are written (the insert held up).
 */
const mongoUri = injectMongoUri('project deletion while tasks run, on MongoDB');

type StoreKind = 'embedded' | 'mongodb';
type StorageKind = 'fs' | 's3';
type Moment = 'generating' | 'storing files' | 'recording assets';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves when `check` holds (polled), or fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A signal-aware pause (a put held up until the test is done with it). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

interface HarnessState {
  /** Every key a put was started for, in order. */
  putKeys: string[];
  /** Set to hold up puts / the assets insert. */
  hold: { puts: boolean; assets: boolean };
  assetsInsertStarted: boolean;
}

interface Harness {
  running: RunningServer;
  /** The MongoDB database (mongodb harnesses). */
  dbName: string;
  storage: ObjectStorage;
  store: Store;
  dataDir: string;
  state: HarnessState;
  close(): Promise<void>;
}

async function startHarness(
  storeKind: StoreKind,
  storageKind: StorageKind,
  s3: TestS3 | undefined,
): Promise<Harness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'assetloom-cascade-'));
  const env = testEnv({
    DATA_DIR: dataDir,
    WORKER_POLL_MS: '20',
    ...(storeKind === 'mongodb'
      ? { MONGODB_URI: mongoUri as string, MONGODB_DB: uniqueDbName('cascade') }
      : {}),
    ...(storageKind === 's3' && s3 !== undefined
      ? {
          STORAGE_DRIVER: 's3',
          S3_BUCKET: s3.bucket,
          S3_ENDPOINT: s3.endpoint,
          S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
          S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
        }
      : {}),
  });
  const loaded = loadConfig(env);
  if (!loaded.ok) throw loaded.error;
  const config = loaded.value;
  const real = await openObjectStorage(config);
  let store: Store;
  if (storeKind === 'mongodb') {
    const { createMongoStore } = await import('@assetloom/core/store/mongodb');
    store = createMongoStore({ uri: config.store.mongodbUri as string, dbName: config.store.mongodbDb });
  } else {
    store = createEmbeddedStore({ dir: dataDir });
  }
  const state: HarnessState = {
    putKeys: [],
    hold: { puts: false, assets: false },
    assetsInsertStarted: false,
  };
  // The real driver, with puts that can be held up (the worker passes the attempt's signal).
  const storage: ObjectStorage = Object.assign(Object.create(real) as ObjectStorage, {
    async put(key: string, bytes: Uint8Array, contentType: string, options?: PutOptions) {
      state.putKeys.push(key);
      if (state.hold.puts) await pause(400, options?.signal);
      return real.put(key, bytes, contentType, options);
    },
  });
  const insertMany = store.assets.insertMany.bind(store.assets);
  store.assets.insertMany = async (assets) => {
    state.assetsInsertStarted = true;
    if (state.hold.assets) await sleep(400);
    return insertMany(assets);
  };
  const running = await startServer(config, { store, storage });
  return {
    running,
    dbName: config.store.mongodbDb,
    storage: real,
    store,
    dataDir,
    state,
    async close() {
      await running.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function filesUnder(
  storage: ObjectStorage,
  dataDir: string,
  prefix: string,
  keys: string[],
): Promise<string[]> {
  const present = [];
  for (const key of new Set(keys)) if (await storage.exists(key)) present.push(key);
  if (storage.kind === 'fs') {
    const dir = join(dataDir, 'objects', prefix);
    const walk = async (d: string): Promise<string[]> => {
      const entries = await readdir(d, { withFileTypes: true }).catch(() => []);
      const out: string[] = [];
      for (const e of entries)
        out.push(...(e.isDirectory() ? await walk(join(d, e.name)) : [join(d, e.name)]));
      return out;
    };
    present.push(...(await walk(dir)));
  }
  return present;
}

const combos: [StoreKind, StorageKind][] = [
  ['embedded', 'fs'],
  ['embedded', 's3'],
  ['mongodb', 'fs'],
  ['mongodb', 's3'],
];

describe.each(combos)(
  'deleting a project while its task runs (%s store, %s storage)',
  (storeKind, storageKind) => {
    let s3: TestS3 | undefined;
    let h: Harness;
    const skip = storeKind === 'mongodb' && mongoUri === null;

    beforeAll(async () => {
      if (skip) return;
      if (storageKind === 's3') s3 = await startS3rver(`cascade-${storeKind}`);
      h = await startHarness(storeKind, storageKind, s3);
    });
    afterAll(async () => {
      await h?.close();
      await s3?.close();
    });

    const test = skip ? it.skip : it;

    test.each<[Moment]>([['generating'], ['storing files'], ['recording assets']])(
      'at the moment of %s: tasks cancelled, nothing written survives, records gone, downloads 404',
      async (moment) => {
        const api = client(h.running.url);
        const user = await newUser(h.running.url);
        const project = await api.post(
          '/api/v1/projects',
          { name: `Doomed ${moment}` },
          { token: user.token },
        );
        const projectId = project.body.data.id as string;
        h.state.hold.puts = moment === 'storing files';
        h.state.hold.assets = moment === 'recording assets';
        const putsBefore = h.state.putKeys.length;
        h.state.assetsInsertStarted = false;
        // The audit's task: a 512 px animation, 8 directions × 16 frames (small when held up anyway).
        const params =
          moment === 'generating'
            ? { resolution: 512, frames: { directions: 8, framesPerDirection: 16 } }
            : { resolution: 64, frames: { directions: 4, framesPerDirection: 4 } };
        const generated = await api.post(
          '/api/v1/generate',
          { projectId, prompt: 'a knight walking', assetType: 'animation', params },
          { token: user.token },
        );
        const taskId = generated.body.data.taskId as string;

        if (moment === 'generating') {
          await until(
            async () => (await h.store.tasks.byId(taskId))?.stage === 'asset_generator',
            'generation',
          );
        } else if (moment === 'storing files') {
          await until(() => h.state.putKeys.length > putsBefore, 'the first put');
        } else {
          await until(() => h.state.assetsInsertStarted, 'the assets insert');
        }

        const deleted = await api.del(`/api/v1/projects/${projectId}`, { token: user.token });
        expect(deleted.status).toBe(200);
        // The delete waited for this process's attempt: nothing of it is running any more.
        expect(h.running.worker?.active).toBe(0);

        const prefix = `projects/${projectId}/`;
        const keys = [...h.state.putKeys.slice(putsBefore), `${prefix}tasks/${taskId}/animation.png`];
        const check = async () => {
          expect(await filesUnder(h.storage, h.dataDir, prefix, keys)).toEqual([]);
          expect(await h.store.tasks.byId(taskId)).toBeNull();
          expect(await h.store.assets.listByTask(taskId)).toEqual([]);
          expect(await h.store.events.list(taskId, 0)).toEqual([]);
          expect(await h.store.claims.latest(taskId)).toBeNull();
          for (const key of new Set(keys)) {
            const download = await api.get(`/api/v1/assets/download?key=${encodeURIComponent(key)}`);
            expect(download.status, key).toBe(404);
          }
          expect((await api.get(`/api/v1/tasks/${taskId}`, { token: user.token })).status).toBe(404);
          expect((await api.get(`/api/v1/projects/${projectId}`, { token: user.token })).status).toBe(404);
        };
        await check();
        // And later: nothing written after the delete reappears.
        h.state.hold.puts = false;
        h.state.hold.assets = false;
        await sleep(1500);
        await check();
      },
      120_000,
    );
  },
);

describe('deleting a project while the pipeline threads write its files themselves (embedded, fs driver)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ kind: 'embedded' }, { PIPELINE_THREADS: '1', WORKER_POLL_MS: '20' });
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it.each<[string, (task: TaskRecord | null) => boolean]>([
    ['generating', (task) => task?.stage === 'asset_generator'],
    ['saving (the thread stores the files)', (task) => task?.status === 'saving'],
  ])(
    'at the moment of %s',
    async (_moment, reached) => {
      const api = client(server.url);
      const user = await newUser(server.url);
      const project = await api.post('/api/v1/projects', { name: 'Doomed' }, { token: user.token });
      const projectId = project.body.data.id as string;
      const generated = await api.post(
        '/api/v1/generate',
        {
          projectId,
          prompt: 'a knight walking',
          assetType: 'animation',
          params: { resolution: 512, frames: { directions: 8, framesPerDirection: 16 } },
        },
        { token: user.token },
      );
      const taskId = generated.body.data.taskId as string;
      const store = server.running.store;
      await until(async () => reached(await store.tasks.byId(taskId)), 'the moment', 60_000);
      expect((await api.del(`/api/v1/projects/${projectId}`, { token: user.token })).status).toBe(200);
      expect(server.running.worker?.active).toBe(0);
      const prefix = `projects/${projectId}/`;
      // now, and again after 1.5 s (nothing written after the delete reappears)
      for (let round = 0; round < 2; round++) {
        if (round > 0) await sleep(1500);
        expect(await filesUnder(server.running.storage, server.config.store.dataDir, prefix, [])).toEqual([]);
        expect(await store.assets.listByTask(taskId)).toEqual([]);
        expect(await store.events.list(taskId, 0)).toEqual([]);
      }
    },
    120_000,
  );
});

describe.skipIf(mongoUri === null)(
  "deleting a project through one server while ANOTHER server's worker runs its task (MongoDB)",
  () => {
    let worker: Harness;
    let api: TestServer;

    beforeAll(async () => {
      // Server B runs the worker (its puts can be held up); server A, on the same database and
      // folder, answers the API without a worker of its own. A's delete cannot reach B's attempt in
      // memory: B must find out by itself (its cancel check) and sweep after itself.
      worker = await startHarness('mongodb', 'fs', undefined);
      api = await startTestServer(
        { kind: 'mongodb', uri: mongoUri as string },
        { MONGODB_DB: worker.dbName, DATA_DIR: worker.dataDir, WORKER_IN_PROCESS: 'false' },
      );
    });
    afterAll(async () => {
      await api?.stop();
      await worker?.close();
    });

    it('while it stores the files: B notices within its cancel check, stops the puts, and sweeps', async () => {
      const http = client(api.url);
      const user = await newUser(api.url);
      const project = await http.post('/api/v1/projects', { name: 'Doomed far away' }, { token: user.token });
      const projectId = project.body.data.id as string;
      worker.state.hold.puts = true;
      const putsBefore = worker.state.putKeys.length;
      const generated = await http.post(
        '/api/v1/generate',
        { projectId, prompt: 'a knight walking', assetType: 'animation', params: { resolution: 64 } },
        { token: user.token },
      );
      const taskId = generated.body.data.taskId as string;
      worker.running.worker?.wake();
      await until(() => worker.state.putKeys.length > putsBefore, 'the first put');
      expect((await http.del(`/api/v1/projects/${projectId}`, { token: user.token })).status).toBe(200);
      const prefix = `projects/${projectId}/`;
      const keys = () => worker.state.putKeys.slice(putsBefore);
      // B finds out within its cancel check (1 s), its held puts are aborted, and it sweeps.
      await until(() => worker.running.worker?.active === 0, 'the attempt to stop', 20_000);
      worker.state.hold.puts = false;
      // now, and again after 1.5 s (nothing written after the delete reappears)
      for (let round = 0; round < 2; round++) {
        if (round > 0) await sleep(1500);
        expect(await filesUnder(worker.storage, worker.dataDir, prefix, keys())).toEqual([]);
        expect(await worker.store.assets.listByTask(taskId)).toEqual([]);
        expect(await worker.store.events.list(taskId, 0)).toEqual([]);
        const download = await http.get(
          `/api/v1/assets/download?key=${encodeURIComponent(`${prefix}tasks/${taskId}/animation.png`)}`,
        );
        expect(download.status).toBe(404);
      }
    }, 120_000);
  },
);
