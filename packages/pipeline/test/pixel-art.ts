// Small synthetic pixel art and "model pictures" made from it, for the pixelize and provider tests.
import { encodePng } from '../src/png.js';
import type { RgbaImage } from '../src/types/index.js';

const K: Record<string, [number, number, number] | null> = {
  '.': null,
  o: [34, 32, 52], // outline
  s: [238, 195, 154], // skin
  r: [172, 50, 50], // tunic
  b: [63, 63, 116], // legs
  y: [251, 242, 54], // hair
  w: [255, 255, 255], // eye highlight (same colour as the backdrop)
};

/** A 12×16 walking figure; `step` 0/1 moves the legs; it has a 2-cell gap between arm and body. */
export function figure(step = 0): RgbaImage {
  const rows = [
    '....oooo....',
    '...oyyyyo...',
    '...oyyyyo...',
    '...osswso...',
    '...ossss o..',
    '....oooo....',
    '..oorrrroo..',
    '.or.orrro.ro',
    '.or.orrro.ro',
    '.oo.orrro.oo',
    '....orrro...',
    '....obbbo...',
    step ? '...ob..bo...' : '....obbo....',
    step ? '..ob....bo..' : '....obbo....',
    step ? '..oo....oo..' : '....obbo....',
    step ? '............' : '....oooo....',
  ].map((r) => r.replace(' ', '.'));
  const w = 12;
  const h = rows.length;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = K[rows[y]![x]!] ?? null;
      if (!c) continue;
      data.set([c[0], c[1], c[2], 255], (y * w + x) * 4);
    }
  }
  return { width: w, height: h, data };
}

/** Deterministic noise in [-a, a]. */
function noise(i: number, a: number): number {
  const x = Math.sin(i * 12.9898) * 43758.5453;
  return Math.round((x - Math.floor(x) - 0.5) * 2 * a);
}

/**
 * Upscales a native sprite by `scale` (may be fractional) starting at `offset`, on a flat
 * backdrop, with `pad` cells of backdrop around it and ±`jitter` noise per channel.
 */
export function modelPicture(
  native: RgbaImage,
  scale: number,
  offset: { x: number; y: number },
  opts: { pad?: number; backdrop?: [number, number, number]; jitter?: number } = {},
): RgbaImage {
  const pad = opts.pad ?? 3;
  const back = opts.backdrop ?? [255, 255, 255];
  const w = Math.ceil((native.width + pad * 2) * scale + offset.x);
  const h = Math.ceil((native.height + pad * 2) * scale + offset.y);
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const cy = Math.floor((y + 0.5 - offset.y) / scale) - pad;
    for (let x = 0; x < w; x++) {
      const cx = Math.floor((x + 0.5 - offset.x) / scale) - pad;
      const o = (y * w + x) * 4;
      let c: [number, number, number] = back;
      if (cx >= 0 && cy >= 0 && cx < native.width && cy < native.height) {
        const i = (cy * native.width + cx) * 4;
        if (native.data[i + 3]! >= 128) c = [native.data[i]!, native.data[i + 1]!, native.data[i + 2]!];
      }
      for (let k = 0; k < 3; k++)
        data[o + k] = Math.max(0, Math.min(255, c[k]! + noise(o + k, opts.jitter ?? 0)));
      data[o + 3] = 255;
    }
  }
  return { width: w, height: h, data };
}

/** Side by side (a sheet row). */
export function hconcat(images: RgbaImage[]): RgbaImage {
  const h = Math.max(...images.map((i) => i.height));
  const w = images.reduce((a, i) => a + i.width, 0);
  const data = new Uint8Array(w * h * 4);
  let x0 = 0;
  for (const img of images) {
    for (let y = 0; y < img.height; y++) {
      data.set(img.data.subarray(y * img.width * 4, (y + 1) * img.width * 4), (y * w + x0) * 4);
    }
    x0 += img.width;
  }
  return { width: w, height: h, data };
}

export function pngOf(img: RgbaImage): Uint8Array {
  return encodePng(img.data, img.width, img.height);
}
