import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMongoStore } from '@assetloom/core/store/mongodb';
import { type CommandCounter, type CommandTally, countCommands, uniqueDbName } from '@assetloom/testing';
import { MongoClient } from 'mongodb';
import pino from 'pino';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.js';
import { type RunningServer, startServer, workerFor } from '../src/server.js';
import type { GenerationWorker } from '../src/tasks/worker.js';

/**
 * Counts the database commands each operation sends (the driver's command monitoring), on a real
 * server on loopback over MongoDB or FerretDB. The API process and the worker have their own
 * clients, so the worker's commands never land in a request's tally. Used by the budget test
 * (test/db-commands.test.ts) and the benchmark table (bench/db-commands.bench.ts).
 */
export interface CountedSetup {
  server: RunningServer;
  /** Commands of the API process (requests, WebSocket streams). */
  api: CommandCounter;
  /** Commands of the separate worker. */
  work: CommandCounter;
  worker: GenerationWorker;
  token: string;
  projectId: string;
  close(): Promise<void>;
}

const silent = pino({ level: 'silent' });

/** The test server environment (as test/helpers.ts, which pulls vitest in and so cannot serve the bench). */
function testEnv(extra: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    JWT_SECRET: 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    SCRYPT_COST: '10',
    LOG_LEVEL: 'silent',
    // 40 registrations at once from one address (the per-address limits have their own tests).
    REGISTER_IP_MAX: '100000',
    LOGIN_IP_MAX_FAILURES: '100000',
    PASSWORD_HASH_PER_CLIENT: '1000',
    ...extra,
  };
}

export async function startCounted(uri: string, env: Record<string, string> = {}): Promise<CountedSetup> {
  const dbName = uniqueDbName('dbcmd');
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-dbcmd-'));
  const loaded = loadConfig(
    testEnv({
      MONGODB_URI: uri,
      MONGODB_DB: dbName,
      DATA_DIR: dir,
      WORKER_IN_PROCESS: 'false',
      GENERATE_MAX_REQUESTS: '100000',
      ...env,
    }),
  );
  if (!loaded.ok) throw loaded.error;
  const config = loaded.value;
  const apiClient = new MongoClient(uri, { monitorCommands: true });
  const workClient = new MongoClient(uri, { monitorCommands: true });
  const apiStore = createMongoStore({ uri, client: apiClient, dbName });
  const workStore = createMongoStore({ uri, client: workClient, dbName });
  const server = await startServer(config, { store: apiStore, logger: silent });
  await workStore.init();
  const worker = workerFor(config, { store: workStore, storage: server.storage, logger: silent });
  const api = countCommands(apiClient);
  const work = countCommands(workClient);
  const username = `cmd${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  await call(server.url, 'POST', '/auth/register', { username, password: 'secret-pass' });
  const login = await call(server.url, 'POST', '/auth/login', { username, password: 'secret-pass' });
  const token = login.data.token as string;
  const project = await call(server.url, 'POST', '/api/v1/projects', { name: 'counted' }, token);
  return {
    server,
    api,
    work,
    worker,
    token,
    projectId: project.data.id as string,
    async close() {
      await worker.stop(2_000);
      await server.close();
      await workStore.close();
      const admin = new MongoClient(uri);
      try {
        await admin.db(dbName).dropDatabase();
      } finally {
        await admin.close();
        await apiClient.close();
        await workClient.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

export async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; data: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return { status: res.status, data: json.data };
}

/** A 64 px sprite sheet, 4 directions × 4 frames (the spec's defaults). */
export const SHEET = {
  resolution: 64,
  frames: { directions: 4, framesPerDirection: 4 },
  format: 'spritesheet',
};

export async function submit(
  s: CountedSetup,
  prompt: string,
  params: object = { resolution: 16 },
): Promise<string> {
  const res = await call(
    s.server.url,
    'POST',
    '/api/v1/generate',
    { projectId: s.projectId, prompt, assetType: 'sprite', params },
    s.token,
  );
  return res.data.taskId as string;
}

/** Follows a task's stream until it closes; resolves with the messages. */
export function follow(
  url: string,
  taskId: string,
  token: string,
): Promise<{ seqs: number[]; code: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v1/tasks/${taskId}/ws`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const seqs: number[] = [];
    ws.on('message', (data) => seqs.push((JSON.parse(String(data)) as { seq: number }).seq));
    ws.on('close', (code) => resolve({ seqs, code }));
    ws.on('error', reject);
  });
}

async function waitCompleted(s: CountedSetup, taskId: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const task = await s.server.store.tasks.byId(taskId);
    if (task?.status === 'completed' || task?.status === 'failed') {
      if (task.status === 'failed') throw new Error(`task failed: ${task.error}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`task ${taskId} did not end within ${timeoutMs} ms`);
}

export interface OperationCounts {
  taskRead: CommandTally;
  projectList: CommandTally;
  generate: CommandTally;
  /** One task run by the worker (a 64 px 4 × 4 sheet): claim, events, assets, status moves (no idle polls). */
  taskRun: CommandTally;
  /** One lease renewal. */
  renewal: CommandTally;
  /** Commands per second of the API process for `streams` open streams on tasks that do not move. */
  streams: { streams: number; seconds: number; total: number; perSecond: number; perStreamPerSecond: number };
}

/** Measures every operation of the table once (the task run on a worker that is woken for it). */
export async function measureOperations(
  s: CountedSetup,
  options: { streams: number; seconds: number },
): Promise<OperationCounts> {
  const generated = await s.api.measure(() => submit(s, 'a counted knight', SHEET));
  const taskId = generated.result;
  const taskRead = (
    await s.api.measure(() => call(s.server.url, 'GET', `/api/v1/tasks/${taskId}`, undefined, s.token))
  ).tally;
  const projectList = (
    await s.api.measure(() =>
      call(s.server.url, 'GET', '/api/v1/projects?page=1&pageSize=20', undefined, s.token),
    )
  ).tally;

  // The task run: the worker claims (its idle poll is far away), runs and finishes it.
  s.work.reset();
  s.worker.start();
  s.worker.wake();
  await waitCompleted(s, taskId);
  // Let the worker's loop settle (its claim of nothing more after the slot frees up is an idle poll).
  const taskRun = s.work.tally();
  const renewal = await measureRenewal(s);

  // Streams on tasks nobody runs: the worker is stopped, so the streams only poll.
  await s.worker.stop(2_000);
  const ids: string[] = [];
  for (let i = 0; i < options.streams; i++) ids.push(await submit(s, `a waiting ghost ${i}`));
  const sockets = ids.map(
    (id) =>
      new WebSocket(`${s.server.url.replace('http', 'ws')}/api/v1/tasks/${id}/ws`, {
        headers: { authorization: `Bearer ${s.token}` },
      }),
  );
  await Promise.all(sockets.map((ws) => new Promise((r, j) => ws.once('open', r).once('error', j))));
  // Past the first polls of each stream (replay and the first task check).
  await new Promise((r) => setTimeout(r, 500));
  s.api.reset();
  await new Promise((r) => setTimeout(r, options.seconds * 1000));
  const total = s.api.tally().total;
  for (const ws of sockets) ws.close();
  return {
    taskRead,
    projectList,
    generate: generated.tally,
    taskRun,
    renewal,
    streams: {
      streams: options.streams,
      seconds: options.seconds,
      total,
      perSecond: total / options.seconds,
      perStreamPerSecond: total / options.seconds / options.streams,
    },
  };
}

/** The commands of one lease renewal: a task claimed through the queue, renewed once. */
async function measureRenewal(s: CountedSetup): Promise<CommandTally> {
  const { createTaskQueue } = await import('@assetloom/core/queue');
  const taskId = await submit(s, 'a renewed slime');
  await s.worker.stop(2_000);
  const workClientStore = s.server.store;
  const queue = createTaskQueue({ store: workClientStore, owner: 'renewal-probe', leaseMs: 60_000 });
  let claimed = await queue.claim(1);
  // The worker may have claimed it before it stopped; then it ran and there is nothing to renew.
  if (claimed.length === 0) {
    const other = await submit(s, 'another renewed slime');
    claimed = await queue.claim(1);
    if (claimed.length === 0) throw new Error(`no claimable task (${taskId}, ${other})`);
  }
  const handle = claimed[0] as NonNullable<(typeof claimed)[0]>;
  const { tally } = await s.api.measure(() => handle.renew());
  await handle.finish({ status: 'failed', error: 'probe' });
  return tally;
}
