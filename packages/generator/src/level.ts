/**
 * What the built-in generator draws for a level (issue #42): each pair of the level's terrains as a
 * wang16 set over one texture per terrain — so every set draws a terrain's plain edge the same and
 * tiles of different pairs join — and each prop as a sprite of the sprite generator on a cell of
 * 2 × 2 tiles, its foot on the cell's bottom middle. The pipeline grows, tiles and previews the level.
 */
import type { GeneratedAsset, ImageRequest, LevelArt, RgbaImage } from '@assetloom/pipeline';
import { PipelineError } from '@assetloom/pipeline';
import { Painter, PaletteMatcher, type Rgb, Rng, resolveStyle } from '@assetloom/pipeline/pixel';
import {
  renderTerrainTiles,
  TERRAINS,
  type TerrainName,
  terrainTexture,
  tilesetRules,
} from '@assetloom/pipeline/tileset';
import { cropToPixels } from './internal/art/scene/paint.js';

/** How each prop is asked of the sprite generator, and how tall it stands (in tiles, of its 2 × 2 cell). */
const PROPS: Readonly<Record<string, { prompt: string; tall: number }>> = {
  tree: { prompt: 'a green oak tree', tall: 2 },
  pine: { prompt: 'a pine tree', tall: 2 },
  palm: { prompt: 'a palm tree', tall: 2 },
  cactus: { prompt: 'a cactus', tall: 1.6 },
  bush: { prompt: 'a green bush', tall: 1 },
  rock: { prompt: 'a grey boulder', tall: 1 },
  house: { prompt: 'a small house', tall: 2 },
  chest: { prompt: 'a wooden treasure chest', tall: 1 },
  cave: { prompt: 'a cave entrance', tall: 1.6 },
  door: { prompt: 'a wooden door', tall: 1.4 },
  stairs: { prompt: 'stone stairs', tall: 1 },
};

/** A sprite on a transparent 2s × 2s cell, scaled (nearest) to stand `tall` tiles, its foot at the bottom middle; alpha 0 or 255. */
function onCell(sprite: RgbaImage, tileSize: number, tall: number): RgbaImage {
  const cell = 2 * tileSize;
  const out = new Uint8Array(cell * cell * 4);
  const crop = cropToPixels(sprite);
  if (!crop) return { width: cell, height: cell, data: out };
  const k = Math.min((tall * tileSize) / crop.height, cell / crop.width);
  const w = Math.max(1, Math.min(cell, Math.round(crop.width * k)));
  const h = Math.max(1, Math.min(cell, Math.round(crop.height * k)));
  const ox = Math.floor((cell - w) / 2);
  const oy = cell - h;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const sx = Math.min(crop.width - 1, Math.floor((x * crop.width) / w));
      const sy = Math.min(crop.height - 1, Math.floor((y * crop.height) / h));
      const i = (sy * crop.width + sx) * 4;
      if (crop.data[i + 3]! < 128) continue;
      const j = ((oy + y) * cell + ox + x) * 4;
      out[j] = crop.data[i]!;
      out[j + 1] = crop.data[i + 1]!;
      out[j + 2] = crop.data[i + 2]!;
      out[j + 3] = 255;
    }
  return { width: cell, height: cell, data: out };
}

/** Draws a level's tiles (the terrain pairs asked) and props. */
export async function drawLevelArt(
  request: ImageRequest,
  drawSprite: (prompt: string, resolution: number) => Promise<{ image: RgbaImage; as: string } | null>,
): Promise<GeneratedAsset> {
  const ask = request.level;
  if (!ask)
    throw new PipelineError(
      'invalid_request',
      'a level request names no terrains or props to draw (ImageRequest.level)',
    );
  const s = ask.tileSize;
  const style = resolveStyle(request.style, `${request.userPrompt} ${request.tags.join(' ')}`);
  const painter = new Painter(style.palette, new PaletteMatcher(style.palette));
  const rng = new Rng(request.seed);
  const specs = ask.terrains.map((name) => TERRAINS[name as TerrainName] ?? TERRAINS.grass);
  // one texture per terrain, each avoiding the base colours before it
  const textures: ReturnType<typeof terrainTexture>[] = [];
  for (const spec of specs) {
    textures.push(terrainTexture(spec, s, rng.fork(`terrain-${spec.name}`), painter));
  }
  const wang = tilesetRules('wang16');
  const pairs: LevelArt['pairs'] = ask.pairs.map(([a, b]) => ({
    a,
    b,
    tiles: renderTerrainTiles({
      tiles: wang.tiles,
      size: s,
      layers: [
        { spec: specs[a]!, texture: textures[a]! },
        { spec: specs[b]!, texture: textures[b]! },
      ],
      rng: rng.fork(`pair-${a}-${b}`),
    }),
  }));
  const props: LevelArt['props'] = [];
  for (const kind of ask.props) {
    const row = PROPS[kind];
    if (!row) continue;
    const drawn = await drawSprite(row.prompt, Math.max(16, Math.round(2 * s)));
    if (drawn) props.push({ kind, image: onCell(drawn.image, s, row.tall), as: drawn.as });
  }
  // each terrain's plain tile is its texture (what every pair set draws where a tile is all of it)
  const plains = textures.map((t) => {
    const data = new Uint8Array(s * s * 4);
    for (let y = 0; y < s; y++)
      for (let x = 0; x < s; x++) {
        const c = t.at(x, y);
        data.set([c[0], c[1], c[2], 255], (y * s + x) * 4);
      }
    return { width: s, height: s, data };
  });
  return {
    frames: [],
    animation: 'level',
    subject: 'level',
    levelArt: { pairs, plains, colors: textures.map((t) => t.ramp.base as Rgb), props },
  };
}
