import type { QualityCheck, QualityReport, RgbaImage } from '../types/index.js';
import { type TilesetKind, tilesetRules } from './rules.js';
import { measureSeams, SEAM_GOALS } from './seams.js';

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The seam check of a tileset: every pair of tiles the set's rules allow to touch is joined and
 * scored (colour difference across the joint ÷ the tiles' own column-to-column difference). The
 * set is rejected (a quality retry) when the worst joint is above 1.5 or the mean above 1.1.
 */
export function tilesetSeamChecks(
  frames: readonly RgbaImage[],
  kind: TilesetKind,
): { checks: QualityCheck[]; seams: NonNullable<QualityReport['seams']> } {
  const rules = tilesetRules(kind);
  const report = measureSeams(frames, rules);
  const pair = report.worstPair;
  const where = pair ? `tile ${pair.a} ${pair.axis === 'x' ? 'left of' : 'above'} tile ${pair.b}` : 'no pair';
  const checks: QualityCheck[] = [
    {
      name: 'tile_seams_worst',
      passed: report.worst <= SEAM_GOALS.worst,
      value: round(report.worst),
      expected: `worst seam ≤ ${SEAM_GOALS.worst} over the ${report.pairs} joints the rules allow (seam = difference across the joint ÷ difference between neighbouring columns inside the tiles)`,
      detail:
        report.worst <= SEAM_GOALS.worst
          ? `worst joint: ${where}`
          : `the joint ${where} scores ${report.worst.toFixed(2)}: a visible seam`,
    },
    {
      name: 'tile_seams_mean',
      passed: report.mean <= SEAM_GOALS.mean,
      value: round(report.mean),
      expected: `mean seam ≤ ${SEAM_GOALS.mean}`,
      ...(report.mean <= SEAM_GOALS.mean
        ? {}
        : { detail: `the joints score ${report.mean.toFixed(2)} on average: the tiles do not join` }),
    },
  ];
  return {
    checks,
    seams: {
      worst: round(report.worst),
      mean: round(report.mean),
      pairs: report.pairs,
      worstPair: pair ? { a: pair.a, b: pair.b, axis: pair.axis } : null,
    },
  };
}
