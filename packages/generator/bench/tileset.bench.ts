// Figures for tilesets (issue #18): time to draw a set per kind and tile size, and the seam scores
// over many prompts, kinds, sizes, palettes and seeds before any quality retry (the goal: worst ≤ 1.5,
// mean ≤ 1.1). `pnpm --filter @assetloom/pipeline bench`; figures in docs/benchmarks/tilesets.md.
import { measureSeams, paintMap, SEAM_GOALS, type TilesetKind } from '@assetloom/pipeline/tileset';
import { renderTileset } from '../src/index.js';

function time(label: string, n: number, fn: (i: number) => void): void {
  fn(0);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn(i + 1);
  console.log(`[bench:tileset] ${label}: ${((performance.now() - t0) / n).toFixed(1)} ms`);
}
const job = (kind: TilesetKind, tileSize: number, seed: number) => ({
  kind,
  tileSize,
  userPrompt: 'grass and water',
  tags: [],
  style: {},
  seed,
});
for (const kind of ['wang16', 'blob47', 'seamless'] as const)
  for (const size of [16, 32, 64])
    time(`draw ${kind} ${size} px`, kind === 'blob47' && size === 64 ? 5 : 20, (i) =>
      renderTileset(job(kind, size, i)),
    );
const set = renderTileset(job('blob47', 16, 1));
time('seam check blob47 16 px (1036 joints)', 20, () => measureSeams(set.tiles, set.rules));
time('paint a 24×16 map from blob47 16 px', 20, (i) =>
  paintMap(set.tiles, set.rules, { columns: 24, rows: 16, seed: i }),
);

const prompts = [
  'grass and water',
  'sand and lava',
  'snow and ice',
  'stone floor and grass',
  'dirt and grass',
  'mud and water',
  'rock and lava',
  'a beach',
  'a volcano',
  '草地和水',
  'ice and water',
  'sand and rock',
];
const palettes: Record<string, string>[] = [
  {},
  { palette: 'sweetie16' },
  { palette: 'pico8' },
  { palette: 'endesga32' },
  { palette: 'gameboy' },
];
const seeds = Number(process.env.TILESET_BENCH_SEEDS ?? 2);
let sets = 0;
let over = 0;
let worst = 0;
let meanSum = 0;
let meanMax = 0;
const t0 = performance.now();
for (let seed = 1; seed <= seeds; seed++)
  for (const prompt of prompts)
    for (const kind of ['wang16', 'blob47', 'seamless'] as const)
      for (const size of [8, 12, 16, 24, 32, 48, 64]) {
        const style = palettes[(seed + size + prompt.length) % palettes.length]!;
        const ts = renderTileset({ ...job(kind, size, seed * 7919 + size), userPrompt: prompt, style });
        const r = measureSeams(ts.tiles, ts.rules);
        sets++;
        if (r.worst > SEAM_GOALS.worst || r.mean > SEAM_GOALS.mean) over++;
        worst = Math.max(worst, r.worst);
        meanSum += r.mean;
        meanMax = Math.max(meanMax, r.mean);
      }
console.log(
  `[bench:tileset] seams over ${sets} sets (before retries): ${over} above the goal (${((over / sets) * 100).toFixed(1)} %), highest worst ${worst.toFixed(2)}, mean of means ${(meanSum / sets).toFixed(2)}, highest mean ${meanMax.toFixed(2)} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);
