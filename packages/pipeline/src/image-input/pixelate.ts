import type { Rgb } from '../palette.js';
import { detectGrid, mapToPalette, pixelize, quantizeAdaptive, removeBackdrop } from '../pixelize.js';
import type { RgbaImage } from '../types/index.js';
import { blank, cropPicture, resampleArea, resampleNearest } from './picture.js';

export interface PixelateOptions {
  frameWidth: number;
  frameHeight: number;
  /** Backgrounds and tiles fill their frame and keep their backdrop; sprites lose it. */
  opaque: boolean;
  /** The enforced palette (style or `paletteFrom`); otherwise an adaptive one shared by every frame. */
  palette?: readonly Rgb[] | null;
  /** Colours of the adaptive palette (default 32). */
  maxColors?: number;
}

/** The content box of a picture's opaque pixels (alpha ≥ 128) over several pictures of one size. */
function unionBox(pictures: readonly RgbaImage[]): [number, number, number, number] | null {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = -1;
  let y1 = -1;
  for (const p of pictures) {
    for (let y = 0; y < p.height; y++) {
      for (let x = 0; x < p.width; x++) {
        if (p.data[(y * p.width + x) * 4 + 3]! < 128) continue;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  return x1 < 0 ? null : [x0, y0, x1 - x0 + 1, y1 - y0 + 1];
}

/**
 * The picture's native pixels when it already is pixel art drawn large (a grid pixelize detects and
 * reproduces within a small error), else the picture itself. An 8× upscaled 32 px sprite comes back
 * as the 32 px sprite, crisp, instead of being averaged down through its own grid.
 */
function nativePixels(picture: RgbaImage, fits?: { width: number; height: number }): RgbaImage {
  if (picture.width < 8 || picture.height < 8) return picture;
  // a picture that already fits the frame is taken pixel for pixel (a 48 px sprite stays 48 px)
  if (fits && picture.width <= fits.width && picture.height <= fits.height) return picture;
  const grid = detectGrid(picture);
  if (grid.scale < 2) return picture;
  const px = pixelize(picture, { scale: grid.scale, background: 'keep', maxColors: 256 });
  // how well the native pixels, drawn large again, reproduce the picture (mean channel error)
  const { image, scale, offset } = px;
  let err = 0;
  let n = 0;
  const step = Math.max(1, Math.floor((picture.width * picture.height) / 20000));
  for (let p = 0; p < picture.width * picture.height; p += step) {
    const x = p % picture.width;
    const y = Math.floor(p / picture.width);
    const cx = Math.floor((x - offset.x) / scale);
    const cy = Math.floor((y - offset.y) / scale);
    if (cx < 0 || cy < 0 || cx >= image.width || cy >= image.height) continue;
    const i = (y * picture.width + x) * 4;
    const j = (cy * image.width + cx) * 4;
    for (let c = 0; c < 4; c++) err += Math.abs(picture.data[i + c]! - image.data[j + c]!);
    n += 4;
  }
  if (n === 0 || err / n >= 10) return picture;
  // and its colour steps lie on the grid's lines: a painting's soft edges and gradients are never
  // read as fat pixels, whatever grid fits it loosely
  let strong = 0;
  let onGrid = 0;
  const rowStep = Math.max(1, Math.floor(picture.height / 128));
  for (let y = 0; y < picture.height; y += rowStep) {
    for (let x = 1; x < picture.width; x++) {
      const i = (y * picture.width + x) * 4;
      let step = 0;
      for (let c = 0; c < 4; c++) step += Math.abs(picture.data[i + c]! - picture.data[i - 4 + c]!);
      if (step < 48) continue;
      strong++;
      const before = Math.floor((x - 1 - offset.x) / scale);
      const after = Math.floor((x - offset.x) / scale);
      // within one input pixel of a cell boundary (a fractional scale rounds boundaries either way)
      const near =
        Math.floor((x - 2 - offset.x) / scale) !== after || before !== Math.floor((x + 1 - offset.x) / scale);
      if (near) onGrid++;
    }
  }
  return strong >= 24 && onGrid / strong >= 0.85 ? image : picture;
}

/** Alpha made binary (pixel art has no half-transparent pixels). */
function binaryAlpha(img: RgbaImage): void {
  const d = img.data;
  for (let i = 3; i < d.length; i += 4) {
    if (d[i]! >= 128) d[i] = 255;
    else d[i - 3] = d[i - 2] = d[i - 1] = d[i] = 0;
  }
}

/**
 * **Pixelate** (strength 0, decision 0034): pictures of one size (the cells of a sheet, or one
 * picture) become pixel-art frames of `frameWidth × frameHeight` through pixelize. Each picture is
 * read at its native pixels when it is pixel art drawn large ({@link nativePixels}); otherwise it
 * is averaged down (area resampling) to fit the frame — sprites within a 2 px margin on every side,
 * their aspect kept and never enlarged; backgrounds and tiles to cover it. Sprites lose a flat
 * backdrop (pixelize's `removeBackdrop`) and keep crisp alpha; every frame shares one palette (the
 * enforced one, or an adaptive palette built from all frames at once), and frames keep one
 * placement (centred, on one baseline), so a sheet does not jitter.
 */
export function pixelatePictures(pictures: readonly RgbaImage[], options: PixelateOptions): RgbaImage[] {
  const { frameWidth: fw, frameHeight: fh, opaque } = options;
  if (pictures.length === 0) return [];
  let natives = pictures.map((p) => nativePixels(p, { width: fw, height: fh }));
  const sameSize = natives.every((n) => n.width === natives[0]!.width && n.height === natives[0]!.height);
  if (!sameSize) {
    const w = Math.min(...natives.map((n) => n.width));
    const h = Math.min(...natives.map((n) => n.height));
    natives = natives.map((n) => resampleArea(n, w, h));
  }
  let frames: RgbaImage[];
  if (opaque) {
    frames = natives.map((n) => {
      const cover = Math.max(fw / n.width, fh / n.height);
      const w = Math.max(fw, Math.round(n.width * cover));
      const h = Math.max(fh, Math.round(n.height * cover));
      const scaled = cover < 1 ? resampleArea(n, w, h) : resampleNearest(n, w, h);
      const out = cropPicture(scaled, Math.floor((w - fw) / 2), Math.floor((h - fh) / 2), fw, fh);
      for (let i = 3; i < out.data.length; i += 4) out.data[i] = 255;
      return out;
    });
  } else {
    // the content of every frame, cut with one box; averaged down to fit the frame with a margin
    const box = unionBox(natives) ?? [0, 0, natives[0]!.width, natives[0]!.height];
    const cut = natives.map((n) => cropPicture(n, box[0], box[1], box[2], box[3]));
    const fit = Math.min(1, (fw - 4) / box[2], (fh - 4) / box[3]);
    const w = Math.max(1, Math.round(box[2] * fit));
    const h = Math.max(1, Math.round(box[3] * fit));
    const small = cut.map((c) => (fit < 1 ? resampleArea(c, w, h) : c));
    for (const s of small) {
      binaryAlpha(s);
      const before = s.data.slice();
      removeBackdrop(s);
      defringe(s, before);
    }
    // one placement for all: centred, the content's bottom two pixels above the frame's
    const dx = Math.floor((fw - w) / 2);
    const dy = Math.max(0, fh - 2 - h);
    frames = small.map((s) => {
      const out = blank(fw, fh);
      for (let y = 0; y < s.height; y++) {
        const from = y * s.width * 4;
        out.data.set(s.data.subarray(from, from + s.width * 4), ((y + dy) * fw + dx) * 4);
      }
      return out;
    });
  }
  // one palette for the sheet: the frames stacked, mapped or quantized together, then cut again
  const joint = blank(fw, fh * frames.length);
  frames.forEach((f, i) => {
    joint.data.set(f.data, i * f.data.length);
  });
  binaryAlpha(joint);
  if (options.palette?.length) mapToPalette(joint, options.palette);
  else quantizeAdaptive(joint, options.maxColors ?? 32);
  return frames.map((_, i) => ({
    width: fw,
    height: fh,
    data: joint.data.slice(i * fw * fh * 4, (i + 1) * fw * fh * 4),
  }));
}

/**
 * The outline a picture's anti-aliasing leaves (pixels mixed of the subject and the backdrop, a
 * blue-grey rim around a black ear on a sky) made crisp: an edge pixel next to removed backdrop
 * whose colour lies between that backdrop and an opaque neighbour (within 24 of the line joining
 * them) goes with the backdrop when it is nearer it, and takes the neighbour's colour otherwise.
 * Edge pixels of their own colour (a highlight, an outline) stay. One pass.
 */
function defringe(img: RgbaImage, before: Uint8Array): void {
  const { width: w, height: h, data: d } = img;
  const changes: Array<[number, number[] | null]> = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      if (d[p * 4 + 3]! < 128) continue;
      let backdrop: number[] | null = null;
      const subjects: number[][] = [];
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const q = (ny * w + nx) * 4;
        if (d[q + 3]! < 128 && before[q + 3]! >= 128)
          backdrop ??= [before[q]!, before[q + 1]!, before[q + 2]!];
        else if (d[q + 3]! >= 128) subjects.push([d[q]!, d[q + 1]!, d[q + 2]!]);
      }
      if (backdrop === null) continue;
      const c = [d[p * 4]!, d[p * 4 + 1]!, d[p * 4 + 2]!];
      for (const s of subjects) {
        // where c lies on the segment backdrop → s (t = 0 at the backdrop, 1 at the subject)
        const seg = s.map((v, i) => v - backdrop![i]!);
        const len2 = seg.reduce((a, v) => a + v * v, 0);
        if (len2 < 48 * 48) continue;
        const t = seg.reduce((a, v, i) => a + v * (c[i]! - backdrop![i]!), 0) / len2;
        if (t <= 0.02 || t >= 0.98) continue;
        const off = Math.sqrt(c.reduce((a, v, i) => a + (v - (backdrop![i]! + t * seg[i]!)) ** 2, 0));
        if (off > 24) continue;
        changes.push([p, t < 0.5 ? null : s]);
        break;
      }
    }
  }
  for (const [p, colour] of changes) {
    if (colour === null) d.fill(0, p * 4, p * 4 + 4);
    else d.set([colour[0]!, colour[1]!, colour[2]!, 255], p * 4);
  }
}
