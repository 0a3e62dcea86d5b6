/**
 * What the mock costs per request: authenticated GET /api/v1/projects through msw (setupServer) with
 * the mock's handlers, against the same fetch answered by a bare msw handler that returns a fixed
 * envelope (the baseline, measured in the same run). Also a whole task (8 pipeline events, a 64 px
 * 4×4 sprite sheet) under the manual clock. Prints ops/s and the ratio.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { createAssetMock } from '../src/index.js';

const BASE = 'http://bench.mock';
const ROUNDS = 2000;

async function measure(label: string, n: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(100, n); i++) await fn();
  const start = performance.now();
  for (let i = 0; i < n; i++) await fn();
  const ms = performance.now() - start;
  const perSecond = (n / ms) * 1000;
  console.log(
    `${label.padEnd(44)} ${perSecond.toFixed(0).padStart(8)} ops/s  (${(ms / n).toFixed(3)} ms/op)`,
  );
  return perSecond;
}

const { handlers, controls } = createAssetMock({
  baseUrl: BASE,
  clock: 'manual',
  stepMs: 100,
  limits: { generateMaxRequests: 10_000 },
  seed: {
    users: [{ username: 'bench', password: 'bench-pass-1' }],
    projects: [{ owner: 'bench', name: 'Bench' }],
  },
});
const server = setupServer(
  http.get(`${BASE}/baseline`, () =>
    HttpResponse.json({ code: 0, message: 'ok', data: { total: 0, projects: [] } }),
  ),
  ...handlers,
);
server.listen({ onUnhandledRequest: 'error' });
await controls.ready;
const login = await (
  await fetch(`${BASE}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'bench-pass-1' }),
  })
).json();
const auth = { authorization: `Bearer ${login.data.token}` };

// Alternate the two, three rounds each, and keep each one's best (JIT warm-up favours later rounds).
let baseline = 0;
let listed = 0;
for (let round = 1; round <= 3; round++) {
  baseline = Math.max(
    baseline,
    await measure(`bare msw handler (baseline), round ${round}`, ROUNDS, async () =>
      (await fetch(`${BASE}/baseline`, { headers: auth })).json(),
    ),
  );
  listed = Math.max(
    listed,
    await measure(`mock GET /api/v1/projects, round ${round}`, ROUNDS, async () =>
      (await fetch(`${BASE}/api/v1/projects`, { headers: auth })).json(),
    ),
  );
}
console.log(
  `ratio mock / baseline: ${(listed / baseline).toFixed(2)} (the mock runs at ${((listed / baseline) * 100).toFixed(0)} % of a bare handler's rate)`,
);

const projectId = controls.seeded.projects.Bench as string;
let n = 0;
const tasks = await measure('whole task (generate → completed, 64 px 4×4)', 20, async () => {
  const res = await fetch(`${BASE}/api/v1/generate`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ projectId, prompt: `a knight number ${n++}`, assetType: 'sprite' }),
  });
  const { data } = await res.json();
  await controls.runToCompletion(data.taskId);
});
console.log(`tasks per second under the manual clock: ${tasks.toFixed(1)}`);
await controls.close();
server.close();
