/**
 * `@assetloom/pipeline/tileset`: tilesets without the drawing — the rules of which tiles may touch
 * (Wang 16, blob 47, seamless), terrains, the seam measure, the engine files (Tiled, Godot 4, JSON),
 * a map painted with a set's rules, and the terrain painter the built-in generator and the tiles cut
 * from a model's terrain pictures share.
 *
 * @packageDocumentation
 */

export {
  fullTileVariant,
  renderTerrainTiles,
  type TerrainLayer,
  type TerrainRenderJob,
} from '../terrain/render.js';
export {
  type TerrainTexture,
  type TerrainTextureOptions,
  terrainTexture,
  variantTexture,
} from '../terrain/textures.js';
export {
  godotTileSet,
  type TilesetDescription,
  type TilesetFileInput,
  tiledTileset,
  tilesetDescription,
} from '../tileset/formats.js';
export { type PaintedMap, paintMap } from '../tileset/map.js';
export type { RenderedTileset } from '../tileset/model.js';
export { TILESET_DEFAULTS, TILESET_LIMITS, tilesetParams } from '../tileset/params.js';
export {
  BLOB_MASKS,
  blobTileFor,
  FULL_TILE_VARIANTS,
  fullTileDrawings,
  mayTouch,
  type PeeringBit,
  TILESET_KINDS,
  type TileRule,
  type TilesetKind,
  type TilesetRules,
  tilesetRules,
  touchingPairs,
  wangTileFor,
} from '../tileset/rules.js';
export {
  innerDifference,
  jointDifference,
  measureSeams,
  SEAM_GOALS,
  type SeamPair,
  type SeamReport,
  seamScore,
} from '../tileset/seams.js';
export {
  chooseTerrains,
  TERRAIN_NAMES,
  TERRAINS,
  type TerrainChoice,
  type TerrainName,
  type TerrainSpec,
  terrainSpecsOf,
  undrawnMaterial,
} from '../tileset/terrains.js';
