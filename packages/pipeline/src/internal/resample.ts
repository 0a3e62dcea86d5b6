import type { RgbaImage } from '../types.js';

/**
 * Scales to cover `w × h` then crops the centre (area-averaging when shrinking, bilinear when
 * growing); colour is averaged with alpha weighting so transparent pixels do not bleed.
 */
export function resizeCover(src: RgbaImage, w: number, h: number): RgbaImage {
  const scale = Math.max(w / src.width, h / src.height);
  const cropW = w / scale;
  const cropH = h / scale;
  const x0 = (src.width - cropW) / 2;
  const y0 = (src.height - cropH) / 2;
  const out = new Uint8Array(w * h * 4);
  const s = src.data;
  const sample = (x: number, y: number, acc: Float64Array, weight: number) => {
    const xi = Math.min(src.width - 1, Math.max(0, Math.floor(x)));
    const yi = Math.min(src.height - 1, Math.max(0, Math.floor(y)));
    const i = (yi * src.width + xi) * 4;
    const a = (s[i + 3]! / 255) * weight;
    acc[0]! += s[i]! * a;
    acc[1]! += s[i + 1]! * a;
    acc[2]! += s[i + 2]! * a;
    acc[3]! += a;
    acc[4]! += weight;
  };
  const step = 1 / scale;
  const n = Math.max(1, Math.min(8, Math.ceil(step)));
  const acc = new Float64Array(5);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      acc.fill(0);
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          sample(x0 + (x + (sx + 0.5) / n) * step, y0 + (y + (sy + 0.5) / n) * step, acc, 1);
        }
      }
      const o = (y * w + x) * 4;
      if (acc[3]! > 0) {
        out[o] = Math.round(acc[0]! / acc[3]!);
        out[o + 1] = Math.round(acc[1]! / acc[3]!);
        out[o + 2] = Math.round(acc[2]! / acc[3]!);
      }
      out[o + 3] = Math.round((acc[3]! / acc[4]!) * 255);
    }
  }
  return { width: w, height: h, data: out };
}

/**
 * Makes a flat backdrop transparent: flood-fills from the border through pixels close to the
 * dominant corner colour. Image models usually paint sprites on a plain white or grey ground.
 */
export function removeFlatBackground(img: RgbaImage, tolerance = 28): RgbaImage {
  const { width: w, height: h } = img;
  const d = new Uint8Array(img.data);
  const corners = [0, w - 1, (h - 1) * w, h * w - 1].map((p) => [
    d[p * 4]!,
    d[p * 4 + 1]!,
    d[p * 4 + 2]!,
    d[p * 4 + 3]!,
  ]);
  const ref = corners[0]!;
  if (ref[3]! < 128) return { width: w, height: h, data: d };
  const close = (p: number) =>
    d[p * 4 + 3]! > 0 &&
    Math.abs(d[p * 4]! - ref[0]!) + Math.abs(d[p * 4 + 1]! - ref[1]!) + Math.abs(d[p * 4 + 2]! - ref[2]!) <=
      tolerance * 3;
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  for (let x = 0; x < w; x++) stack.push(x, (h - 1) * w + x);
  for (let y = 0; y < h; y++) stack.push(y * w, y * w + w - 1);
  while (stack.length) {
    const p = stack.pop()!;
    if (seen[p] || !close(p)) continue;
    seen[p] = 1;
    d[p * 4 + 3] = 0;
    const x = p % w;
    const y = (p - x) / w;
    if (x > 0) stack.push(p - 1);
    if (x < w - 1) stack.push(p + 1);
    if (y > 0) stack.push(p - w);
    if (y < h - 1) stack.push(p + w);
  }
  return { width: w, height: h, data: d };
}
