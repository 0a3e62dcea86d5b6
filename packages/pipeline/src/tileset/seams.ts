import type { RgbaImage } from '../types/index.js';
import { type TilesetRules, touchingPairs } from './rules.js';

/** Seam goals of issue #18: every generated set stays at or under both. */
export const SEAM_GOALS = { worst: 1.5, mean: 1.1 } as const;

export interface SeamPair {
  /** Tile on the left (axis x) or on top (axis y). */
  a: number;
  b: number;
  axis: 'x' | 'y';
  score: number;
}

export interface SeamReport {
  /** Highest seam score over all pairs the rules allow to touch. */
  worst: number;
  /** Mean seam score over those pairs. */
  mean: number;
  worstPair: SeamPair | null;
  /** How many ordered pairs were joined. */
  pairs: number;
}

const dist = (d: Uint8Array, i: number, e: Uint8Array, j: number) =>
  Math.hypot(d[i]! - e[j]!, d[i + 1]! - e[j + 1]!, d[i + 2]! - e[j + 2]!);

/** Mean colour difference between neighbouring columns (axis x) or rows (axis y) inside a tile. */
export function innerDifference(img: RgbaImage, axis: 'x' | 'y'): number {
  const { width: w, height: h, data } = img;
  let sum = 0;
  let count = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (axis === 'x' ? x + 1 >= w : y + 1 >= h) continue;
      const i = (y * w + x) * 4;
      const j = axis === 'x' ? i + 4 : i + w * 4;
      sum += dist(data, i, data, j);
      count++;
    }
  }
  return count ? sum / count : 0;
}

/** Mean colour difference across the joint of `a` placed left of (axis x) or above (axis y) `b`. */
export function jointDifference(a: RgbaImage, b: RgbaImage, axis: 'x' | 'y'): number {
  let sum = 0;
  if (axis === 'x') {
    const h = Math.min(a.height, b.height);
    for (let y = 0; y < h; y++) sum += dist(a.data, (y * a.width + a.width - 1) * 4, b.data, y * b.width * 4);
    return h ? sum / h : 0;
  }
  const w = Math.min(a.width, b.width);
  for (let x = 0; x < w; x++) sum += dist(a.data, ((a.height - 1) * a.width + x) * 4, b.data, x * 4);
  return w ? sum / w : 0;
}

/** A little slack so that two flat tiles joined flat score 1, not 0/0. */
const EPSILON = 0.5;

/**
 * Seam score of one joint: mean colour difference across the joint ÷ mean difference between
 * neighbouring columns (rows) inside the two tiles. 1 means the joint is as smooth as the tiles'
 * own texture; a visible seam scores well above.
 */
export function seamScore(a: RgbaImage, b: RgbaImage, axis: 'x' | 'y', inner?: [number, number]): number {
  const ia = inner ? inner[0] : innerDifference(a, axis);
  const ib = inner ? inner[1] : innerDifference(b, axis);
  return (jointDifference(a, b, axis) + EPSILON) / ((ia + ib) / 2 + EPSILON);
}

/** Joins every pair of tiles the rules allow to touch and reports the worst and mean seam score. */
export function measureSeams(tiles: readonly RgbaImage[], rules: TilesetRules): SeamReport {
  const innerX = tiles.map((t) => innerDifference(t, 'x'));
  const innerY = tiles.map((t) => innerDifference(t, 'y'));
  let worst: SeamPair | null = null;
  let sum = 0;
  let count = 0;
  for (const { a, b, axis } of touchingPairs(rules)) {
    const ta = tiles[a];
    const tb = tiles[b];
    if (!ta || !tb) continue;
    const inner = axis === 'x' ? innerX : innerY;
    const score = seamScore(ta, tb, axis, [inner[a]!, inner[b]!]);
    sum += score;
    count++;
    if (!worst || score > worst.score) worst = { a, b, axis, score };
  }
  return {
    worst: worst ? worst.score : 0,
    mean: count ? sum / count : 0,
    worstPair: worst,
    pairs: count,
  };
}
