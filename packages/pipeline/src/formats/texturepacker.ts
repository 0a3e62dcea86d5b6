import { ANIMATION_DEFAULTS } from './playback.js';
import { ATLAS_APP } from './sheet.js';

export interface FrameRect {
  name: string;
  animation: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** Milliseconds the frame shows (default: round(1000 / 8 fps)). */
  duration?: number;
}

export interface TexturePackerOptions {
  /** Animation name → frame names in playing order (default: each animation's frames in order). */
  animations?: Record<string, string[]>;
  /** The other pages' JSON files of a wrapped sheet (TexturePacker multipack `meta.related_multi_packs`). */
  relatedMultiPacks?: string[];
}

/** The TexturePacker "JSON (Hash)" atlas that Phaser (`load.atlas`) and PixiJS (`Spritesheet`) read. */
export function texturePackerAtlas(
  image: string,
  size: { w: number; h: number },
  rects: readonly FrameRect[],
  options: TexturePackerOptions = {},
): string {
  const frames: Record<string, unknown> = {};
  const byAnimation: Record<string, string[]> = {};
  for (const r of rects) {
    frames[r.name] = {
      frame: { x: r.x, y: r.y, w: r.w, h: r.h },
      rotated: false,
      trimmed: false,
      spriteSourceSize: { x: 0, y: 0, w: r.w, h: r.h },
      sourceSize: { w: r.w, h: r.h },
      pivot: { x: 0.5, y: 0.5 },
      duration: r.duration ?? Math.round(1000 / ANIMATION_DEFAULTS.fps),
    };
    const list = byAnimation[r.animation] ?? [];
    list.push(r.name);
    byAnimation[r.animation] = list;
  }
  return `${JSON.stringify(
    {
      frames,
      animations: options.animations ?? byAnimation,
      meta: {
        app: ATLAS_APP,
        version: '1.0',
        image,
        format: 'RGBA8888',
        size,
        scale: '1',
        ...(options.relatedMultiPacks?.length ? { related_multi_packs: options.relatedMultiPacks } : {}),
      },
    },
    null,
    2,
  )}\n`;
}
