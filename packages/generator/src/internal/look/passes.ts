import type { RgbaImage } from '@assetloom/pipeline';
import type { Rgb } from '@assetloom/pipeline/pixel';
import { oklabOf } from '@assetloom/pipeline/pixel';

/**
 * The pixel passes of the look every sprite shares (look/index.ts): colour mapping, a light ramp from
 * one side, a selective outline, and the clean-up of orphan pixels and detached dots. Every pass
 * works on a native-size RGBA image whose opaque pixels have alpha 255 and whose others are 0.
 */

/** Maps every opaque pixel to `pick(colour)` (a palette's nearest colour). */
export function mapColours(img: RgbaImage, pick: (c: Rgb) => Rgb): void {
  const d = img.data;
  const memo = new Map<number, Rgb>();
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 0) continue;
    const key = (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
    let c = memo.get(key);
    if (!c) {
      c = pick([d[i]!, d[i + 1]!, d[i + 2]!]);
      memo.set(key, c);
    }
    d[i] = c[0];
    d[i + 1] = c[1];
    d[i + 2] = c[2];
  }
}

const opaqueAt = (img: RgbaImage, x: number, y: number) =>
  x >= 0 && y >= 0 && x < img.width && y < img.height && img.data[(y * img.width + x) * 4 + 3] !== 0;

/**
 * A light ramp from one side: the silhouette's edges that face the light go one step lighter and
 * those that face away one step darker (`shade(colour, ±1)` keeps each step inside the palette),
 * `depth` pixels deep, so a flat drawing gets a lit side and a shadow side the way sprites do.
 */
export function lightRamp(
  img: RgbaImage,
  light: { x: number; y: number },
  shade: (c: Rgb, dir: -1 | 1) => Rgb,
  depth: number,
): void {
  const { width: w, height: h, data: d } = img;
  const lx = Math.sign(Math.round(light.x * 2));
  const ly = Math.sign(Math.round(light.y * 2)) || -1;
  const out = new Uint8Array(d);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      if (d[i + 3] === 0) continue;
      // open towards the light within `depth` cells → lit; open away from it → shadow
      let lit = false;
      let dark = false;
      for (let k = 1; k <= depth && !lit; k++) if (!opaqueAt(img, x + lx * k, y + ly * k)) lit = true;
      if (!lit)
        for (let k = 1; k <= depth && !dark; k++) if (!opaqueAt(img, x - lx * k, y - ly * k)) dark = true;
      if (!lit && !dark) continue;
      const c = shade([d[i]!, d[i + 1]!, d[i + 2]!], lit ? 1 : -1);
      out[i] = c[0];
      out[i + 1] = c[1];
      out[i + 2] = c[2];
    }
  d.set(out);
}

/**
 * A selective outline: every transparent pixel next to the silhouette (4-neighbours) becomes a dark
 * shade of the colour it borders (`dark(colour)`), so a red apple has a deep red line and a green
 * leaf a deep green one; lineWeight 2 uses the darkest colour all round.
 */
export function outline(img: RgbaImage, dark: (c: Rgb) => Rgb): void {
  const { width: w, height: h, data: d } = img;
  const px = packed(img);
  const memo = new Map<number, Rgb>();
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      if (px[p]! >= 0) continue;
      // the neighbour to take the colour from: below, then the sides, then above (lit tops stay light)
      const n =
        y < h - 1 && px[p + w]! >= 0
          ? px[p + w]!
          : x > 0 && px[p - 1]! >= 0
            ? px[p - 1]!
            : x < w - 1 && px[p + 1]! >= 0
              ? px[p + 1]!
              : y > 0 && px[p - w]! >= 0
                ? px[p - w]!
                : -1;
      if (n < 0) continue;
      let c = memo.get(n);
      if (!c) {
        c = dark([(n >> 16) & 255, (n >> 8) & 255, n & 255]);
        memo.set(n, c);
      }
      d[p * 4] = c[0];
      d[p * 4 + 1] = c[1];
      d[p * 4 + 2] = c[2];
      d[p * 4 + 3] = 255;
    }
}

/** Connected groups of opaque pixels (8-neighbours), largest first: the pixel indices of each. */
function components(img: RgbaImage): number[][] {
  const { width: w, height: h, data: d } = img;
  const seen = new Uint8Array(w * h);
  const groups: number[][] = [];
  for (let start = 0; start < w * h; start++) {
    if (seen[start] || d[start * 4 + 3] === 0) continue;
    const group: number[] = [];
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      group.push(p);
      const x = p % w;
      const y = (p - x) / w;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (seen[q] || d[q * 4 + 3] === 0) continue;
          seen[q] = 1;
          stack.push(q);
        }
    }
    groups.push(group);
  }
  return groups.sort((a, b) => b.length - a.length);
}

/** A detached dot: a group of opaque pixels apart from the main body, too small to read as a part. */
const isDetachedDot = (size: number, largest: number) => size < Math.max(4, largest * 0.02);

/** OKLab lightness and a, b of packed 0xRRGGBB colours, memoized (a sheet has a few dozen colours). */
const labMemo = new Map<number, [number, number, number]>();
function labOf(rgb: number): [number, number, number] {
  let v = labMemo.get(rgb);
  if (!v) {
    v = oklabOf((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255);
    if (labMemo.size > 4096) labMemo.clear();
    labMemo.set(rgb, v);
  }
  return v;
}

/** The image's pixels as packed 0xRRGGBB, −1 where transparent. */
function packed(img: RgbaImage): Int32Array {
  const { width: w, height: h, data: d } = img;
  const out = new Int32Array(w * h);
  for (let p = 0, i = 0; p < w * h; p++, i += 4)
    out[p] = d[i + 3] === 0 ? -1 : (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
  return out;
}

/**
 * An orphan: an opaque pixel none of whose 8 neighbours shares its colour, and whose colour is near
 * the colour around it (within 0.12 of OKLab lightness and a little hue): noise of the downsample, not a
 * feature. A high-contrast single pixel (an eye, a glint on metal) is a drawn feature and stays.
 * Returns the colour to fill it with, or −1 when the pixel is no orphan.
 */
function orphanFill(px: Int32Array, w: number, h: number, x: number, y: number): number {
  const c = px[y * w + x]!;
  if (c < 0) return -1;
  let opaque = 0;
  const seen: number[] = [];
  const count: number[] = [];
  for (let dy = -1; dy <= 1; dy++) {
    const ny = y + dy;
    if (ny < 0 || ny >= h) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx;
      if ((!dx && !dy) || nx < 0 || nx >= w) continue;
      const n = px[ny * w + nx]!;
      if (n < 0) continue;
      if (n === c) return -1;
      opaque++;
      const k = seen.indexOf(n);
      if (k < 0) {
        seen.push(n);
        count.push(1);
      } else count[k]!++;
    }
  }
  if (opaque < 3) return -1;
  let best = 0;
  for (let k = 1; k < seen.length; k++) if (count[k]! > count[best]!) best = k;
  const around = seen[best]!;
  const [L1, a1, b1] = labOf(c);
  const [L2, a2, b2] = labOf(around);
  return Math.abs(L1 - L2) < 0.12 && Math.hypot(a1 - a2, b1 - b2) < 0.08 ? around : -1;
}

/**
 * Clean-up: detached dots go (sparkles, snowflakes and glints floating beside the body) unless
 * `dots` is false, pinholes inside the body are filled, and orphans take the colour around them,
 * until none is left.
 */
export function cleanUp(img: RgbaImage, dots = true): void {
  const { width: w, height: h, data: d } = img;
  if (dots) {
    const groups = components(img);
    const largest = groups[0]?.length ?? 0;
    for (const g of groups.slice(1))
      if (isDetachedDot(g.length, largest)) for (const p of g) d[p * 4 + 3] = 0;
  }
  const px = packed(img);
  const set = (p: number, c: number) => {
    px[p] = c;
    d[p * 4] = (c >> 16) & 255;
    d[p * 4 + 1] = (c >> 8) & 255;
    d[p * 4 + 2] = c & 255;
    d[p * 4 + 3] = 255;
  };
  for (let pass = 0; pass < 3; pass++) {
    let changed = 0;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const p = y * w + x;
        if (px[p]! < 0) {
          // a pinhole: a transparent pixel with opaque pixels on all four sides
          if (
            x > 0 &&
            x < w - 1 &&
            y > 0 &&
            y < h - 1 &&
            px[p - 1]! >= 0 &&
            px[p + 1]! >= 0 &&
            px[p - w]! >= 0 &&
            px[p + w]! >= 0
          ) {
            set(p, px[p - 1]!);
            changed++;
          }
          continue;
        }
        const fill = orphanFill(px, w, h, x, y);
        if (fill >= 0) {
          set(p, fill);
          changed++;
        }
      }
    if (!changed) break;
  }
}

/** What the bench and the tests count on a finished frame: orphan pixels and detached dots. */
export function craftFaults(img: RgbaImage): { orphans: number; detached: number } {
  let orphans = 0;
  const px = packed(img);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) if (orphanFill(px, img.width, img.height, x, y) >= 0) orphans++;
  const groups = components(img);
  const largest = groups[0]?.length ?? 0;
  const detached = groups.slice(1).filter((g) => isDetachedDot(g.length, largest)).length;
  return { orphans, detached };
}
