/**
 * The quality checks of a level: every place the layout asks for is reachable from the spawn over
 * walkable cells (props that block count), every feature is where its words put it, no two
 * neighbouring tiles break the tileset's rules, and no joint shows a seam. A failure is a quality
 * retry with a new seed (the pipeline's loop), its reason naming what failed.
 */
import { innerDifference, SEAM_GOALS, seamScore } from '../tileset/seams.js';
import type { QualityCheck } from '../types/index.js';
import type { LevelBuild } from './build.js';
import { components } from './grid.js';
import { PROP_BLOCKS, pocketSize } from './plan.js';
import { barrierOf, featureReached, walkedPoints } from './reach.js';
import { tilesMayTouch } from './tiles.js';
import type { Placement } from './words.js';

const round = (v: number) => Math.round(v * 1000) / 1000;

/** Whether a point (map fractions) lies where a placement word puts things. */
function inPlace(p: Placement, u: number, v: number): boolean {
  const n = v < 0.45;
  const s = v > 0.55;
  const e = u > 0.55;
  const w = u < 0.45;
  switch (p) {
    case 'north':
      return n;
    case 'south':
      return s;
    case 'east':
      return e;
    case 'west':
      return w;
    case 'northeast':
      return n && e;
    case 'northwest':
      return n && w;
    case 'southeast':
      return s && e;
    case 'southwest':
      return s && w;
    case 'centre':
      return Math.abs(u - 0.5) < 0.22 && Math.abs(v - 0.5) < 0.22;
    case 'corner':
      return (u < 0.35 || u > 0.65) && (v < 0.35 || v > 0.65);
    default:
      return false;
  }
}

/** Why a region is not where its words put it, or null when it is. */
function misplacement(
  cells: readonly number[],
  placements: readonly Placement[],
  columns: number,
  rows: number,
): string | null {
  if (cells.length === 0) return 'not drawn';
  const uv = cells.map(
    (c) => [((c % columns) + 0.5) / columns, (Math.floor(c / columns) + 0.5) / rows] as const,
  );
  const mean = uv.reduce((a, [u, v]) => [a[0] + u / uv.length, a[1] + v / uv.length], [0, 0]);
  const wrong: string[] = [];
  for (const p of placements) {
    if (p === 'around') {
      const quadrants = new Set(
        uv
          .filter(([u, v]) => Math.hypot(u - 0.5, v - 0.5) > 0.2)
          .map(([u, v]) => (u < 0.5 ? 0 : 1) + (v < 0.5 ? 0 : 2)),
      );
      if (quadrants.size < 3) wrong.push(`around: only ${quadrants.size} of 4 quarters away from the centre`);
    } else if (p === 'corners') {
      const corners = new Set(
        uv
          .filter(([u, v]) => (u < 0.35 || u > 0.65) && (v < 0.35 || v > 0.65))
          .map(([u, v]) => (u < 0.5 ? 0 : 1) + (v < 0.5 ? 0 : 2)),
      );
      if (corners.size < 3) wrong.push(`corners: in ${corners.size} of 4 corners`);
    } else if (placements.length === 1 || p === 'centre') {
      if (!inPlace(p, mean[0]!, mean[1]!))
        wrong.push(
          `${p}: its middle is at ${Math.round(mean[0]! * 100)} % across, ${Math.round(mean[1]! * 100)} % down`,
        );
    } else {
      const share = uv.filter(([u, v]) => inPlace(p, u, v)).length / uv.length;
      if (share < 0.15) wrong.push(`${p}: ${Math.round(share * 100)} % of it there`);
    }
  }
  return wrong.length ? wrong.join('; ') : null;
}

/** Why a feature is not reached: the terrains round it that are not walked on and not its own seal it in. */
function sealedBy(build: LevelBuild, cells: readonly number[], own: number | null): string {
  const { space, layout } = build;
  const mine = new Set(cells);
  const names = new Set<string>();
  for (const c of cells) {
    const x = c % space.columns;
    const y = Math.floor(c / space.columns);
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= space.columns || ny >= space.rows || mine.has(ny * space.columns + nx))
        continue;
      for (const t of space.cellTerrains(nx, ny))
        if (!space.walkable[t] && t !== own) names.add(layout.terrains[t]!);
    }
  }
  return names.size ? `sealed in by ${[...names].join(' and ')}` : 'its shore is cut off from the spawn';
}

/** The checks of a built level, and the figures its metadata reports. */
export function levelChecks(build: LevelBuild): { checks: QualityCheck[]; figures: LevelFigures } {
  const { plan, space, tileset, map } = build;
  const { columns, rows } = plan;
  // 1. walked-on places joined
  const blocked = new Uint8Array(columns * rows);
  for (const p of build.plan.props) if (PROP_BLOCKS[p.kind]) blocked[p.y * columns + p.x] = 1;
  const open = (c: number) => !blocked[c] && space.cellWalkable(c % columns, Math.floor(c / columns));
  const reach = components(columns, rows, open);
  const land = components(columns, rows, (c) => space.cellWalkable(c % columns, Math.floor(c / columns)));
  const home = plan.spawn >= 0 ? reach.label[plan.spawn]! : -1;
  const apart = plan.anchors.filter((a) => {
    if (home !== -1 && reach.label[a.cell] === home) return false;
    // the islands of an archipelago are apart by design: only what shares the spawn's island must join
    return !(build.layout.base === 'archipelago' && land.label[a.cell] !== land.label[plan.spawn]);
  });
  // every walkable region counts, not only the places named: water, the sea, lava and rock are
  // barriers (a river with no crossing cuts a map in two); pockets smaller than pocketSize do not
  const pocket = pocketSize(columns, rows);
  const regionsApart: string[] = [];
  if (home !== -1)
    reach.sizes.forEach((n, i) => {
      if (i === home || n < pocket) return;
      const first = reach.label.indexOf(i);
      if (build.layout.base === 'archipelago' && land.label[first] !== land.label[plan.spawn]) return;
      let sx = 0;
      let sy = 0;
      for (let c = 0; c < reach.label.length; c++)
        if (reach.label[c] === i) {
          sx += c % columns;
          sy += Math.floor(c / columns);
        }
      regionsApart.push(
        `a walkable region of ${n} cells around (${Math.round(sx / n)}, ${Math.round(sy / n)})`,
      );
    });
  // every feature asked for is walked to: a lake ringed by rock is drawn but cannot be reached
  const walked = walkedPoints(space, (c) =>
    build.layout.base === 'archipelago' ? land.label[c] !== -1 : home !== -1 && reach.label[c] === home,
  );
  const unreached =
    home === -1
      ? []
      : plan.regions
          .filter(
            (r) =>
              r.cells.length > 0 && !featureReached(space, r.cells, barrierOf(r.kind, build.layout), walked),
          )
          .map((r) =>
            barrierOf(r.kind, build.layout) === null
              ? `${r.words[0] ?? r.kind} (no walked cell reaches it)`
              : `${r.words[0] ?? r.kind} (no walked cell at its edge: ${sealedBy(build, r.cells, barrierOf(r.kind, build.layout))})`,
          );
  const connected =
    plan.spawn >= 0 &&
    home !== -1 &&
    apart.length === 0 &&
    regionsApart.length === 0 &&
    unreached.length === 0;
  // 2. features where the words put them
  const misplaced: string[] = [];
  let placed = 0;
  for (const r of plan.regions) {
    const why = misplacement(r.cells, r.placements, columns, rows);
    const name = r.words[0] ?? r.kind;
    if (
      why === null ||
      (why === 'not drawn' && r.placements.length === 0 && r.kind === 'corridors' && plan.rooms.length < 2)
    )
      placed++;
    else misplaced.push(`${name} (${why})`);
  }
  // 3. tiles by the rules, 4. seams
  let ruleBreaks = 0;
  let missing = 0;
  let firstBreak = '';
  const innerX = tileset.tiles.map((t) => innerDifference(t.image, 'x'));
  const innerY = tileset.tiles.map((t) => innerDifference(t.image, 'y'));
  let worst = 0;
  let worstAt = '';
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < columns; x++) {
      const a = map[y * columns + x]!;
      if (a < 0) {
        missing++;
        firstBreak ||= `cell (${x}, ${y}) has no tile (${space
          .cellTerrains(x, y)
          .map((t) => build.layout.terrains[t])
          .join(', ')} meet in it)`;
        continue;
      }
      for (const [dx, dy, axis] of [
        [1, 0, 'x'],
        [0, 1, 'y'],
      ] as const) {
        if (x + dx >= columns || y + dy >= rows) continue;
        const b = map[(y + dy) * columns + x + dx]!;
        if (b < 0) continue;
        const ta = tileset.tiles[a]!;
        const tb = tileset.tiles[b]!;
        if (!tilesMayTouch(ta, tb, axis)) {
          ruleBreaks++;
          firstBreak ||= `tile ${ta.name} at (${x}, ${y}) ${axis === 'x' ? 'left of' : 'above'} ${tb.name}`;
          continue;
        }
        const inner = axis === 'x' ? innerX : innerY;
        const s = seamScore(ta.image, tb.image, axis, [inner[a]!, inner[b]!]);
        if (s > worst) {
          worst = s;
          worstAt = `${ta.name} ${axis === 'x' ? 'left of' : 'above'} ${tb.name} at (${x}, ${y})`;
        }
      }
    }
  const checks: QualityCheck[] = [
    {
      name: 'level_connected',
      passed: connected,
      value: apart.length + regionsApart.length + unreached.length,
      expected: `every place the layout asks for (${plan.anchors.map((a) => a.name).join(', ')}), every walkable region of ${pocket} cells or more and the edge of every feature (a lake's shore) reachable from the spawn over walkable cells — water, sea, lava and rock are barriers, bridges are walked (value: places, regions and features cut off)`,
      ...(connected
        ? {}
        : {
            detail:
              plan.spawn < 0
                ? 'no walkable cell for the spawn'
                : `cut off from the spawn: ${[...apart.map((a) => a.name), ...regionsApart, ...unreached].join(', ')}`,
          }),
    },
    {
      name: 'level_placement',
      passed: misplaced.length === 0,
      value: placed,
      expected: `every feature where its words put it (${plan.regions.length} features; value: placed)`,
      ...(misplaced.length ? { detail: `not where the words put them: ${misplaced.join('; ')}` } : {}),
    },
    {
      name: 'level_tile_rules',
      passed: ruleBreaks + missing === 0,
      value: ruleBreaks + missing,
      expected:
        'every cell tiled and every joint allowed by the tileset’s rules (value: joints or cells that break them)',
      ...(firstBreak ? { detail: firstBreak } : {}),
    },
    {
      name: 'level_seams',
      passed: worst <= SEAM_GOALS.worst,
      value: round(worst),
      expected: `worst seam over the map's joints ≤ ${SEAM_GOALS.worst}`,
      ...(worstAt ? { detail: `worst joint: ${worstAt}` } : {}),
    },
  ];
  return {
    checks,
    figures: { connected, placed, misplaced, ruleBreaks: ruleBreaks + missing, worstSeam: round(worst) },
  };
}

export interface LevelFigures {
  connected: boolean;
  placed: number;
  misplaced: string[];
  ruleBreaks: number;
  worstSeam: number;
}
