import { ATLAS_APP, type SheetDescription } from './sheet.js';

/** Aseprite's tag directions (doc/anidir.cpp) for each loop mode. */
const DIRECTION = { forward: 'forward', reverse: 'reverse', pingpong: 'pingpong' } as const;

/**
 * The Aseprite sprite-sheet JSON of one page, as `aseprite -b --sheet … --data … --format json-array
 * --list-tags` writes it (app/doc_exporter.cpp): `frames` an array of `{filename, frame, rotated,
 * trimmed, spriteSourceSize, sourceSize, duration}`, `meta` with `app`, `version`, `image`,
 * `format`, `size`, `scale` and `frameTags` (`{name, from, to, direction}`, from/to indexing this
 * file's `frames`). A direction never spans pages, so every tag lies on one page.
 */
export function asepriteSheet(sheet: SheetDescription, page: number): string {
  const image = sheet.pages[page]!;
  const onPage = sheet.frames.map((f, i) => ({ f, i })).filter(({ f }) => f.page === page);
  const position = new Map(onPage.map(({ i }, at) => [i, at]));
  const frames = onPage.map(({ f }) => ({
    filename: f.name,
    frame: { x: f.x, y: f.y, w: f.w, h: f.h },
    rotated: false,
    trimmed: false,
    spriteSourceSize: { x: 0, y: 0, w: f.w, h: f.h },
    sourceSize: { w: f.w, h: f.h },
    duration: f.duration,
  }));
  const frameTags = sheet.animations
    .filter((a) => a.frames.every((i) => position.has(i)))
    .map((a) => {
      const at = a.frames.map((i) => position.get(i)!);
      return {
        name: a.name,
        from: Math.min(...at),
        to: Math.max(...at),
        direction: DIRECTION[sheet.playback.loop],
      };
    });
  return `${JSON.stringify(
    {
      frames,
      meta: {
        app: ATLAS_APP,
        version: '1.0',
        image: image.image,
        format: 'RGBA8888',
        size: { w: image.width, h: image.height },
        scale: '1',
        frameTags,
      },
    },
    null,
    2,
  )}\n`;
}
