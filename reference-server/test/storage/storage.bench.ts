/**
 * Object-storage benchmark (`pnpm exec tsx test/storage/storage.bench.ts` in reference-server).
 * Every figure is printed next to a baseline measured in the same run:
 *  - signing a download URL and checking a token vs a bare HMAC-SHA256 of the same message;
 *  - filesystem driver put (atomic: temp file, fsync, rename, sidecar) and get vs plain
 *    fs.writeFile / fs.readFile of the same bytes (a 64 px 4×4 spritesheet is about 20 KB);
 *  - GET /files/<key> through the files router (token check, path checks, streaming) vs a bare Koa
 *    app answering the same bytes from memory, both driven by autocannon on loopback.
 * Goals: signed GET ≥ 50% of the bare Koa rate; put of a .png (one temp file + rename) close to
 * the bare writeFile + rename it is built on.
 * BENCH_DURATION (seconds per HTTP run, default 3) and BENCH_CONNECTIONS (default 10) tune it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import Koa from 'koa';
import { createFilesRouter, createFsStorage, FileUrlSigner } from '../../src/storage/index.js';
import { listen, serveRouters } from './helpers.js';

const duration = Number(process.env.BENCH_DURATION ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECRET = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const KEY = 'projects/pBench01/tasks/tBench01/sprite_spritesheet.png';
const BYTES = new Uint8Array(randomBytes(20 * 1024));

function opsPerSecond(iterations: number, run: (i: number) => void): number {
  for (let i = 0; i < Math.min(iterations, 2000); i++) run(i); // warm-up
  const started = performance.now();
  for (let i = 0; i < iterations; i++) run(i);
  return iterations / ((performance.now() - started) / 1000);
}

async function asyncOpsPerSecond(iterations: number, run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(iterations, 20); i++) await run(i);
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await run(i);
  return iterations / ((performance.now() - started) / 1000);
}

async function rps(url: string): Promise<{ rps: number; p99: number; bad: number }> {
  await autocannon({ url, connections, duration: 1 });
  const result = await autocannon({ url, connections, duration });
  return { rps: result.requests.average, p99: result.latency.p99, bad: result.non2xx + result.errors };
}

function line(name: string, value: number, unit: string, baseline: number, baselineName: string): void {
  const ratio = value / baseline;
  console.log(
    `${name.padEnd(38)} ${value.toFixed(0).padStart(9)} ${unit}   ${baselineName} ${baseline.toFixed(0).padStart(9)} ${unit}   ratio ${ratio.toFixed(2)}`,
  );
}

const dir = await mkdtemp(join(tmpdir(), 'assetloom-storage-bench-'));
try {
  console.log(`object storage bench — node ${process.version}, ${BYTES.length} byte objects\n`);

  // --- signing ---
  const signer = new FileUrlSigner(SECRET);
  const now = Math.floor(Date.now() / 1000);
  const bareHmac = opsPerSecond(100_000, (i) => {
    createHmac('sha256', SECRET)
      .update(`${KEY}\n${now + i}`)
      .digest('base64url');
  });
  const storage = createFsStorage({ root: join(dir, 'objects'), secret: signer });
  const signOps = await asyncOpsPerSecond(100_000, (i) =>
    storage.signedUrl(KEY, { ttlSeconds: 3600 + (i % 7) }),
  );
  line('signedUrl (fs driver)', signOps, 'ops/s', bareHmac, 'bare HMAC');
  const token = signer.token(KEY, now + 3600);
  const e = String(now + 3600);
  const verifyOps = opsPerSecond(100_000, () => {
    signer.verify(KEY, e, token, now);
  });
  line('token check (constant time)', verifyOps, 'ops/s', bareHmac, 'bare HMAC');

  // --- filesystem put / get ---
  const plainDir = join(dir, 'plain');
  await mkdir(plainDir, { recursive: true });
  const writeBase = await asyncOpsPerSecond(400, (i) => writeFile(join(plainDir, `f${i % 50}.png`), BYTES));
  const atomicBase = await asyncOpsPerSecond(400, async (i) => {
    const temp = join(dir, `t${i}.part`);
    await writeFile(temp, BYTES);
    await rename(temp, join(plainDir, `f${i % 50}.png`));
  });
  line('bare writeFile + rename', atomicBase, 'ops/s', writeBase, 'writeFile');
  const noSync = createFsStorage({ root: join(dir, 'nosync'), secret: signer, fsync: false });
  const putNoSync = await asyncOpsPerSecond(400, (i) =>
    noSync.put(`projects/p/tasks/t/f${i % 50}.png`, BYTES, 'image/png'),
  );
  line('put .png, fsync off', putNoSync, 'ops/s', atomicBase, 'wr+rename');
  const putSidecar = await asyncOpsPerSecond(400, (i) =>
    noSync.put(`projects/p/tasks/t/f${i % 50}.bin`, BYTES, 'application/x-custom'),
  );
  line('put + sidecar, fsync off', putSidecar, 'ops/s', atomicBase, 'wr+rename');
  const putSync = await asyncOpsPerSecond(200, (i) =>
    storage.put(`projects/p/tasks/t/f${i % 50}.png`, BYTES, 'image/png'),
  );
  line('put .png, fsync on (default)', putSync, 'ops/s', atomicBase, 'wr+rename');
  const readBase = await asyncOpsPerSecond(2000, (i) => readFile(join(plainDir, `f${i % 50}.png`)));
  const getOps = await asyncOpsPerSecond(2000, (i) => storage.get(`projects/p/tasks/t/f${i % 50}.png`));
  line('get', getOps, 'ops/s', readBase, 'readFile');

  // --- HTTP: signed GET /files/<key> vs bare Koa from memory ---
  await storage.put(KEY, BYTES, 'image/png');
  const bare = new Koa();
  bare.use((ctx) => {
    ctx.type = 'image/png';
    ctx.body = Buffer.from(BYTES);
  });
  const bareApp = await listen(bare);
  const filesApp = await serveRouters(createFilesRouter(storage));
  try {
    const baseline = await rps(`${bareApp.url}/x.png`);
    const signed = await rps(await storage.signedUrl(KEY, { baseUrl: filesApp.url }));
    if (signed.bad > 0 || baseline.bad > 0) throw new Error(`non-2xx answers: ${signed.bad}/${baseline.bad}`);
    line('GET /files/<key> (signed)', signed.rps, 'req/s', baseline.rps, 'bare Koa');
    console.log(`${''.padEnd(38)} p99 ${signed.p99} ms   bare Koa p99 ${baseline.p99} ms`);
  } finally {
    await bareApp.close();
    await filesApp.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
