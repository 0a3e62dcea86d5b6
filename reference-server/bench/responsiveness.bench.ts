/**
 * `pnpm --filter @assetloom/server bench:responsiveness`: how well the API answers while its
 * in-process worker draws (decision 0025). The built server (dist/main.js, embedded store) runs as a
 * child process twice in this run: with the pipeline on the event loop (PIPELINE_THREADS=0, the
 * baseline) and on pipeline threads (the default, `auto`). Each run submits BENCH_TASKS (default 8)
 * 256 px sprite sheets (4 directions × 4 frames) and, until they have all ended, reads one task
 * (`GET /api/v1/tasks/{id}`) at a steady pace of one request every 10 ms. It prints the read latency
 * percentiles, how many reads were answered, and the ratio of p99 latencies.
 *
 * Build first (`pnpm build`); the bench refuses to run without dist/main.js.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGenerationServer } from './built-server.js';

const TASKS = Number(process.env.BENCH_TASKS ?? 8);
const RESOLUTION = Number(process.env.BENCH_RESOLUTION ?? 256);
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

async function start(threads: string): Promise<{ url: string; close: () => Promise<void>; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'assetloom-bench-resp-'));
  const server = await startGenerationServer(dir, threads);
  return { ...server, dir };
}

async function call(url: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as { code: number; data: Record<string, unknown> };
}

async function run(label: string, threads: string) {
  const server = await start(threads);
  try {
    const { url } = server;
    await call(url, '/auth/register', { username: 'bench', password: 'secret-pass' });
    const token = (await call(url, '/auth/login', { username: 'bench', password: 'secret-pass' })).data
      .token as string;
    const project = (await call(url, '/api/v1/projects', { name: 'bench' }, token)).data.id as string;
    const started = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < TASKS; i++) {
      const res = await call(
        url,
        '/api/v1/generate',
        {
          projectId: project,
          prompt: `red dragon ${i}`,
          assetType: 'sprite',
          params: { resolution: RESOLUTION, frames: { directions: 4, framesPerDirection: 4 } },
        },
        token,
      );
      ids.push(res.data.taskId as string);
    }
    const latencies: number[] = [];
    const pending = new Set(ids);
    let next = performance.now();
    let turn = 0;
    while (pending.size > 0) {
      // One read every 10 ms, paced from the schedule (a late answer does not thin the pace).
      next += 10;
      const id = ids[turn++ % ids.length] as string;
      const sent = performance.now();
      const task = await call(url, `/api/v1/tasks/${id}`, undefined, token);
      latencies.push(performance.now() - sent);
      if (task.data.status === 'completed' || task.data.status === 'failed') pending.delete(id);
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      label,
      seconds,
      reads: latencies.length,
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      p99: quantile(latencies, 0.99),
      max: latencies.at(-1) ?? Number.NaN,
    };
  } finally {
    await server.close();
    await rm(server.dir, { recursive: true, force: true });
  }
}

const baseline = await run('pipeline on the event loop (PIPELINE_THREADS=0)', '0');
const threaded = await run('pipeline threads (PIPELINE_THREADS=auto)', 'auto');
const extra = process.env.BENCH_THREADS
  ? await run(`pipeline threads (PIPELINE_THREADS=${process.env.BENCH_THREADS})`, process.env.BENCH_THREADS)
  : undefined;
console.log(
  `\n${TASKS} × ${RESOLUTION} px sprite sheets (4 × 4 frames), WORKER_CONCURRENCY=4, one task read every 10 ms until all ended\n`,
);
console.log('| run | all ended after | reads answered | p50 | p95 | p99 | max |');
console.log('|---|---|---|---|---|---|---|');
for (const r of [baseline, threaded, ...(extra ? [extra] : [])]) {
  console.log(
    `| ${r.label} | ${r.seconds.toFixed(1)} s | ${r.reads} | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.max.toFixed(1)} ms |`,
  );
}
console.log(`\nread p99 with threads / on the event loop: ${(threaded.p99 / baseline.p99).toFixed(2)}×`);
