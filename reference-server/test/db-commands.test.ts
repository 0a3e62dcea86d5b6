import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountedSetup, call, follow, measureOperations, startCounted } from './db-commands.js';
import { client, newUser } from './helpers.js';
import { type ServerProcess, spawnServer } from './processes.js';

/**
 * Issue #17's database budgets, held as COUNTS of the commands the driver sends (command
 * monitoring), never as timings: they transfer from FerretDB to any MongoDB deployment.
 */
const mongoUri = injectMongoUri('reference-server database command budgets');

describe.skipIf(mongoUri === null)('database commands per operation (budgets)', () => {
  let s: CountedSetup;
  beforeAll(async () => {
    s = await startCounted(mongoUri as string, { WORKER_POLL_MS: '60000', EVENT_POLL_MS: '100' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a task read sends 1 command, a list at most 2, a whole task run at most 16 writes; streams share one poll', async () => {
    const counts = await measureOperations(s, { streams: 40, seconds: 1.5 });
    expect(counts.taskRead.total).toBe(1);
    expect(counts.taskRead.byCommand).toEqual({ 'find tasks': 1 });
    expect(counts.projectList.total).toBeLessThanOrEqual(2);
    expect(counts.taskRun.writes).toBeLessThanOrEqual(16);
    // The run's writes include the claim, its events, its assets and the final status.
    expect(counts.taskRun.byCommand['insert task_claims']).toBe(1);
    expect(counts.taskRun.byCommand['insert events']).toBeGreaterThanOrEqual(1);
    expect(counts.taskRun.byCommand['insert assets']).toBe(1);
    // 40 streams polling on their own every 100 ms would send ~400 commands a second; the shared
    // poller sends one events read per interval and one status read every fifth: ~12 a second.
    expect(counts.streams.perSecond).toBeLessThanOrEqual(15);
    expect(counts.streams.perSecond).toBeGreaterThan(0);
  });
});

describe.skipIf(mongoUri === null)('a whole task run on a small sprite, followed', () => {
  let s: CountedSetup;
  beforeAll(async () => {
    s = await startCounted(mongoUri as string, { WORKER_POLL_MS: '60000' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('stays within 16 writes and every event reaches a stream in seq order', async () => {
    const res = await call(
      s.server.url,
      'POST',
      '/api/v1/generate',
      {
        projectId: s.projectId,
        prompt: 'a small slime',
        assetType: 'sprite',
        params: { resolution: 16 },
      },
      s.token,
    );
    const taskId = res.data.taskId as string;
    const stream = follow(s.server.url, taskId, s.token);
    s.work.reset();
    s.worker.start();
    s.worker.wake();
    const seen = await stream;
    expect(seen.code).toBe(1000);
    expect(seen.seqs.length).toBeGreaterThanOrEqual(8);
    expect(seen.seqs).toEqual([...seen.seqs].sort((a, b) => a - b));
    expect(new Set(seen.seqs).size).toBe(seen.seqs.length);
    const task = await s.server.store.tasks.byId(taskId);
    expect(task).toMatchObject({ status: 'completed', lastSeq: seen.seqs.at(-1) });
    expect(s.work.tally().writes).toBeLessThanOrEqual(16);
  });
});

describe.skipIf(mongoUri === null)('counters with two API processes on one database', () => {
  const processes: ServerProcess[] = [];
  let objects: string | undefined;
  const db = uniqueDbName('taskcount');
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

  it('registers users and counts every task submitted to either process at once', async () => {
    objects = await mkdtemp(join(tmpdir(), 'assetloom-taskcount-'));
    const env = {
      MONGODB_URI: mongoUri as string,
      MONGODB_DB: db,
      DATA_DIR: objects,
      WORKER_IN_PROCESS: 'false',
      GENERATE_MAX_REQUESTS: '100000',
      // spawnServer waits for the `listening` line (info)
      LOG_LEVEL: 'info',
    };
    const [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    processes.push(a as ServerProcess, b as ServerProcess);
    // Users registered on both processes at once draw ids from one counter FerretDB does not
    // increment atomically: a collision is an id drawn twice (another is drawn), never "e-mail taken".
    const registered = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        client(((i % 2 === 0 ? a : b) as ServerProcess).url).post('/auth/register', {
          username: `counted${i}x${Date.now().toString(36)}`,
          password: 'secret-pass',
        }),
      ),
    );
    expect(registered.map((r) => r.status)).toEqual(registered.map(() => 201));
    expect(new Set(registered.map((r) => r.body.data.id)).size).toBe(40);
    const user = await newUser((a as ServerProcess).url);
    const project = await client((a as ServerProcess).url).post(
      '/api/v1/projects',
      { name: 'Counted' },
      { token: user.token },
    );
    const projectId = project.body.data.id as string;
    const total = 48;
    const answers = await Promise.all(
      Array.from({ length: total }, (_, i) =>
        client(((i % 2 === 0 ? a : b) as ServerProcess).url).post(
          '/api/v1/generate',
          { projectId, prompt: `a counted slime ${i}`, assetType: 'sprite', params: { resolution: 16 } },
          { token: user.token },
        ),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    for (const api of [a, b] as ServerProcess[]) {
      const list = await client(api.url).get('/api/v1/projects', { token: user.token });
      expect(list.body.data.projects[0]).toMatchObject({ id: projectId, taskCount: total });
    }
  }, 120_000);
});
