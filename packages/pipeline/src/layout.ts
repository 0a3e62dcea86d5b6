import { DIRECTION_NAMES } from './directions.js';
import { PARAM_DEFAULTS } from './generated/params.js';
import { tilesetParams } from './tileset/params.js';
import { type TilesetKind, tilesetRules } from './tileset/rules.js';
import type { AssetType, Directions, GenerationParams } from './types/index.js';
import { UI_STATES, type UiKind, uiFrameSize, uiKindOf, uiTextOf } from './ui-spec.js';

/** The three UI pieces the generator draws, told apart by the prompt. */
export type { UiKind } from './ui-spec.js';
export { uiFrameSize, uiKindOf } from './ui-spec.js';

/**
 * The canvas a background or UI piece asked for (`params.width` × `params.height`, the one not
 * given being `resolution`), or null when it asked for none (or is another asset type).
 */
export function canvasSize(
  assetType: AssetType,
  params: Pick<GenerationParams, 'resolution' | 'width' | 'height'>,
): { width: number; height: number } | null {
  if (assetType !== 'background' && assetType !== 'ui') return null;
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
}

/** The frames a sprite or animation gets when its request names none (the contract's defaults). */
export const DEFAULT_FRAMES = {
  directions: PARAM_DEFAULTS.directions,
  framesPerDirection: PARAM_DEFAULTS.framesPerDirection,
} as const;

export function expectedLayout(assetType: AssetType, params: GenerationParams, text: string): ExpectedLayout {
  const res = params.resolution;
  const canvas = canvasSize(assetType, params);
  if (assetType === 'tileset') {
    const { kind, tileSize } = tilesetParams(params.tileset);
    const rules = tilesetRules(kind);
    return {
      frameWidth: tileSize,
      frameHeight: tileSize,
      directions: 1,
      framesPerDirection: rules.tiles.length,
      frameCount: rules.tiles.length,
      directionNames: ['down'],
      opaque: true,
      tileset: { kind, columns: rules.columns, rows: rules.rows },
    };
  }
  if (assetType === 'background') {
    return {
      frameWidth: canvas?.width ?? res,
      frameHeight: canvas?.height ?? res,
      directions: 1,
      framesPerDirection: 1,
      frameCount: 1,
      directionNames: ['down'],
      opaque: true,
    };
  }
  if (assetType === 'ui') {
    const lower = text.toLowerCase();
    const kind = uiKindOf(lower);
    // a canvas asked for is every state's size; else the kind's shape at the resolution, widened
    // for the words it carries
    const { width, height } = canvas ?? uiFrameSize(kind, res, uiTextOf(text, kind)?.text);
    const count = UI_STATES[kind].length;
    return {
      frameWidth: width,
      frameHeight: height,
      directions: 1,
      framesPerDirection: count,
      frameCount: count,
      directionNames: ['down'],
      uiKind: kind,
      opaque: false,
    };
  }
  const frames = params.frames ?? DEFAULT_FRAMES;
  const directions = frames.directions;
  return {
    frameWidth: res,
    frameHeight: res,
    directions,
    framesPerDirection: frames.framesPerDirection,
    frameCount: directions * frames.framesPerDirection,
    directionNames: [...DIRECTION_NAMES[directions]],
    opaque: false,
  };
}
