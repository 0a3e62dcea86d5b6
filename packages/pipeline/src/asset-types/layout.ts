/** The frames a request gets (ExpectedLayout) and the helpers every asset-type module shares. */
import { PARAM_DEFAULTS } from '../generated/params.js';
import type { TilesetKind } from '../tileset/rules.js';
import type { Directions, GenerationParams } from '../types/index.js';
import type { UiKind } from '../ui-spec.js';

/**
 * The canvas asked for (`params.width` × `params.height`, the one not given being `resolution`), or
 * null when neither is given. Only asset types with `canvas: true` read it (background, ui).
 */
export function canvasOf(
  params: Pick<GenerationParams, 'resolution' | 'width' | 'height'>,
): { width: number; height: number } | null {
  const { width, height } = params;
  if ((width === undefined || width === null) && (height === undefined || height === null)) return null;
  return { width: width ?? params.resolution, height: height ?? params.resolution };
}

/** What a request asks for, frame by frame: the contract between providers and the quality supervisor. */
export interface ExpectedLayout {
  frameWidth: number;
  frameHeight: number;
  directions: Directions;
  framesPerDirection: number;
  frameCount: number;
  directionNames: string[];
  uiKind?: UiKind;
  /** Backgrounds are opaque; sprites, animation frames and UI pieces have transparent surroundings. */
  opaque: boolean;
  /** Tilesets: the kind of set and its sheet grid (frames are the tiles, row-major). */
  tileset?: { kind: TilesetKind; columns: number; rows: number };
  /** Levels: the map's size in tiles and the tile edge (the one frame is the level's preview). */
  level?: { columns: number; rows: number; tileSize: number };
}

/** The frames a sprite or animation gets when its request names none (the contract's defaults). */
export const DEFAULT_FRAMES = {
  directions: PARAM_DEFAULTS.directions,
  framesPerDirection: PARAM_DEFAULTS.framesPerDirection,
} as const;
