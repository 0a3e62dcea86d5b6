import { ATLAS_APP, type SheetDescription } from './sheet.js';

/**
 * A Phaser 3 multi-atlas (`this.load.multiatlas(key, url, path)`, TexturePacker's "Phaser 3"
 * layout): `textures`, one per page, each with its `image`, `format`, `size`, `scale` and `frames`
 * (`{filename, rotated, trimmed, sourceSize, spriteSourceSize, frame}`). Frame names are unique over
 * all pages, so one texture key holds them all.
 */
export function phaserMultiAtlas(sheet: SheetDescription): string {
  const textures = sheet.pages.map((page, index) => ({
    image: page.image,
    format: 'RGBA8888',
    size: { w: page.width, h: page.height },
    scale: 1,
    frames: sheet.frames
      .filter((f) => f.page === index)
      .map((f) => ({
        filename: f.name,
        rotated: false,
        trimmed: false,
        sourceSize: { w: f.w, h: f.h },
        spriteSourceSize: { x: 0, y: 0, w: f.w, h: f.h },
        frame: { x: f.x, y: f.y, w: f.w, h: f.h },
      })),
  }));
  return `${JSON.stringify({ textures, meta: { app: ATLAS_APP, version: '1.0' } }, null, 2)}\n`;
}

/**
 * Phaser 3 animations for `this.anims.fromJSON(json)` (the shape `AnimationManager#toJSON`
 * writes): one per animation, each frame `{key, frame, duration}` of the atlas loaded under
 * `textureKey`, `frameRate` the request's fps. Since Phaser 3.80 a frame's `duration` is its whole
 * time on screen (0: 1000 / frameRate), so durations of the request's own are written as they are
 * and plain fps as 0. `reverse` lists the frames backwards; `pingpong` is Phaser's `yoyo`. Every
 * animation repeats forever (`repeat: -1`).
 */
export function phaserAnimations(sheet: SheetDescription, textureKey: string): string {
  const { playback } = sheet;
  const anims = sheet.animations.map((a) => {
    const order = playback.loop === 'reverse' ? [...a.frames].reverse() : a.frames;
    return {
      key: a.name,
      type: 'frame',
      frames: order.map((i) => {
        const f = sheet.frames[i]!;
        return { key: textureKey, frame: f.name, duration: playback.custom ? f.duration : 0 };
      }),
      frameRate: playback.fps,
      delay: 0,
      repeat: -1,
      repeatDelay: 0,
      yoyo: playback.loop === 'pingpong',
      showOnStart: false,
      hideOnComplete: false,
      skipMissedFrames: true,
    };
  });
  return `${JSON.stringify({ anims, globalTimeScale: 1 }, null, 2)}\n`;
}
