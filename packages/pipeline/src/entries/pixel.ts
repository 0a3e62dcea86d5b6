/**
 * `@assetloom/pipeline/pixel`: the pixel tools the pipeline and its providers share — the painter
 * and its palette-bound grid, OKLab colour, seeded randomness and noise, pixelize (grid detection,
 * backdrop removal, palettes), and the pictures-in tools that work on any provider (animate a given
 * sprite, a palette from a picture, a seamless tile's variation).
 *
 * @packageDocumentation
 */

export { fromOklab, hueTurn, oklab, oklabOf, oklch } from '../colour.js';
export { DIRECTION_NAMES } from '../directions.js';
export { animateSprite, SPRITE_MOTIONS, type SpriteMotion, spriteMotionOf } from '../image-input/animate.js';
export { paletteFromPicture } from '../image-input/palette-from.js';
export { tileVariation } from '../image-input/tile-variation.js';
export { matchColourWord, mix, PaletteMatcher, parseHex, type Rgb, toHex } from '../palette.js';
export {
  bayer,
  gridFor,
  type Material,
  Painter,
  PixelCanvas,
  pack,
  type Ramp,
  shadeGrid,
  unpack,
  upscale,
} from '../pixel/canvas.js';
export { hash53, Noise1D, Noise2D, Rng } from '../pixel/random.js';
export {
  detectGrid,
  mapToPalette,
  type PixelGrid,
  type PixelizeOptions,
  type PixelizeResult,
  pixelize,
  quantizeAdaptive,
  removeBackdrop,
} from '../pixelize.js';
export { type PixelizedFrames, type PixelizeFramesOptions, pixelizeFrames } from '../pixelize-frames.js';
export { inspectQuality, type QualityInput } from '../quality.js';
export {
  DEFAULT_MODEL_THRESHOLDS,
  inspectModelOutput,
  type ModelQualityInput,
  type ModelQualityThresholds,
} from '../quality-model.js';
export { type ResolvedStyle, resolveStyle } from '../style.js';
