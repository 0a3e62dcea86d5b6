/**
 * Review-helper benchmark: requests per second and p99 of the signed-in landing page (session read
 * from the database, user lookup, rolling session write) and of the login page, against the asset
 * API's health check served by the same process in the same run (the baseline). Embedded store.
 * Goal: the signed-in landing page at least 25% of the baseline rate.
 *
 * Run: `pnpm exec tsx test/review/session.bench.ts` in reference-server/ (BENCH_DURATION seconds per
 * run, default 5; BENCH_CONNECTIONS, default 10).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer } from '../../src/server.js';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

async function measure(name: string, url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections, duration: 1, headers });
  const result = await autocannon({ url, connections, duration, headers });
  const bad = result.errors + result.timeouts + result.non2xx;
  return { name, rps: result.requests.average, p99: result.latency.p99, bad };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'assetloom-review-bench-'));
  const loaded = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    LOG_LEVEL: 'silent',
  });
  if (!loaded.ok) throw loaded.error;
  const running = await startServer(loaded.value, {
    logger: createLogger('silent'),
    review: { purgeEveryMs: 0 },
  });
  try {
    const res = await fetch(`${running.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password' }),
    });
    const sid = /review_sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    if (res.status !== 200 || !sid)
      throw new Error(`[assetloom/server] bench registration failed: ${res.status}`);

    const baseline = await measure('GET /api/v1/health (baseline)', `${running.url}/api/v1/health`);
    const loginPage = await measure('GET /login', `${running.url}/login`);
    const landing = await measure('GET / signed in', `${running.url}/`, { cookie: `review_sid=${sid}` });

    console.log(`embedded store, ${connections} connections, ${duration} s per run, node ${process.version}`);
    console.log('| request | req/s | p99 ms | ratio to baseline | non-2xx/errors |');
    console.log('|---|---:|---:|---:|---:|');
    for (const m of [baseline, loginPage, landing]) {
      console.log(
        `| ${m.name} | ${m.rps.toFixed(0)} | ${m.p99} | ${(m.rps / baseline.rps).toFixed(2)} | ${m.bad} |`,
      );
    }
    const ratio = landing.rps / baseline.rps;
    console.log(
      `goal: signed-in landing ≥ 0.25 of baseline → ${ratio >= 0.25 ? 'met' : 'NOT met'} (${ratio.toFixed(2)})`,
    );
  } finally {
    await running.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
