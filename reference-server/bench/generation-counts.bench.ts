/**
 * `pnpm --filter @assetloom/server bench:counts` (issue #38): where the server's generation time
 * goes beside the bare pipeline, in COUNTS that hold on a loaded machine. The same batch of
 * BENCH_TASKS (default 40) 64 px sprite sheets runs, 4 at a time, in ONE process and run:
 *
 *   1. the bare pipeline into memory, on this thread (the reference)
 *   2. the bare pipeline into the server's fs storage (fsync on, the server's default)
 *   3. the whole server (HTTP, queue, embedded store, fs storage, pipeline threads), after an
 *      untimed warm-up batch of the same size
 *
 * and prints per task: CPU of the process, of the pipeline threads (their event loops' active time)
 * and of everything else (the API's event loop); messages between the main thread and the pipeline
 * threads and their structured-clone bytes (v8.serialize), by kind. File-system calls per task are
 * bench:syscalls' (strace), store commands bench:db's.
 */

import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { runPipeline } from '@assetloom/generator';
import { createMemoryStorage, type StoragePort } from '@assetloom/pipeline';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { createFsStorage } from '../src/storage/index.js';
import { benchUser, generateBatch } from './generation-client.js';

const TASKS = Number(process.env.BENCH_TASKS ?? 40);
const CONCURRENCY = 4;
const SECRET = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const PARAMS = {
  resolution: 64,
  frames: { directions: 4, framesPerDirection: 4 },
  format: 'spritesheet',
} as const;

// --- counting hooks: every message between this process's main thread and its worker threads ---
interface Tally {
  count: number;
  bytes: number;
}
const toThread = new Map<string, Tally>();
const fromThread = new Map<string, Tally>();
const workers = new Set<Worker>();
let counting = false;
const add = (map: Map<string, Tally>, message: unknown) => {
  if (!counting) return;
  const kind = (message as { t?: string })?.t ?? '?';
  const tally = map.get(kind) ?? { count: 0, bytes: 0 };
  tally.count += 1;
  tally.bytes += serialize(message).byteLength;
  map.set(kind, tally);
};
const originalPost = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: never) {
  workers.add(this);
  add(toThread, message);
  return originalPost.call(this, message, transfer);
};
const originalEmit = Worker.prototype.emit;
Worker.prototype.emit = function (this: Worker, event: string | symbol, ...args: unknown[]) {
  if (event === 'message') {
    workers.add(this);
    add(fromThread, args[0]);
  }
  return originalEmit.call(this, event, ...args);
} as typeof Worker.prototype.emit;

const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;
/** CPU of this process's main thread (Linux: /proc/self/task/<pid>/stat, in 10 ms ticks). */
const mainThreadMs = () => {
  const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const threadActiveMs = () => {
  let sum = 0;
  for (const w of workers) sum += w.performance.eventLoopUtilization().active;
  return sum;
};

async function bare(storage: StoragePort): Promise<{ cpu: number; main: number; wall: number }> {
  let next = 0;
  let label = 'brave';
  const lane = async () => {
    for (;;) {
      const i = next++;
      if (i >= TASKS) return;
      const result = await runPipeline(
        {
          prompt: `${label} knight ${i}`,
          assetType: 'sprite',
          projectStyle: {},
          params: PARAMS,
          keyPrefix: `b/${i}/`,
        },
        { storage, onEvent: async () => undefined },
      );
      if (!result.ok) throw new Error(result.error);
    }
  };
  // warm-up as the server gets one
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  next = 0;
  label = 'bold';
  const main = mainThreadMs();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return {
    cpu: cpuMs(process.cpuUsage(cpu)),
    main: mainThreadMs() - main,
    wall: performance.now() - started,
  };
}

async function server(): Promise<{ cpu: number; main: number; threads: number; wall: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-counts-'));
  try {
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
    const storage = createFsStorage({ root: join(dir, 'objects'), secret: SECRET, fsync: true });
    // startServer checks only the storage it opens itself: check() makes the folders the threads write in
    await storage.check();
    const srv = await startServer(loaded.value, {
      logger: pino({ level: process.env.BENCH_LOG ?? 'silent' }),
      storage,
    });
    try {
      const user = await benchUser(srv.url);
      // 'bench knight' is refused since #39 read 'bench' as the head noun: an adjective draws the knight
      await generateBatch(srv.url, user, TASKS, 'brave');
      const active = threadActiveMs();
      const main = mainThreadMs();
      const cpu = process.cpuUsage();
      const started = performance.now();
      counting = true;
      await generateBatch(srv.url, user, TASKS, 'bold');
      counting = false;
      return {
        cpu: cpuMs(process.cpuUsage(cpu)),
        main: mainThreadMs() - main,
        threads: threadActiveMs() - active,
        wall: performance.now() - started,
      };
    } finally {
      await srv.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const b = await bare(createMemoryStorage());
const dir = await mkdtemp(join(tmpdir(), 'assetloom-counts-'));
const f = await bare(createFsStorage({ root: join(dir, 'objects'), secret: SECRET, fsync: true }));
await rm(dir, { recursive: true, force: true });
const s = await server();
const per = (n: number) => (n / TASKS).toFixed(1);
console.log(
  `\n${TASKS} × 64 px sprite sheets, ${CONCURRENCY} at a time, per task (counts; clocks are CPU, not wall)\n`,
);
console.log('| measure | bare pipeline → memory | bare pipeline → fs storage | whole server |');
console.log('|---|---|---|---|');
console.log(`| process CPU ms | ${per(b.cpu)} | ${per(f.cpu)} | ${per(s.cpu)} |`);
console.log(
  `| main thread CPU ms (the API's event loop; bare: the pipeline) | ${per(b.main)} | ${per(f.main)} | ${per(s.main)} |`,
);
console.log(
  `| other threads' CPU ms (pipeline threads, GC and compiler helpers, libuv pool) | ${per(b.cpu - b.main)} | ${per(f.cpu - f.main)} | ${per(s.cpu - s.main)} |`,
);
console.log(
  `| pipeline threads' event loops active ms (includes waits for the CPU) | — | — | ${per(s.threads)} |`,
);
console.log(`| wall ms (noise on a loaded machine) | ${per(b.wall)} | ${per(f.wall)} | ${per(s.wall)} |`);
for (const [label, map] of [
  ['main → thread', toThread],
  ['thread → main', fromThread],
] as const) {
  for (const [kind, t] of [...map].sort()) {
    console.log(
      `| ${label} '${kind}' messages / bytes | 0 | 0 | ${per(t.count)} / ${Math.round(t.bytes / TASKS)} |`,
    );
  }
}
process.exit(0);
