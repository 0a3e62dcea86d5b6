import type { ExpectedLayout } from './layout.js';
import { colorDistance2, type Rgb } from './palette.js';
import type { QualityCheck, QualityReport, RgbaImage } from './types.js';

export interface QualityInput {
  frames: readonly RgbaImage[];
  expected: ExpectedLayout;
  /** When set, opaque pixels must come from this palette. */
  palette?: readonly Rgb[] | null;
}

interface FrameStats {
  coverage: number;
  colors: number;
  bbox: [number, number, number, number] | null;
  hist: Map<number, number>;
}

function statsOf(img: RgbaImage): FrameStats {
  const { width, height, data } = img;
  let covered = 0;
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  const hist = new Map<number, number>();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (data[i + 3]! < 16) continue;
      covered++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      // 4-bit-per-channel histogram key
      const key = ((data[i]! >> 4) << 8) | ((data[i + 1]! >> 4) << 4) | (data[i + 2]! >> 4);
      hist.set(key, (hist.get(key) ?? 0) + 1);
    }
  }
  return {
    coverage: covered / (width * height),
    colors: hist.size,
    bbox: maxX >= 0 ? [minX, minY, maxX, maxY] : null,
    hist,
  };
}

function histOverlap(a: Map<number, number>, b: Map<number, number>): number {
  let ta = 0;
  let tb = 0;
  for (const v of a.values()) ta += v;
  for (const v of b.values()) tb += v;
  if (!ta || !tb) return 0;
  let s = 0;
  for (const [k, v] of a) s += Math.min(v / ta, (b.get(k) ?? 0) / tb);
  return s;
}

function framesEqual(a: RgbaImage, b: RgbaImage): boolean {
  if (a.width !== b.width || a.height !== b.height) return false;
  const x = a.data;
  const y = b.data;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * Checks the pixels of generated frames: size and count as asked, not blank, alpha coverage in a
 * sensible range for the asset kind, palette adherence when a palette is given, and for motion
 * cycles frames that differ from each other yet share colours and extent.
 */
export function inspectQuality(input: QualityInput): QualityReport {
  const { frames, expected } = input;
  const checks: QualityCheck[] = [];
  checks.push({
    name: 'frame_count',
    passed: frames.length === expected.frameCount,
    value: frames.length,
    expected: `${expected.frameCount} frames`,
  });
  const misSized = frames.filter(
    (f) =>
      f.width !== expected.frameWidth ||
      f.height !== expected.frameHeight ||
      f.data.length !== f.width * f.height * 4,
  );
  const badSize = misSized[0];
  checks.push({
    name: 'size',
    passed: !badSize && frames.length > 0,
    value: misSized.length,
    expected: `every frame ${expected.frameWidth}×${expected.frameHeight} px (value: frames of another size)`,
    detail: badSize ? `got a ${badSize.width}×${badSize.height} frame` : undefined,
  });
  if (badSize || frames.length === 0) return finish(checks);
  const stats = frames.map(statsOf);
  const blank = stats.findIndex((s) => s.coverage === 0 || s.colors < 2);
  checks.push({
    name: 'not_blank',
    passed: blank < 0,
    value: blank < 0 ? Math.min(...stats.map((s) => s.colors)) : 0,
    expected: 'every frame has visible pixels in at least 2 colours',
    detail: blank >= 0 ? `frame ${blank} is blank or a single flat colour` : undefined,
  });
  const [lo, hi] = expected.opaque ? [0.99, 1] : expected.uiKind ? [0.3, 1] : [0.03, 0.92];
  const badCov = stats.findIndex((s) => s.coverage < lo || s.coverage > hi);
  const meanCov = stats.reduce((a, s) => a + s.coverage, 0) / stats.length;
  checks.push({
    name: 'alpha_coverage',
    passed: badCov < 0,
    value: Math.round((badCov >= 0 ? stats[badCov]!.coverage : meanCov) * 1000) / 1000,
    expected: `${lo}–${hi} of the frame opaque`,
    detail: badCov >= 0 ? `frame ${badCov} covers ${(stats[badCov]!.coverage * 100).toFixed(1)}%` : undefined,
  });
  if (input.palette && input.palette.length > 0) {
    const pal = input.palette;
    let total = 0;
    let inside = 0;
    const cache = new Map<number, boolean>();
    for (const f of frames) {
      const d = f.data;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3]! < 128) continue;
        total++;
        const key = (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
        let ok = cache.get(key);
        if (ok === undefined) {
          ok = pal.some((c) => colorDistance2(d[i]!, d[i + 1]!, d[i + 2]!, c[0], c[1], c[2]) <= 9 * 48);
          cache.set(key, ok);
        }
        if (ok) inside++;
      }
    }
    const ratio = total ? inside / total : 1;
    checks.push({
      name: 'palette',
      passed: ratio >= 0.98,
      value: Math.round(ratio * 1000) / 1000,
      expected: '≥ 0.98 of opaque pixels from the palette',
      detail: ratio < 0.98 ? `${((1 - ratio) * 100).toFixed(1)}% of pixels are off-palette` : undefined,
    });
  }
  if (frames.length > 1) {
    // distinct: within each direction's cycle, not every frame may be identical
    const fpd = expected.framesPerDirection;
    let staticCycles = 0;
    const groups = expected.uiKind ? 1 : expected.directions;
    const per = expected.uiKind ? frames.length : fpd;
    if (per > 1) {
      for (let d = 0; d < groups; d++) {
        const first = frames[d * per]!;
        let allSame = true;
        for (let f = 1; f < per; f++) if (!framesEqual(first, frames[d * per + f]!)) allSame = false;
        if (allSame) staticCycles++;
      }
    }
    checks.push({
      name: 'frames_distinct',
      passed: staticCycles === 0,
      value: staticCycles,
      expected: 'no cycle made of identical frames',
      detail: staticCycles ? `${staticCycles} of ${groups} cycles do not move` : undefined,
    });
    // consistent: every frame shares most colours with the first one and keeps a similar coverage
    const ref = stats[0]!;
    let worst = 1;
    let worstAt = 0;
    for (let i = 1; i < stats.length; i++) {
      const s = stats[i]!;
      const overlap = histOverlap(ref.hist, s.hist);
      const covRatio =
        ref.coverage && s.coverage
          ? Math.min(ref.coverage, s.coverage) / Math.max(ref.coverage, s.coverage)
          : 0;
      const score = Math.min(overlap, covRatio);
      if (score < worst) {
        worst = score;
        worstAt = i;
      }
    }
    checks.push({
      name: 'frames_consistent',
      passed: worst >= 0.35,
      value: Math.round(worst * 1000) / 1000,
      expected: '≥ 0.35 colour and coverage similarity to frame 0',
      detail: worst < 0.35 ? `frame ${worstAt} looks unrelated to frame 0` : undefined,
    });
  }
  return finish(checks);
}

function finish(checks: QualityCheck[]): QualityReport {
  const failed = checks.find((c) => !c.passed);
  const report: QualityReport = {
    passed: !failed,
    score: checks.length ? checks.filter((c) => c.passed).length / checks.length : 0,
    checks,
  };
  if (failed)
    report.rejectReason = `${failed.name}: ${failed.detail ?? `expected ${failed.expected}, measured ${failed.value}`}`;
  return report;
}
