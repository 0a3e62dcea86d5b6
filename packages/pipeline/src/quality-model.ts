import type { Rgb } from './palette.js';
import type { QualityCheck, QualityReport, RgbaImage } from './types/index.js';

/** Thresholds of the model-output checks (every one can be set in configuration). */
export interface ModelQualityThresholds {
  /** palette_adherence: share of opaque pixels that are exactly a colour of the enforced palette. */
  minPaletteShare: number;
  /** grid_fidelity: mean absolute channel error (0–255) between the model picture and the result upscaled again. */
  maxGridError: number;
  /** transparency: share of a sprite frame that is transparent, [min, max]. */
  minTransparent: number;
  maxTransparent: number;
  /** stray_alpha: pixels that are neither fully transparent nor fully opaque, per frame. */
  maxSemiTransparent: number;
  /** orphan_pixels: share of opaque pixels with no opaque 4-neighbour. */
  maxOrphanShare: number;
  /** silhouette: smallest/largest opaque area and bounding-box side across frames. */
  minAreaRatio: number;
  minBoxRatio: number;
  /** silhouette: drift of the centre of mass from frame 0, as a share of the frame edge. */
  maxCentreDrift: number;
  /** seams (tileable backgrounds): edge-to-edge step over the mean inner step. */
  maxSeamRatio: number;
}

export const DEFAULT_MODEL_THRESHOLDS: Readonly<ModelQualityThresholds> = Object.freeze({
  minPaletteShare: 1,
  maxGridError: 28,
  minTransparent: 0.08,
  maxTransparent: 0.97,
  maxSemiTransparent: 0,
  maxOrphanShare: 0.02,
  minAreaRatio: 0.5,
  minBoxRatio: 0.6,
  maxCentreDrift: 0.08,
  maxSeamRatio: 3,
});

export interface ModelQualityInput {
  /** Final frames (after pixelize and placement). */
  frames: readonly RgbaImage[];
  /** Per frame: the model picture, the native sprite read from it, and the grid it was read with. */
  sources?: ReadonlyArray<{
    picture: RgbaImage;
    native: RgbaImage;
    scale: number;
    offset: { x: number; y: number };
  }>;
  /** Opaque assets (backgrounds): no transparency, orphan or silhouette checks. */
  opaque: boolean;
  /** The enforced palette (project or request); adds palette_adherence (exact colours). */
  palette?: readonly Rgb[] | null;
  /** Check the seams: 'x' for landscapes (left/right), 'xy' for textures. */
  tileable?: 'x' | 'xy' | null;
  thresholds?: Partial<ModelQualityThresholds> | null;
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The quality_supervisor checks for model output: grid fidelity, transparency share, stray
 * semi-transparent pixels, orphan pixels, silhouette consistency across frames (area, bounding
 * box, centre drift) and the seams of tileable backgrounds. Each check names what it measured.
 */
export function inspectModelOutput(input: ModelQualityInput): QualityCheck[] {
  const t = { ...DEFAULT_MODEL_THRESHOLDS, ...(input.thresholds ?? {}) };
  const checks: QualityCheck[] = [];
  const { frames } = input;
  if (input.palette?.length && frames.length) {
    const allowed = new Set(input.palette.map((c) => (c[0] << 16) | (c[1] << 8) | c[2]));
    let opaque = 0;
    let inside = 0;
    let worstAt = -1;
    frames.forEach((f, i) => {
      const d = f.data;
      let off = 0;
      for (let p = 0; p < d.length; p += 4) {
        if (d[p + 3]! < 128) continue;
        opaque++;
        if (allowed.has((d[p]! << 16) | (d[p + 1]! << 8) | d[p + 2]!)) inside++;
        else off++;
      }
      if (off && worstAt < 0) worstAt = i;
    });
    const share = opaque ? inside / opaque : 1;
    const ok = share >= t.minPaletteShare;
    checks.push({
      name: 'palette_adherence',
      passed: ok,
      value: r3(share),
      expected: `≥ ${t.minPaletteShare} of opaque pixels exactly a colour of the palette`,
      ...(!ok
        ? {
            detail: `${opaque - inside} opaque pixels (${((1 - share) * 100).toFixed(1)}%) are off the palette, first in frame ${worstAt}`,
          }
        : {}),
    });
  }
  if (input.sources?.length) {
    let worst = 0;
    let at = 0;
    input.sources.forEach((s, i) => {
      const e = gridError(s.picture, s.native, s.scale, s.offset);
      if (e > worst) {
        worst = e;
        at = i;
      }
    });
    checks.push({
      name: 'grid_fidelity',
      passed: worst <= t.maxGridError,
      value: r3(worst),
      expected: `≤ ${t.maxGridError} mean channel error between the model picture and the result upscaled again`,
      ...(worst > t.maxGridError
        ? { detail: `frame ${at} does not sit on a pixel grid (error ${worst.toFixed(1)})` }
        : {}),
    });
  }
  if (!input.opaque && frames.length) {
    let worstShare = -1;
    let worstAt = 0;
    let semi = 0;
    let semiAt = -1;
    let orphans = 0;
    let opaqueTotal = 0;
    const shares: number[] = [];
    for (let i = 0; i < frames.length; i++) {
      const f = frames[i]!;
      const st = alphaStats(f);
      shares.push(st.transparent);
      const bad = st.transparent < t.minTransparent || st.transparent > t.maxTransparent;
      if (bad && worstShare < 0) {
        worstShare = st.transparent;
        worstAt = i;
      }
      if (st.semi > t.maxSemiTransparent && semiAt < 0) semiAt = i;
      semi = Math.max(semi, st.semi);
      orphans += st.orphans;
      opaqueTotal += st.opaque;
    }
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    checks.push({
      name: 'transparency',
      passed: worstShare < 0,
      value: r3(worstShare < 0 ? mean : worstShare),
      expected: `${t.minTransparent}–${t.maxTransparent} of each frame transparent`,
      ...(worstShare >= 0
        ? { detail: `frame ${worstAt} is ${(worstShare * 100).toFixed(1)}% transparent` }
        : {}),
    });
    checks.push({
      name: 'stray_alpha',
      passed: semiAt < 0,
      value: semi,
      expected: `≤ ${t.maxSemiTransparent} semi-transparent pixels per frame`,
      ...(semiAt >= 0 ? { detail: `frame ${semiAt} has ${semi} semi-transparent pixels` } : {}),
    });
    const orphanShare = opaqueTotal ? orphans / opaqueTotal : 0;
    checks.push({
      name: 'orphan_pixels',
      passed: orphanShare <= t.maxOrphanShare,
      value: r3(orphanShare),
      expected: `≤ ${t.maxOrphanShare} of opaque pixels without an opaque neighbour`,
      ...(orphanShare > t.maxOrphanShare ? { detail: `${orphans} isolated pixels` } : {}),
    });
    if (frames.length > 1) checks.push(silhouette(frames, t));
  }
  if (input.tileable && frames.length) {
    let worst = 0;
    for (const f of frames) worst = Math.max(worst, seamRatio(f, input.tileable));
    checks.push({
      name: 'seams',
      passed: worst <= t.maxSeamRatio,
      value: r3(worst),
      expected: `≤ ${t.maxSeamRatio}× the mean inner step across the wrap-around edge`,
      ...(worst > t.maxSeamRatio ? { detail: `the tiling edge shows a seam (${worst.toFixed(2)}×)` } : {}),
    });
  }
  return checks;
}

/** Mean absolute channel error over the opaque cells between `picture` and `native` upscaled by the grid. */
function gridError(
  picture: RgbaImage,
  native: RgbaImage,
  scale: number,
  offset: { x: number; y: number },
): number {
  let sum = 0;
  let n = 0;
  const { width: w, height: h, data: d } = picture;
  const step = Math.max(1, Math.floor(Math.min(w, h) / 256));
  for (let y = 0; y < h; y += step) {
    const cy = Math.floor((y + 0.5 - offset.y) / scale);
    if (cy < 0 || cy >= native.height) continue;
    for (let x = 0; x < w; x += step) {
      const cx = Math.floor((x + 0.5 - offset.x) / scale);
      if (cx < 0 || cx >= native.width) continue;
      const c = (cy * native.width + cx) * 4;
      if (native.data[c + 3]! < 128) continue;
      const i = (y * w + x) * 4;
      sum +=
        Math.abs(d[i]! - native.data[c]!) +
        Math.abs(d[i + 1]! - native.data[c + 1]!) +
        Math.abs(d[i + 2]! - native.data[c + 2]!);
      n += 3;
    }
  }
  return n ? sum / n : 0;
}

function alphaStats(f: RgbaImage) {
  const { width: w, height: h, data: d } = f;
  let transparent = 0;
  let semi = 0;
  let orphans = 0;
  let opaque = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = d[(y * w + x) * 4 + 3]!;
      if (a === 0) transparent++;
      else if (a < 255) semi++;
      if (a < 128) continue;
      opaque++;
      const on = (xx: number, yy: number) =>
        xx >= 0 && yy >= 0 && xx < w && yy < h && d[(yy * w + xx) * 4 + 3]! >= 128;
      if (!on(x - 1, y) && !on(x + 1, y) && !on(x, y - 1) && !on(x, y + 1)) orphans++;
    }
  }
  return { transparent: transparent / (w * h), semi, orphans, opaque };
}

function silhouette(frames: readonly RgbaImage[], t: ModelQualityThresholds): QualityCheck {
  const shapes = frames.map((f) => {
    let area = 0;
    let sx = 0;
    let sy = 0;
    let x0 = f.width;
    let y0 = f.height;
    let x1 = -1;
    let y1 = -1;
    for (let y = 0; y < f.height; y++) {
      for (let x = 0; x < f.width; x++) {
        if (f.data[(y * f.width + x) * 4 + 3]! < 128) continue;
        area++;
        sx += x;
        sy += y;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
    return { area, cx: area ? sx / area : 0, cy: area ? sy / area : 0, bw: x1 - x0 + 1, bh: y1 - y0 + 1 };
  });
  const areas = shapes.map((s) => s.area);
  const areaRatio = Math.max(...areas) ? Math.min(...areas) / Math.max(...areas) : 0;
  const bws = shapes.map((s) => Math.max(0, s.bw));
  const bhs = shapes.map((s) => Math.max(0, s.bh));
  const boxRatio = Math.min(
    Math.max(...bws) ? Math.min(...bws) / Math.max(...bws) : 0,
    Math.max(...bhs) ? Math.min(...bhs) / Math.max(...bhs) : 0,
  );
  const edge = Math.max(frames[0]!.width, frames[0]!.height);
  const ref = shapes[0]!;
  let drift = 0;
  let driftAt = 0;
  shapes.forEach((s, i) => {
    const dd = Math.hypot(s.cx - ref.cx, s.cy - ref.cy) / edge;
    if (dd > drift) {
      drift = dd;
      driftAt = i;
    }
  });
  const failed: string[] = [];
  if (areaRatio < t.minAreaRatio) failed.push(`area ratio ${areaRatio.toFixed(2)} < ${t.minAreaRatio}`);
  if (boxRatio < t.minBoxRatio) failed.push(`bounding-box ratio ${boxRatio.toFixed(2)} < ${t.minBoxRatio}`);
  if (drift > t.maxCentreDrift)
    failed.push(`frame ${driftAt} centre drifts ${(drift * 100).toFixed(1)}% of the frame`);
  return {
    name: 'silhouette',
    passed: failed.length === 0,
    value: r3(Math.min(areaRatio, boxRatio)),
    expected: `area ratio ≥ ${t.minAreaRatio}, box ratio ≥ ${t.minBoxRatio}, centre drift ≤ ${t.maxCentreDrift} of the frame`,
    ...(failed.length ? { detail: failed.join('; ') } : {}),
  };
}

function seamRatio(f: RgbaImage, axes: 'x' | 'xy'): number {
  const { width: w, height: h, data: d } = f;
  const diff = (a: number, b: number) =>
    Math.abs(d[a]! - d[b]!) + Math.abs(d[a + 1]! - d[b + 1]!) + Math.abs(d[a + 2]! - d[b + 2]!);
  let inner = 0;
  let innerN = 0;
  let seam = 0;
  let seamN = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 1; x < w; x++) {
      inner += diff((y * w + x) * 4, (y * w + x - 1) * 4);
      innerN++;
    }
    seam += diff(y * w * 4, (y * w + w - 1) * 4);
    seamN++;
  }
  if (axes === 'xy') {
    for (let x = 0; x < w; x++) {
      seam += diff(x * 4, ((h - 1) * w + x) * 4);
      seamN++;
    }
  }
  const mi = innerN ? inner / innerN : 0;
  const ms = seamN ? seam / seamN : 0;
  return ms / Math.max(1, mi);
}

/** Adds model-output checks to a quality report (pass, score and the named first failure). */
export function withChecks(report: QualityReport, extra: QualityCheck[]): QualityReport {
  if (!extra.length) return report;
  const checks = [...report.checks, ...extra];
  const failed = checks.find((c) => !c.passed);
  const out: QualityReport = {
    passed: !failed,
    score: checks.filter((c) => c.passed).length / checks.length,
    checks,
  };
  if (failed)
    out.rejectReason = `${failed.name}: ${failed.detail ?? `expected ${failed.expected}, measured ${failed.value}`}`;
  return out;
}
