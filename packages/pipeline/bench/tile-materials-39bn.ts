// Tile materials that read as what was named (brief 39bn, decision 0142), on my own wordings, never
// the held-out list. Prints per material class the figures the decision records — a cobble's stone
// count and mean width, a flagstone's joint width, brick rows of one shade, mud against swamp water
// in Oklab, basalt's lightness, a blob47 one-cell feature's width, the period correlation of a 6 × 6
// fill — and writes each prompt's sheet and a painted 8 × 6 map ×3 for a person to look at.
//   npx tsx packages/pipeline/bench/tile-materials-39bn.ts [out dir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { oklab } from '../src/colour.js';
import { PaletteMatcher, type Rgb } from '../src/palette.js';
import { Painter } from '../src/pixel/canvas.js';
import { Rng } from '../src/pixel/random.js';
import { resolveStyle } from '../src/style.js';
import { fullTileVariant, renderTerrainTiles } from '../src/terrain/render.js';
import { terrainTexture, variantTexture } from '../src/terrain/textures.js';
import { paintMap } from '../src/tileset/map.js';
import { type TilesetKind, tilesetRules } from '../src/tileset/rules.js';
import { chooseTerrains, type TerrainSpec, terrainSpecsOf } from '../src/tileset/terrains.js';
import type { RgbaImage } from '../src/types/index.js';
import { periodCorrelation, png, scale } from './support/tile-measures.js';

const out = process.argv[2] ?? '/tmp/39bn';
mkdirSync(out, { recursive: true });

function tileset(terrains: TerrainSpec[], kind: TilesetKind, n: number, seed: number) {
  const rules = tilesetRules(kind);
  const style = resolveStyle({}, terrains.map((t) => t.name).join(' '));
  const painter = new Painter(style.palette, new PaletteMatcher(style.palette));
  const rng = new Rng(seed);
  const first = terrainTexture(terrains[0]!, n, rng.fork('terrain-0'), painter);
  const layers = [{ spec: terrains[0]!, texture: first }];
  if (terrains[1] && kind !== 'seamless')
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
  return { tiles, rules, layers };
}

const hueOf = (c: Rgb) => {
  const [L, a, b] = oklab(c);
  return `L ${L.toFixed(2)} C ${Math.hypot(a, b).toFixed(3)} h ${((Math.atan2(b, a) * 180) / Math.PI).toFixed(0)}°`;
};

const prompts: Array<[string, TilesetKind]> = [
  ['a cobbled road', 'seamless'],
  ['flagstone floor', 'seamless'],
  ['castle wall bricks', 'seamless'],
  ['red brick wall', 'seamless'],
  ['muddy ground and grass', 'wang16'],
  ['dirt and mud', 'wang16'],
  ['a swamp tileset', 'wang16'],
  ['basalt ground', 'seamless'],
  ['obsidian and magma', 'blob47'],
  ['a pond and grass', 'blob47'],
  ['a cobblestone street and grass', 'wang16'],
];
for (const [prompt, kind] of prompts) {
  let terrains: TerrainSpec[];
  try {
    terrains = chooseTerrains(
      { userPrompt: prompt, tags: [], style: {} },
      kind === 'seamless' ? 1 : 2,
    ).terrains;
  } catch (e) {
    console.log(`${prompt}: ${(e as Error).message}`);
    continue;
  }
  const corr: string[] = [];
  for (const n of [16, 32]) {
    const { tiles, rules } = tileset(terrains, kind, n, 1);
    const cols = rules.columns;
    const rows = Math.ceil(tiles.length / cols);
    const sheet: RgbaImage = {
      width: cols * n,
      height: rows * n,
      data: new Uint8Array(cols * n * rows * n * 4),
    };
    tiles.forEach((t, i) => {
      const ox = (i % cols) * n;
      const oy = Math.floor(i / cols) * n;
      for (let y = 0; y < n; y++)
        sheet.data.set(t.data.subarray(y * n * 4, (y + 1) * n * 4), ((oy + y) * sheet.width + ox) * 4);
    });
    const slug = prompt.replace(/\W+/g, '-');
    writeFileSync(`${out}/${slug}-${kind}-${n}-sheet.png`, png(scale(sheet, 4)));
    const { image } = paintMap(tiles, rules, { columns: kind === 'seamless' ? 6 : 8, rows: 6, seed: 1 });
    writeFileSync(`${out}/${slug}-${kind}-${n}-map.png`, png(scale(image, 3)));
    if (kind === 'seamless') {
      const c: number[] = [];
      for (const seed of [1, 2, 3, 4]) {
        const s = tileset(terrains, kind, n, seed);
        c.push(periodCorrelation(paintMap(s.tiles, s.rules, { columns: 6, rows: 6, seed }).image, n));
      }
      corr.push(`${n}px ${(c.reduce((a, b) => a + b, 0) / c.length).toFixed(3)}`);
    }
  }
  const colours = terrains.map((t) => `${t.name} [${t.color.join(',')}] ${hueOf(t.color as Rgb)}`).join('; ');
  console.log(`${prompt} (${kind}): ${colours}${corr.length ? `  period-corr ${corr.join(' ')}` : ''}`);
}
const swamp = terrainSpecsOf(['mud', 'water']);
console.log(`swamp level: ${swamp.map((t) => `${t.name} ${hueOf(t.color as Rgb)}`).join(' | ')}`);

// the figures, per material class, on the drawn textures (default palette unless named)
const same = (a: Rgb, b: Rgb) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
const painterOf = (palette?: string) => {
  const style = resolveStyle(palette ? { palette } : {}, '');
  return new Painter(style.palette, new PaletteMatcher(style.palette));
};
const tex = (
  spec: TerrainSpec,
  n: number,
  seed: number,
  palette?: string,
  fork = 'terrain-0',
  avoid: Rgb[] = [],
) => terrainTexture(spec, n, new Rng(seed).fork(fork), painterOf(palette), avoid);
function regionSizes(mask: Uint8Array, n: number): number[] {
  const seen = new Uint8Array(mask.length);
  const out: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (seen[i] || mask[i]) continue;
    let size = 0;
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const j = stack.pop()!;
      size++;
      const x = j % n;
      const y = Math.floor(j / n);
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const k = ((y + dy + n) % n) * n + ((x + dx + n) % n);
        if (!seen[k] && !mask[k]) {
          seen[k] = 1;
          stack.push(k);
        }
      }
    }
    out.push(size);
  }
  return out;
}
const spec = (prompt: string, i = 0, count: 1 | 2 = 1) =>
  chooseTerrains({ userPrompt: prompt, tags: [], style: {} }, count).terrains[i]!;
for (const n of [16, 32]) {
  const counts: number[] = [];
  const medians: number[] = [];
  let doubled = 0;
  let band = 0;
  for (const seed of [1, 2, 3, 4]) {
    const c = tex(spec('cobblestones'), n, seed);
    const sizes = regionSizes(
      Uint8Array.from(c.pixels, (p) => (same(p, c.ramp.outline) ? 1 : 0)),
      n,
    ).sort((a, b) => a - b);
    counts.push(sizes.length);
    medians.push(sizes[sizes.length >> 1]!);
    const s = tex(spec('flagstones'), n, seed);
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++)
        if (
          same(s.at(x, y), s.ramp.dark) &&
          (same(s.at(x + 1, y), s.ramp.shadow) || same(s.at(x, y + 1), s.ramp.shadow))
        )
          doubled++;
    const w = tex(spec('dungeon brick wall'), n, seed);
    for (let y = 0; y < n; y++) {
      if (!Array.from({ length: n }, (_, x) => x).every((x) => same(w.at(x, y), w.ramp.outline))) continue;
      const face = Array.from({ length: n }, (_, x) => w.at(x, y + 4)).filter(
        (p) => !same(p, w.ramp.outline),
      );
      if (face.filter((p) => same(p, w.ramp.dark)).length / face.length > 0.6) band++;
    }
  }
  const mean = (a: number[]) => (a.reduce((x, y) => x + y, 0) / a.length).toFixed(1);
  console.log(
    `${n}px cobble stones/tile ${mean(counts)} (across ${Math.sqrt(Number(mean(counts))).toFixed(1)}), median face ${mean(medians)} px; flagstone doubled-joint px ${doubled} (4 seeds); dungeon wall courses of one dark shade ${band} (4 seeds)`,
  );
}
for (const palette of [undefined, 'pico8', 'sweetie16', 'endesga32']) {
  const [mudSpec, waterSpec] = chooseTerrains({ userPrompt: 'a swamp', tags: [], style: {} }, 2).terrains;
  const mud = tex(mudSpec!, 16, 1, palette);
  const water = tex(waterSpec!, 16, 1, palette, 'terrain-1', [mud.ramp.base]);
  const warm = mud.pixels.filter((c) => c[0] > c[2] + 8).length / mud.pixels.length;
  const basalt = tex(spec('basalt floor'), 32, 1, palette);
  const L = basalt.pixels.reduce((a, c) => a + oklab(c)[0], 0) / basalt.pixels.length;
  console.log(
    `${palette ?? 'default'}: mud base ${hueOf(mud.ramp.base)} (warm ${(100 * warm).toFixed(0)} %) | swamp water base ${hueOf(water.ramp.base)} | basalt mean L ${L.toFixed(2)} (${spec('basalt floor').name})`,
  );
}
