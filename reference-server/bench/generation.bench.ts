/**
 * `pnpm bench:generation`: generation (queue, workers, pipeline, storage, events) under load. With WORKER_CONCURRENCY=4 and 64 px
 * sprite spritesheets (4 directions × 4 frames), measures
 *   - tasks completed per second through the whole server (HTTP submit → durable queue → pipeline →
 *     object storage → persisted events), against the bare pipeline (runPipeline with 4 concurrent
 *     runs into memory storage, in a process of its own: bench/bare-pipeline.ts) measured in the
 *     same run: the ratio is the server's overhead around the pipeline;
 *   - submit-to-completed latency p50/p95 (POST /generate until the terminal WebSocket event);
 *   - WebSocket event latency p50/p95 (event `at`, stamped by the worker, to arrival at the client).
 * On the embedded store, then on MongoDB (MONGODB_URI, else the FerretDB @assetloom/testing prepares;
 * skipped with a note when none or when BENCH_MONGO_TASKS=0). BENCH_TASKS (default 40) sets the
 * batch size (BENCH_MONGO_TASKS, default 40, the MongoDB run's). Each server run, and the bare
 * pipeline, starts with BENCH_WARMUP untimed batches of the same size (default: 320 tasks' worth, at
 * least 2). BENCH_ROUNDS (default 5) rounds alternate the bare pipeline and the embedded servers
 * (BENCH_ONLY=<text>: only the rows whose label contains it); the table shows each server's median
 * ratio to the bare pipeline of its own round, and the range.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveMongoTarget, uniqueDbName } from '@assetloom/testing';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { type BarePipeline, startBarePipeline } from './bare-pipeline.js';
import { startBuiltServer } from './built-server.js';
import { benchUser, generateBatch } from './generation-client.js';

const TASKS = Number(process.env.BENCH_TASKS ?? 40);
/**
 * Untimed batches before the timed one, for every server and the bare pipeline alike: by default
 * enough for 320 tasks (at least 2 batches), as V8 is still optimizing after the first hundred.
 */
const WARMUP = Math.max(
  1,
  Math.floor(Number(process.env.BENCH_WARMUP ?? Math.max(2, Math.ceil(320 / TASKS)))),
);
const CONCURRENCY = 4;
const SECRET = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');

/** Tasks per second of the bare pipeline's own process (bench/bare-pipeline.ts). */
async function barePipeline(pipeline: BarePipeline): Promise<number> {
  return TASKS / ((await pipeline.run(TASKS)) / 1000);
}

/** A server to measure: its URL and how to stop it. */
interface Target {
  url: string;
  close(): Promise<void>;
}

function envFor(storeEnv: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    JWT_SECRET: SECRET,
    SCRYPT_COST: '10',
    WORKER_CONCURRENCY: String(CONCURRENCY),
    GENERATE_MAX_REQUESTS: '100000',
    REGISTER_IP_MAX: '100000',
    EVENT_POLL_MS: process.env.BENCH_EVENT_POLL_MS ?? '200',
    ...storeEnv,
  };
}

/** The server inside this process: its CPU is shared with the bench's own client (requests, sockets). */
async function inProcess(storeEnv: Record<string, string>): Promise<Target> {
  const loaded = loadConfig(envFor(storeEnv));
  if (!loaded.ok) throw loaded.error;
  const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false }));
  const server = await startServer(loaded.value, { logger });
  return { url: server.url, close: () => server.close() };
}

/** The built server (dist/main.js) as a child process, as it is deployed: the client is not in its loop. */
function childProcess(storeEnv: Record<string, string>): Promise<Target> {
  return startBuiltServer(envFor(storeEnv));
}

async function serverRun(
  label: string,
  target: Target,
  tasks: number,
  options: { warmup?: number; cleanup?: () => Promise<void> } = {},
) {
  const { warmup = WARMUP, cleanup } = options;
  try {
    const { url } = target;
    const user = await benchUser(url);
    // Warm-up batches first (BENCH_WARMUP), as for the bare pipeline: V8 keeps optimizing for several
    // batches (each pipeline thread is an isolate of its own and compiles the pipeline again), and
    // a server is measured as it runs for hours, not in its first minute.
    for (let batch = 0; batch < warmup; batch++) await generateBatch(url, user, tasks, `warm${batch}`);
    const started = performance.now();
    const runs = await generateBatch(url, user, tasks);
    const last = Math.max(...runs.map((r) => r.end));
    const rate = tasks / ((last - started) / 1000);
    const latencies = runs.map((r) => r.latency);
    const lags = runs.flatMap((r) => r.lags);
    return {
      label,
      rate,
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      lag50: quantile(lags, 0.5),
      lag95: quantile(lags, 0.95),
    };
  } finally {
    await target.close();
    await cleanup?.();
  }
}

const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 5)));
const MONGO_TASKS = Number(process.env.BENCH_MONGO_TASKS ?? 40);
const median = (values: number[]) => quantile(values, 0.5);

// The embedded store: the pipeline on the event loop (PIPELINE_THREADS=0, as before decision 0025)
// and on pipeline threads (the default, `auto`), with the server in this process (sharing its CPU
// with the bench's client, as before) and as the built server in a child process, as deployed.
const ALL_CONFIGS = [
  ['embedded, in this process, pipeline on the event loop', '0', inProcess],
  ['embedded, in this process, pipeline threads (auto)', 'auto', inProcess],
  ['embedded, own process (dist/main.js), pipeline on the event loop', '0', childProcess],
  ['embedded, own process (dist/main.js), pipeline threads (auto)', 'auto', childProcess],
] as const;
// BENCH_ONLY=<text> keeps the rows whose label contains it (e.g. "own process").
const CONFIGS = ALL_CONFIGS.filter(([label]) => label.includes(process.env.BENCH_ONLY ?? ''));

type Result = Awaited<ReturnType<typeof serverRun>>;
// The bare pipeline in a process of its own, with BENCH_WARMUP untimed runs first, so that no round
// compares a warm server with a cold bare pipeline.
const bare = await startBarePipeline();
for (let batch = 0; batch < WARMUP; batch++) await barePipeline(bare);
// Data folders are removed when the bench ends, not after each run: on ext4 without a journal (this
// VM's disk) every new file scans the inodes freed in the last minutes (the kernel's
// recently_deleted()), so removing one run's thousands of files made the next runs' file creation
// the largest cost in the profile (decision 0026, "Later").
const dataDirs: string[] = [];
// Rounds alternate the bare pipeline and the servers; each server's ratio is taken against the bare
// pipeline of its own round, and the table shows the median round (this VM's speed drifts by tens
// of percent within minutes).
const rounds: Array<{ bare: number; runs: Result[] }> = [];
for (let round = 1; round <= ROUNDS; round++) {
  const bareRate = await barePipeline(bare);
  const runs: Result[] = [];
  for (const [label, threads, start] of CONFIGS) {
    const dir = await mkdtemp(join(tmpdir(), 'assetloom-bench-generation-'));
    dataDirs.push(dir);
    const target = await start({ DATA_DIR: dir, PIPELINE_THREADS: threads });
    runs.push(await serverRun(label, target, TASKS));
  }
  rounds.push({ bare: bareRate, runs });
  console.log(
    `round ${round}/${ROUNDS}: bare pipeline (own process, ${CONCURRENCY} at once, ${TASKS} × 64 px sheets) ${fmt(bareRate)} tasks/s; servers ${runs.map((r) => `${(r.rate / bareRate).toFixed(2)}×`).join(', ')}`,
  );
}

const mongo =
  MONGO_TASKS < 1
    ? { kind: 'unavailable' as const, reason: 'BENCH_MONGO_TASKS=0' }
    : await resolveMongoTarget().catch((error: unknown) => ({
        kind: 'unavailable' as const,
        reason: String(error),
      }));
let mongoRun: Result | undefined;
if (mongo.kind === 'unavailable') {
  console.log(`MongoDB run skipped: ${'reason' in mongo ? mongo.reason : 'no target'}`);
} else {
  const objects = await mkdtemp(join(tmpdir(), 'assetloom-bench-objects-'));
  const target = await inProcess({
    MONGODB_URI: mongo.uri,
    MONGODB_DB: uniqueDbName('bench_rt'),
    DATA_DIR: objects,
  });
  mongoRun = await serverRun(
    `mongodb (${mongo.kind}), in this process, ${MONGO_TASKS} tasks`,
    target,
    MONGO_TASKS,
    // One warm-up batch: this row shows the database's cost, not a ratio, and FerretDB is slow.
    { warmup: 1, cleanup: () => rm(objects, { recursive: true, force: true }) },
  );
  await (mongo as { stop?: () => Promise<void> }).stop?.();
}

const bareMedian = median(rounds.map((r) => r.bare));
console.log(
  `\nmedian of ${ROUNDS} rounds (ratio: against the bare pipeline of the same round; range over rounds)\n`,
);
console.log(
  '| store | tasks/s (4 workers) | vs bare pipeline | range | submit→completed p50 | p95 | WS event latency p50 | p95 |',
);
console.log('|---|---|---|---|---|---|---|---|');
CONFIGS.forEach(([label], i) => {
  const ratios = rounds.map((r) => (r.runs[i] as Result).rate / r.bare);
  const mid = median(ratios);
  const round = rounds[ratios.indexOf(mid)] as (typeof rounds)[number];
  const r = round.runs[i] as Result;
  console.log(
    `| ${label} | ${fmt(r.rate)} | ${mid.toFixed(2)}× | ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}× | ${fmt(r.p50)} ms | ${fmt(r.p95)} ms | ${fmt(r.lag50)} ms | ${fmt(r.lag95)} ms |`,
  );
});
if (mongoRun !== undefined) {
  const r = mongoRun;
  console.log(
    `| ${r.label} | ${fmt(r.rate)} | ${(r.rate / bareMedian).toFixed(2)}× | | ${fmt(r.p50)} ms | ${fmt(r.p95)} ms | ${fmt(r.lag50)} ms | ${fmt(r.lag95)} ms |`,
  );
}
console.log(`\nbare pipeline (own process): median ${fmt(bareMedian)} tasks/s over the rounds`);
bare.close();
for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
process.exit(0);
