/**
 * `pnpm --filter @assetloom/server bench:syscalls`: system calls per generated task, counted (issue
 * #17, decision 0026). A clock on this 2-core VM swings ±30 % between runs; a count of what the
 * process asks of the kernel does not, and it names where the time beside the drawing goes:
 * `futex` (threads waking each other: libuv's thread pool, pipeline threads), `epoll_pwait` (event
 * loop turns), file steps (open, write, data sync, rename) and socket writes.
 *
 * strace -f -c is attached to the running process after a warm-up batch and detached after the
 * measured one, so start-up (module loading) is not counted:
 *   - the baseline, measured in the same run: the bare pipeline in a process of its own
 *     (bench/bare-pipeline-child.mjs: runPipeline into memory, 4 at a time, nothing else);
 *   - the built server (dist/main.js, embedded store, filesystem storage, 4 workers), with pipeline
 *     threads (`auto`) and on the event loop (`0`): BENCH_TASKS (default 80) 64 px sprite sheets
 *     submitted over HTTP and followed over WebSocket.
 * Needs strace (Debian: apt-get install strace); without it the bench says so and exits 0.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBarePipeline } from './bare-pipeline.js';
import { startGenerationServer } from './built-server.js';
import { benchUser, generateBatch } from './generation-client.js';

const TASKS = Number(process.env.BENCH_TASKS ?? 80);

if (spawnSync('strace', ['-V'], { stdio: 'ignore' }).status !== 0) {
  console.log('bench:syscalls needs strace on PATH (Debian: apt-get install strace); skipped');
  process.exit(0);
}

type Counts = Map<string, number>;

/** Attaches `strace -f -c` to every thread of `pid`; `stop()` detaches and answers calls per syscall. */
async function traced(pid: number): Promise<{ stop(): Promise<Counts> }> {
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-strace-'));
  const out = join(dir, 'counts.txt');
  const tracer = spawn('strace', ['-f', '-c', '-o', out, '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // strace reports each thread it attaches; the last one comes within a moment.
  await new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    tracer.stderr?.on('data', () => {
      clearTimeout(timer);
      timer = setTimeout(resolve, 300);
    });
    tracer.once('exit', (code) => reject(new Error(`strace exited (${code}) before attaching`)));
  });
  return {
    async stop() {
      const exited = new Promise((resolve) => tracer.once('exit', resolve));
      tracer.kill('SIGINT');
      await exited;
      const counts: Counts = new Map();
      for (const line of (await readFile(out, 'utf8')).split('\n')) {
        const cols = line.trim().split(/\s+/);
        const name = cols.at(-1) ?? '';
        // "% time seconds usecs/call calls [errors] syscall"
        if (cols.length >= 5 && /^\d/.test(cols[0] ?? '') && /^[a-z_0-9]+$/.test(name) && name !== 'total') {
          counts.set(name, Number(cols[3]));
        }
      }
      await rm(dir, { recursive: true, force: true });
      return counts;
    },
  };
}

/** The bare pipeline's process: warm it, then count one batch. */
async function bare(): Promise<Counts> {
  const pipeline = await startBarePipeline();
  try {
    await pipeline.run(TASKS);
    const trace = await traced(pipeline.pid);
    await pipeline.run(TASKS);
    return await trace.stop();
  } finally {
    pipeline.close();
  }
}

/** The built server: warm it with one batch, then count the next. */
async function server(threads: string): Promise<Counts> {
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-bench-syscalls-'));
  const target = await startGenerationServer(dir, threads);
  try {
    const user = await benchUser(target.url);
    await generateBatch(target.url, user, TASKS, 'warm');
    const trace = await traced(target.pid);
    await generateBatch(target.url, user, TASKS);
    return await trace.stop();
  } finally {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const GROUPS: Array<[string, string[]]> = [
  ['futex (thread wake-ups)', ['futex']],
  ['epoll_pwait (loop turns)', ['epoll_pwait', 'epoll_wait']],
  [
    'file steps',
    [
      'openat',
      'close',
      'write',
      'pwrite64',
      'fdatasync',
      'fsync',
      'rename',
      'unlink',
      'mkdir',
      'statx',
      'readlink',
    ],
  ],
  [
    'socket and pipe I/O',
    ['writev', 'read', 'recvfrom', 'sendto', 'accept4', 'shutdown', 'setsockopt', 'epoll_ctl'],
  ],
];
const total = (c: Counts) => [...c.values()].reduce((a, b) => a + b, 0);
const sum = (c: Counts, names: string[]) => names.reduce((a, n) => a + (c.get(n) ?? 0), 0);
const per = (n: number) => (n / TASKS).toFixed(1);

const baseline = await bare();
const rows: Array<[string, Counts]> = [
  ['server, pipeline threads (auto)', await server('auto')],
  ['server, pipeline on the event loop (0)', await server('0')],
];
console.log(`\nsystem calls per task, ${TASKS} × 64 px sprite sheets after a warm-up batch (strace -f -c)\n`);
console.log(`| process | all | vs bare pipeline | ${GROUPS.map(([g]) => g).join(' | ')} | fdatasync |`);
console.log(`|---|---|---|${GROUPS.map(() => '---').join('|')}|---|`);
for (const [label, counts] of [['bare pipeline (same run)', baseline] as [string, Counts], ...rows]) {
  console.log(
    `| ${label} | ${per(total(counts))} | ${(total(counts) / Math.max(1, total(baseline))).toFixed(1)}× | ${GROUPS.map(([, names]) => per(sum(counts, names))).join(' | ')} | ${per(counts.get('fdatasync') ?? 0)} |`,
  );
}
process.exit(0);
