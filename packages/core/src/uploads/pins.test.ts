import { encodePng } from '@assetloom/pipeline';
import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedStore } from '../embedded.js';
import { createMongoStore } from '../mongodb.js';
import { type AssetService, createAssetService } from '../service.js';
import type { Store } from '../store.js';
import type { AuthUser } from '../types.js';
import { createPngDecoder } from './png-decoder.js';
import { createUploadService, type UploadService } from './service.js';

/**
 * Audit finding 8 (issue #37): a generate naming an upload checked the upload, stored its task and
 * only then recorded the use, while a delete or the sweep counted uses and then removed the upload —
 * a delete in between removed a picture the accepted task names. Now the submission pins its
 * uploads under the task id before the task is stored and reads them again; a delete marks the
 * upload and counts uses after. Each race is forced here by running the other side inside the
 * window, on NeDB and on FerretDB (decision 0043).
 */
const png = (rgb: number[]) => {
  const data = new Uint8Array(4 * 4 * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return encodePng(data, 4, 4);
};

const mongoUri = injectMongoUri('@assetloom/core upload pins on MongoDB');
const dbNames: string[] = [];
afterAll(async () => {
  if (mongoUri === null || dbNames.length === 0) return;
  const client = new MongoClient(mongoUri);
  try {
    for (const name of dbNames) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
});

const targets: [string, (() => Store) | null][] = [
  ['NeDB', () => createEmbeddedStore()],
  [
    'FerretDB',
    mongoUri === null
      ? null
      : () => {
          const dbName = uniqueDbName('core_pins');
          dbNames.push(dbName);
          return createMongoStore({ uri: mongoUri, dbName });
        },
  ],
];

describe.each(targets)('upload pins on %s', (_name, makeStore) => {
  async function setup() {
    let now = new Date('2026-01-01T00:00:00Z');
    const store = (makeStore as () => Store)();
    await store.init();
    const clock = { now: () => now };
    const uploads: UploadService = createUploadService({
      store,
      clock,
      decoder: createPngDecoder(),
      objects: {
        put: async () => undefined,
        get: async () => null,
        delete: async () => undefined,
      },
      limits: { ttlSeconds: 3600 },
    });
    const service: AssetService = createAssetService({
      store,
      clock,
      uploads,
      hasher: { hash: async (p) => p, verify: async (p, s) => p === s },
      tokens: { issue: async () => ({ token: 't', expiresIn: 1 }), verify: async () => null },
    });
    const user: AuthUser = {
      id: await store.users.nextId(),
      username: 'a',
      email: null,
      tokenVersion: 0,
      createdAt: '',
      updatedAt: '',
    };
    const project = await service.createProject(user, { name: 'p' });
    const picture = await uploads.upload(user, { bytes: png([200, 10, 10]), contentType: 'image/png' });
    /** Runs `during` once, right before the next task is stored. */
    const beforeTaskInsert = (during: () => Promise<void>) => {
      const insert = store.tasks.insert.bind(store.tasks);
      store.tasks.insert = async (task) => {
        store.tasks.insert = insert;
        await during();
        return insert(task);
      };
    };
    const submit = (prompt = 'pixelate') =>
      service.submitTask(user, {
        projectId: project.id,
        prompt,
        assetType: 'sprite',
        params: { image: { uploadId: picture.uploadId, strength: 0 } },
      });
    return {
      store,
      uploads,
      service,
      user,
      picture,
      submit,
      beforeTaskInsert,
      advance: (ms: number) => (now = new Date(now.getTime() + ms)),
    };
  }

  it.skipIf(makeStore === null)(
    'a delete between the check and the task insert answers 409 and the picture stays',
    async () => {
      const { store, uploads, user, picture, submit, beforeTaskInsert } = await setup();
      let deleted: unknown = 'not called';
      beforeTaskInsert(async () => {
        deleted = await uploads.delete(user, picture.uploadId).then(
          () => 'deleted',
          (error: unknown) => error,
        );
      });
      const { taskId, created } = await submit();
      expect(created).toBe(true);
      expect(deleted).toMatchObject({ code: 409 });
      // the task's picture is there for its run
      expect(await store.uploads?.byId(picture.uploadId)).not.toBeNull();
      expect((await store.uploads?.usesOf(picture.uploadId))?.map((u) => u.taskId)).toEqual([taskId]);
      await store.close();
    },
  );

  it.skipIf(makeStore === null)(
    'the sweep between the check and the task insert keeps the picture',
    async () => {
      const { store, uploads, picture, submit, beforeTaskInsert, advance } = await setup();
      advance(2 * 3600 * 1000);
      const repo = store.uploads as NonNullable<Store['uploads']>;
      const idle = await repo.idleSince(new Date('2026-01-01T01:30:00Z'), 10);
      expect(idle.map((u) => u.id)).toEqual([picture.uploadId]);
      let swept = -1;
      beforeTaskInsert(async () => {
        // the sweep read its list of idle uploads before the submission's check touched this one
        const idleSince = repo.idleSince.bind(repo);
        repo.idleSince = async () => {
          repo.idleSince = idleSince;
          return idle;
        };
        swept = await uploads.sweep();
      });
      expect((await submit()).created).toBe(true);
      expect(swept).toBe(0);
      expect(await repo.byId(picture.uploadId)).not.toBeNull();
      await store.close();
    },
  );

  it.skipIf(makeStore === null)(
    'a submission pinning while a delete holds its marker backs out with 404 and stores no task',
    async () => {
      const { store, uploads, user, picture, submit } = await setup();
      const repo = store.uploads as NonNullable<Store['uploads']>;
      const countUses = repo.countUses.bind(repo);
      let submitted: unknown;
      // The delete has marked the upload; before it counts the uses, a submission pins it.
      repo.countUses = async (id) => {
        repo.countUses = countUses;
        submitted = await submit().catch((error: unknown) => error);
        return countUses(id);
      };
      await uploads.delete(user, picture.uploadId);
      expect(submitted).toMatchObject({ code: 404 });
      expect(await repo.byId(picture.uploadId)).toBeNull();
      expect(await repo.countUses(picture.uploadId)).toBe(0);
      await store.close();
    },
  );

  it.skipIf(makeStore === null)(
    'a duplicate submission gives its pins back; uses of a task never stored are dropped once old',
    async () => {
      const { store, uploads, user, picture, submit, advance } = await setup();
      const first = await submit();
      const again = await submit();
      expect(again).toEqual({ taskId: first.taskId, created: false });
      const repo = store.uploads as NonNullable<Store['uploads']>;
      expect((await repo.usesOf(picture.uploadId)).map((u) => u.taskId)).toEqual([first.taskId]);
      // a process that died between the pin and the insert left a use of a task that never existed
      await repo.addUses([
        {
          uploadId: picture.uploadId,
          taskId: 'ghost-task',
          projectId: 'p',
          ownerId: user.id,
          createdAt: new Date('2026-01-01T00:00:00Z'),
        },
      ]);
      await store.tasks.deleteByProject((await store.tasks.byId(first.taskId))?.projectId ?? '');
      await repo.deleteUses(first.taskId, [picture.uploadId]);
      await expect(uploads.delete(user, picture.uploadId)).rejects.toMatchObject({ code: 409 });
      advance(11 * 60 * 1000);
      await uploads.delete(user, picture.uploadId);
      expect(await repo.byId(picture.uploadId)).toBeNull();
      await store.close();
    },
  );
});
