// Levels (issue #42): levels per second at 64×64 and 256×256 tiles, and memory. The baseline, measured
// in the same run: the terrain growing alone (growLevel: layout → terrain grid, props, anchors); the
// full level: the growing, the tiling by the set's rules, the preview, the four level checks and every
// engine file (TMX, TMJ, TSX, LDtk, Godot TileSet and scene, preview PNG). The art is flat colours
// (what the generator draws is the same for every size: its pairs' tiles and the props, drawn once).
// `pnpm --filter @assetloom/pipeline bench`; figures in docs/benchmarks.md.
import { assembleLevel, growLevel } from '../src/level/build.js';
import { levelChecks } from '../src/level/checks.js';
import { levelTres, levelTscn } from '../src/level/formats/godot.js';
import { levelLdtk } from '../src/level/formats/ldtk.js';
import { levelTmj, levelTmx, levelTsx } from '../src/level/formats/tiled.js';
import { readLevelLayout } from '../src/level/layout.js';
import { PROP_KINDS } from '../src/level/plan.js';
import { encodePng } from '../src/png.js';
import { TERRAINS, type TerrainName } from '../src/tileset/terrains.js';
import type { LevelArt, RgbaImage } from '../src/types/index.js';

const TILE = 16;
function flat(c: readonly number[], size: number): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) data.set([c[0]!, c[1]!, c[2]!, 255], i * 4);
  return { width: size, height: size, data };
}
function flatArt(terrains: readonly TerrainName[]): LevelArt {
  const pairs: LevelArt['pairs'] = [];
  for (let a = 0; a < terrains.length; a++)
    for (let b = a + 1; b < terrains.length; b++)
      pairs.push({
        a,
        b,
        tiles: Array.from({ length: 16 }, (_, i) => flat(TERRAINS[terrains[i & 1 ? b : a]!].color, TILE)),
      });
  const kinds = [...PROP_KINDS];
  return {
    pairs,
    plains: terrains.map((t) => flat(TERRAINS[t].color, TILE)),
    colors: terrains.map((t) => TERRAINS[t].color),
    props: kinds.map(
      (kind) => ({ kind, image: flat([200, 40, 40], 2 * TILE), as: 'flat' }) as LevelArt['props'][number],
    ),
  };
}

const PROMPTS = [
  'a small island with a lake, a forest in the north and a path to a cave',
  'a dungeon with six rooms and a chest in the last room',
  'a river from north to south, a village in the east and a forest in the west',
];

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

function run(size: number, n: number): void {
  const layouts = PROMPTS.map((p) => readLevelLayout(p));
  const arts = layouts.map((l) => flatArt(l.terrains));
  // warm-up
  growLevel(layouts[0]!, 'wang16', size, size, 0);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) growLevel(layouts[i % layouts.length]!, 'wang16', size, size, i + 1);
  const grow = (performance.now() - t0) / n;

  let peak = 0;
  let bytes = 0;
  const t1 = performance.now();
  for (let i = 0; i < n; i++) {
    const k = i % layouts.length;
    const build = assembleLevel({
      layout: layouts[k]!,
      columns: size,
      rows: size,
      tileSize: TILE,
      seed: i + 1,
      art: arts[k]!,
    });
    levelChecks(build);
    for (const text of [
      levelTmx(build),
      levelTmj(build),
      levelTsx(build),
      levelLdtk(build),
      levelTres(build),
      levelTscn(build),
    ])
      bytes += text.length;
    bytes += encodePng(build.preview.data, build.preview.width, build.preview.height).length;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const full = (performance.now() - t1) / n;
  console.log(
    `[bench:level] ${size}×${size} tiles (${size * TILE} px a side), ${n} levels over ${PROMPTS.length} prompts: ` +
      `growing alone ${grow.toFixed(1)} ms (${(1000 / grow).toFixed(1)} levels/s); full level ${full.toFixed(1)} ms ` +
      `(${(1000 / full).toFixed(1)} levels/s) — ${(full / grow).toFixed(1)}× the growing; files ${mb(bytes / n)} a level; ` +
      `resident memory at most ${mb(peak)} (sampled after each level)`,
  );
}

run(64, Number(process.env.LEVEL_BENCH_64 ?? 12));
run(256, Number(process.env.LEVEL_BENCH_256 ?? 3));
