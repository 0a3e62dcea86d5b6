import type { RgbaImage } from '../types/index.js';

/** A blank (transparent) picture. */
export function blank(width: number, height: number): RgbaImage {
  return { width, height, data: new Uint8Array(width * height * 4) };
}

/** The part `x, y, w, h` of a picture (clipped to it). */
export function cropPicture(img: RgbaImage, x: number, y: number, w: number, h: number): RgbaImage {
  const out = blank(w, h);
  for (let yy = 0; yy < h; yy++) {
    const sy = y + yy;
    if (sy < 0 || sy >= img.height) continue;
    for (let xx = 0; xx < w; xx++) {
      const sx = x + xx;
      if (sx < 0 || sx >= img.width) continue;
      const s = (sy * img.width + sx) * 4;
      out.data.set(img.data.subarray(s, s + 4), (yy * w + xx) * 4);
    }
  }
  return out;
}

/**
 * Area-average resampling to `w × h` (each output pixel the alpha-weighted mean of the input pixels
 * it covers, fractions included): the way a picture is brought down to the pixel grid without the
 * shimmer of nearest-neighbour sampling. Upscaling (w or h larger) falls back to nearest neighbour.
 */
export function resampleArea(img: RgbaImage, w: number, h: number): RgbaImage {
  if (w === img.width && h === img.height) return { width: w, height: h, data: img.data.slice() };
  if (w >= img.width && h >= img.height) return resampleNearest(img, w, h);
  const out = blank(w, h);
  const sx = img.width / w;
  const sy = img.height / h;
  const d = img.data;
  for (let y = 0; y < h; y++) {
    const y0 = y * sy;
    const y1 = y0 + sy;
    for (let x = 0; x < w; x++) {
      const x0 = x * sx;
      const x1 = x0 + sx;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let area = 0;
      for (let py = Math.floor(y0); py < Math.min(img.height, Math.ceil(y1)); py++) {
        const wy = Math.min(y1, py + 1) - Math.max(y0, py);
        if (wy <= 0) continue;
        for (let px = Math.floor(x0); px < Math.min(img.width, Math.ceil(x1)); px++) {
          const wx = Math.min(x1, px + 1) - Math.max(x0, px);
          if (wx <= 0) continue;
          const weight = wx * wy;
          const i = (py * img.width + px) * 4;
          const alpha = d[i + 3]! * weight;
          r += d[i]! * alpha;
          g += d[i + 1]! * alpha;
          b += d[i + 2]! * alpha;
          a += alpha;
          area += weight;
        }
      }
      const o = (y * w + x) * 4;
      if (a > 0) {
        out.data[o] = Math.round(r / a);
        out.data[o + 1] = Math.round(g / a);
        out.data[o + 2] = Math.round(b / a);
      }
      out.data[o + 3] = area > 0 ? Math.round(a / area) : 0;
    }
  }
  return out;
}

/** Nearest-neighbour resampling to `w × h`. */
export function resampleNearest(img: RgbaImage, w: number, h: number): RgbaImage {
  const out = blank(w, h);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(img.height - 1, Math.floor(((y + 0.5) * img.height) / h));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(img.width - 1, Math.floor(((x + 0.5) * img.width) / w));
      const s = (sy * img.width + sx) * 4;
      out.data.set(img.data.subarray(s, s + 4), (y * w + x) * 4);
    }
  }
  return out;
}

/** A picture cut into `cols × rows` equal cells, row by row (direction-major for a sheet). */
export function cells(img: RgbaImage, cols: number, rows: number): RgbaImage[] {
  const cw = Math.floor(img.width / cols);
  const ch = Math.floor(img.height / rows);
  const out: RgbaImage[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) out.push(cropPicture(img, c * cw, r * ch, cw, ch));
  return out;
}

/** The picture over a flat colour (alpha composited away): what a model sees of a transparent sprite. */
export function flatten(img: RgbaImage, background: readonly [number, number, number]): RgbaImage {
  const out = blank(img.width, img.height);
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) {
    const a = d[i + 3]! / 255;
    out.data[i] = Math.round(d[i]! * a + background[0] * (1 - a));
    out.data[i + 1] = Math.round(d[i + 1]! * a + background[1] * (1 - a));
    out.data[i + 2] = Math.round(d[i + 2]! * a + background[2] * (1 - a));
    out.data[i + 3] = 255;
  }
  return out;
}

/** Where a mask says "edit": light (luminance ≥ 128) and opaque (alpha ≥ 128). */
export function maskBits(mask: RgbaImage): Uint8Array {
  const out = new Uint8Array(mask.width * mask.height);
  const d = mask.data;
  for (let p = 0, i = 0; p < out.length; p++, i += 4) {
    const lum = 0.2126 * d[i]! + 0.7152 * d[i + 1]! + 0.0722 * d[i + 2]!;
    out[p] = d[i + 3]! >= 128 && lum >= 128 ? 1 : 0;
  }
  return out;
}

/** `edited` where the mask is white, `original` elsewhere (both the mask's size). */
export function compositeMasked(original: RgbaImage, edited: RgbaImage, mask: RgbaImage): RgbaImage {
  const bits = maskBits(mask);
  const out = blank(original.width, original.height);
  for (let p = 0; p < bits.length; p++) {
    const src = bits[p] ? edited : original;
    out.data.set(src.data.subarray(p * 4, p * 4 + 4), p * 4);
  }
  return out;
}
