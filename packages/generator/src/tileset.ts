import type { StyleMap } from '@assetloom/pipeline';
import { Painter, PaletteMatcher, Rng, resolveStyle } from '@assetloom/pipeline/pixel';
import {
  chooseTerrains,
  fullTileVariant,
  type RenderedTileset,
  renderTerrainTiles,
  type TilesetKind,
  terrainTexture,
  tilesetRules,
  variantTexture,
} from '@assetloom/pipeline/tileset';

export type { RenderedTileset };

export interface TilesetJob {
  kind: TilesetKind;
  tileSize: number;
  userPrompt: string;
  tags: readonly string[];
  style: StyleMap;
  seed: number;
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
  // the full tiles' variants (decision 0094): the plain tile's edge band, another drawing inside
  const more = rng.fork('variants');
  const avoid = [[], [first.ramp.base]] as const;
  for (const rule of rules.tiles) {
    if (rule.variantOf === undefined) continue;
    const t = rule.lattice[4]! >= 1 && layers[1] ? 1 : 0;
    const { spec, texture } = layers[t]!;
    const inner = variantTexture(spec, texture, more.fork(`tile-${rule.index}`), painter, avoid[t]);
    tiles[rule.index] = fullTileVariant(texture, inner, job.tileSize);
  }
  return { tiles, rules, terrains, colors: layers.map((l) => l.texture.ramp.base), interpretation };
}
