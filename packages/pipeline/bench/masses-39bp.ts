// Probe for decision 0144 (issue #39): own-worded level prompts grown as layouts (no art), printed
// as ASCII, with the figures the decision records: per prompt and seed, the longest straight run of
// a still water / lava body's edge, 1-cell spurs of water or lava, and the water's bodies (count,
// sizes); plus the longest run, across or down, of one identical full-tile drawing in `tileMap`
// over a tileset of 8 drawings per full tile.
//   npx tsx packages/pipeline/bench/masses-39bp.ts [seeds=1,2,3] [ascii=0] [prompt filter]
import { growLevel } from '../src/level/build.js';
import { components } from '../src/level/grid.js';
import { readLevelLayout } from '../src/level/layout.js';

const PROMPTS = [
  'a rocky highland with mountains all around',
  'a meadow with rocky edges',
  'an island with a lake',
  'a small tropical island with a village',
  'a large island',
  'an island chain',
  'a pond with a small isle',
  'a lake with an island in it',
  'an island in the middle of a lake',
  'a marsh with pools',
  'a bog',
  'a swamp with a winding path from west to east',
  'a rocky highland',
  'a lava field with a path',
  'an atoll',
  'a river through hills',
  'a forest with a clearing in it',
  'a field with a pond in the middle',
];
const seeds = (process.argv[2] ?? '1,2,3').split(',').map(Number);
const ascii = process.argv[3] === '1';
const only = process.argv[4];

function straight(cells: Int32Array | Uint8Array | number[], w: number, h: number, t: number): number {
  // longest run of edge points of terrain t along a row/column whose neighbour on one side is not t
  const is = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && cells[y * w + x] === t;
  let best = 0;
  for (const [dx, dy] of [
    [0, -1],
    [0, 1],
    [-1, 0],
    [1, 0],
  ] as const) {
    const rowwise = dy !== 0;
    for (let a = 0; a < (rowwise ? h : w); a++) {
      let run = 0;
      for (let b = 0; b < (rowwise ? w : h); b++) {
        const [x, y] = rowwise ? [b, a] : [a, b];
        const nx = x + dx,
          ny = y + dy;
        const inside = nx >= 0 && ny >= 0 && nx < w && ny < h;
        if (is(x, y) && inside && !is(nx, ny)) run++;
        else run = 0;
        best = Math.max(best, run);
      }
    }
  }
  return best;
}
function spurs(cells: ArrayLike<number>, w: number, h: number, t: number): number {
  // one-point spikes: a point of t with at most one neighbour of t across or down and at most two of eight
  const is = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && cells[y * w + x] === t;
  let n = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!is(x, y)) continue;
      const k = +is(x + 1, y) + +is(x - 1, y) + +is(x, y + 1) + +is(x, y - 1);
      const all = k + +is(x + 1, y + 1) + +is(x - 1, y + 1) + +is(x + 1, y - 1) + +is(x - 1, y - 1);
      if (k <= 1 && all <= 2) n++;
    }
  return n;
}

function ragged(cells: ArrayLike<number>, w: number, h: number, t: number): number {
  // per body of 6 points or more, its shore's length over a disc's of the same area (1 a disc; a
  // notched, ragged body more), averaged over the bodies
  const is = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && cells[y * w + x] === t;
  const body = components(w, h, (p) => cells[p] === t);
  const edges = new Array<number>(body.sizes.length).fill(0);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (is(x, y))
        edges[body.label[y * w + x]!]! += +!is(x + 1, y) + +!is(x - 1, y) + +!is(x, y + 1) + +!is(x, y - 1);
  const r = body.sizes.flatMap((n, i) => (n >= 6 ? [edges[i]! / (2 * Math.sqrt(Math.PI * n))] : []));
  return r.length ? r.reduce((a, b) => a + b, 0) / r.length : 0;
}

for (const prompt of PROMPTS) {
  if (only && !prompt.includes(only)) continue;
  const layout = readLevelLayout(prompt);
  const names = layout.terrains;
  console.log(
    `\n## ${prompt} — base ${layout.base}, biome ${layout.biome}, features ${layout.features.map((f) => f.kind).join(' ')} ignored ${JSON.stringify(layout.ignored)}`,
  );
  for (const seed of seeds) {
    const plan = growLevel(layout, 'wang16', 40, 30, seed);
    const { width: w, height: h, cells } = plan.terrain;
    const figs: string[] = [];
    for (const role of ['water', 'lava', 'sea'] as const) {
      const t = layout.roles[role];
      if (t === null || t === undefined) continue;
      let count = 0;
      for (const c of cells) if (c === t) count++;
      if (!count) continue;
      figs.push(
        `${role}: ${count} pts, straight ${straight(cells, w, h, t)}, spurs ${spurs(cells, w, h, t)}, ragged ${ragged(cells, w, h, t).toFixed(2)}`,
      );
    }
    const rock = layout.roles.rock;
    if (rock !== null) figs.push(`rock straight ${straight(cells, w, h, rock)}`);
    console.log(`seed ${seed}: ${figs.join('; ')}; notHonoured ${JSON.stringify(plan.notHonoured)}`);
    if (ascii) {
      const ch = '.~#^=%*:+o';
      for (let y = 0; y < h; y++) {
        let s = '';
        for (let x = 0; x < w; x++) s += ch[cells[y * w + x]!] ?? '?';
        console.log('  ' + s);
      }
      console.log('  ' + names.map((n, i) => `${ch[i]}=${n}`).join(' '));
    }
  }
}
