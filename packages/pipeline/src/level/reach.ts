/**
 * Whether a feature the layout asks for can be walked to: a lake ringed by rock is drawn, but nobody
 * can stand on its shore. A feature is reached when one of its terrain points (its water, lava or
 * rock — any point of its cells for the features that are not terrain) is a corner of a walked cell
 * or next to one, so the edge between them is a shore a walker stands on.
 */
import type { LevelLayout } from './layout.js';
import type { LevelSpace } from './space.js';
import type { FeatureKind } from './words.js';

/** The terrain a feature is drawn in when it is not walked on (water, lava, rock), else null. */
export function barrierOf(kind: FeatureKind, layout: LevelLayout): number | null {
  const { roles } = layout;
  if (kind === 'lake' || kind === 'pond' || kind === 'river') return roles.water;
  if (kind === 'sea') return roles.sea;
  if (kind === 'lava') return roles.lava;
  if (kind === 'mountain' || kind === 'valley') return roles.rock;
  return null;
}

/** The corner points of the cells `walked` accepts (a cell's own point on a blob47 map). */
export function walkedPoints(space: LevelSpace, walked: (cell: number) => boolean): Uint8Array {
  const out = new Uint8Array(space.gw * space.gh);
  for (let c = 0; c < space.columns * space.rows; c++)
    if (walked(c))
      for (const p of space.cellPoints(c % space.columns, Math.floor(c / space.columns))) out[p] = 1;
  return out;
}

/**
 * Whether some point of `cells` (of terrain `barrier` when given) is a walked point or one of its
 * eight neighbours is: the feature's edge touches the walked region.
 */
export function featureReached(
  space: LevelSpace,
  cells: readonly number[],
  barrier: number | null,
  walked: Uint8Array,
): boolean {
  const { gw, gh } = space;
  for (const c of cells)
    for (const p of space.cellPoints(c % space.columns, Math.floor(c / space.columns))) {
      if (barrier !== null && space.grid.cells[p] !== barrier) continue;
      const x = p % gw;
      const y = Math.floor(p / gw);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < gw && ny < gh && walked[ny * gw + nx]) return true;
        }
    }
  return false;
}
