import type { RgbaImage } from '@assetloom/pipeline';
import { bayer } from '@assetloom/pipeline/pixel';

/** An sRGB colour, 0–255 a channel. */
export type RGB = readonly [number, number, number];

/** Packs a colour as the little-endian RGBA word of an opaque pixel (0 is an empty pixel). */
export const pack = (c: RGB): number =>
  ((255 << 24) | (clamp(c[2]) << 16) | (clamp(c[1]) << 8) | clamp(c[0])) >>> 0;
export const unpack = (v: number): RGB => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255];
const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

export const mixRgb = (a: RGB, b: RGB, t: number): RGB => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];
export const scaleRgb = (c: RGB, k: number): RGB => [c[0] * k, c[1] * k, c[2] * k];

/**
 * One depth layer of a scene: a rectangle of pixels, empty (0) where the layers behind show through.
 * Every primitive draws whole pixels in one colour: shapes are pixel-art shapes, never blended.
 */
export class Layer {
  readonly px: Uint32Array;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    this.px = new Uint32Array(w * h);
  }
  inside(x: number, y: number): boolean {
    return x >= 0 && y >= 0 && x < this.w && y < this.h;
  }
  set(x: number, y: number, c: number): void {
    const xi = Math.floor(x);
    const yi = Math.floor(y);
    if (xi >= 0 && yi >= 0 && xi < this.w && yi < this.h) this.px[yi * this.w + xi] = c;
  }
  get(x: number, y: number): number {
    return this.inside(x, y) ? this.px[Math.floor(y) * this.w + Math.floor(x)]! : 0;
  }
  rect(x0: number, y0: number, x1: number, y1: number, c: number): void {
    const ya = Math.max(0, Math.round(y0));
    const yb = Math.min(this.h, Math.round(y1));
    const xa = Math.max(0, Math.round(x0));
    const xb = Math.min(this.w, Math.round(x1));
    for (let y = ya; y < yb; y++) this.px.fill(c, y * this.w + xa, y * this.w + Math.max(xa, xb));
  }
  ellipse(cx: number, cy: number, rx: number, ry: number, c: number, dither = 0): void {
    for (let y = Math.max(0, Math.floor(cy - ry)); y < Math.min(this.h, Math.ceil(cy + ry)); y++)
      for (let x = Math.max(0, Math.floor(cx - rx)); x < Math.min(this.w, Math.ceil(cx + rx)); x++) {
        const d = Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry);
        if (d <= 1 && (!dither || bayer(x, y) > (d - (1 - dither)) / dither)) this.px[y * this.w + x] = c;
      }
  }
  disc(cx: number, cy: number, r: number, c: number, dither = 0): void {
    this.ellipse(cx, cy, r, r, c, dither);
  }
  /** A filled polygon (even-odd, sampled at pixel centres). */
  poly(points: ReadonlyArray<readonly [number, number]>, c: number): void {
    let y0 = Number.POSITIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    for (const [, y] of points) {
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
    for (let y = Math.max(0, Math.floor(y0)); y <= Math.min(this.h - 1, Math.ceil(y1)); y++) {
      const sy = y + 0.5;
      const xs: number[] = [];
      for (let i = 0; i < points.length; i++) {
        const [ax, ay] = points[i]!;
        const [bx, by] = points[(i + 1) % points.length]!;
        if (ay <= sy !== by <= sy) xs.push(ax + ((sy - ay) / (by - ay)) * (bx - ax));
      }
      xs.sort((a, b) => a - b);
      for (let k = 0; k + 1 < xs.length; k += 2)
        for (
          let x = Math.max(0, Math.ceil(xs[k]! - 0.5));
          x <= Math.min(this.w - 1, Math.floor(xs[k + 1]! - 0.5));
          x++
        )
          this.px[y * this.w + x] = c;
    }
  }
  /** A line one pixel wide (or `width`). */
  line(x0: number, y0: number, x1: number, y1: number, c: number, width = 1): void {
    const n = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    for (let i = 0; i <= n; i++) {
      const x = x0 + ((x1 - x0) * i) / n;
      const y = y0 + ((y1 - y0) * i) / n;
      if (width <= 1) this.set(x, y, c);
      else this.rect(x - width / 2, y - width / 2, x + width / 2, y + width / 2, c);
    }
  }
  /** Draws an RGBA picture (its opaque pixels) with its top-left at x, y; `map` may recolour it. */
  blit(img: RgbaImage, x: number, y: number, map?: (c: RGB) => RGB): void {
    const ox = Math.round(x);
    const oy = Math.round(y);
    const memo = new Map<number, number>();
    for (let j = 0; j < img.height; j++)
      for (let i = 0; i < img.width; i++) {
        const s = (j * img.width + i) * 4;
        if (img.data[s + 3]! < 128) continue;
        const tx = ox + i;
        const ty = oy + j;
        if (tx < 0 || ty < 0 || tx >= this.w || ty >= this.h) continue;
        const key = (img.data[s]! << 16) | (img.data[s + 1]! << 8) | img.data[s + 2]!;
        let v = memo.get(key);
        if (v === undefined) {
          const c: RGB = [img.data[s]!, img.data[s + 1]!, img.data[s + 2]!];
          v = pack(map ? map(c) : c);
          memo.set(key, v);
        }
        this.px[ty * this.w + tx] = v;
      }
  }
  /** Recolours every pixel of the layer (ambient light, haze). */
  map(fn: (c: RGB) => RGB): void {
    const memo = new Map<number, number>();
    for (let i = 0; i < this.px.length; i++) {
      const v = this.px[i]!;
      if (!v) continue;
      let r = memo.get(v);
      if (r === undefined) {
        r = pack(fn(unpack(v)));
        memo.set(v, r);
      }
      this.px[i] = r;
    }
  }
}

/** The layers flattened front over back, as RGBA (opaque where any layer has a pixel). */
export function flatten(layers: readonly Layer[], w: number, h: number): RgbaImage {
  const out = new Uint32Array(w * h);
  for (const layer of layers)
    for (let i = 0; i < out.length; i++) {
      const v = layer.px[i]!;
      if (v) out[i] = v;
    }
  return { width: w, height: h, data: new Uint8Array(out.buffer) };
}

/** One layer as its own RGBA picture (transparent where it is empty). */
export function layerImage(layer: Layer): RgbaImage {
  return { width: layer.w, height: layer.h, data: new Uint8Array(new Uint32Array(layer.px).buffer) };
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
