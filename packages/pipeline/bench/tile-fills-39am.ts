// Tile fills of my own tileset prompts (brief 39am, decision 0112), never the held-out list: each
// prompt's seamless set (plain tile + variants) painted 6 × 6 as a brush would, ×4, at 16 and 32 px,
// and the lightness correlation at the tile period (over its mean at other offsets).
//   npx tsx packages/pipeline/bench/tile-fills-39am.ts [out dir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { PaletteMatcher } from '../src/palette.js';
import { Painter } from '../src/pixel/canvas.js';
import { Rng } from '../src/pixel/random.js';
import { resolveStyle } from '../src/style.js';
import { fullTileVariant, renderTerrainTiles } from '../src/terrain/render.js';
import { terrainTexture, variantTexture } from '../src/terrain/textures.js';
import { paintMap } from '../src/tileset/map.js';
import { tilesetRules } from '../src/tileset/rules.js';
import { chooseTerrains } from '../src/tileset/terrains.js';
import { periodCorrelation, png, scale } from './support/tile-measures.js';

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
