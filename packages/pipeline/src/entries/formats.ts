/**
 * `@assetloom/pipeline/formats`: the frames' layout and the engine files the format adapter writes —
 * sheets and pages past 4096 px, TexturePacker JSON, Godot SpriteFrames, Aseprite, Phaser, Unity,
 * and the playback (fps, durations, loop) written into them.
 *
 * @packageDocumentation
 */

export { FRAMES_PER_SECOND } from '../format.js';
export { anchorIn } from '../formats/anchor.js';
export { composeSheet } from '../formats/compose.js';
export { godotSpriteFrames } from '../formats/godot.js';
export {
  composePage,
  layoutPages,
  MAX_PAGE_SIZE,
  type PageLayout,
  type SheetPage,
} from '../formats/pages.js';
export { ANIMATION_DEFAULTS, ANIMATION_LOOPS, type Playback, resolvePlayback } from '../formats/playback.js';
export { type SheetInput, sheetFiles } from '../formats/sheets.js';
export { type FrameRect, texturePackerAtlas } from '../formats/texturepacker.js';
export { canvasSize, DEFAULT_FRAMES, type ExpectedLayout, expectedLayout } from '../layout.js';
