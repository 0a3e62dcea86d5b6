/**
 * Every blob47 cell the map marks as the second terrain shows that terrain (issue #39, decision
 * 0082): an isolated cell is a small pond or patch with its shore, a one-cell-wide channel a
 * channel with banks — never the first terrain with a foam line, never a thin "wire".
 */
import { describe, expect, it } from 'vitest';
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

/** Per tile: how many pixels show the second terrain's own texture (its shore marks excluded). */
function secondTerrainPixels(first: TerrainName, second: TerrainName, n: number, seed: number) {
  const rng = new Rng(seed);
  const t0 = terrainTexture(TERRAINS[first], n, rng.fork('terrain-0'), painter);
  const t1 = terrainTexture(TERRAINS[second], n, rng.fork('terrain-1'), painter, [t0.ramp.base]);
  const rules = tilesetRules('blob47');
  const tiles = renderTerrainTiles({
    tiles: rules.tiles,
    size: n,
    layers: [
      { spec: TERRAINS[first], texture: t0 },
      { spec: TERRAINS[second], texture: t1 },
    ],
    rng: rng.fork('tiles'),
  });
  const key = (r: number, g: number, b: number) => (r << 16) | (g << 8) | b;
  const own = new Set(t1.pixels.map((c) => key(c[0], c[1], c[2])));
  const firstOwn = new Set(t0.pixels.map((c) => key(c[0], c[1], c[2])));
  return tiles.map((img, i) => {
    let count = 0;
    for (let p = 0; p < n * n; p++) {
      const k = key(img.data[p * 4]!, img.data[p * 4 + 1]!, img.data[p * 4 + 2]!);
      if (own.has(k) && !firstOwn.has(k)) count++;
    }
    return { name: rules.tiles[i]!.name, count };
  });
}

describe('blob47 thin features', () => {
  for (const [first, second] of [
    ['sand', 'water'],
    ['grass', 'water'],
    ['rock', 'lava'],
    ['water', 'sand'],
  ] as const) {
    it(`every cell of ${second} beside ${first} shows ${second} (isolated cells and channels included)`, () => {
      for (const n of [16, 32]) {
        for (const seed of [1, 7, 42, 1234]) {
          const counts = secondTerrainPixels(first, second, n, seed);
          // blob_0x00 is the isolated cell, 0x11 a vertical and 0x44 a horizontal channel
          for (const { name, count } of counts.slice(0, 47)) {
            expect(count, `${second} in ${name} at ${n}px, seed ${seed}`).toBeGreaterThanOrEqual(
              Math.round(n * n * 0.08),
            );
          }
        }
      }
    });
  }
});
