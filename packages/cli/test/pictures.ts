import { encodePng } from '@assetloom/pipeline';

// an 8 × 12 sprite: outline, two fills, a highlight
export const SPRITE = [
  '...oooo...',
  '..oyyyyo..',
  '.oyyyyyyo.',
  '.oywyyyyo.',
  '.oyyyyyyo.',
  '..oyyyyo..',
  '..orrrro..',
  '.orrrrrro.',
  '.orrrrrro.',
  '..orrrro..',
  '..oo..oo..',
  '..oo..oo..',
];
const INK: Record<string, [number, number, number]> = {
  o: [28, 30, 46],
  y: [255, 200, 110],
  w: [248, 248, 248],
  r: [175, 60, 85],
};

/** What a model paints: the sprite at 7.5 px per pixel, off the picture's grid, noisy, on white. */
export function modelPicture(): Uint8Array {
  const scale = 7.5;
  const ox = 2.6;
  const oy = 4.1;
  const w = Math.ceil((SPRITE[0]!.length + 6) * scale);
  const h = Math.ceil((SPRITE.length + 6) * scale);
  const data = new Uint8Array(w * h * 4);
  let seed = 11;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const cx = Math.floor((x + 0.5 - ox) / scale) - 3;
      const cy = Math.floor((y + 0.5 - oy) / scale) - 3;
      const c = INK[SPRITE[cy]?.[cx] ?? '.'] ?? [255, 255, 255];
      const i = (y * w + x) * 4;
      for (let k = 0; k < 3; k++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        data[i + k] = Math.max(0, Math.min(255, c[k]! + (((seed >>> 8) % 15) - 7)));
      }
      data[i + 3] = 255;
    }
  }
  return encodePng(data, w, h);
}

function picture(width: number, height: number, paint: (x: number, y: number) => number[]): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(paint(x, y), (y * width + x) * 4);
  return encodePng(data, width, height);
}

/** The sprite above at 4 px per pixel on a transparent backdrop: a character to animate. */
export function knightPicture(): Uint8Array {
  const scale = 4;
  return picture(SPRITE[0]!.length * scale, SPRITE.length * scale, (x, y) => {
    const c = INK[SPRITE[Math.floor(y / scale)]?.[Math.floor(x / scale)] ?? '.'];
    return c ? [...c, 255] : [0, 0, 0, 0];
  });
}

/** A 120 × 120 photo-like picture: a two-colour figure on a flat light backdrop. */
export function figurePicture(): Uint8Array {
  return picture(120, 120, (x, y) => {
    const body = x > 40 && x < 80 && y > 50 && y < 110;
    const head = x > 48 && x < 72 && y > 20 && y <= 50;
    return body ? [40, 60, 160, 255] : head ? [230, 180, 140, 255] : [240, 240, 230, 255];
  });
}

/** Three colours, four pixels each: a palette to take. */
export function palettePicture(): Uint8Array {
  const colours = [
    [20, 20, 40],
    [200, 60, 60],
    [250, 220, 120],
  ];
  return picture(4, 3, (_x, y) => [...(colours[y] as number[]), 255]);
}
