// Tile fills and edges of my own tileset prompts (brief 39aw, decision 0123), never the held-out
// list. Prints, per fill, the lightness correlation at the tile period of a 6 × 6 brush-painted
// seamless fill (decision 0112's measure, 4 seeds, 16 and 32 px), how many plain tiles repeat their
// edge column or row (the wrap's doubled line), and the corner tiles of each wang16 set whose
// terrain holds an island cut off from its corner; writes each set's sheet and a painted map ×4.
//   npx tsx packages/pipeline/bench/tile-fills-39aw.ts [out dir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { PaletteMatcher } from '../src/palette.js';
import { Painter } from '../src/pixel/canvas.js';
import { Rng } from '../src/pixel/random.js';
import { resolveStyle } from '../src/style.js';
import { fullTileVariant, renderTerrainTiles } from '../src/terrain/render.js';
import { terrainTexture, variantTexture } from '../src/terrain/textures.js';
import { paintMap } from '../src/tileset/map.js';
import { type TilesetKind, tilesetRules } from '../src/tileset/rules.js';
import { chooseTerrains, TERRAINS, type TerrainName, type TerrainSpec } from '../src/tileset/terrains.js';
import type { RgbaImage } from '../src/types/index.js';
import { periodCorrelation, png, scale } from './support/tile-measures.js';

const out = process.argv[2] ?? '/tmp/39aw';
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
  return { tiles, rules, first };
}

/** A tile's edge column equal to its opposite one (or row): the doubled line at every wrap. */
function doubled(im: RgbaImage): boolean {
  const n = im.width;
  const px = (x: number, y: number) => im.data.subarray((y * n + x) * 4, (y * n + x) * 4 + 3).join();
  let col = true;
  let row = true;
  for (let i = 0; i < n; i++) {
    if (px(0, i) !== px(n - 1, i)) col = false;
    if (px(i, 0) !== px(i, n - 1)) row = false;
  }
  return col || row;
}

const only = process.env.ONLY;
// 1. fills: period correlation and the wrap's doubled edge
for (const name of Object.keys(TERRAINS) as TerrainName[]) {
  if (only && !only.split(',').includes(name)) continue;
  const row: string[] = [];
  let twins = 0;
  let all = 0;
  for (const n of [16, 32]) {
    const corr: number[] = [];
    for (const seed of [1, 2, 3, 4]) {
      const { tiles, rules } = tileset([TERRAINS[name]], 'seamless', n, seed);
      for (const t of tiles) {
        all++;
        if (doubled(t)) twins++;
      }
      const { image } = paintMap(tiles, rules, { columns: 6, rows: 6, seed });
      corr.push(periodCorrelation(image, n));
      if (seed === 1) writeFileSync(`${out}/fill-${name}-${n}.png`, png(scale(image, 4)));
    }
    row.push(`${n}px ${(corr.reduce((a, b) => a + b, 0) / corr.length).toFixed(3)}`);
  }
  console.log(`${name.padEnd(11)} period-corr ${row.join('  ')}  doubled-edge tiles ${twins}/${all}`);
}

// 2. my own prompts' sets (wang16, blob47, seamless) as the generator's tileset draws them
const prompts: Array<[string, TilesetKind]> = [
  ['bog and moss', 'wang16'],
  ['a swamp tileset', 'wang16'],
  ['a lava field', 'blob47'],
  ['a stone tile floor', 'seamless'],
  ['a red brick wall', 'seamless'],
  ['snowfield and frozen pond', 'wang16'],
  ['meadow and dirt road', 'wang16'],
  ['sand dunes', 'seamless'],
  ['a creek through sand', 'blob47'],
];
for (const [prompt, kind] of prompts) {
  if (only) continue;
  const { terrains } = chooseTerrains(
    { userPrompt: prompt, tags: [], style: {} },
    kind === 'seamless' ? 1 : 2,
  );
  for (const n of [16, 32]) {
    const { tiles, rules } = tileset(terrains, kind, n, 1);
    const cols = rules.columns;
    const sheet: RgbaImage = {
      width: cols * n,
      height: Math.ceil(tiles.length / cols) * n,
      data: new Uint8Array(cols * n * Math.ceil(tiles.length / cols) * n * 4),
    };
    tiles.forEach((t, i) => {
      const ox = (i % cols) * n;
      const oy = Math.floor(i / cols) * n;
      for (let y = 0; y < n; y++)
        sheet.data.set(t.data.subarray(y * n * 4, (y + 1) * n * 4), ((oy + y) * sheet.width + ox) * 4);
    });
    const slug = prompt.replace(/\W+/g, '-');
    writeFileSync(`${out}/${slug}-${kind}-${n}-sheet.png`, png(scale(sheet, 4)));
    const { image } = paintMap(tiles, rules, { columns: 8, rows: 6, seed: 1 });
    writeFileSync(`${out}/${slug}-${kind}-${n}-map.png`, png(scale(image, 3)));
  }
  console.log(`${prompt} (${kind}): ${terrains.map((t) => t.name).join('+')}`);
}
