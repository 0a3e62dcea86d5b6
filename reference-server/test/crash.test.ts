import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@assetloom/core';
import { createEmbeddedStore } from '@assetloom/core/store/embedded';
import { createMongoStore } from '@assetloom/core/store/mongodb';
import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { client, newUser } from './helpers.js';
import { type ServerProcess, spawnServer } from './processes.js';
import { openStream, pngSize, waitForTaskEnd } from './task-helpers.js';

/**
 * Crash safety: the real server process is killed with SIGKILL while tasks are in flight and started
 * again on the same data. Every task must end completed or failed (none stays running), completed
 * tasks keep their assets and their files download, and a progress stream still ends.
 */
const mongoUri = injectMongoUri('reference-server crash-safety test on MongoDB');

type Target = { kind: 'embedded'; dir: string } | { kind: 'mongodb'; uri: string; db: string };

async function openDirect(target: Target): Promise<Store> {
  const store =
    target.kind === 'embedded'
      ? createEmbeddedStore({ dir: join(target.dir, 'data') })
      : createMongoStore({ uri: target.uri, dbName: target.db });
  await store.init();
  return store;
}

const TASKS = 10;

describe.each([
  ['embedded', true],
  ['mongodb', mongoUri !== null],
] as const)('kill -9 with tasks in flight (%s store)', (kind, available) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it.skipIf(!available)(
    'every task ends completed or failed after a restart; no completed asset is lost',
    async () => {
      const target: Target =
        kind === 'embedded'
          ? { kind: 'embedded', dir: await mkdtemp(join(tmpdir(), 'assetloom-crash-')) }
          : { kind: 'mongodb', uri: mongoUri as string, db: uniqueDbName('crash') };
      const env: Record<string, string> =
        target.kind === 'embedded'
          ? { DATA_DIR: join(target.dir, 'data') }
          : {
              MONGODB_URI: target.uri,
              MONGODB_DB: target.db,
              DATA_DIR: await mkdtemp(join(tmpdir(), 'assetloom-crash-objects-')),
            };
      Object.assign(env, {
        WORKER_CONCURRENCY: '2',
        TASK_LEASE_MS: '1500',
        WORKER_POLL_MS: '100',
        GENERATE_MAX_REQUESTS: '1000',
      });
      cleanups.push(async () => {
        if (target.kind === 'embedded') await rm(target.dir, { recursive: true, force: true });
        else {
          await rm(env.DATA_DIR as string, { recursive: true, force: true });
          const c = new MongoClient(target.uri);
          try {
            await c.db(target.db).dropDatabase();
          } finally {
            await c.close();
          }
        }
      });

      let first: ServerProcess | undefined = await spawnServer(env);
      cleanups.push(async () => first?.kill9());
      const user = await newUser(first.url);
      const api = client(first.url);
      const project = await api.post('/api/v1/projects', { name: 'Crash' }, { token: user.token });
      const ids: string[] = [];
      for (let i = 0; i < TASKS; i++) {
        const res = await api.post(
          '/api/v1/generate',
          {
            projectId: project.body.data.id,
            prompt: `crash test ${i}`,
            assetType: 'animation',
            params: { resolution: 96, frames: { directions: 4, framesPerDirection: 4 } },
          },
          { token: user.token },
        );
        ids.push(res.body.data.taskId);
      }
      // Wait until work is really under way: the first task's stream reaches asset generation.
      await openStream(first.url, ids[0] as string, { token: user.token, stopAfter: 3 });
      await first.kill9();
      first = undefined;

      // What the dead process left behind (read directly; the process is gone, so the embedded files are free).
      const before = await openDirect(target);
      const leftRunning: string[] = [];
      const completedBefore = new Map<string, string[]>();
      for (const id of ids) {
        const task = await before.tasks.byId(id);
        if (task?.status === 'running' || task?.status === 'saving') leftRunning.push(id);
        if (task?.status === 'completed')
          completedBefore.set(id, (await before.assets.listByTask(id)).map((a) => a.key).sort());
      }
      await before.close();
      expect(leftRunning.length, 'the kill must leave tasks in flight').toBeGreaterThan(0);

      const second = await spawnServer(env);
      cleanups.push(() => second.stop());
      // A stream opened on an interrupted task ends too, on the new process.
      const stream = await openStream(second.url, leftRunning[0] as string, {
        token: user.token,
        timeoutMs: 60_000,
      });
      expect(stream.closeCode).toBe(1000);
      const ended = await Promise.all(ids.map((id) => waitForTaskEnd(second.url, user.token, id, 60_000)));
      for (const task of ended) expect(['completed', 'failed']).toContain(task.status);
      expect(ended.filter((t) => t.status === 'completed').length).toBe(TASKS);

      const again = client(second.url);
      for (const id of ids) {
        const assets = await again.get(`/api/v1/tasks/${id}/assets`, { token: user.token });
        const list = assets.body.data.assets as { key: string; url: string }[];
        const keys = list.map((a) => a.key).sort();
        expect(new Set(keys).size, 'no duplicate asset records').toBe(keys.length);
        const earlier = completedBefore.get(id);
        if (earlier !== undefined) expect(keys).toEqual(earlier);
        const sheet = list.find((a) => a.key.endsWith('.png'));
        const file = await fetch(sheet?.url as string);
        expect(file.status).toBe(200);
        expect(pngSize(new Uint8Array(await file.arrayBuffer())).width).toBeGreaterThan(0);
      }
      // Every task's full history replays and ends with its terminal event. A kill between ending
      // a task and appending that event leaves the log without it; the reader repairs the log
      // (terminalEventFor) and stores the repair, so the raw log below ends with it too.
      for (const id of ids) {
        const replay = await openStream(second.url, id, { token: user.token, since: 0, timeoutMs: 30_000 });
        expect(replay.closeCode).toBe(1000);
        const seqs = replay.messages.map((m) => Number(m.seq));
        expect(seqs, 'seqs strictly increase').toEqual([...seqs].sort((x, y) => x - y));
        expect(new Set(seqs).size).toBe(seqs.length);
        expect(replay.messages.at(-1)).toMatchObject({ stage: 'format_adapter', status: 'completed' });
      }
      await second.stop();
      const after = await openDirect(target);
      try {
        for (const id of ids) {
          const task = await after.tasks.byId(id);
          expect(task?.status).toBe('completed');
          expect(task?.lease).toBeNull();
          const events = await after.events.list(id, 0);
          const seqs = events.map((e) => e.seq);
          expect(new Set(seqs).size).toBe(seqs.length);
          expect(events.at(-1)?.event).toMatchObject({ stage: 'format_adapter', status: 'completed' });
        }
      } finally {
        await after.close();
      }
    },
    180_000,
  );
});
