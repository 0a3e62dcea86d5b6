/**
 * Start-up and idle memory of the built server on its embedded defaults (issue #27's budget: start to
 * health < 3 s warm; an idle server's resident memory grows < 60 MB once the generator's drawings,
 * fonts and renderer are loaded).
 *
 * - start → first 200 from GET /api/v1/health, 5 starts (the first cold: files not in the page cache),
 *   against a bare Node HTTP server started the same way in the same run;
 * - resident memory (VmRSS from /proc) at health, after one sprite drawn from a licensed drawing, one
 *   scene and two UI pieces with words (the drawings' catalog, a set file, resvg's WebAssembly module and
 *   the bitmap fonts loaded), and after 10 s idle: the pieces one after another (one pipeline thread
 *   starts), then twice, two at once (two threads start: the "with 2 threads" of issue #38);
 *   BENCH_BASELINE=<a checkout with its server built> measures its server too, alternated;
 * - where the growth is (decision 0073): the resident memory split from /proc/<pid>/smaps into
 *   file-backed pages (the node binary's code touched), glibc's malloc arenas of the process's
 *   threads (anonymous mappings aligned to 64 MiB: a thread's arena heap; the main thread's arena is
 *   [heap]) and the other anonymous pages (V8's heaps, WebAssembly memory, large mallocs);
 *   BENCH_SERVER_ENV="NAME=value,…" starts the servers with those variables too (e.g.
 *   MALLOC_ARENA_MAX=2: glibc reads it when the process starts, so it is measured from outside);
 * - with two threads drawing, the server once its second thread has retired (decision 0077): the
 *   servers start with PIPELINE_THREAD_IDLE_MS=BENCH_THREAD_IDLE_MS (default 15000, after the 10 s
 *   reading), and 3 s after that idle time has passed the bench reads the OS threads
 *   (/proc/<pid>/status) and the resident memory with its split again.
 *
 *   pnpm --filter @assetloom/server build && tsx bench/startup.bench.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchServerEnv, startBuiltServer } from './built-server.js';

const log = (s: string) => console.log(`[bench:startup] ${s}`);
/** Resident MB by kind of mapping (decision 0073): file-backed, malloc arenas of threads, other anonymous. */
function residentKinds(pid: number): { file: number; arenas: number; anon: number } {
  const kinds = { file: 0, arenas: 0, anon: 0 };
  let kind: keyof typeof kinds = 'anon';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const [, start, path] = head;
      // glibc's heaps for a thread's arena are mmapped at 64 MiB boundaries (HEAP_MAX_SIZE)
      kind = path?.startsWith('/')
        ? 'file'
        : !path && BigInt(`0x${start}`) % (64n << 20n) === 0n
          ? 'arenas'
          : 'anon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds[kind] += Number(rss[1]) / 1024;
  }
  return kinds;
}
const kindsGrew = (a: ReturnType<typeof residentKinds>, b: ReturnType<typeof residentKinds>) =>
  `file-backed +${(b.file - a.file).toFixed(0)}, threads' malloc arenas +${(b.arenas - a.arenas).toFixed(0)}, other anonymous (V8 heaps, WebAssembly memory) +${(b.anon - a.anon).toFixed(0)} MB`;
const serverEnv = Object.fromEntries(
  (process.env.BENCH_SERVER_ENV ?? '')
    .split(',')
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()]),
);
const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
};
/** PIPELINE_THREAD_IDLE_MS of the servers measured (a server without the setting ignores it). */
const threadIdleMs = Number(process.env.BENCH_THREAD_IDLE_MS ?? 15_000);
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

async function untilHealthy(url: string): Promise<void> {
  for (;;) {
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The baseline: a bare Node HTTP server answering 200, started as a child the same way. */
async function bareStart(): Promise<number> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      '-e',
      "const s=require('node:http').createServer((q,r)=>r.end('ok'));s.listen(0,'127.0.0.1',()=>console.log(s.address().port))",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<string>((resolve) =>
    child.stdout!.once('data', (d) => resolve(String(d).trim())),
  );
  await untilHealthy(`http://127.0.0.1:${port}`).catch(() => {});
  const res = await fetch(`http://127.0.0.1:${port}/`);
  await res.text();
  const ms = performance.now() - t0;
  child.kill();
  return ms;
}

const starts: number[] = [];
const bares: number[] = [];
for (let i = 0; i < 5; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'assetloom-startup-'));
  const t0 = performance.now();
  const server = await startBuiltServer(benchServerEnv(dir));
  await untilHealthy(server.url);
  starts.push(performance.now() - t0);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  bares.push(await bareStart());
}
if (Object.keys(serverEnv).length > 0) log(`the servers' environment also has ${JSON.stringify(serverEnv)}`);
log(
  `start → health: cold ${starts[0]!.toFixed(0)} ms, warm p50 ${median(starts.slice(1)).toFixed(0)} ms (max ${Math.max(...starts.slice(1)).toFixed(0)} ms); bare Node HTTP server p50 ${median(bares.slice(1)).toFixed(0)} ms (${(median(starts.slice(1)) / median(bares.slice(1))).toFixed(1)}×)`,
);

// memory: idle, then with the generator's art loaded (BENCH_THREADS: the server's PIPELINE_THREADS)
const threads = process.env.BENCH_THREADS ?? 'auto';
const osThreads = (pid: number) => {
  const m = /Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : Number.NaN;
};
const PIECES = [
  ['a red fox', 'sprite', { resolution: 64 }],
  ['a beach with palm trees at sunset', 'background', { width: 320, height: 180 }],
  ['a blue start button', 'ui', {}],
  ['开始游戏按钮', 'ui', {}],
] as const;

/**
 * One server: its resident memory idle after start, then after the four pieces. `sideBySide`: the
 * pieces submitted twice at once with no per-user cap, so that WORKER_CONCURRENCY (2) tasks run at
 * once and a second pipeline thread starts and draws too — one after another (the figures of
 * issue #27 and of decisions 0042 and 0063), the pool only ever starts one thread, whatever
 * PIPELINE_THREADS says (decision 0072).
 */
async function memory(
  label: string,
  dir: string | undefined,
  sideBySide: boolean,
): Promise<{ later: number; retired: number | null }> {
  const data = mkdtempSync(join(tmpdir(), 'assetloom-startup-'));
  const server = await startBuiltServer(
    benchServerEnv(data, {
      PIPELINE_THREADS: threads,
      PIPELINE_THREAD_IDLE_MS: String(threadIdleMs),
      ...serverEnv,
      ...(sideBySide ? { USER_MAX_RUNNING_TASKS: '0', WORKER_CONCURRENCY: '2' } : {}),
    }),
    dir === undefined ? {} : { dir },
  );
  await untilHealthy(server.url);
  await new Promise((r) => setTimeout(r, 1000));
  const idle = rssMb(server.pid);
  const idleKinds = residentKinds(server.pid);
  const idleThreads = osThreads(server.pid);
  const call = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { code: number; data: Record<string, unknown> };
  };
  await call('/auth/register', { username: 'bench_startup', password: 'bench-startup-1' });
  const login = await call('/auth/login', { username: 'bench_startup', password: 'bench-startup-1' });
  const token = String(login.data.token);
  const project = await call('/api/v1/projects', { name: 'startup' }, token);
  const projectId = String(project.data.id);
  const draw = async ([prompt, assetType, params]: (typeof PIECES)[number]) => {
    const submitted = await call('/api/v1/generate', { projectId, prompt, assetType, params }, token);
    const taskId = String(submitted.data.taskId);
    for (;;) {
      const res = await fetch(`${server.url}/api/v1/tasks/${taskId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const task = ((await res.json()) as { data: { status: string } }).data;
      if (task.status === 'completed' || task.status === 'failed') {
        if (task.status === 'failed') log(`"${prompt}" failed`);
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  if (sideBySide) await Promise.all([...PIECES, ...PIECES].map(draw));
  else for (const piece of PIECES) await draw(piece);
  const loaded = rssMb(server.pid);
  const drawn = performance.now();
  const started = osThreads(server.pid) - idleThreads;
  await new Promise((r) => setTimeout(r, 10_000));
  const later = rssMb(server.pid);
  const laterKinds = residentKinds(server.pid);
  log(
    `${label}: resident memory (PIPELINE_THREADS=${threads}, ${sideBySide ? 'the pieces twice, two at once' : 'one after another'}; OS threads started ${started}): idle after start ${idle.toFixed(0)} MB; after a drawing, a scene and two UI pieces (catalog, sets, resvg, both fonts) ${loaded.toFixed(0)} MB (+${(loaded - idle).toFixed(0)} MB); 10 s idle later ${later.toFixed(0)} MB (+${(later - idle).toFixed(0)} MB: ${kindsGrew(idleKinds, laterKinds)})`,
  );
  let retired: number | null = null;
  if (sideBySide && threadIdleMs > 0) {
    // the threads beyond the first ended once idle (decision 0077): PIPELINE_THREAD_IDLE_MS + 3 s
    await new Promise((r) => setTimeout(r, Math.max(0, drawn + threadIdleMs + 3000 - performance.now())));
    const after = rssMb(server.pid);
    retired = after - idle;
    log(
      `${label}: ${((threadIdleMs + 3000) / 1000).toFixed(0)} s after the pieces (PIPELINE_THREAD_IDLE_MS=${threadIdleMs}): OS threads started ${osThreads(server.pid) - idleThreads} (${started} at the pieces' end); ${after.toFixed(0)} MB (+${retired.toFixed(0)} MB: ${kindsGrew(idleKinds, residentKinds(server.pid))})`,
    );
  }
  await server.close();
  rmSync(data, { recursive: true, force: true });
  return { later: later - idle, retired };
}

// BENCH_BASELINE=<another checkout, its server built> (e.g. /work/main): its server too, alternated
// with this one in the same minutes
const baseline = process.env.BENCH_BASELINE;
const servers: Array<[string, string | undefined]> = [['this checkout', undefined]];
if (baseline) servers.unshift(['baseline', join(baseline, 'reference-server')]);
const grew = new Map<string, number[]>();
const retiredGrew = new Map<string, number | null>();
for (const sideBySide of [false, true]) {
  for (const [label, dir] of servers) {
    const key = `${label} ${sideBySide}`;
    const measured = await memory(label, dir, sideBySide);
    grew.set(key, [...(grew.get(key) ?? []), measured.later]);
    retiredGrew.set(key, measured.retired);
  }
}
if (baseline) {
  for (const sideBySide of [false, true]) {
    const b = grew.get(`baseline ${sideBySide}`)![0]!;
    const m = grew.get(`this checkout ${sideBySide}`)![0]!;
    log(
      `${sideBySide ? 'two threads drawing' : 'one after another'}: grew +${b.toFixed(0)} MB (baseline) → +${m.toFixed(0)} MB (${(m - b).toFixed(0)} MB)`,
    );
    const rb = retiredGrew.get(`baseline ${sideBySide}`);
    const rm = retiredGrew.get(`this checkout ${sideBySide}`);
    if (rb != null && rm != null)
      log(
        `two threads drawing, ${((threadIdleMs + 3000) / 1000).toFixed(0)} s after the pieces: grew +${rb.toFixed(0)} MB (baseline) → +${rm.toFixed(0)} MB (${(rm - rb).toFixed(0)} MB)`,
      );
  }
}
