import { Painter } from '../internal/art/canvas.js';
import { renderTerrainTiles } from '../internal/art/terrain/render.js';
import { terrainTexture } from '../internal/art/terrain/textures.js';
import { Rng } from '../internal/random.js';
import type { Interpretation } from '../interpret/index.js';
import { PaletteMatcher, type Rgb } from '../palette.js';
import { resolveStyle } from '../style.js';
import type { RgbaImage, StyleMap } from '../types/index.js';
import { type TilesetKind, type TilesetRules, tilesetRules } from './rules.js';
import { chooseTerrains, type TerrainSpec } from './terrains.js';

export interface TilesetJob {
  kind: TilesetKind;
  tileSize: number;
  userPrompt: string;
  tags: readonly string[];
  style: StyleMap;
  seed: number;
}

export interface RenderedTileset {
  tiles: RgbaImage[];
  rules: TilesetRules;
  terrains: TerrainSpec[];
  /** Each terrain's base colour, as drawn (for the editors' terrain brushes). */
  colors: Rgb[];
  interpretation: Interpretation;
}

/** Draws a whole tileset procedurally; deterministic in (job). */
export function renderTileset(job: TilesetJob): RenderedTileset {
  const rules = tilesetRules(job.kind);
  const { terrains, interpretation } = chooseTerrains(job, job.kind === 'seamless' ? 1 : 2);
  const style = resolveStyle(job.style, `${job.userPrompt} ${job.tags.join(' ')}`);
  const painter = new Painter(style.palette, new PaletteMatcher(style.palette));
  const rng = new Rng(job.seed);
  const first = terrainTexture(terrains[0]!, job.tileSize, rng.fork('terrain-0'), painter);
  const layers = [{ spec: terrains[0]!, texture: first }];
  if (terrains[1]) {
    // the second terrain avoids the first one's base colour where the palette allows
    const second = terrainTexture(terrains[1], job.tileSize, rng.fork('terrain-1'), painter, [
      first.ramp.base,
    ]);
    layers.push({ spec: terrains[1], texture: second });
  }
  const tiles = renderTerrainTiles({
    tiles: rules.tiles,
    size: job.tileSize,
    layers,
    rng: rng.fork('tiles'),
  });
  return { tiles, rules, terrains, colors: layers.map((l) => l.texture.ramp.base), interpretation };
}
