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

/** Loose grounds whose transition tiles draw from more than one drawing (decision 0129). */
const SNOWY: ReadonlySet<string> = new Set(['snow']);

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
  // (forked in this order: a set without snow draws what it drew)
  const tilesRng = rng.fork('tiles');
  const more = rng.fork('variants');
  // (decision 0129) a snow set's transition tiles take their inside from one of three drawings
  const alts = rng.fork('alternates');
  for (const [i, layer] of layers.entries())
    if (SNOWY.has(layer.spec.name))
      Object.assign(layer, {
        alternates: [1, 2].map((k) =>
          variantTexture(
            layer.spec,
            layer.texture,
            alts.fork(`${i}-${k}`),
            painter,
            i ? [first.ramp.base] : [],
          ),
        ),
      });
  const tiles = renderTerrainTiles({
    tiles: rules.tiles,
    size: job.tileSize,
    layers,
    rng: tilesRng,
  });
  // the full tiles' variants (decision 0094): the plain tile's edge band, another drawing inside
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
