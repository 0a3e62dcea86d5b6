// Tile fills of my own tileset prompts (brief 39am, decision 0112), never the held-out list: each
// prompt's seamless set (plain tile + variants) painted 6 × 6 as a brush would, ×4, at 16 and 32 px,
// and the lightness correlation at the tile period (over its mean at other offsets).
//   npx tsx packages/pipeline/bench/tile-fills-39am.ts [out dir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { oklab } from '../src/colour.js';
import { PaletteMatcher } from '../src/palette.js';
import { Painter } from '../src/pixel/canvas.js';
import { Rng } from '../src/pixel/random.js';
import { encodePng } from '../src/png.js';
import { resolveStyle } from '../src/style.js';
import { fullTileVariant, renderTerrainTiles } from '../src/terrain/render.js';
import { terrainTexture, variantTexture } from '../src/terrain/textures.js';
import { paintMap } from '../src/tileset/map.js';
import { tilesetRules } from '../src/tileset/rules.js';
import { chooseTerrains } from '../src/tileset/terrains.js';
import type { RgbaImage } from '../src/types/index.js';

const out = process.argv[2] ?? '/tmp/39am';
mkdirSync(out, { recursive: true });
const only = process.env.ONLY;
const prompts = [
  'magma tiles',
  'a frozen tundra tileset',
  'glacier ice tiles',
  'castle floor tiles',
  'paved street tiles',
  'a cobbled road tileset',
  'dungeon flagstones',
];

function tileset(prompt: string, kind: 'seamless' | 'wang16', n: number, seed: number) {
  const rules = tilesetRules(kind);
  const { terrains } = chooseTerrains(
    { userPrompt: prompt, tags: [], style: {} },
    kind === 'seamless' ? 1 : 2,
  );
  const style = resolveStyle({}, prompt);
  const painter = new Painter(style.palette, new PaletteMatcher(style.palette));
  const rng = new Rng(seed);
  const first = terrainTexture(terrains[0]!, n, rng.fork('terrain-0'), painter);
  const layers = [{ spec: terrains[0]!, texture: first }];
  if (terrains[1])
    layers.push({
      spec: terrains[1],
      texture: terrainTexture(terrains[1], n, rng.fork('terrain-1'), painter, [first.ramp.base]),
    });
  const tiles = renderTerrainTiles({ tiles: rules.tiles, size: n, layers, rng: rng.fork('tiles') });
  const more = rng.fork('variants');
  for (const rule of rules.tiles) {
    if (rule.variantOf === undefined) continue;
    const t = rule.lattice[4]! >= 1 && layers[1] ? 1 : 0;
    const { spec, texture } = layers[t]!;
    const inner = variantTexture(
      spec,
      texture,
      more.fork(`tile-${rule.index}`),
      painter,
      t ? [first.ramp.base] : [],
    );
    tiles[rule.index] = fullTileVariant(texture, inner, n);
  }
  return { tiles, rules, names: terrains.map((t) => t.name) };
}

/** Lightness correlation at the tile period over its mean at other offsets (1 a wallpaper, 0 none). */
export function periodCorrelation(image: RgbaImage, n: number): number {
  const W = image.width;
  const H = image.height;
  const L = Array.from(
    { length: W * H },
    (_, i) => oklab([image.data[4 * i]!, image.data[4 * i + 1]!, image.data[4 * i + 2]!])[0],
  );
  const mean = L.reduce((a, b) => a + b, 0) / L.length;
  const r = (dx: number, dy: number) => {
    let s = 0;
    let a = 0;
    let b = 0;
    for (let y = 0; y + dy < H; y++)
      for (let x = 0; x + dx < W; x++) {
        const p = L[y * W + x]! - mean;
        const q = L[(y + dy) * W + x + dx]! - mean;
        s += p * q;
        a += p * p;
        b += q * q;
      }
    return s / Math.sqrt(a * b);
  };
  const others = [3, 5, 7, 9, 11, 13].map((d) => (r(d, 0) + r(0, d)) / 2);
  return (r(n, 0) + r(0, n)) / 2 - others.reduce((a, b) => a + b, 0) / others.length;
}

const png = (im: RgbaImage) => encodePng(im.data, im.width, im.height);

function scale(im: RgbaImage, k: number): RgbaImage {
  const w = im.width * k;
  const h = im.height * k;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const s = (Math.floor(y / k) * im.width + Math.floor(x / k)) * 4;
      data.set(im.data.subarray(s, s + 4), (y * w + x) * 4);
    }
  return { width: w, height: h, data };
}

for (const prompt of prompts.filter((p) => !only || p.includes(only)))
  for (const n of [16, 32]) {
    const corr: number[] = [];
    for (const seed of [1, 2, 3, 4]) {
      const { tiles, rules } = tileset(prompt, 'seamless', n, seed);
      const { image } = paintMap(tiles, rules, { columns: 6, rows: 6, seed });
      corr.push(periodCorrelation(image, n));
      if (seed === 1) writeFileSync(`${out}/${prompt.replace(/\W+/g, '-')}-${n}.png`, png(scale(image, 4)));
    }
    const w = tileset(prompt, 'wang16', n, 1);
    const { image } = paintMap(w.tiles, w.rules, { columns: 6, rows: 6, seed: 1 });
    writeFileSync(`${out}/${prompt.replace(/\W+/g, '-')}-wang-${n}.png`, png(scale(image, 4)));
    const m = corr.reduce((a, b) => a + b, 0) / corr.length;
    console.log(`${prompt.padEnd(26)} ${n}  ${w.names.join('+').padEnd(12)} period-corr ${m.toFixed(2)}`);
  }
