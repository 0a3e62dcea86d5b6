/**
 * `pnpm --filter @assetloom/server bench:login-flood` — the audit's login flood (issue #29, finding
 * 2), measured: N connections from N loopback addresses send `POST /auth/login` with random
 * usernames for BENCH_SECONDS, while a real user (its own address) logs in once a second. The built
 * server runs as a child process at the production scrypt cost (2^17), twice in one run:
 *
 * - "bounds off": per-address limits and the hash gate opened wide (what the server did before);
 * - "defaults": the shipped settings (decision 0030).
 *
 * Printed per run: the real user's login times, the flood's answers by status with their median
 * time, and the server's resident memory (start, peak) from /proc. Distinct clients are distinct
 * socket addresses (each binds 127.0.0.x), as in test/audit/login-flood.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchServerEnv, startBuiltServer } from './built-server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Timed {
  status: number;
  ms: number;
}

function post(agent: Agent, base: string, from: string, path: string, json: unknown): Promise<Timed> {
  const started = performance.now();
  return new Promise((resolve) => {
    const body = Buffer.from(JSON.stringify(json));
    const req = request(
      `${base}${path}`,
      {
        method: 'POST',
        agent,
        localAddress: from,
        timeout: 60_000,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

/** Resident and peak memory of a process (MB), from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};
const ms = (value: number) => (Number.isNaN(value) ? '—' : `${Math.round(value)} ms`);

async function run(label: string, extra: Record<string, string>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'assetloom-login-flood-'));
  const server = await startBuiltServer(
    benchServerEnv(dataDir, { SCRYPT_COST: '17', PIPELINE_THREADS: '0', ...extra }),
  );
  try {
    const agent = new Agent({ keepAlive: false });
    const real = { username: `real${randomUUID().slice(0, 8)}`, password: 'real-password' };
    await post(agent, server.url, '127.0.0.200', '/auth/register', real);
    const before = memoryOf(server.pid);
    // Uncontended, for the baseline.
    const alone = await post(agent, server.url, '127.0.0.201', '/auth/login', real);

    const flood: Timed[] = [];
    const deadline = performance.now() + SECONDS * 1000;
    const attackers = Array.from({ length: CONNECTIONS }, async (_, i) => {
      while (performance.now() < deadline) {
        flood.push(
          await post(agent, server.url, `127.0.0.${i + 2}`, '/auth/login', {
            username: `x${randomUUID().slice(0, 12)}`,
            password: 'guess-123456',
          }),
        );
      }
    });
    const realLogins: Timed[] = [];
    let peak = before.peak;
    const watcher = (async () => {
      await new Promise((r) => setTimeout(r, 1000));
      while (performance.now() < deadline) {
        realLogins.push(await post(agent, server.url, '127.0.0.201', '/auth/login', real));
        peak = Math.max(peak, memoryOf(server.pid).peak);
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    await Promise.all([...attackers, watcher]);
    peak = Math.max(peak, memoryOf(server.pid).peak);
    agent.destroy();

    const byStatus = new Map<number, number[]>();
    for (const answer of flood)
      byStatus.set(answer.status, [...(byStatus.get(answer.status) ?? []), answer.ms]);
    const realOk = realLogins.filter((l) => l.status === 200).length;
    console.log(`\n${label}`);
    console.log(`  real user alone: ${alone.status} in ${ms(alone.ms)}`);
    console.log(
      `  real user during the flood: ${realOk}/${realLogins.length} answered 200; p50 ${ms(
        quantile(
          realLogins.map((l) => l.ms),
          0.5,
        ),
      )}, max ${ms(Math.max(...realLogins.map((l) => l.ms)))}; each: ${realLogins.map((l) => `${l.status} ${Math.round(l.ms)} ms`).join(', ')}`,
    );
    console.log(
      `  flood (${CONNECTIONS} addresses × 1 connection, ${SECONDS} s): ${flood.length} answers — ${[
        ...byStatus,
      ]
        .sort(([a], [b]) => a - b)
        .map(
          ([status, times]) =>
            `${status === 0 ? 'no answer' : status}: ${times.length} (p50 ${ms(quantile(times, 0.5))})`,
        )
        .join(', ')}`,
    );
    console.log(`  server memory: ${before.rss} MB at the start, peak ${peak} MB`);
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await run('bounds off (LOGIN_IP_MAX_FAILURES and the hash gate opened wide, as before)', {
  LOGIN_IP_MAX_FAILURES: '1000000',
  PASSWORD_HASH_CONCURRENCY: '64',
  PASSWORD_HASH_QUEUE: '10000',
  PASSWORD_HASH_MAX_WAIT_MS: '60000',
});
await run('defaults (decision 0030)', {});
