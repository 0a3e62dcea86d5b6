// Edges of wang16 / blob47 sets (brief 39bg, decision 0134), own terrain pairs, never the held-out
// list: paints the masks of a set on a random 10 × 10 corner grid and prints, per pair and size, the
// sliver pixels (a run of one terrain 1–2 px across, the other on both sides: a comb tooth, a hook, a
// speck) per 100 px of shore, and blob47's narrowest one-cell channel.
//   npx tsx packages/pipeline/bench/edges-39bg.ts
import { PaletteMatcher } from '../src/palette.js';
import { Painter } from '../src/pixel/canvas.js';
import { Rng } from '../src/pixel/random.js';
import { resolveStyle } from '../src/style.js';
import { renderTerrainTiles } from '../src/terrain/render.js';
import { terrainTexture } from '../src/terrain/textures.js';
import { tilesetRules } from '../src/tileset/rules.js';
import { TERRAINS, type TerrainName } from '../src/tileset/terrains.js';

const style = resolveStyle({}, '');
const painter = new Painter(style.palette, new PaletteMatcher(style.palette));

export function wangMap(masks: Uint8Array[], lattices: number[][], n: number, cells: number, seed: number) {
  const rng = new Rng(seed);
  const corner = Array.from({ length: (cells + 1) ** 2 }, () => (rng.chance(0.5) ? 1 : 0));
  const W = cells * n;
  const map = new Uint8Array(W * W);
  for (let cy = 0; cy < cells; cy++)
    for (let cx = 0; cx < cells; cx++) {
      const c = (x: number, y: number) => corner[(cy + y) * (cells + 1) + cx + x]!;
      const k = lattices.findIndex(
        (l) => l[0] === c(0, 0) && l[2] === c(1, 0) && l[6] === c(0, 1) && l[8] === c(1, 1),
      );
      const m = masks[k]!;
      for (let y = 0; y < n; y++)
        for (let x = 0; x < n; x++) map[(cy * n + y) * W + cx * n + x] = m[y * n + x]!;
    }
  return { map, W };
}

/** Sliver pixels per 100 shore pixels: runs 1–2 px across with the other terrain on both sides. */
export function slivers(map: Uint8Array, W: number): number {
  let thin = 0;
  let shore = 0;
  const at = (x: number, y: number) => map[y * W + x]!;
  for (let y = 1; y < W - 1; y++)
    for (let x = 1; x < W - 1; x++) {
      const v = at(x, y);
      if (at(x + 1, y) !== v || at(x, y + 1) !== v) shore++;
      const run = (dx: number, dy: number) => {
        let a = 0;
        while (
          a < 3 &&
          x - (a + 1) * dx >= 0 &&
          y - (a + 1) * dy >= 0 &&
          at(x - (a + 1) * dx, y - (a + 1) * dy) === v
        )
          a++;
        let b = 0;
        while (
          b < 3 &&
          x + (b + 1) * dx < W &&
          y + (b + 1) * dy < W &&
          at(x + (b + 1) * dx, y + (b + 1) * dy) === v
        )
          b++;
        const xa = x - (a + 1) * dx;
        const ya = y - (a + 1) * dy;
        const xb = x + (b + 1) * dx;
        const yb = y + (b + 1) * dy;
        const closed = xa >= 0 && ya >= 0 && xb < W && yb < W;
        return closed && a + b + 1 <= 2;
      };
      if (run(1, 0) || run(0, 1)) thin++;
    }
  return (100 * thin) / Math.max(1, shore);
}

/**
 * Of the lines (rows and columns) a tile's width long that hold both terrains, the share that cross
 * the shore 3 or more times: a smooth shore crosses a line once or twice, a comb of teeth many times.
 */
export function combed(map: Uint8Array, W: number, n: number): number {
  let lines = 0;
  let comb = 0;
  for (const across of [true, false])
    for (let a = 0; a < W; a++)
      for (let t0 = 0; t0 < W; t0 += n) {
        let changes = 0;
        for (let t = t0 + 1; t < t0 + n; t++) {
          const p = across ? map[a * W + t]! : map[t * W + a]!;
          const q = across ? map[a * W + t - 1]! : map[(t - 1) * W + a]!;
          if (p !== q) changes++;
        }
        if (changes === 0) continue;
        lines++;
        if (changes >= 3) comb++;
      }
  return comb / Math.max(1, lines);
}

const pairs: Array<[TerrainName, TerrainName]> = [['grass', 'dirt']];
if (import.meta.url === `file://${process.argv[1]}`)
  for (const [a, b] of pairs)
    for (const n of [16, 32]) {
      const out: string[] = [];
      for (const seed of [1, 2, 3]) {
        const rules = tilesetRules('wang16');
        const masks: Uint8Array[] = [];
        const r = new Rng(seed);
        renderTerrainTiles({
          tiles: rules.tiles,
          size: n,
          layers: [
            { spec: TERRAINS[a], texture: terrainTexture(TERRAINS[a], n, r.fork('a'), painter) },
            { spec: TERRAINS[b], texture: terrainTexture(TERRAINS[b], n, r.fork('b'), painter) },
          ],
          rng: r.fork('tiles'),
          masks,
        });
        const { map, W } = wangMap(
          masks,
          rules.tiles.map((t) => [...t.lattice]),
          n,
          10,
          seed,
        );
        out.push(`${slivers(map, W).toFixed(2)}/${combed(map, W, n).toFixed(3)}`);
      }
      console.log(`${a}/${b} wang16 ${n}px slivers per 100 shore px / combed lines: ${out.join(' ')}`);
    }
