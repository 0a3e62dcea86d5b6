/**
 * `pnpm --filter @assetloom/server bench:overhead`: where the generation server's time goes beside
 * the bare pipeline, on the embedded store (issue #17: 4 workers reached ~0.55× the bare pipeline).
 * The same batch of BENCH_TASKS (default 40) 64 px sprite sheets runs, 4 at a time, through layers
 * that add one part each, in ONE process and run, so the ratios compare like with like:
 *
 *   1. bare pipeline into memory (the reference)
 *   2. bare pipeline into the server's filesystem storage, without and with fsync (file writes)
 *   3. the durable queue + worker on the embedded store, no HTTP (claims, event and task writes)
 *      with EVENT_BATCH_MS 0 and 25 (one write pair per event, or per batch)
 *   4. the whole server: HTTP submit, queue, worker, files, WebSocket streams (as bench:generation)
 *
 * Each row prints tasks/s and its ratio to row 1. Rows alternate the order of two repetitions to
 * even out a shared machine's noise; the best of the two is printed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAssetService, type Store } from '@assetloom/core';
import { createEmbeddedStore } from '@assetloom/core/store/embedded';
import { runPipeline } from '@assetloom/generator';
import { createMemoryStorage, type StoragePort } from '@assetloom/pipeline';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { ScryptPasswordHasher } from '../src/password.js';
import { startServer } from '../src/server.js';
import { createFsStorage } from '../src/storage/index.js';
import { createGenerationWorker } from '../src/tasks/worker.js';
import { JwtTokenService } from '../src/tokens.js';
import { benchUser, generateBatch } from './generation-client.js';

const TASKS = Number(process.env.BENCH_TASKS ?? 40);
const CONCURRENCY = 4;
const SECRET = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const PARAMS = {
  resolution: 64,
  frames: { directions: 4, framesPerDirection: 4 },
  format: 'spritesheet',
} as const;
const silent = pino({ level: 'silent' });

interface Measured {
  /** Tasks per second over the timed part. */
  rate: number;
  /** CPU of this process (all threads) per task over the timed part, in ms. */
  cpuMs: number;
}

/** Times `fn` (wall and process CPU), after whatever setup the caller did. */
async function timed(fn: () => Promise<void>): Promise<Measured> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return {
    rate: TASKS / ((performance.now() - started) / 1000),
    cpuMs: (used.user + used.system) / 1000 / TASKS,
  };
}

async function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-overhead-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function bare(storage: StoragePort): Promise<Measured> {
  let next = 0;
  const lane = async () => {
    for (;;) {
      const i = next++;
      if (i >= TASKS) return;
      const result = await runPipeline(
        {
          prompt: `bold knight ${i}`,
          assetType: 'sprite',
          projectStyle: {},
          params: PARAMS,
          keyPrefix: `bench/${i}/`,
        },
        { storage, onEvent: async () => undefined },
      );
      if (!result.ok) throw new Error(result.error);
    }
  };
  return timed(async () => {
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  });
}

function fsStorage(dir: string, fsync: boolean) {
  return createFsStorage({ root: join(dir, 'objects'), secret: SECRET, fsync });
}

/** The queue and worker on the embedded store, tasks submitted through the service (no HTTP). */
async function queueOnly(eventBatchMs: number): Promise<Measured> {
  return withDir(async (dir) => {
    const store: Store = createEmbeddedStore({ dir });
    await store.init();
    const service = createAssetService({
      store,
      hasher: new ScryptPasswordHasher({ logN: 10 }),
      tokens: new JwtTokenService({ secret: SECRET, ttlSeconds: 3600 }),
    });
    await service.register({ username: 'bench', password: 'secret-pass' });
    const login = await service.login({ username: 'bench', password: 'secret-pass' }, { ip: '127.0.0.1' });
    const user = await service.authenticate(login.token);
    const project = await service.createProject(user, { name: 'bench' });
    const worker = createGenerationWorker({
      store,
      storage: fsStorage(dir, true),
      logger: silent,
      concurrency: CONCURRENCY,
      leaseMs: 30_000,
      pollMs: 20,
      maxAttempts: 3,
      maxQualityRetries: 2,
      llm: null,
      eventBatchMs,
    });
    const measured = await timed(async () => {
      for (let i = 0; i < TASKS; i++) {
        await service.submitTask(user, {
          projectId: project.id,
          prompt: `bold knight ${i}`,
          assetType: 'sprite',
          params: PARAMS,
        } as never);
      }
      worker.start();
      // One read per 25 ms tells when the batch is done (reading each task would add to the cost measured).
      for (;;) {
        const page = await store.tasks.listByProject(project.id, { skip: 0, limit: 1000 });
        if (page.items.every((t) => t.status === 'completed' || t.status === 'failed')) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    });
    await worker.stop(1000);
    await store.close();
    return measured;
  });
}

/** The whole server on the embedded store (as bench:generation), fsync on or off. */
async function wholeServer(fsync: boolean): Promise<Measured> {
  return withDir(async (dir) => {
    const loaded = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      JWT_SECRET: SECRET,
      SCRYPT_COST: '10',
      WORKER_CONCURRENCY: String(CONCURRENCY),
      GENERATE_MAX_REQUESTS: '100000',
      REGISTER_IP_MAX: '100000',
      DATA_DIR: dir,
    });
    if (!loaded.ok) throw loaded.error;
    // startServer checks an injected storage too (decision 0072): its folders exist before a thread writes
    const server = await startServer(loaded.value, { logger: silent, storage: fsStorage(dir, fsync) });
    try {
      const user = await benchUser(server.url);
      // Untimed warm-up: the pipeline threads compile the pipeline's code in their own isolates.
      await generateBatch(server.url, user, TASKS, 'warm');
      // The spec's defaults are PARAMS (64 px, 4 directions × 4 frames, a sheet).
      return await timed(async () => {
        await generateBatch(server.url, user, TASKS);
      });
    } finally {
      await server.close();
    }
  });
}

const rows: [string, () => Promise<Measured>][] = [
  ['1. bare pipeline → memory', () => bare(createMemoryStorage())],
  ['2a. bare pipeline → fs storage, no fsync', () => withDir((d) => bare(fsStorage(d, false)))],
  [
    '2b. bare pipeline → fs storage, fsync (the server default)',
    () => withDir((d) => bare(fsStorage(d, true))),
  ],
  ['3a. queue + worker, embedded store, EVENT_BATCH_MS=0', () => queueOnly(0)],
  ['3b. queue + worker, embedded store, EVENT_BATCH_MS=25', () => queueOnly(25)],
  ['4a. whole server (HTTP + WS), fs storage without fsync', () => wholeServer(false)],
  ['4b. whole server (HTTP + WS), default settings', () => wholeServer(true)],
];

// BENCH_ONLY=4b (a row's prefix, comma-separated) runs only those rows, and the first as the reference.
const only = process.env.BENCH_ONLY?.split(',');
if (only !== undefined) {
  const keep = rows.filter(([label], i) => i === 0 || only.some((o) => label.startsWith(`${o}.`)));
  rows.splice(0, rows.length, ...keep);
}
const best = new Map<string, number>();
const cpu = new Map<string, number>();
for (const order of [rows, [...rows].reverse()]) {
  for (const [label, run] of order) {
    const { rate, cpuMs } = await run();
    best.set(label, Math.max(best.get(label) ?? 0, rate));
    cpu.set(label, Math.min(cpu.get(label) ?? Number.POSITIVE_INFINITY, cpuMs));
  }
}
const reference = best.get(rows[0]?.[0] as string) as number;
const referenceCpu = cpu.get(rows[0]?.[0] as string) as number;
console.log(
  `\n${TASKS} × 64 px sprite sheets, ${CONCURRENCY} at a time, embedded store (tasks/s: best of 2 per row; CPU of this process per task: lowest of 2)\n`,
);
console.log('| layer | tasks/s | vs bare pipeline | CPU ms/task | CPU beyond the bare pipeline |');
console.log('|---|---|---|---|---|');
for (const [label] of rows) {
  const rate = best.get(label) as number;
  const ms = cpu.get(label) as number;
  console.log(
    `| ${label} | ${rate.toFixed(1)} | ${(rate / reference).toFixed(2)}× | ${ms.toFixed(1)} | +${(ms - referenceCpu).toFixed(1)} |`,
  );
}
process.exit(0);
