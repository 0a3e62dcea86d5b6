import { oklabOf } from './colour.js';
import { colorDistance2, type Rgb } from './palette.js';
import type { RgbaImage } from './types/index.js';

/** Options of {@link pixelize}. */
export interface PixelizeOptions {
  /** Known fat-pixel size (may be fractional, e.g. 7.5); detected from the image when absent. */
  scale?: number;
  /** Map every opaque pixel to this palette. */
  palette?: readonly Rgb[];
  /** Otherwise an adaptive palette of at most this many colours (default 32, 2–256). */
  maxColors?: number;
  /** Make a flat or nearly flat backdrop that touches the border transparent; default 'remove'. */
  background?: 'remove' | 'keep';
}

export interface PixelizeResult {
  /** The sprite at its native resolution: one pixel per detected grid cell. */
  image: RgbaImage;
  /** Detected (or given) size of one fat pixel in input pixels. */
  scale: number;
  /**
   * Where output pixel (0, 0) starts in the input (its left and top edge, in input pixels); in
   * (−scale/2, scale/2], negative when the picture's edge cuts the first cell.
   */
  offset: { x: number; y: number };
  /** The colours the opaque pixels use (the given palette's used subset, or the adaptive one). */
  palette: Rgb[];
}

/** A detected grid: the scale and the offset of cell (0, 0). */
export interface PixelGrid {
  scale: number;
  offset: { x: number; y: number };
}

const MIN_SCALE = 1;
const MAX_SCALE = 64;

/**
 * Turns model output (a picture of "pixel art" with fat, soft, noisy, off-grid pixels) into a
 * native-resolution sprite: detects the pixel grid (fractional scale, any offset), reads each cell
 * robustly (per-channel median of its inner part), quantizes to the given palette or an adaptive
 * one, and makes a flat backdrop that touches the border transparent.
 */
export function pixelize(
  image: RgbaImage,
  options: {
    scale?: number;
    palette?: readonly Rgb[];
    maxColors?: number;
    background?: 'remove' | 'keep';
  } = {},
): { image: RgbaImage; scale: number; offset: { x: number; y: number }; palette: Rgb[] } {
  checkImage(image);
  const opts = options ?? {};
  if (opts.scale !== undefined && !(Number.isFinite(opts.scale) && opts.scale >= MIN_SCALE)) {
    throw new RangeError(`[assetloom/pipeline] pixelize: scale must be a number ≥ 1, got ${opts.scale}`);
  }
  const maxColors = opts.maxColors ?? 32;
  if (!Number.isInteger(maxColors) || maxColors < 2 || maxColors > 256) {
    throw new RangeError(
      `[assetloom/pipeline] pixelize: maxColors must be an integer from 2 to 256, got ${opts.maxColors}`,
    );
  }
  if (opts.palette !== undefined && (!Array.isArray(opts.palette) || opts.palette.length === 0)) {
    throw new RangeError('[assetloom/pipeline] pixelize: palette must be a non-empty list of [r, g, b]');
  }
  if (opts.background !== undefined && opts.background !== 'remove' && opts.background !== 'keep') {
    throw new RangeError(
      `[assetloom/pipeline] pixelize: background must be 'remove' or 'keep', got ${String(opts.background)}`,
    );
  }
  const grid = detectGrid(image, opts.scale);
  const { cells, offset } = sampleCells(image, grid);
  if (opts.background !== 'keep') removeBackdrop(cells);
  const palette = opts.palette ? mapToPalette(cells, opts.palette) : quantizeAdaptive(cells, maxColors);
  return { image: cells, scale: grid.scale, offset, palette };
}

function checkImage(image: RgbaImage): void {
  if (
    !image ||
    !Number.isInteger(image.width) ||
    !Number.isInteger(image.height) ||
    image.width < 1 ||
    image.height < 1 ||
    !(image.data instanceof Uint8Array) ||
    image.data.length !== image.width * image.height * 4
  ) {
    throw new RangeError(
      '[assetloom/pipeline] pixelize: image must be { width, height, data } with width × height × 4 RGBA bytes',
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Grid detection

interface Edge {
  pos: number;
  w: number;
}

/**
 * Gradient profiles of the two axes: for every column boundary x (between pixels x−1 and x) the
 * sum over rows of the colour step, counting only steps above the noise level, so that flat but
 * noisy areas add nothing. Alpha steps count as colour steps.
 */
function profiles(img: RgbaImage): { px: Float64Array; py: Float64Array } {
  const { width: w, height: h, data: d } = img;
  const px = new Float64Array(w);
  const py = new Float64Array(h);
  // noise level: median of horizontal steps on a sample of rows
  const hist = new Uint32Array(766 * 2);
  let count = 0;
  const rowStep = Math.max(1, Math.floor(h / 64));
  for (let y = 0; y < h; y += rowStep) {
    let i = y * w * 4;
    for (let x = 1; x < w; x++, i += 4) {
      const s = step(d, i, i + 4);
      hist[Math.min(hist.length - 1, s)]!++;
      count++;
    }
  }
  let acc = 0;
  let median = 0;
  for (let v = 0; v < hist.length; v++) {
    acc += hist[v]!;
    if (acc * 2 >= count) {
      median = v;
      break;
    }
  }
  // a step must clearly exceed the noise of two independent pixels (3 channels summed)
  const t = Math.max(24, median * 3);
  // a sample of rows for the column profile and of columns for the row profile (about 256 of
  // each): the profiles sum hundreds of rows, a quarter of them finds the same boundaries
  const rs = Math.max(1, Math.floor(h / 256));
  const cs = Math.max(1, Math.floor(w / 256));
  let opaque = true;
  for (let i = 3; i < d.length; i += 4) {
    if (d[i] !== 255) {
      opaque = false;
      break;
    }
  }
  if (opaque) {
    // the common case (a model's picture has no alpha): plain colour steps, no alpha weighting
    for (let y = 0; y < h; y += rs) {
      const row = y * w * 4;
      for (let x = 1; x < w; x++) {
        const i = row + x * 4;
        const st =
          Math.abs(d[i - 4]! - d[i]!) + Math.abs(d[i - 3]! - d[i + 1]!) + Math.abs(d[i - 2]! - d[i + 2]!);
        if (st > t) px[x]! += st - t;
      }
    }
    const up = w * 4;
    for (let y = 1; y < h; y++) {
      const row = y * w * 4;
      for (let x = 0; x < w; x += cs) {
        const i = row + x * 4;
        const st =
          Math.abs(d[i - up]! - d[i]!) +
          Math.abs(d[i - up + 1]! - d[i + 1]!) +
          Math.abs(d[i - up + 2]! - d[i + 2]!);
        if (st > t) py[y]! += st - t;
      }
    }
    return { px, py };
  }
  for (let y = 0; y < h; y += rs) {
    const row = y * w * 4;
    for (let x = 1; x < w; x++) {
      const i = row + x * 4;
      const st = step(d, i - 4, i);
      if (st > t) px[x]! += st - t;
    }
  }
  for (let y = 1; y < h; y++) {
    const row = y * w * 4;
    for (let x = 0; x < w; x += cs) {
      const i = row + x * 4;
      const v = step(d, i - w * 4, i);
      if (v > t) py[y]! += v - t;
    }
  }
  return { px, py };
}

function step(d: Uint8Array, a: number, b: number): number {
  const aa = d[a + 3]!;
  const ab = d[b + 3]!;
  if (aa === 255 && ab === 255) {
    return Math.abs(d[a]! - d[b]!) + Math.abs(d[a + 1]! - d[b + 1]!) + Math.abs(d[a + 2]! - d[b + 2]!);
  }
  const ds =
    Math.abs(d[a]! * aa - d[b]! * ab) +
    Math.abs(d[a + 1]! * aa - d[b + 1]! * ab) +
    Math.abs(d[a + 2]! * aa - d[b + 2]! * ab);
  return Math.round(ds / 255 + Math.abs(aa - ab));
}

/**
 * The boundaries of a profile as a sparse list: every local maximum, weighted by its three-value
 * sum and placed at their centroid (sub-pixel, so fractional scales fit as well as whole ones).
 */
function edgesOf(p: Float64Array): Edge[] {
  const out: Edge[] = [];
  const n = p.length;
  for (let i = 1; i < n; i++) {
    const v = p[i]!;
    if (v <= 0) continue;
    const l = i > 1 ? p[i - 1]! : 0;
    const r = i + 1 < n ? p[i + 1]! : 0;
    if (v < l || v <= r) continue;
    const w = l + v + r;
    out.push({ pos: i + (r - l) / w, w });
  }
  return out;
}

const LUT_SIZE = 4096;
const COS_LUT = new Float64Array(LUT_SIZE);
const SIN_LUT = new Float64Array(LUT_SIZE);
for (let i = 0; i < LUT_SIZE; i++) {
  COS_LUT[i] = Math.cos((2 * Math.PI * i) / LUT_SIZE);
  SIN_LUT[i] = Math.sin((2 * Math.PI * i) / LUT_SIZE);
}

/** |Σ w·e^{2πi·pos/s}| / Σ w and the phase, for the edges of one axis (table-driven). */
function coherence(edges: Edge[], s: number): { c: number; phase: number } {
  let re = 0;
  let im = 0;
  let tw = 0;
  const inv = LUT_SIZE / s;
  for (let k = 0; k < edges.length; k++) {
    const e = edges[k]!;
    const j = Math.round(e.pos * inv) & (LUT_SIZE - 1);
    re += e.w * COS_LUT[j]!;
    im += e.w * SIN_LUT[j]!;
    tw += e.w;
  }
  if (tw === 0) return { c: 0, phase: 0 };
  return { c: Math.hypot(re, im) / tw, phase: Math.atan2(im, re) };
}

function offsetOf(phase: number, s: number): number {
  let o = (phase / (2 * Math.PI)) * s;
  o %= s;
  if (o < 0) o += s;
  // a hair below s means 0
  if (s - o < 1e-6) o = 0;
  return o;
}

/**
 * How well a lattice explains the edges: the boundary strength gathered on its lines (each line
 * reads the strongest profile value within half a pixel) minus a cost for every line in the
 * active span, so a lattice with needless extra lines (a divisor of the true scale) or with
 * lines missing (a multiple) scores lower than the true one.
 */
function latticeScore(p: Float64Array, s: number, o: number, lo: number, hi: number, cost: number): number {
  let score = 0;
  const first = Math.ceil((lo - o) / s - 1e-9);
  for (let k = first; ; k++) {
    const pos = o + k * s;
    if (pos > hi + 1e-9) break;
    // the nearest boundary, or both neighbours when the line falls between two
    const fr = pos - Math.floor(pos);
    const a = fr < 0.25 ? Math.floor(pos) : fr > 0.75 ? Math.ceil(pos) : Math.floor(pos);
    const b = fr < 0.25 || fr > 0.75 ? a : a + 1;
    let v = 0;
    for (let j = a; j <= b; j++) {
      if (j > 0 && j < p.length && p[j]! > v) v = p[j]!;
    }
    score += Math.min(v, cost * 4) - cost;
  }
  return score;
}

function activeSpan(p: Float64Array): [number, number] {
  let lo = -1;
  let hi = -1;
  for (let i = 1; i < p.length; i++) {
    if (p[i]! > 0) {
      if (lo < 0) lo = i;
      hi = i;
    }
  }
  return lo < 0 ? [1, p.length - 1] : [lo, hi];
}

/**
 * The q-th percentile of the boundary values that stand out (above 5 % of the strongest one):
 * noise that passed the step threshold here and there must not set the price of a line.
 */
function percentileOfPositive(p: Float64Array, q: number): number {
  let max = 0;
  for (let i = 1; i < p.length; i++) if (p[i]! > max) max = p[i]!;
  const vals: number[] = [];
  for (let i = 1; i < p.length; i++) if (p[i]! > max * 0.05) vals.push(p[i]!);
  if (!vals.length) return 0;
  vals.sort((a, b) => a - b);
  return vals[Math.min(vals.length - 1, Math.floor(q * vals.length))]!;
}

/**
 * Finds the pixel grid of an image: the scale (possibly fractional) and the offset of cell (0, 0).
 * Candidates come from the autocorrelation of the gradient profiles; each is refined by the
 * phase coherence of the boundaries (a fine search around it) and the best lattice wins by how
 * well its lines explain the boundaries. With `scale` given only the offset is fitted.
 */
export function detectGrid(image: RgbaImage, knownScale?: number): PixelGrid {
  return detectGridWithStrength(image, knownScale).grid;
}

/**
 * {@link detectGrid} and the total boundary strength it worked from (how much pixel-art detail
 * the picture holds), so a sheet can trust its most detailed pictures most.
 */
export function detectGridWithStrength(
  image: RgbaImage,
  knownScale?: number,
): { grid: PixelGrid; strength: number } {
  checkImage(image);
  const { px, py } = profiles(image);
  const ex = edgesOf(px);
  const ey = edgesOf(py);
  const strength = sumW(ex) + sumW(ey);
  const grid = findGrid(image, px, py, ex, ey, knownScale);
  return { grid, strength };
}

function findGrid(
  image: RgbaImage,
  px: Float64Array,
  py: Float64Array,
  ex: Edge[],
  ey: Edge[],
  knownScale: number | undefined,
): PixelGrid {
  const spanX = activeSpan(px);
  const spanY = activeSpan(py);
  const wx = sumW(ex);
  const wy = sumW(ey);
  const fit = (s: number) => {
    const cx = coherence(ex, s);
    const cy = coherence(ey, s);
    return {
      c: (cx.c * wx + cy.c * wy) / Math.max(1e-9, wx + wy),
      ox: offsetOf(cx.phase, s),
      oy: offsetOf(cy.phase, s),
    };
  };
  if (knownScale !== undefined) {
    const f = fit(knownScale);
    return { scale: knownScale, offset: { x: round3(f.ox), y: round3(f.oy) } };
  }
  if (ex.length + ey.length === 0) return { scale: 1, offset: { x: 0, y: 0 } };
  const maxS = Math.min(MAX_SCALE, Math.max(2, Math.floor(Math.min(image.width, image.height) / 2)));
  // coarse candidates: autocorrelation peaks of both profiles
  const acf = new Float64Array(maxS * 2 + 2);
  for (const p of [px, py]) {
    let mean = 0;
    for (let i = 1; i < p.length; i++) mean += p[i]!;
    mean /= Math.max(1, p.length - 1);
    for (let lag = 2; lag < acf.length && lag < p.length - 1; lag++) {
      let s = 0;
      for (let i = 1; i + lag < p.length; i++) s += (p[i]! - mean) * (p[i + lag]! - mean);
      acf[lag]! += s / (p.length - 1 - lag);
    }
  }
  const cands = new Set<number>();
  for (let lag = 2; lag < acf.length - 1; lag++) {
    if (acf[lag]! > 0 && acf[lag]! >= acf[lag - 1]! && acf[lag]! >= acf[lag + 1]!) {
      for (let m = 1; m <= 4; m++) {
        const s = lag / m;
        if (s >= 2 && s <= maxS) cands.add(Math.round(s * 20) / 20);
      }
    }
  }
  for (let s = 2; s <= Math.min(maxS, 24); s += 0.5) cands.add(s);
  // coherence on the union of ±0.3 windows around the candidates (a 0.02 grid), then a fine
  // search (0.002) around every local maximum that comes near the best one
  const STEP = 0.02;
  const keys = new Set<number>();
  for (const c0 of cands) {
    const k0 = Math.round(c0 / STEP);
    for (let j = -15; j <= 15; j++) if ((k0 + j) * STEP >= 2 && (k0 + j) * STEP <= maxS) keys.add(k0 + j);
  }
  const sorted = [...keys].sort((a, b) => a - b);
  // the coarse pass only looks for peaks: the strongest edges (at most 192 per axis) suffice
  const cx0 = strongest(ex, 96);
  const cy0 = strongest(ey, 96);
  const wx0 = sumW(cx0);
  const wy0 = sumW(cy0);
  const coarse = sorted.map((k) => {
    const s = k * STEP;
    return (coherence(cx0, s).c * wx0 + coherence(cy0, s).c * wy0) / Math.max(1e-9, wx0 + wy0);
  });
  const coarseTop = Math.max(...coarse);
  const refined = new Map<number, { s: number; c: number; ox: number; oy: number }>();
  for (let i = 0; i < sorted.length; i++) {
    const c = coarse[i]!;
    if (c < coarseTop * 0.4) continue;
    const left = i > 0 && sorted[i - 1] === sorted[i]! - 1 ? coarse[i - 1]! : 0;
    const right = i + 1 < sorted.length && sorted[i + 1] === sorted[i]! + 1 ? coarse[i + 1]! : 0;
    if (c < left || c < right) continue;
    const mid = sorted[i]! * STEP;
    let best = { s: mid, ...fit(mid) };
    for (let s = mid - STEP; s <= mid + STEP + 1e-9; s += STEP / 10) {
      const f = fit(s);
      if (f.c > best.c) best = { s, ...f };
    }
    const key = Math.round(best.s * 100);
    const prev = refined.get(key);
    if (!prev || prev.c < best.c) refined.set(key, best);
  }
  const list = [...refined.values()];
  const topC = Math.max(...list.map((r) => r.c));
  const costX = Math.max(1, percentileOfPositive(px, 0.9) * 0.2);
  const costY = Math.max(1, percentileOfPositive(py, 0.9) * 0.2);
  let winner = list[0]!;
  let winnerScore = Number.NEGATIVE_INFINITY;
  for (const r of list) {
    if (r.c < topC * 0.5) continue;
    const score =
      latticeScore(px, r.s, r.ox, spanX[0], spanX[1], costX) / costX +
      latticeScore(py, r.s, r.oy, spanY[0], spanY[1], costY) / costY;
    if (score > winnerScore) {
      winnerScore = score;
      winner = r;
    }
  }
  let scale = winner.s;
  // snap to a simple fraction when it is within the measurement error
  const snapped = Math.round(scale * 4) / 4;
  if (Math.abs(snapped - scale) < 0.02) scale = snapped;
  const f = fit(scale);
  return { scale: round3(scale), offset: { x: round3(f.ox), y: round3(f.oy) } };
}

function strongest(edges: Edge[], k: number): Edge[] {
  if (edges.length <= k) return edges;
  return [...edges].sort((a, b) => b.w - a.w).slice(0, k);
}

function sumW(edges: Edge[]): number {
  let s = 0;
  for (const e of edges) s += e.w;
  return s;
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

// ---------------------------------------------------------------------------------------------
// Cell sampling

/**
 * Reads every cell of the grid from the pixels whose centres lie in its inner part (a fifth of the
 * scale is left out at each side, where blur and ringing live): the mean of the samples near their
 * first mean, or the per-channel median when a quarter of them disagree (always with `median`).
 * A cell is transparent when most of its inner pixels are.
 */
export function sampleCells(
  image: RgbaImage,
  grid: PixelGrid,
  options: { margin?: number; median?: boolean } = {},
): { cells: RgbaImage; offset: { x: number; y: number } } {
  const { width: w, height: h, data: d } = image;
  const s = grid.scale;
  const ox = ((grid.offset.x % s) + s) % s;
  const oy = ((grid.offset.y % s) + s) % s;
  // cells whose centre lies inside the picture
  const firstX = ox - s / 2 > 0 ? -1 : 0;
  const firstY = oy - s / 2 > 0 ? -1 : 0;
  const cols = Math.max(1, Math.floor((w - ox - s / 2) / s) + 1 - firstX);
  const rows = Math.max(1, Math.floor((h - oy - s / 2) / s) + 1 - firstY);
  const out = new Uint8Array(cols * rows * 4);
  const margin = s >= 3 ? s * (options.margin ?? 0.2) : 0;
  const rs = new Uint8Array(64);
  const gs = new Uint8Array(64);
  const bs = new Uint8Array(64);
  const range = (start: number, limit: number): [number, number] => {
    // pixel indices whose centre (i + 0.5) lies in [start + margin, start + s − margin]
    let a = Math.ceil(start + margin - 0.5);
    let b = Math.floor(start + s - margin - 0.5);
    if (b < a) {
      a = Math.floor(start + s / 2);
      b = a;
    }
    return [Math.max(0, a), Math.min(limit - 1, b)];
  };
  const xr = new Int32Array(cols * 2);
  for (let cx = 0; cx < cols; cx++) {
    const [x0, x1] = range(ox + (cx + firstX) * s, w);
    xr[cx * 2] = x0;
    xr[cx * 2 + 1] = x1;
  }
  for (let cy = 0; cy < rows; cy++) {
    const [y0, y1] = range(oy + (cy + firstY) * s, h);
    // at most 8 rows and 8 columns of samples per cell (evenly spread) keep big cells cheap
    const sy = Math.max(1, Math.ceil((y1 - y0 + 1) / 8));
    for (let cx = 0; cx < cols; cx++) {
      const x0 = xr[cx * 2]!;
      const x1 = xr[cx * 2 + 1]!;
      const sx = Math.max(1, Math.ceil((x1 - x0 + 1) / 8));
      let n = 0;
      let all = 0;
      for (let y = y0; y <= y1; y += sy) {
        let i = (y * w + x0) * 4;
        for (let x = x0; x <= x1; x += sx, i += 4 * sx) {
          all++;
          if (d[i + 3]! >= 128) {
            rs[n] = d[i]!;
            gs[n] = d[i + 1]!;
            bs[n] = d[i + 2]!;
            n++;
          }
        }
      }
      const o = (cy * cols + cx) * 4;
      if (n * 2 <= all || n === 0) continue; // transparent
      out[o + 3] = 255;
      // the mean of the samples near the first mean (noise averages out, a stray colour from a
      // neighbouring cell is left out); the median when most samples disagree with the mean
      let mr = 0;
      let mg = 0;
      let mb = 0;
      for (let k = 0; k < n; k++) {
        mr += rs[k]!;
        mg += gs[k]!;
        mb += bs[k]!;
      }
      mr /= n;
      mg /= n;
      mb /= n;
      let ar = 0;
      let ag = 0;
      let ab = 0;
      let an = 0;
      for (let k = 0; k < n; k++) {
        const r = rs[k]!;
        const g = gs[k]!;
        const b = bs[k]!;
        if (Math.abs(r - mr) + Math.abs(g - mg) + Math.abs(b - mb) <= NEAR_MEAN) {
          ar += r;
          ag += g;
          ab += b;
          an++;
        }
      }
      if (an * 4 >= n * 3 && !options.median) {
        out[o] = Math.round(ar / an);
        out[o + 1] = Math.round(ag / an);
        out[o + 2] = Math.round(ab / an);
      } else {
        out[o] = median(rs, n);
        out[o + 1] = median(gs, n);
        out[o + 2] = median(bs, n);
      }
    }
  }
  return {
    cells: { width: cols, height: rows, data: out },
    offset: { x: round3(ox + firstX * s), y: round3(oy + firstY * s) },
  };
}

/** L1 distance (3 channels) within which a sample agrees with its cell's mean. */
const NEAR_MEAN = 54;

/** Median of the first n values (partially reordered in place; quickselect, n ≤ 64). */
function median(v: Uint8Array, n: number): number {
  if (n <= 2) return n === 1 ? v[0]! : (v[0]! + v[1]! + 1) >> 1;
  const hi = select(v, n, n >> 1);
  if (n & 1) return hi;
  // the lower middle is the largest value left of the upper one
  let lo = v[0]!;
  for (let i = 1; i < n >> 1; i++) if (v[i]! > lo) lo = v[i]!;
  return (lo + hi + 1) >> 1;
}

/** The k-th smallest of the first n values (Hoare's quickselect, in place). */
function select(v: Uint8Array, n: number, k: number): number {
  let l = 0;
  let r = n - 1;
  while (l < r) {
    const pivot = v[(l + r) >> 1]!;
    let i = l;
    let j = r;
    while (i <= j) {
      while (v[i]! < pivot) i++;
      while (v[j]! > pivot) j--;
      if (i <= j) {
        const t = v[i]!;
        v[i] = v[j]!;
        v[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) r = j;
    else if (k >= i) l = i;
    else return v[k]!;
  }
  return v[k]!;
}

// ---------------------------------------------------------------------------------------------
// Backdrop

/**
 * Makes the backdrop transparent, in place on the native-resolution cells. The backdrop colour is
 * the most common colour of the border cells; it is removed when it is flat or nearly flat
 * (most border cells close to it). The fill grows from the border through cells close to the
 * backdrop colour (a slow gradient is followed step by step); enclosed areas of the same colour
 * (gaps between an arm and the body) are removed too when they are at least two cells large,
 * other holes and single highlight pixels stay as they are.
 */
export function removeBackdrop(cells: RgbaImage): void {
  const { width: w, height: h, data: d } = cells;
  const n = w * h;
  const border: number[] = [];
  for (let x = 0; x < w; x++) border.push(x, (h - 1) * w + x);
  for (let y = 1; y < h - 1; y++) border.push(y * w, y * w + w - 1);
  const opaqueBorder = border.filter((p) => d[p * 4 + 3]! >= 128);
  if (opaqueBorder.length < border.length * 0.5) return; // already transparent around
  // dominant border colour by 4-bit bins, then the mean of that bin
  const binCount = new Int32Array(4096);
  let bestKey = 0;
  for (const p of opaqueBorder) {
    const i = p * 4;
    const key = ((d[i]! >> 4) << 8) | ((d[i + 1]! >> 4) << 4) | (d[i + 2]! >> 4);
    if (++binCount[key]! > binCount[bestKey]!) bestKey = key;
  }
  let rr = 0;
  let rg = 0;
  let rb = 0;
  let members = 0;
  for (const p of opaqueBorder) {
    const i = p * 4;
    if ((((d[i]! >> 4) << 8) | ((d[i + 1]! >> 4) << 4) | (d[i + 2]! >> 4)) !== bestKey) continue;
    rr += d[i]!;
    rg += d[i + 1]!;
    rb += d[i + 2]!;
    members++;
  }
  rr /= members;
  rg /= members;
  rb /= members;
  const TOL = 40 * 40 * 9; // redmean distance² ≈ 40 per channel
  const STEP = 14 * 14 * 9;
  const TIGHT = 20 * 20 * 9;
  // distance of every opaque cell to the backdrop colour (−1: transparent)
  const toRef = new Float64Array(n);
  for (let p = 0, i = 0; p < n; p++, i += 4) {
    toRef[p] = d[i + 3]! < 128 ? -1 : colorDistance2(d[i]!, d[i + 1]!, d[i + 2]!, rr, rg, rb);
  }
  let near = 0;
  for (const p of opaqueBorder) if (toRef[p]! <= TOL) near++;
  if (near < opaqueBorder.length * 0.4) return; // not a flat backdrop: a scene, keep it
  const seen = new Uint8Array(n);
  const stack = new Int32Array(n);
  let top = 0;
  for (const p of opaqueBorder) {
    if (toRef[p]! <= TOL && !seen[p]) {
      seen[p] = 1;
      stack[top++] = p;
    }
  }
  while (top > 0) {
    const p = stack[--top]!;
    const x = p % w;
    const pi = p * 4;
    const hr = d[pi]!;
    const hg = d[pi + 1]!;
    const hb = d[pi + 2]!;
    for (let k = 0; k < 4; k++) {
      let q: number;
      if (k === 0) {
        if (x === 0) continue;
        q = p - 1;
      } else if (k === 1) {
        if (x === w - 1) continue;
        q = p + 1;
      } else if (k === 2) {
        if (p < w) continue;
        q = p - w;
      } else {
        if (p >= w * (h - 1)) continue;
        q = p + w;
      }
      if (seen[q]) continue;
      const dq = toRef[q]!;
      if (dq < 0) continue;
      const qi = q * 4;
      // close to the backdrop, or a little farther along a slow gradient
      if (
        dq <= TOL / 4 ||
        (dq <= TOL * 2 && colorDistance2(d[qi]!, d[qi + 1]!, d[qi + 2]!, hr, hg, hb) <= STEP)
      ) {
        seen[q] = 1;
        stack[top++] = q;
      }
    }
  }
  // enclosed areas of the backdrop colour, at least 2 cells large
  const comp = new Uint8Array(n);
  const inside = (q: number) => !seen[q] && !comp[q] && toRef[q]! >= 0 && toRef[q]! <= TIGHT;
  for (let p = 0; p < n; p++) {
    if (!inside(p)) continue;
    let size = 0;
    top = 0;
    stack[top++] = p;
    comp[p] = 1;
    const start = p;
    while (top > 0) {
      const q = stack[--top]!;
      size++;
      const x = q % w;
      if (x > 0 && inside(q - 1)) {
        comp[q - 1] = 1;
        stack[top++] = q - 1;
      }
      if (x < w - 1 && inside(q + 1)) {
        comp[q + 1] = 1;
        stack[top++] = q + 1;
      }
      if (q >= w && inside(q - w)) {
        comp[q - w] = 1;
        stack[top++] = q - w;
      }
      if (q < n - w && inside(q + w)) {
        comp[q + w] = 1;
        stack[top++] = q + w;
      }
    }
    if (size >= 2) markComponent(start);
  }
  function markComponent(p0: number): void {
    // second walk over the component just found (comp = 1) marking it as backdrop (comp = 2)
    top = 0;
    stack[top++] = p0;
    comp[p0] = 2;
    while (top > 0) {
      const q = stack[--top]!;
      seen[q] = 1;
      const x = q % w;
      if (x > 0 && comp[q - 1] === 1) {
        comp[q - 1] = 2;
        stack[top++] = q - 1;
      }
      if (x < w - 1 && comp[q + 1] === 1) {
        comp[q + 1] = 2;
        stack[top++] = q + 1;
      }
      if (q >= w && comp[q - w] === 1) {
        comp[q - w] = 2;
        stack[top++] = q - w;
      }
      if (q < n - w && comp[q + w] === 1) {
        comp[q + w] = 2;
        stack[top++] = q + w;
      }
    }
  }
  for (let p = 0; p < n; p++) {
    if (seen[p]) {
      d[p * 4] = 0;
      d[p * 4 + 1] = 0;
      d[p * 4 + 2] = 0;
      d[p * 4 + 3] = 0;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Colour

/**
 * Maps every opaque cell to its nearest palette colour in OKLab (perceptual: a dark teal goes to
 * the palette's dark teal, not to a green of similar RGB distance), in place; returns the colours
 * used, in palette order.
 */
export function mapToPalette(cells: RgbaImage, palette: readonly Rgb[]): Rgb[] {
  const d = cells.data;
  const used = new Set<number>();
  const cache = new Map<number, number>();
  const labs = palette.map((c) => oklabOf(c[0], c[1], c[2]));
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3]! < 128) {
      d[i] = d[i + 1] = d[i + 2] = d[i + 3] = 0;
      continue;
    }
    const key = (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
    let idx = cache.get(key);
    if (idx === undefined) {
      const [l, a, b] = oklabOf(d[i]!, d[i + 1]!, d[i + 2]!);
      idx = 0;
      let bestD = Number.POSITIVE_INFINITY;
      for (let k = 0; k < labs.length; k++) {
        const c = labs[k]!;
        const dd = (l - c[0]) ** 2 + (a - c[1]) ** 2 + (b - c[2]) ** 2;
        if (dd < bestD) {
          bestD = dd;
          idx = k;
        }
      }
      cache.set(key, idx);
    }
    const c = palette[idx]!;
    d[i] = c[0];
    d[i + 1] = c[1];
    d[i + 2] = c[2];
    d[i + 3] = 255;
    used.add(idx);
  }
  return [...used].sort((a, b) => a - b).map((i) => [palette[i]![0], palette[i]![1], palette[i]![2]] as Rgb);
}

/**
 * Builds an adaptive palette of at most `maxColors` colours from the opaque cells and maps the
 * cells to it. The cells are already robust medians, so each true colour is a tight cloud: a
 * 15-bit histogram is grouped into clouds (leader clustering, radius {@link CLOUD_RADIUS}), the
 * clouds are merged by Ward's rule (the merge that adds the least squared error first) while
 * there are more than `maxColors` or two are closer than the radius, and two k-means passes
 * settle the centres. Cells of one true colour that noise spread apart collapse to one clean
 * colour; distinct colours stay apart until the palette is full.
 */
export function quantizeAdaptive(cells: RgbaImage, maxColors: number): Rgb[] {
  const d = cells.data;
  const hn = new Int32Array(32768);
  const hr = new Float64Array(32768);
  const hg = new Float64Array(32768);
  const hb = new Float64Array(32768);
  const keyOf = new Int32Array(d.length >> 2);
  const keys: number[] = [];
  for (let i = 0, p = 0; i < d.length; i += 4, p++) {
    if (d[i + 3]! < 128) {
      keyOf[p] = -1;
      continue;
    }
    const key = ((d[i]! >> 3) << 10) | ((d[i + 1]! >> 3) << 5) | (d[i + 2]! >> 3);
    keyOf[p] = key;
    if (hn[key] === 0) keys.push(key);
    hn[key]!++;
    hr[key]! += d[i]!;
    hg[key]! += d[i + 1]!;
    hb[key]! += d[i + 2]!;
  }
  if (keys.length === 0) return [];
  // leader clustering, most frequent colours first
  keys.sort((a, b) => hn[b]! - hn[a]!);
  const R2 = CLOUD_RADIUS * CLOUD_RADIUS;
  const cl: Cluster[] = [];
  for (const k of keys) {
    const n = hn[k]!;
    const r = hr[k]! / n;
    const g = hg[k]! / n;
    const b = hb[k]! / n;
    let best = -1;
    let bestD = R2;
    for (let j = 0; j < cl.length; j++) {
      const c = cl[j]!;
      const dd = (c.r - r) ** 2 + (c.g - g) ** 2 + (c.b - b) ** 2;
      if (dd <= bestD) {
        bestD = dd;
        best = j;
      }
    }
    if (best < 0) cl.push({ n, r, g, b, sse: 0 });
    else {
      const c = cl[best]!;
      const t = c.n + n;
      c.sse += ((c.n * n) / t) * bestD;
      c.r = (c.r * c.n + r * n) / t;
      c.g = (c.g * c.n + g * n) / t;
      c.b = (c.b * c.n + b * n) / t;
      c.n = t;
    }
  }
  // Ward merges cost O(k³) in the clusters: a noisy or photographic picture has thousands (a 128² noise
  // picture took 27 s, a 1024² one minutes; issue #37). Past MAX_LEADERS the least populous clusters
  // are first absorbed into their nearest of the MAX_LEADERS most populous (drawn art has far fewer:
  // 185 at most over the built-in generator's subjects at 128 px, so its output is unchanged).
  if (cl.length > MAX_LEADERS) absorbSmallest(cl, MAX_LEADERS);
  // Ward merges: while too many clusters, or two closer than the radius
  while (cl.length > 1) {
    let bi = -1;
    let bj = -1;
    let bestCost = Number.POSITIVE_INFINITY;
    let close = false;
    for (let i = 0; i < cl.length; i++) {
      const a = cl[i]!;
      for (let j = i + 1; j < cl.length; j++) {
        const c = cl[j]!;
        const dd = (a.r - c.r) ** 2 + (a.g - c.g) ** 2 + (a.b - c.b) ** 2;
        const cost = ((a.n * c.n) / (a.n + c.n)) * dd;
        if (dd <= R2 && !close) {
          // a pair closer than the radius goes first
          close = true;
          bestCost = Number.POSITIVE_INFINITY;
        }
        if ((close ? dd <= R2 : true) && cost < bestCost) {
          bestCost = cost;
          bi = i;
          bj = j;
        }
      }
    }
    if (!close && cl.length <= maxColors) break;
    const a = cl[bi]!;
    const c = cl[bj]!;
    const t = a.n + c.n;
    a.sse += c.sse + bestCost;
    a.r = (a.r * a.n + c.r * c.n) / t;
    a.g = (a.g * a.n + c.g * c.n) / t;
    a.b = (a.b * a.n + c.b * c.n) / t;
    a.n = t;
    cl.splice(bj, 1);
  }
  // two k-means passes over the histogram settle the centres
  const k = cl.length;
  let cr = Float64Array.from(cl, (c) => c.r);
  let cg = Float64Array.from(cl, (c) => c.g);
  let cb = Float64Array.from(cl, (c) => c.b);
  const assign = new Int32Array(32768);
  for (let iter = 0; iter < 3; iter++) {
    const sn = new Float64Array(k);
    const sr = new Float64Array(k);
    const sg = new Float64Array(k);
    const sb = new Float64Array(k);
    for (const key of keys) {
      const n = hn[key]!;
      const r = hr[key]! / n;
      const g = hg[key]! / n;
      const b = hb[key]! / n;
      let best = 0;
      let bestD = Number.POSITIVE_INFINITY;
      for (let j = 0; j < k; j++) {
        const dd = (cr[j]! - r) ** 2 + (cg[j]! - g) ** 2 + (cb[j]! - b) ** 2;
        if (dd < bestD) {
          bestD = dd;
          best = j;
        }
      }
      assign[key] = best;
      sn[best]! += n;
      sr[best]! += hr[key]!;
      sg[best]! += hg[key]!;
      sb[best]! += hb[key]!;
    }
    if (iter === 2) break;
    const nr = new Float64Array(k);
    const ng = new Float64Array(k);
    const nb = new Float64Array(k);
    for (let j = 0; j < k; j++) {
      nr[j] = sn[j]! > 0 ? sr[j]! / sn[j]! : cr[j]!;
      ng[j] = sn[j]! > 0 ? sg[j]! / sn[j]! : cg[j]!;
      nb[j] = sn[j]! > 0 ? sb[j]! / sn[j]! : cb[j]!;
    }
    cr = nr;
    cg = ng;
    cb = nb;
  }
  const palette: Rgb[] = [];
  const index = new Int32Array(k).fill(-1);
  for (let j = 0; j < k; j++) {
    const c: Rgb = [Math.round(cr[j]!), Math.round(cg[j]!), Math.round(cb[j]!)];
    const same = palette.findIndex((u) => u[0] === c[0] && u[1] === c[1] && u[2] === c[2]);
    index[j] = same >= 0 ? same : palette.push(c) - 1;
  }
  const used = new Uint8Array(palette.length);
  for (let p = 0; p < keyOf.length; p++) {
    const key = keyOf[p]!;
    if (key < 0) continue;
    const ci = index[assign[key]!]!;
    used[ci] = 1;
    const c = palette[ci]!;
    d[p * 4] = c[0];
    d[p * 4 + 1] = c[1];
    d[p * 4 + 2] = c[2];
  }
  return palette.filter((_, i) => used[i]);
}

/** Colours of an adaptive palette closer than this (Euclidean RGB) are one colour plus noise. */
const CLOUD_RADIUS = 12;

/** Leader clusters the Ward merges start from at most (see quantizeAdaptive). */
const MAX_LEADERS = 384;

type Cluster = { n: number; r: number; g: number; b: number; sse: number };

/**
 * Keeps the `keep` most populous clusters of `cl` (already sorted by the leader pass: most frequent
 * colours lead) and merges each other one into its nearest kept cluster, in place.
 */
function absorbSmallest(cl: Cluster[], keep: number): void {
  const order = cl.map((_, i) => i).sort((a, b) => cl[b]!.n - cl[a]!.n || a - b);
  const kept = order.slice(0, keep).sort((a, b) => a - b);
  const centres = kept.map((i) => ({ ...cl[i]! }));
  for (const i of order.slice(keep)) {
    const c = cl[i]!;
    let best = 0;
    let bestD = Number.POSITIVE_INFINITY;
    for (let j = 0; j < centres.length; j++) {
      const k = centres[j]!;
      const dd = (k.r - c.r) ** 2 + (k.g - c.g) ** 2 + (k.b - c.b) ** 2;
      if (dd < bestD) {
        bestD = dd;
        best = j;
      }
    }
    const k = centres[best]!;
    const t = k.n + c.n;
    k.sse += c.sse + ((k.n * c.n) / t) * bestD;
    k.r = (k.r * k.n + c.r * c.n) / t;
    k.g = (k.g * k.n + c.g * c.n) / t;
    k.b = (k.b * k.n + c.b * c.n) / t;
    k.n = t;
  }
  cl.length = 0;
  cl.push(...centres);
}
