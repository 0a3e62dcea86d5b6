import { DIRECTION_NAMES } from './directions.js';
import { type UiKind, uiFrameSize, uiKindOf } from './internal/art/ui.js';
import type { AssetType, Directions, GenerationParams } from './types.js';

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
}

export const DEFAULT_FRAMES = { directions: 4, framesPerDirection: 4 } as const;

export function expectedLayout(assetType: AssetType, params: GenerationParams, text: string): ExpectedLayout {
  const res = params.resolution;
  if (assetType === 'background') {
    return {
      frameWidth: res,
      frameHeight: res,
      directions: 1,
      framesPerDirection: 1,
      frameCount: 1,
      directionNames: ['down'],
      opaque: true,
    };
  }
  if (assetType === 'ui') {
    const kind = uiKindOf(text.toLowerCase());
    const { width, height } = uiFrameSize(kind, res);
    const count = kind === 'button' ? 3 : kind === 'bar' ? 2 : 1;
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
