import type { Rgb } from './palette.js';
import {
  detectGrid,
  detectGridWithStrength,
  mapToPalette,
  quantizeAdaptive,
  removeBackdrop,
  sampleCells,
} from './pixelize.js';
import type { RgbaImage } from './types/index.js';

export interface PixelizeFramesOptions {
  frameWidth: number;
  frameHeight: number;
  /** Enforced palette (the project's); otherwise one adaptive palette shared by all frames. */
  palette?: readonly Rgb[] | null;
  maxColors?: number;
  /** Opaque assets (backgrounds) keep their backdrop and fill the frame. */
  opaque?: boolean;
}

export interface PixelizedFrames {
  frames: RgbaImage[];
  /** The native-resolution sprites before they were placed in the frames (for grid fidelity). */
  native: RgbaImage[];
  /** The one scale all frames were read with. */
  scale: number;
  /** Per frame: where output pixel (0, 0) of `native` started in the model picture. */
  offsets: Array<{ x: number; y: number }>;
  palette: Rgb[];
}

/**
 * pixelize for a whole sheet: every model picture is read with ONE scale (the median of the
 * detected ones, weighted by how much detail each picture holds), all frames share ONE palette (the enforced one, or an adaptive palette built
 * from every frame's cells at once: palette lock), and the sprites are placed in their frames on
 * ONE baseline (their lowest opaque row) and ONE centre (the horizontal centre of mass of their
 * pixels), so an animation does not jitter. Sprites larger than the frame are reduced by one
 * whole factor for all frames (nearest cell, crisp); smaller ones are not blown up.
 */
export function pixelizeFrames(
  pictures: readonly RgbaImage[],
  options: PixelizeFramesOptions,
): PixelizedFrames {
  const { frameWidth: fw, frameHeight: fh } = options;
  if (pictures.length === 0) return { frames: [], native: [], scale: 1, offsets: [], palette: [] };
  // the one scale: the median of the detected scales weighted by each picture's boundary
  // strength (a picture with little detail cannot outvote the detailed ones)
  const found = pictures
    .map((p) => detectGridWithStrength(p))
    .map((r) => ({ scale: r.grid.scale, w: r.strength }))
    .sort((a, b) => a.scale - b.scale);
  const half = found.reduce((a, f) => a + f.w, 0) / 2;
  let scale = found[found.length - 1]!.scale;
  let acc = 0;
  for (const f of found) {
    acc += f.w;
    if (acc >= half) {
      scale = f.scale;
      break;
    }
  }
  const sampled = pictures.map((p) => sampleCells(p, detectGrid(p, scale)));
  const cells = sampled.map((s) => s.cells);
  if (!options.opaque) for (const c of cells) removeBackdrop(c);
  // palette lock: quantize the cells of every frame together
  const joint = stack(cells);
  const palette = options.palette?.length
    ? mapToPalette(joint, options.palette)
    : quantizeAdaptive(joint, options.maxColors ?? 32);
  const native = unstack(joint, cells);
  const frames = options.opaque ? native.map((n) => coverNearest(n, fw, fh)) : placeSprites(native, fw, fh);
  return { frames, native, scale, offsets: sampled.map((s) => s.offset), palette };
}

function stack(images: RgbaImage[]): RgbaImage {
  const width = Math.max(...images.map((i) => i.width));
  const height = images.reduce((a, i) => a + i.height, 0);
  const data = new Uint8Array(width * height * 4);
  let y0 = 0;
  for (const img of images) {
    for (let y = 0; y < img.height; y++) {
      data.set(img.data.subarray(y * img.width * 4, (y + 1) * img.width * 4), (y0 + y) * width * 4);
    }
    y0 += img.height;
  }
  return { width, height, data };
}

function unstack(joint: RgbaImage, shapes: RgbaImage[]): RgbaImage[] {
  const out: RgbaImage[] = [];
  let y0 = 0;
  for (const s of shapes) {
    const data = new Uint8Array(s.width * s.height * 4);
    for (let y = 0; y < s.height; y++) {
      const from = (y0 + y) * joint.width * 4;
      data.set(joint.data.subarray(from, from + s.width * 4), y * s.width * 4);
    }
    out.push({ width: s.width, height: s.height, data });
    y0 += s.height;
  }
  return out;
}

function bbox(img: RgbaImage): [number, number, number, number] | null {
  let x0 = img.width;
  let y0 = img.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (img.data[(y * img.width + x) * 4 + 3]! < 128) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? null : [x0, y0, x1, y1];
}

/** Keeps every k-th cell (the one nearest each block's centre): a crisp whole-factor reduction. */
function reduce(img: RgbaImage, k: number): RgbaImage {
  if (k <= 1) return img;
  const w = Math.max(1, Math.floor(img.width / k));
  const h = Math.max(1, Math.floor(img.height / k));
  const data = new Uint8Array(w * h * 4);
  const c = Math.floor(k / 2);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = ((y * k + c) * img.width + x * k + c) * 4;
      data.set(img.data.subarray(s, s + 4), (y * w + x) * 4);
    }
  }
  return { width: w, height: h, data };
}

function placeSprites(native: RgbaImage[], fw: number, fh: number): RgbaImage[] {
  const boxes = native.map(bbox);
  let maxW = 1;
  let maxH = 1;
  for (const b of boxes) {
    if (!b) continue;
    maxW = Math.max(maxW, b[2] - b[0] + 1);
    maxH = Math.max(maxH, b[3] - b[1] + 1);
  }
  // one reduction for the whole sheet, leaving a one-pixel margin
  const k = Math.max(1, Math.ceil(Math.max(maxW / Math.max(1, fw - 2), maxH / Math.max(1, fh - 2))));
  const sprites = native.map((img, i) => {
    const b = boxes[i];
    if (!b) return null;
    return reduce(crop(img, b), k);
  });
  const tallest = Math.max(1, ...sprites.map((s) => (s ? s.height : 0)));
  const baseline = Math.min(fh - 1, Math.floor((fh + tallest) / 2) - 1);
  return sprites.map((s) => {
    const data = new Uint8Array(fw * fh * 4);
    if (!s) return { width: fw, height: fh, data };
    // horizontal centre of mass of the opaque pixels
    let sum = 0;
    let n = 0;
    let bottom = 0;
    for (let y = 0; y < s.height; y++) {
      for (let x = 0; x < s.width; x++) {
        if (s.data[(y * s.width + x) * 4 + 3]! < 128) continue;
        sum += x + 0.5;
        n++;
        bottom = Math.max(bottom, y);
      }
    }
    const cx = n ? sum / n : s.width / 2;
    const dx = Math.round(fw / 2 - cx);
    const dy = baseline - bottom;
    for (let y = 0; y < s.height; y++) {
      const ty = y + dy;
      if (ty < 0 || ty >= fh) continue;
      for (let x = 0; x < s.width; x++) {
        const tx = x + dx;
        if (tx < 0 || tx >= fw) continue;
        const si = (y * s.width + x) * 4;
        if (s.data[si + 3]! < 128) continue;
        data.set(s.data.subarray(si, si + 4), (ty * fw + tx) * 4);
      }
    }
    return { width: fw, height: fh, data };
  });
}

function crop(img: RgbaImage, b: [number, number, number, number]): RgbaImage {
  const w = b[2] - b[0] + 1;
  const h = b[3] - b[1] + 1;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const from = ((b[1] + y) * img.width + b[0]) * 4;
    data.set(img.data.subarray(from, from + w * 4), y * w * 4);
  }
  return { width: w, height: h, data };
}

/** Nearest-neighbour cover of the frame (whole factors when they fit), centred. */
function coverNearest(img: RgbaImage, fw: number, fh: number): RgbaImage {
  let f = Math.max(fw / img.width, fh / img.height);
  if (f >= 1) f = Math.ceil(f - 1e-9);
  const data = new Uint8Array(fw * fh * 4);
  const x0 = (img.width * f - fw) / 2;
  const y0 = (img.height * f - fh) / 2;
  for (let y = 0; y < fh; y++) {
    const sy = Math.min(img.height - 1, Math.max(0, Math.floor((y + 0.5 + y0) / f)));
    for (let x = 0; x < fw; x++) {
      const sx = Math.min(img.width - 1, Math.max(0, Math.floor((x + 0.5 + x0) / f)));
      const s = (sy * img.width + sx) * 4;
      const o = (y * fw + x) * 4;
      data[o] = img.data[s]!;
      data[o + 1] = img.data[s + 1]!;
      data[o + 2] = img.data[s + 2]!;
      data[o + 3] = 255;
    }
  }
  return { width: fw, height: fh, data };
}
