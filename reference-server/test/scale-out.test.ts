import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { client, newUser } from './helpers.js';
import { type ServerProcess, spawnServer } from './processes.js';
import { expectPipelineProgress, openStream, waitForTaskEnd } from './task-helpers.js';

/**
 * Scale-out on one MongoDB database (MONGODB_URI, else FerretDB): two API processes without
 * in-process workers and one separate worker process (src/worker-main.ts). A task submitted on the
 * first API process is run by the worker process and watched over the WebSocket of the second;
 * events reach it through the shared events collection only.
 */
const mongoUri = injectMongoUri('reference-server scale-out test on MongoDB');

describe.skipIf(mongoUri === null)('two API processes and a worker process on one database', () => {
  const processes: ServerProcess[] = [];
  let objects: string | undefined;
  const db = uniqueDbName('scaleout');
  afterAll(async () => {
    for (const p of processes.reverse()) await p.stop().catch(() => undefined);
    if (objects !== undefined) await rm(objects, { recursive: true, force: true });
    const c = new MongoClient(mongoUri as string);
    try {
      await c.db(db).dropDatabase();
    } finally {
      await c.close();
    }
  });

  it('submits on one process, runs on the worker, streams on the other', async () => {
    objects = await mkdtemp(join(tmpdir(), 'assetloom-scaleout-'));
    const env = {
      MONGODB_URI: mongoUri as string,
      MONGODB_DB: db,
      DATA_DIR: objects,
      WORKER_IN_PROCESS: 'false',
      EVENT_POLL_MS: '50',
      WORKER_POLL_MS: '50',
      LOG_LEVEL: 'warn',
    };
    const [a, b, worker] = await Promise.all([
      spawnServer({ ...env, LOG_LEVEL: 'info' }),
      spawnServer({ ...env, LOG_LEVEL: 'info' }),
      spawnServer({ ...env, LOG_LEVEL: 'info', WORKER_CONCURRENCY: '2' }, 30_000, 'worker-main.ts'),
    ]);
    processes.push(a, b, worker);

    const user = await newUser(a.url);
    const project = await client(a.url).post('/api/v1/projects', { name: 'Scale' }, { token: user.token });
    const ids: string[] = [];
    for (const prompt of ['a robot', 'a ghost', 'a mage']) {
      const res = await client(a.url).post(
        '/api/v1/generate',
        { projectId: project.body.data.id, prompt, assetType: 'sprite', params: { resolution: 16 } },
        { token: user.token },
      );
      ids.push(res.body.data.taskId);
    }
    const streams = await Promise.all(
      ids.map((id) => openStream(b.url, id, { token: user.token, timeoutMs: 60_000 })),
    );
    for (const stream of streams) {
      expect(stream.refused).toBeUndefined();
      expect(stream.closeCode).toBe(1000);
      for (const m of stream.messages) expectPipelineProgress(m);
      expect(stream.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(stream.messages.at(-1)).toMatchObject({ stage: 'format_adapter', status: 'completed' });
    }
    for (const id of ids) {
      expect(await waitForTaskEnd(b.url, user.token, id)).toMatchObject({
        status: 'completed',
        progress: 100,
      });
      const assets = await client(b.url).get(`/api/v1/tasks/${id}/assets`, { token: user.token });
      const sheet = (assets.body.data.assets as { key: string; url: string }[]).find((x) =>
        x.key.endsWith('.png'),
      );
      // served by the other API process: both derive the same signing key from JWT_SECRET
      expect(sheet).toBeDefined();
      const file = await fetch(String(sheet?.url).replace(b.url, a.url));
      expect(file.status).toBe(200);
    }
  }, 120_000);
});
