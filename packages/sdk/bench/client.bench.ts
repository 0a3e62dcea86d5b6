// pnpm bench — what the SDK costs per call on top of a bare fetch, measured in one run:
//   1. over a real socket (node:http on 127.0.0.1): fetch + res.json() vs api.GET(...)
//   2. in memory (an injected fetch answering at once): the SDK's own work, without network time
// It prints the ratios; goal: ≤ 1.5× over the socket (the network dominates, as it does in use).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createAssetClient } from '../src/index.js';

const body = JSON.stringify({
  code: 0,
  message: 'ok',
  data: {
    taskId: 't1',
    projectId: 'p1',
    prompt: 'a knight',
    assetType: 'sprite',
    taskStyle: null,
    params: { resolution: 64, format: 'spritesheet', frames: { directions: 4, framesPerDirection: 4 } },
    status: 'running',
    stage: 'asset_generator',
    progress: 40,
    retryCount: 0,
    error: null,
    createdAt: '2026-01-31T12:00:00.000Z',
    updatedAt: '2026-01-31T12:00:00.000Z',
  },
});

async function time(label: string, n: number, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(200, n); i++) await run(); // warm-up
  const start = performance.now();
  for (let i = 0; i < n; i++) await run();
  const ms = performance.now() - start;
  console.log(`${label.padEnd(44)} ${((ms * 1000) / n).toFixed(1).padStart(8)} µs/call  (${n} calls)`);
  return ms;
}

async function main() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'srv' });
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const n = Number(process.env.BENCH_N ?? 3000);

  const api = createAssetClient({ baseUrl, token: 'jwt' });
  const socketBase = await time('socket: fetch + json (baseline)', n, async () => {
    const res = await fetch(`${baseUrl}/api/v1/tasks/t1`, { headers: { authorization: 'Bearer jwt' } });
    return res.json();
  });
  const socketSdk = await time('socket: api.GET /api/v1/tasks/{taskId}', n, async () => {
    const { error } = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: 't1' } } });
    if (error) throw error;
  });

  const memoryFetch = async () =>
    new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  const memoryApi = createAssetClient({ baseUrl, token: 'jwt', fetch: memoryFetch });
  const memoryBase = await time('memory: Response + json (baseline)', n * 3, async () => {
    const res = await memoryFetch();
    return res.json();
  });
  const memorySdk = await time('memory: api.GET (request, ky, envelope)', n * 3, async () => {
    const { error } = await memoryApi.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: 't1' } } });
    if (error) throw error;
  });

  console.log(`\nratio over a real socket: ${(socketSdk / socketBase).toFixed(2)}× (goal ≤ 1.5×)`);
  console.log(
    `ratio in memory (SDK work alone): ${(memorySdk / memoryBase).toFixed(2)}×, ` +
      `${(((memorySdk - memoryBase) * 1000) / (n * 3)).toFixed(1)} µs added per call`,
  );
  server.closeAllConnections();
  server.close();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
