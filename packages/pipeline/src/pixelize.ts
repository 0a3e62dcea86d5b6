import { colorDistance2, type Rgb } from './palette.js';
import type { RgbaImage } from './types.js';

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
  // every other row for the column profile and every other column for the row profile: the
  // profiles sum hundreds of rows, half of them find the same boundaries at half the cost
  const rs = h >= 64 ? 2 : 1;
  const cs = w >= 64 ? 2 : 1;
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

function percentileOfPositive(p: Float64Array, q: number): number {
  const vals: number[] = [];
  for (let i = 1; i < p.length; i++) if (p[i]! > 0) vals.push(p[i]!);
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
  checkImage(image);
  const { px, py } = profiles(image);
  const ex = edgesOf(px);
  const ey = edgesOf(py);
  const spanX = activeSpan(px);
  const spanY = activeSpan(py);
  const fit = (s: number) => {
    const cx = coherence(ex, s);
    const cy = coherence(ey, s);
    return {
      c: (cx.c * sumW(ex) + cy.c * sumW(ey)) / Math.max(1e-9, sumW(ex) + sumW(ey)),
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
  const coarse = sorted.map((k) => fit(k * STEP).c);
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
 * Reads every cell of the grid: the per-channel median of the pixels whose centres lie in the
 * inner part of the cell (a fifth of the scale is left out at each side, where blur and ringing
 * live). A cell is transparent when most of its inner pixels are.
 */
export function sampleCells(
  image: RgbaImage,
  grid: PixelGrid,
  options: { margin?: number } = {},
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
      out[o] = median(rs, n);
      out[o + 1] = median(gs, n);
      out[o + 2] = median(bs, n);
      out[o + 3] = 255;
    }
  }
  return {
    cells: { width: cols, height: rows, data: out },
    offset: { x: round3(ox + firstX * s), y: round3(oy + firstY * s) },
  };
}

/** Median of the first n values (sorted in place by insertion; n ≤ 64). */
function median(v: Uint8Array, n: number): number {
  if (n <= 2) return n === 1 ? v[0]! : (v[0]! + v[1]! + 1) >> 1;
  for (let i = 1; i < n; i++) {
    const x = v[i]!;
    let j = i - 1;
    while (j >= 0 && v[j]! > x) {
      v[j + 1] = v[j]!;
      j--;
    }
    v[j + 1] = x;
  }
  return n & 1 ? v[n >> 1]! : (v[(n >> 1) - 1]! + v[n >> 1]! + 1) >> 1;
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
  const border: number[] = [];
  for (let x = 0; x < w; x++) border.push(x, (h - 1) * w + x);
  for (let y = 1; y < h - 1; y++) border.push(y * w, y * w + w - 1);
  const opaqueBorder = border.filter((p) => d[p * 4 + 3]! >= 128);
  if (opaqueBorder.length < border.length * 0.5) return; // already transparent around
  // dominant border colour by 4-bit bins, then the mean of that bin
  const bins = new Map<number, number[]>();
  for (const p of opaqueBorder) {
    const i = p * 4;
    const key = ((d[i]! >> 4) << 8) | ((d[i + 1]! >> 4) << 4) | (d[i + 2]! >> 4);
    const list = bins.get(key);
    if (list) list.push(p);
    else bins.set(key, [p]);
  }
  let bestKey = -1;
  let bestN = 0;
  for (const [k, list] of bins) {
    if (list.length > bestN) {
      bestN = list.length;
      bestKey = k;
    }
  }
  const members = bins.get(bestKey)!;
  const ref = [0, 0, 0];
  for (const p of members) for (let c = 0; c < 3; c++) ref[c]! += d[p * 4 + c]!;
  for (let c = 0; c < 3; c++) ref[c] = ref[c]! / members.length;
  const TOL = 40 * 40 * 9; // redmean distance² ≈ 40 per channel
  const STEP = 14 * 14 * 9;
  const dist = (p: number, r: readonly number[]) =>
    colorDistance2(d[p * 4]!, d[p * 4 + 1]!, d[p * 4 + 2]!, r[0]!, r[1]!, r[2]!);
  const near = opaqueBorder.filter((p) => dist(p, ref) <= TOL).length;
  if (near < opaqueBorder.length * 0.4) return; // not a flat backdrop: a scene, keep it
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  for (const p of opaqueBorder) {
    if (dist(p, ref) <= TOL && !seen[p]) {
      seen[p] = 1;
      stack.push(p);
    }
  }
  while (stack.length) {
    const p = stack.pop()!;
    const x = p % w;
    const here = [d[p * 4]!, d[p * 4 + 1]!, d[p * 4 + 2]!];
    const visit = (q: number) => {
      if (seen[q] || d[q * 4 + 3]! < 128) return;
      const dq = dist(q, ref);
      if (dq <= TOL / 4 || (dq <= TOL * 2 && dist(q, here) <= STEP)) {
        seen[q] = 1;
        stack.push(q);
      }
    };
    if (x > 0) visit(p - 1);
    if (x < w - 1) visit(p + 1);
    if (p >= w) visit(p - w);
    if (p < w * (h - 1)) visit(p + w);
  }
  // enclosed areas of the backdrop colour, at least 2 cells large
  const TIGHT = 20 * 20 * 9;
  const comp = new Uint8Array(w * h);
  for (let p = 0; p < w * h; p++) {
    if (seen[p] || comp[p] || d[p * 4 + 3]! < 128 || dist(p, ref) > TIGHT) continue;
    const members2: number[] = [];
    const st = [p];
    comp[p] = 1;
    while (st.length) {
      const q = st.pop()!;
      members2.push(q);
      const x = q % w;
      for (const n of [x > 0 ? q - 1 : -1, x < w - 1 ? q + 1 : -1, q - w, q + w]) {
        if (n < 0 || n >= w * h || comp[n] || seen[n] || d[n * 4 + 3]! < 128 || dist(n, ref) > TIGHT)
          continue;
        comp[n] = 1;
        st.push(n);
      }
    }
    if (members2.length >= 2) for (const q of members2) seen[q] = 1;
  }
  for (let p = 0; p < w * h; p++) {
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

/** Maps every opaque cell to its nearest palette colour (in place); returns the colours used. */
export function mapToPalette(cells: RgbaImage, palette: readonly Rgb[]): Rgb[] {
  const d = cells.data;
  const used = new Set<number>();
  const cache = new Map<number, number>();
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3]! < 128) {
      d[i] = d[i + 1] = d[i + 2] = d[i + 3] = 0;
      continue;
    }
    const key = (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
    let idx = cache.get(key);
    if (idx === undefined) {
      idx = nearestIndex(palette, d[i]!, d[i + 1]!, d[i + 2]!);
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

function nearestIndex(palette: readonly Rgb[], r: number, g: number, b: number): number {
  let best = 0;
  let bestD = Number.POSITIVE_INFINITY;
  for (let k = 0; k < palette.length; k++) {
    const c = palette[k]!;
    const dd = colorDistance2(r, g, b, c[0], c[1], c[2]);
    if (dd < bestD) {
      bestD = dd;
      best = k;
    }
  }
  return best;
}

/**
 * Builds an adaptive palette of at most `maxColors` colours from the opaque cells (median cut that
 * stops splitting once every box is tight, then k-means refinement) and maps the cells to it.
 * Cells of one true colour that noise spread apart collapse to one clean colour.
 */
export function quantizeAdaptive(cells: RgbaImage, maxColors: number): Rgb[] {
  const d = cells.data;
  // histogram of 5-bit-per-channel colours with exact sums
  const counts = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3]! < 128) continue;
    const key = ((d[i]! >> 3) << 10) | ((d[i + 1]! >> 3) << 5) | (d[i + 2]! >> 3);
    let e = counts.get(key);
    if (!e) {
      e = { n: 0, r: 0, g: 0, b: 0 };
      counts.set(key, e);
    }
    e.n++;
    e.r += d[i]!;
    e.g += d[i + 1]!;
    e.b += d[i + 2]!;
  }
  const pts = [...counts.values()].map((e) => ({ n: e.n, c: [e.r / e.n, e.g / e.n, e.b / e.n] }));
  if (pts.length === 0) return [];
  // median cut
  type Box = { items: typeof pts; sse: number; axis: number; range: number };
  const makeBox = (items: typeof pts): Box => {
    let n = 0;
    const mean = [0, 0, 0];
    const lo = [255, 255, 255];
    const hi = [0, 0, 0];
    for (const p of items) {
      n += p.n;
      for (let c = 0; c < 3; c++) {
        mean[c]! += p.c[c]! * p.n;
        if (p.c[c]! < lo[c]!) lo[c] = p.c[c]!;
        if (p.c[c]! > hi[c]!) hi[c] = p.c[c]!;
      }
    }
    for (let c = 0; c < 3; c++) mean[c] = mean[c]! / n;
    let sse = 0;
    for (const p of items) {
      for (let c = 0; c < 3; c++) sse += p.n * (p.c[c]! - mean[c]!) ** 2;
    }
    let axis = 0;
    for (let c = 1; c < 3; c++) if (hi[c]! - lo[c]! > hi[axis]! - lo[axis]!) axis = c;
    return { items, sse, axis, range: hi[axis]! - lo[axis]! };
  };
  const boxes: Box[] = [makeBox(pts)];
  while (boxes.length < maxColors) {
    let pick = -1;
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i]!;
      if (b.items.length < 2 || b.range <= 14) continue;
      if (pick < 0 || b.sse > boxes[pick]!.sse) pick = i;
    }
    if (pick < 0) break;
    const box = boxes[pick]!;
    const items = [...box.items].sort((a, b) => a.c[box.axis]! - b.c[box.axis]!);
    let total = 0;
    for (const p of items) total += p.n;
    let acc = 0;
    let cut = 1;
    for (let i = 0; i < items.length - 1; i++) {
      acc += items[i]!.n;
      if (acc * 2 >= total) {
        cut = i + 1;
        break;
      }
    }
    boxes.splice(pick, 1, makeBox(items.slice(0, cut)), makeBox(items.slice(cut)));
  }
  let centres = boxes.map((b) => {
    let n = 0;
    const m = [0, 0, 0];
    for (const p of b.items) {
      n += p.n;
      for (let c = 0; c < 3; c++) m[c]! += p.c[c]! * p.n;
    }
    return m.map((v) => v / n);
  });
  // k-means refinement over the histogram
  const assign = new Int32Array(pts.length);
  for (let iter = 0; iter < 8; iter++) {
    const sums = centres.map(() => [0, 0, 0, 0]);
    let moved = false;
    for (let i = 0; i < pts.length; i++) {
      const p = pts[i]!;
      let best = 0;
      let bestD = Number.POSITIVE_INFINITY;
      for (let k = 0; k < centres.length; k++) {
        const c = centres[k]!;
        const dd = (p.c[0]! - c[0]!) ** 2 + (p.c[1]! - c[1]!) ** 2 + (p.c[2]! - c[2]!) ** 2;
        if (dd < bestD) {
          bestD = dd;
          best = k;
        }
      }
      if (assign[i] !== best) moved = true;
      assign[i] = best;
      const s = sums[best]!;
      s[0]! += p.c[0]! * p.n;
      s[1]! += p.c[1]! * p.n;
      s[2]! += p.c[2]! * p.n;
      s[3]! += p.n;
    }
    centres = centres.map((c, k) => {
      const s = sums[k]!;
      return s[3]! > 0 ? [s[0]! / s[3]!, s[1]! / s[3]!, s[2]! / s[3]!] : c;
    });
    if (!moved && iter > 0) break;
  }
  const palette: Rgb[] = centres.map((c) => [Math.round(c[0]!), Math.round(c[1]!), Math.round(c[2]!)] as Rgb);
  // deduplicate identical colours
  const unique: Rgb[] = [];
  for (const c of palette)
    if (!unique.some((u) => u[0] === c[0] && u[1] === c[1] && u[2] === c[2])) unique.push(c);
  mapToPaletteEuclid(cells, unique);
  return unique;
}

function mapToPaletteEuclid(cells: RgbaImage, palette: readonly Rgb[]): void {
  const d = cells.data;
  const cache = new Map<number, number>();
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3]! < 128) continue;
    const key = (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
    let idx = cache.get(key);
    if (idx === undefined) {
      idx = 0;
      let bestD = Number.POSITIVE_INFINITY;
      for (let k = 0; k < palette.length; k++) {
        const c = palette[k]!;
        const dd = (d[i]! - c[0]) ** 2 + (d[i + 1]! - c[1]) ** 2 + (d[i + 2]! - c[2]) ** 2;
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
  }
}
