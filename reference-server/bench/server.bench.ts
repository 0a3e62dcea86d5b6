/**
 * `pnpm bench`: requests per second and p99 latency of authenticated GET /api/v1/tasks/:id and
 * GET /api/v1/projects, against a bare Koa hello-world measured in the same run (autocannon on
 * loopback, every server in its own process). Runs on the embedded store, then on MongoDB
 * (MONGODB_URI, else the FerretDB that @assetloom/testing prepares; skipped with a note when none).
 * Goal: each endpoint at least 50% of the hello-world rate on the embedded store.
 *
 * BENCH_DURATION (seconds per run, default 2), BENCH_CONNECTIONS (default 10) and BENCH_ROUNDS
 * (default 10) tune it; BENCH_MONGODB=off leaves out the MongoDB rows.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { resolveMongoTarget, uniqueDbName } from '@assetloom/testing';
import autocannon from 'autocannon';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECRET = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

interface Target {
  url: string;
  child: ChildProcess;
}

async function spawnTarget(
  kind: 'hello' | 'hello-list' | 'asset',
  env: Record<string, string> = {},
): Promise<Target> {
  // `node --import tsx` (not the tsx CLI, which runs the program in a child): the pid is the server's,
  // so its CPU time can be read.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', 'target.ts'), kind], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', JWT_SECRET: SECRET, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const parsed = JSON.parse(line) as { url?: string };
    if (parsed.url) return { url: parsed.url, child };
  }
  throw new Error(`[assetloom/server] bench target ${kind} exited before listening`);
}

async function stopTarget(target: Target): Promise<void> {
  const exited = new Promise((resolveExit) => target.child.once('exit', resolveExit));
  target.child.kill('SIGTERM');
  await exited;
}

interface Measure {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  /** The server process's CPU time (user + system, all threads) per request, in µs; null off Linux. */
  cpuUs: number | null;
}

/** CPU time of a process so far in clock ticks (Linux /proc), or null where there is none. */
function cpuTicks(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Clock ticks per second (USER_HZ); 100 on every Linux build Node supports. */
const TICKS_PER_SECOND = 100;

async function measure(
  name: string,
  url: string,
  headers: Record<string, string> = {},
  pid?: number,
): Promise<Measure> {
  // A short warm-up (JIT, connection pool), then the measured run.
  await autocannon({ url, connections, duration: 1, headers });
  const before = cpuTicks(pid);
  const result = await autocannon({ url, connections, duration, headers });
  const after = cpuTicks(pid);
  const non2xx = result.non2xx + result.errors + result.timeouts;
  const cpuUs =
    before === null || after === null || result.requests.total === 0
      ? null
      : ((after - before) / TICKS_PER_SECOND / result.requests.total) * 1e6;
  return { name, rps: result.requests.average, p99: result.latency.p99, errors: non2xx, cpuUs };
}

async function json(
  url: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<{ data: Record<string, unknown> }> {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const body = (await response.json()) as { code: number; data: Record<string, unknown> };
  if (body.code !== 0)
    throw new Error(`[assetloom/server] bench setup failed at ${url}: ${JSON.stringify(body)}`);
  return body;
}

/** A user with 20 projects (each with one task), as a realistic first page of the list. */
async function seed(base: string): Promise<{ token: string; taskId: string }> {
  await json(`${base}/auth/register`, {
    method: 'POST',
    json: { username: 'bench-user', password: 'bench-pass' },
  });
  const login = await json(`${base}/auth/login`, {
    method: 'POST',
    json: { username: 'bench-user', password: 'bench-pass' },
  });
  const token = login.data.token as string;
  const auth = { authorization: `Bearer ${token}` };
  let taskId = '';
  for (let i = 0; i < 20; i++) {
    const project = await json(`${base}/api/v1/projects`, {
      method: 'POST',
      headers: auth,
      json: { name: `Project ${i}`, style: { artStyle: 'pixel', palette: 'sweetie16' } },
    });
    const task = await json(`${base}/api/v1/generate`, {
      method: 'POST',
      headers: auth,
      json: { projectId: project.data.id, prompt: `knight ${i}`, assetType: 'sprite' },
    });
    taskId = task.data.taskId as string;
  }
  return { token, taskId };
}

async function benchStore(label: string, env: Record<string, string>): Promise<Measure[]> {
  const target = await spawnTarget('asset', { WORKER_IN_PROCESS: 'false', ...env });
  try {
    const { token, taskId } = await seed(target.url);
    const headers = { authorization: `Bearer ${token}` };
    return [
      await measure(
        `${label}: GET /api/v1/tasks/:id`,
        `${target.url}/api/v1/tasks/${taskId}`,
        headers,
        target.child.pid,
      ),
      await measure(
        `${label}: GET /api/v1/projects`,
        `${target.url}/api/v1/projects`,
        headers,
        target.child.pid,
      ),
    ];
  } finally {
    await stopTarget(target);
  }
}

const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 10));

/**
 * The hello-world and the embedded server run side by side and are measured in interleaved rounds
 * (hello, task read, project list, then again), keeping each one's best round: a load spike from
 * elsewhere on the machine then hits every contender alike instead of skewing one ratio. Many short
 * rounds (10 × 2 s by default) rather than a few long ones: on the shared benchmark VM the
 * interference comes in bursts of seconds, and with 3-5 rounds of 5 s the same code measured
 * anywhere between 0.43 and 0.54 of the hello-world (docs/benchmarks/server.md).
 */
const results: Measure[] = [];
const hello = await spawnTarget('hello');
const helloList = await spawnTarget('hello-list');
const dataDir = await mkdtemp(join(tmpdir(), 'assetloom-bench-'));
const embeddedTarget = await spawnTarget('asset', { DATA_DIR: dataDir, WORKER_IN_PROCESS: 'false' });
let baseline: Measure;
try {
  const { token, taskId } = await seed(embeddedTarget.url);
  const headers = { authorization: `Bearer ${token}` };
  const contenders: [string, string, Record<string, string>, number | undefined][] = [
    ['bare Koa hello-world', hello.url, {}, hello.child.pid],
    ['bare Koa, fixed body of a 20-project list', helloList.url, {}, helloList.child.pid],
    [
      'embedded: GET /api/v1/tasks/:id',
      `${embeddedTarget.url}/api/v1/tasks/${taskId}`,
      headers,
      embeddedTarget.child.pid,
    ],
    [
      'embedded: GET /api/v1/projects',
      `${embeddedTarget.url}/api/v1/projects`,
      headers,
      embeddedTarget.child.pid,
    ],
  ];
  const best = new Map<string, Measure>();
  for (let round = 0; round < rounds; round++) {
    for (const [name, url, h, pid] of contenders) {
      const m = await measure(name, url, h, pid);
      const prev = best.get(name);
      if (!prev || m.rps > prev.rps) best.set(name, m);
    }
  }
  baseline = best.get('bare Koa hello-world') as Measure;
  results.push(...contenders.map(([name]) => best.get(name) as Measure));
} finally {
  await stopTarget(hello);
  await stopTarget(helloList);
  await stopTarget(embeddedTarget);
  await rm(dataDir, { recursive: true, force: true });
}

const mongo =
  process.env.BENCH_MONGODB === 'off'
    ? ({ kind: 'unavailable', reason: 'BENCH_MONGODB=off' } as const)
    : await resolveMongoTarget({ log: (line) => console.error(`[bench] ${line}`) });
if (mongo.kind === 'unavailable') {
  console.error(`[bench] no MongoDB target (${mongo.reason}); MongoDB rows skipped`);
} else {
  try {
    const label = mongo.kind === 'ferretdb' ? 'FerretDB' : 'MongoDB';
    results.push(...(await benchStore(label, { MONGODB_URI: mongo.uri, MONGODB_DB: uniqueDbName('bench') })));
  } finally {
    await mongo.stop();
  }
}

console.log(
  `\n${duration}s per run, ${connections} connections, best of ${rounds} interleaved rounds (embedded), loopback, Node ${process.version}\n`,
);
console.log('| run | req/s | p99 (ms) | vs hello-world | server CPU µs/request | non-2xx/errors |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const m of results) {
  const ratio = m === baseline ? '1.00' : (m.rps / baseline.rps).toFixed(2);
  const cpu = m.cpuUs === null ? '—' : m.cpuUs.toFixed(1);
  console.log(`| ${m.name} | ${m.rps.toFixed(0)} | ${m.p99} | ${ratio} | ${cpu} | ${m.errors} |`);
}
const embedded = results.filter((m) => m.name.startsWith('embedded'));
const worst = Math.min(...embedded.map((m) => m.rps / baseline.rps));
console.log(
  `\nGoal (embedded ≥ 0.50 of hello-world): ${worst >= 0.5 ? 'met' : 'NOT met'} (worst ratio ${worst.toFixed(2)})`,
);
const list = results.find((m) => m.name === 'embedded: GET /api/v1/projects');
const fixedList = results.find((m) => m.name.startsWith('bare Koa, fixed body'));
if (list && fixedList) {
  console.log(
    `The list against a bare Koa app answering the same-size body: ${(list.rps / fixedList.rps).toFixed(2)} ` +
      `(that bare app alone reaches ${(fixedList.rps / baseline.rps).toFixed(2)} of hello-world)`,
  );
}
