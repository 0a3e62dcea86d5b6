import { pixelizeFrames } from '../pixelize-frames.js';
import type { FromModel, ModelPictures } from './types.js';

/** Model pictures → native pixel art: one scale, one palette, one baseline for the sheet. */
export function pixelizeModelFrames({ generated, layout, palette }: ModelPictures): FromModel {
  const pictures = generated.frames;
  const px = pixelizeFrames(pictures, {
    frameWidth: layout.frameWidth,
    frameHeight: layout.frameHeight,
    palette,
    opaque: layout.opaque,
  });
  return {
    generated: { ...generated, frames: px.frames },
    sources: pictures.map((picture, i) => ({
      picture,
      native: px.native[i]!,
      scale: px.scale,
      offset: px.offsets[i]!,
    })),
  };
}
