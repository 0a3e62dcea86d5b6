import type { RgbaImage } from '@assetloom/pipeline';
import type { PixelCanvas } from '@assetloom/pipeline/pixel';

export { pack, unpack } from '@assetloom/pipeline/pixel';

/** An sRGB colour, 0–255 a channel. */
export type RGB = readonly [number, number, number];

export const mixRgb = (a: RGB, b: RGB, t: number): RGB => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];
export const scaleRgb = (c: RGB, k: number): RGB => [c[0] * k, c[1] * k, c[2] * k];

/** The layers flattened front over back, as RGBA (opaque where any layer has a pixel). */
export function flatten(layers: readonly PixelCanvas[], w: number, h: number): RgbaImage {
  const out = new Uint32Array(w * h);
  for (const layer of layers)
    for (let i = 0; i < out.length; i++) {
      const v = layer.px[i]!;
      if (v) out[i] = v;
    }
  return { width: w, height: h, data: new Uint8Array(out.buffer) };
}

/** One layer as its own RGBA picture (transparent where it is empty). */
export function layerImage(layer: PixelCanvas): RgbaImage {
  return layer.rgba();
}

/** The picture cropped to its opaque pixels (null when it has none). */
export function cropToPixels(img: RgbaImage): RgbaImage | null {
  let x0 = img.width;
  let y0 = img.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (img.data[(y * img.width + x) * 4 + 3]) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  if (x1 < 0) return null;
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    data.set(
      img.data.subarray(((y0 + y) * img.width + x0) * 4, ((y0 + y) * img.width + x1 + 1) * 4),
      y * w * 4,
    );
  return { width: w, height: h, data };
}
