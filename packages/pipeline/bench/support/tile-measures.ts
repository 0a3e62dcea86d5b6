// Measures and picture helpers the tile benches share (tile-fills-39am/39aw, tile-snow-39bc,
// tile-materials-39bn): the lightness correlation at the tile period of a painted fill (decision
// 0112's measure), a nearest-neighbour enlargement and PNG bytes of an image.
import { oklab } from '../../src/colour.js';
import { encodePng } from '../../src/png.js';
import type { RgbaImage } from '../../src/types/index.js';

/** Lightness correlation at the tile period `n` less the mean at other offsets: how much a fill repeats. */
export function periodCorrelation(image: RgbaImage, n: number): number {
  const W = image.width;
  const H = image.height;
  const L = Array.from(
    { length: W * H },
    (_, i) => oklab([image.data[4 * i]!, image.data[4 * i + 1]!, image.data[4 * i + 2]!])[0],
  );
  const mean = L.reduce((a, b) => a + b, 0) / L.length;
  const r = (dx: number, dy: number) => {
    let s = 0;
    let a = 0;
    let b = 0;
    for (let y = 0; y + dy < H; y++)
      for (let x = 0; x + dx < W; x++) {
        const p = L[y * W + x]! - mean;
        const q = L[(y + dy) * W + x + dx]! - mean;
        s += p * q;
        a += p * p;
        b += q * q;
      }
    return s / Math.sqrt(a * b);
  };
  const others = [3, 5, 7, 9, 11, 13].map((d) => (r(d, 0) + r(0, d)) / 2);
  return (r(n, 0) + r(0, n)) / 2 - others.reduce((a, b) => a + b, 0) / others.length;
}

/** PNG bytes of an image. */
export const png = (im: RgbaImage) => encodePng(im.data, im.width, im.height);

/** An image enlarged `k` times, nearest neighbour. */
export function scale(im: RgbaImage, k: number): RgbaImage {
  const w = im.width * k;
  const h = im.height * k;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const s = (Math.floor(y / k) * im.width + Math.floor(x / k)) * 4;
      data.set(im.data.subarray(s, s + 4), (y * w + x) * 4);
    }
  return { width: w, height: h, data };
}
