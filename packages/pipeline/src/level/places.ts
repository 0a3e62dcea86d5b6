/**
 * The walked-on places of an outdoor level: villages and houses, the mouth of a cave, clearings,
 * forests, paths, chests and the spawn — each an anchor that must be reachable — then the scattered
 * props, the routes that join every anchor to the spawn, and the two-terrains-a-tile repair.
 */
import { cheapestRoute, components } from './grid.js';
import { type Grower, PLACEMENT_CENTRES, sideDepth, TREE_OF, windingAsked } from './grow.js';
import type { FeatureRequest, LevelLayout } from './layout.js';
import { PROP_BLOCKS, type PropKind, pocketSize } from './plan.js';
import { barrierOf, featureReached, walkedPoints } from './reach.js';
import type { FeatureKind, Placement } from './words.js';

/** The map cell nearest map fractions (u, v) that `ok` accepts, searching outwards. */
function cellNear(g: Grower, u: number, v: number, ok: (cell: number) => boolean): number | null {
  const { columns, rows } = g.space;
  const cx = Math.round(u * (columns - 1));
  const cy = Math.round(v * (rows - 1));
  const max = Math.max(columns, rows);
  for (let r = 0; r <= max; r++) {
    let best: number | null = null;
    let bestD = Infinity;
    for (let y = cy - r; y <= cy + r; y++)
      for (let x = cx - r; x <= cx + r; x++) {
        if (x < 0 || y < 0 || x >= columns || y >= rows) continue;
        if (Math.max(Math.abs(x - cx), Math.abs(y - cy)) !== r) continue;
        const c = y * columns + x;
        const d = (x - cx) ** 2 + (y - cy) ** 2;
        if (d < bestD && ok(c)) {
          best = c;
          bestD = d;
        }
      }
    if (best !== null) return best;
  }
  return null;
}

const cellUv = (g: Grower, cell: number): [number, number] => [
  (cell % g.space.columns) / Math.max(1, g.space.columns - 1),
  Math.floor(cell / g.space.columns) / Math.max(1, g.space.rows - 1),
];

/** A plain ground cell (walked on, one terrain, nothing on it). */
function groundCell(g: Grower, cell: number): boolean {
  const x = cell % g.space.columns;
  const y = Math.floor(cell / g.space.columns);
  return g.space.cellWalkable(x, y) && g.space.cellIs(x, y) && g.propAt[cell] === -1 && !g.keepFree[cell];
}

function anchorOf(g: Grower, name: string, cell: number): void {
  g.anchors.push({ name, cell });
  g.keepFree[cell] = 1;
}

function region(g: Grower, kind: FeatureKind, cells: number[]): void {
  g.extraRegions.push({ kind, words: [], placements: [], cells });
}

/** Whether a prop is a building (a house, a hall's half): a wall to paths, its door a lane's end. */
const isBuilding = (kind: PropKind) =>
  kind === 'house' || kind === 'cottage' || kind === 'hall-w' || kind === 'hall-e';

/** A village: a plaza of path terrain and houses around it, each door joined to the plaza. */
function growVillage(g: Grower, f: FeatureRequest, houses?: FeatureRequest): void {
  const { roles } = g.layout;
  const { columns, rows } = g.space;
  // "a village with five houses in the south": the houses' place is the village's when it has none
  const where = f.placements.length === 0 && houses?.placements.length ? houses : f;
  const [u, v] = g.targets(where, () => [0.5, 0.5])[0]!;
  const centre = cellNear(g, u, v, (c) => groundCell(g, c));
  if (centre === null) return;
  const feature = g.layout.features.indexOf(f);
  const cx = centre % columns;
  const cy = Math.floor(centre / columns);
  const street = roles.path ?? roles.ground;
  // a square at the middle: a small one, a market's wider (issue #39: a dirt blotch under the houses)
  const square = f.words.some((w) => /square|market|plaza|广场|集市/.test(w)) ? 2.6 : 1.6;
  const pp = g.space.pointOfCell(centre);
  const deep = g.deepGround(1, [street]);
  const reach = Math.ceil(square);
  for (let dy = -reach; dy <= reach + 1; dy++)
    for (let dx = -reach; dx <= reach + 1; dx++) {
      const x = (pp % g.gw) + dx;
      const y = Math.floor(pp / g.gw) + dy;
      if (x < 0 || y < 0 || x >= g.gw || y >= g.gh || !deep[y * g.gw + x]) continue;
      if (Math.max(Math.abs(dx - 0.5), Math.abs(dy - 0.5)) <= square) g.paint(y * g.gw + x, street, -1);
    }
  for (let dy = -reach + 1; dy <= reach - 1; dy++)
    for (let dx = -reach + 1; dx <= reach - 1; dx++)
      if (cx + dx >= 0 && cy + dy >= 0 && cx + dx < columns && cy + dy < rows)
        g.keepFree[(cy + dy) * columns + cx + dx] = 1;
  g.keepFree[centre] = 1;
  // the main road through the square, edge to edge across the map's longer side (issue #39: houses
  // stood on dirt blotches with no street; a village is on a road)
  const across = columns >= rows;
  const ends = (
    across
      ? [
          [0, v],
          [1, v],
        ]
      : [
          [u, 0],
          [u, 1],
        ]
  ).map(([eu, ev]) => cellNear(g, eu!, ev!, (c) => groundCell(g, c)));
  for (const end of ends) if (end !== null) joinCells(g, end, centre, street, feature, 0.6);
  const main = new Set(g.cellsOwnedBy(feature));
  // a cross street through the square (issue #39, decision 0137: a village was a row of houses on
  // one road): to each other side whose straight way from the square is open ground (not across a
  // lake), so the square is a crossroads and the houses gather round it on both streets
  const crossEnds = (
    across
      ? [
          [u, 0],
          [u, 1],
        ]
      : [
          [0, v],
          [1, v],
        ]
  ).map(([eu, ev]) => cellNear(g, eu!, ev!, (c) => groundCell(g, c)));
  for (const end of crossEnds) {
    if (end === null) continue;
    const [ex, ey] = [end % columns, Math.floor(end / columns)];
    const n = Math.max(1, Math.round(Math.hypot(ex - cx, ey - cy)));
    let open = 0;
    for (let k = 0; k <= n; k++) {
      const x = Math.round(cx + ((ex - cx) * k) / n);
      const y = Math.round(cy + ((ey - cy) * k) / n);
      if (g.space.cellWalkable(x, y)) open++;
    }
    if (open / (n + 1) >= 0.9) joinCells(g, end, centre, street, feature, 0.4);
  }
  const road = new Set(g.cellsOwnedBy(feature));
  const cells: number[] = [centre];
  const homes: number[] = [];
  // (issue #39, decision 0143: 5–9 by the map's size read as a few houses on a road; 6–11)
  const count = houses?.count || Math.max(6, Math.min(11, Math.round((columns * rows) / 140)));
  // houses face the street, nearest the square first so they gather round it: north of an
  // east–west street with their doors on it (south of it they would back onto it), either side of a
  // north–south one with a lane of a step; the nearest site of an east–west street with room is a
  // long hall (two halves, four tiles wide), one in a village of five buildings or more
  const radius = Math.max(6, Math.min(columns, rows) * 0.32);
  const sites: Array<[number, number, number]> = [];
  for (const c of road) {
    const x = c % columns;
    const y = Math.floor(c / columns);
    const d = Math.hypot(x - cx, y - cy);
    if (d < square + 1.5 || d > radius) continue;
    const ew = road.has(c - 1) || road.has(c + 1);
    const ns = road.has(c - columns) || road.has(c + columns);
    const crossStreet = !main.has(c);
    // which way the street runs here: the main road runs across (or down) the map, the cross street
    // the other way; where a cell has neighbours both ways the street's own direction decides
    const eastWest = ew && ns ? across !== crossStreet : ew;
    // a little of the map's noise in the order, so one village is not another's copy
    const e = d + (g.n(x * 3 + 17, y * 3 + 29, 4) - 0.5) * 3;
    if (eastWest) sites.push([e, (y - 2) * columns + x, 1], [e + 0.5, (y - 3) * columns + x, 1]);
    else sites.push([e + 0.3, (y - 1) * columns + x - 2, 0], [e + 0.3, (y - 1) * columns + x + 2, 0]);
  }
  sites.sort((a, b) => a[0] - b[0]);
  const tries = sites.map(([, c]) => c);
  const onEastWest = new Set(sites.filter(([, , ew]) => ew).map(([, c]) => c));
  const ring = Math.max(3, Math.min(8, Math.round(Math.min(columns, rows) / 7)));
  for (let k = 0; k < count * 6; k++) {
    const a = ((k * 0.618) % 1) * Math.PI * 2 + g.rng.range(-0.4, 0.4);
    const r = ring + g.rng.range(-1, 2);
    tries.push(Math.round(cy + Math.sin(a) * r) * columns + Math.round(cx + Math.cos(a) * r * 1.3));
  }
  // a site: its cell and the roof's above it on ground, its door's below it free, off the street,
  // and no other building's cell within a step across or two down (terraces touch, doors stay clear)
  const fits = (cell: number) => {
    const hx = cell % columns;
    const hy = Math.floor(cell / columns);
    if (cell < 0 || hx < 1 || hy < 1 || hx >= columns - 1 || hy >= rows - 2) return false;
    if (!groundCell(g, cell) || !groundCell(g, cell - columns) || !groundCell(g, cell + columns))
      return false;
    if (road.has(cell) || road.has(cell - columns)) return false;
    return !g.props.some((p) => isBuilding(p.kind) && Math.abs(p.x - hx) < 2 && Math.abs(p.y - hy) < 3);
  };
  // ("five houses" are five houses: a counted village keeps to cottages)
  let halls = !houses?.count && count >= 5 ? 1 : 0;
  for (const cell of tries) {
    if (homes.length >= count) break;
    if (!fits(cell)) continue;
    const hy = Math.floor(cell / columns);
    // a hall: this site and the one two cells east, its door at the join over the street
    const hall = halls > 0 && onEastWest.has(cell) && fits(cell + 2) && groundCell(g, cell + columns + 1);
    if (hall) {
      g.place('hall-w', cell);
      g.place('hall-e', cell + 2);
      halls--;
    } else {
      // red-tiled houses and thatched cottages mixed (decision 0143: one stamp read as a copy); "five
      // houses" are five houses
      const thatched = !houses?.count && (homes.length + Math.floor(g.n(cell % columns, 7, 3) * 3)) % 3 === 1;
      g.place(thatched ? 'cottage' : 'house', cell);
    }
    const door = hall ? cell + columns + 1 : cell + columns;
    // its roof's row, its door's row and the half cells its picture covers either side stay clear
    // (a tree stood between two terraced houses, over both roofs)
    for (const k of hall ? [-1, 0, 1, 2, 3] : [-1, 0, 1]) {
      g.keepFree[cell - columns + k] = 1;
      g.keepFree[cell + k] = g.propAt[cell + k]! >= 0 ? g.keepFree[cell + k]! : 1;
      g.keepFree[cell + columns + k] = 1;
    }
    // its lane to the nearest cell of the street
    let goal = centre;
    let best = Infinity;
    for (const c of road) {
      const d = Math.hypot((c % columns) - (door % columns), Math.floor(c / columns) - hy - 1);
      if (d < best) {
        best = d;
        goal = c;
      }
    }
    if (!road.has(door)) joinCells(g, door, goal, street, feature);
    g.keepFree[door] = 1;
    cells.push(cell, door);
    homes.push(cell);
    if (hall) cells.push(cell + 2);
  }
  // a well on the square, off the streets' crossing, and a fenced garden beside most cottages
  // (issue #39, decision 0143: a village was cottages on a road and nothing else of a village)
  const walk = (c: number) =>
    c >= 0 && c < columns * rows && g.space.cellWalkable(c % columns, Math.floor(c / columns));
  for (const [dx, dy] of [
    [1, -1],
    [-1, -1],
    [1, 1],
    [-1, 1],
  ] as const) {
    const c = (cy + dy) * columns + cx + dx;
    if (cx + dx < 1 || cx + dx >= columns - 1 || cy + dy < 1 || cy + dy >= rows - 1) continue;
    if (!walk(c) || g.propAt[c] !== -1 || !walk(c + dx) || !walk(c + dy * columns)) continue;
    const was = g.keepFree[c]!;
    g.keepFree[c] = 0;
    if (g.place('well', c)) {
      g.keepFree[c - columns] = 1;
      cells.push(c);
      break;
    }
    g.keepFree[c] = was;
  }
  for (const [i, home] of homes.entries()) {
    const kind = g.props[g.propAt[home]!]?.kind;
    if ((kind !== 'house' && kind !== 'cottage') || !g.rng.chance(0.75)) continue;
    const first = (i + Math.floor(g.n(home % columns, 11, 3) * 2)) % 2 ? 2 : -2;
    for (const side of [first, -first]) {
      const c = home + side;
      if (Math.abs((c % columns) - (home % columns)) !== 2) continue;
      if (!groundCell(g, c) || road.has(c) || road.has(c + columns) || road.has(c - columns)) continue;
      if (!walk(c + columns) || !walk(c - columns)) continue;
      if (g.place('garden', c)) {
        cells.push(c);
        break;
      }
    }
  }
  anchorOf(g, f.kind, centre);
  region(g, f.kind, cells);
  // "a village with houses": the village's houses are the houses asked for (issue #39: the level was
  // refused with "houses (not drawn)" though the village had them)
  if (houses) region(g, 'houses', homes);
}

/**
 * A path of terrain `t` between two cells over land (avoiding rock and water where it can): the
 * cheapest route over a noise cost — through a few waypoints thrown to alternate sides of the
 * straight line when it `winds` — smoothed (Chaikin) into curves and painted about two points wide,
 * so it bends and runs on the diagonal instead of in right angles.
 */
function joinCells(g: Grower, from: number, to: number, t: number, feature: number, winds = 0): boolean {
  const { roles } = g.layout;
  const stops = [g.space.pointOfCell(from)];
  const [fx, fy] = [from % g.space.columns, Math.floor(from / g.space.columns)];
  const [tx, ty] = [to % g.space.columns, Math.floor(to / g.space.columns)];
  const dist = Math.hypot(tx - fx, ty - fy);
  if (winds > 0 && dist > 8) {
    const n = Math.max(1, Math.min(5, Math.round((dist * winds) / 12)));
    const side = g.rng.chance(0.5) ? 1 : -1;
    for (let i = 1; i <= n; i++) {
      const k = i / (n + 1);
      const off = (i % 2 ? side : -side) * dist * winds * g.rng.range(0.06, 0.11);
      const x = Math.round(fx + (tx - fx) * k + (-(ty - fy) / dist) * off);
      const y = Math.round(fy + (ty - fy) * k + ((tx - fx) / dist) * off);
      if (x < 1 || y < 1 || x >= g.space.columns - 1 || y >= g.space.rows - 1) continue;
      if (!groundCell(g, y * g.space.columns + x)) continue;
      stops.push(g.space.pointOfCell(y * g.space.columns + x));
    }
  }
  stops.push(g.space.pointOfCell(to));
  const route: number[] = [];
  for (let i = 0; i + 1 < stops.length; i++) {
    const leg = routeBetween(g, stops[i]!, stops[i + 1]!, t, from, to);
    if (!leg) return false;
    route.push(...(route.length ? leg.slice(1) : leg));
  }
  // a path is painted where all around it is ground or path, so it meets the ground only (it stops
  // short of a shore, a lake or rocks: those are walked on or around as they are)
  // a swamp's pools (water no feature named) are filled where the path crosses them: a causeway,
  // not a gap in the path (issue #39: a marsh's west–east path broke for ~7 tiles at its pools)
  const pool = (q: number) =>
    g.grid.cells[q] === roles.water && g.owner[q] === -1 && g.layout.biome === 'swamp';
  // the open ground a path is drawn over: a cave's floor, the land's ground
  const open = g.layout.base === 'cave' ? (roles.floor ?? roles.ground) : roles.ground;
  const clear = (p: number) => {
    const x = p % g.gw;
    const y = Math.floor(p / g.gw);
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= g.gw || ny >= g.gh) continue;
        const q = ny * g.gw + nx;
        const v = g.grid.cells[q]!;
        if (v !== open && v !== t && !pool(q)) return false;
      }
    return true;
  };
  const fill = (p: number) => {
    const x = p % g.gw;
    const y = Math.floor(p / g.gw);
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx >= 0 && ny >= 0 && nx < g.gw && ny < g.gh && pool(ny * g.gw + nx))
          g.paint(ny * g.gw + nx, roles.ground, -1);
      }
  };
  paintSmooth(g, route, t, feature, clear, fill);
  return true;
}

/** Chaikin's corner cutting over a route of points, then discs about two points across along it. */
function paintSmooth(
  g: Grower,
  route: readonly number[],
  t: number,
  feature: number,
  clear: (p: number) => boolean,
  fill: (p: number) => void = () => {},
) {
  // string-pulled first: from each kept point, straight on to the farthest point of the route the
  // line to which crosses only ground or path (a 4-neighbour route is all right angles)
  const pts = route.map((p) => [(p % g.gw) + 0.5, Math.floor(p / g.gw) + 0.5] as [number, number]);
  const open = (p: number) => g.grid.cells[p] === t || clear(p);
  const sight = (a: [number, number], b: [number, number]) => {
    const n = Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / 0.5);
    for (let k = 1; k < n; k++) {
      const x = Math.floor(a[0] + ((b[0] - a[0]) * k) / n);
      const y = Math.floor(a[1] + ((b[1] - a[1]) * k) / n);
      if (!open(y * g.gw + x)) return false;
    }
    return true;
  };
  let line: Array<[number, number]> = [];
  for (let i = 0; i < pts.length; ) {
    line.push(pts[i]!);
    let j = i + 1;
    for (let k = Math.min(pts.length - 1, i + 24); k > i + 1; k--)
      if (sight(pts[i]!, pts[k]!)) {
        j = k;
        break;
      }
    if (i === pts.length - 1) break;
    i = j;
  }
  for (let pass = 0; pass < 3 && line.length > 2; pass++) {
    const next: Array<[number, number]> = [line[0]!];
    for (let i = 0; i + 1 < line.length; i++) {
      const [ax, ay] = line[i]!;
      const [bx, by] = line[i + 1]!;
      next.push(
        [ax * 0.75 + bx * 0.25, ay * 0.75 + by * 0.25],
        [ax * 0.25 + bx * 0.75, ay * 0.25 + by * 0.75],
      );
    }
    next.push(line.at(-1)!);
    line = next;
  }
  const r = 1.05;
  for (let i = 0; i + 1 < line.length; i++) {
    const [ax, ay] = line[i]!;
    const [bx, by] = line[i + 1]!;
    const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / 0.3));
    for (let s = 0; s <= steps; s++) {
      const cx = ax + ((bx - ax) * s) / steps;
      const cy = ay + ((by - ay) * s) / steps;
      for (let y = Math.floor(cy - r); y <= Math.ceil(cy + r); y++)
        for (let x = Math.floor(cx - r); x <= Math.ceil(cx + r); x++) {
          if (x < 0 || y < 0 || x >= g.gw || y >= g.gh || (x - cx) ** 2 + (y - cy) ** 2 > r * r) continue;
          const q = y * g.gw + x;
          if (g.grid.cells[q] !== t && !clear(q)) continue;
          fill(q);
          g.paint(q, t, feature);
          g.keepFree[g.space.cellOfPoint(q)] = 1;
        }
    }
  }
  for (const p of route) g.keepFree[g.space.cellOfPoint(p)] = 1;
}

/** The cheapest route of points between two points for a path (rock and water dear, houses walls). */
function routeBetween(g: Grower, start: number, goalPoint: number, t: number, from: number, to: number) {
  const { roles } = g.layout;
  return cheapestRoute(
    g.gw,
    g.gh,
    start,
    (p) => p === goalPoint,
    (p) => {
      const x = p % g.gw;
      const y = Math.floor(p / g.gw);
      if (x >= g.gw - 1 || y >= g.gh - 1) return Infinity;
      const terr = g.grid.cells[p]!;
      const c = g.space.cellOfPoint(p);
      const prop = g.propAt[c]!;
      if (prop >= 0 && isBuilding(g.props[prop]!.kind) && c !== to && c !== from) return Infinity;
      // a path goes round still water rather than stopping at its edge and going on beyond
      if (terr === roles.sea) return 60;
      if (terr === roles.water || terr === roles.lava) return 40;
      if (terr === roles.rock) return 18;
      if (terr === t) return 0.6;
      // over the ground the path is drawn; over a shore or a plaza it is walked as it is; a slow
      // noise makes it follow the lie of the land instead of the straight line
      return (terr === roles.ground ? 1 : 5) + g.n(x, y, 11) * 2 + g.n(x + 101, y + 57, 3) * 3;
    },
  );
}

/** The mouth of a cave: a rock outcrop, the cave prop at its foot, the cell before it an anchor. */
function growCave(g: Grower, f: FeatureRequest): void {
  const { roles } = g.layout;
  const feature = g.layout.features.indexOf(f);
  const [tu, tv] = g.targets(f, () => [g.rng.pick([0.3, 0.7]), 0.3])[0]!;
  // a cave "in the west" is in the west wall of the map: its mouth nearer the side, its rock running
  // on to the edge (issue #39: it stood on an islet a fifth of the way in, or was clipped by the edge)
  const lean = (t: number) => (t < 0.3 ? 0.1 : t > 0.7 ? 0.9 : t);
  const [u, v] = [lean(tu), tv < 0.3 ? Math.max(tv, 0.2) : lean(tv)];
  // the mouth stands on open ground with room for the outcrop above it
  const room = g.deepGround(2);
  const at = cellNear(g, u, v, (c) => {
    const x = c % g.space.columns;
    const y = Math.floor(c / g.space.columns);
    const p = g.space.pointOfCell(c);
    return (
      y >= 3 &&
      y < g.space.rows - 2 &&
      x >= 2 &&
      x < g.space.columns - 2 &&
      groundCell(g, c) &&
      groundCell(g, c + g.space.columns) &&
      room[p] === 1 &&
      room[p - 2 * g.gw] === 1 &&
      room[p + g.gw] === 1
    );
  });
  if (at === null) return;
  if (roles.rock !== null) {
    const p = g.space.pointOfCell(at);
    const px = p % g.gw;
    const py = Math.floor(p / g.gw);
    const deep = g.deepGround(1);
    g.blob(px + 0.5, py - 2, Math.max(3.2, g.unit * 0.2), roles.rock, feature, (_t, q) => deep[q] === 1);
    // on to the side the words name: a ridge of rock from the outcrop to the map's edge
    const sx = tu < 0.3 ? -1 : tu > 0.7 ? 1 : 0;
    const sy = tv < 0.3 ? -1 : tv > 0.7 ? 1 : 0;
    if (sx || sy)
      for (let k = 0; k < Math.max(g.gw, g.gh); k += 1.5) {
        const bx = px + 0.5 + sx * k;
        const by = py - 2 + sy * k;
        if (bx < -2 || by < -2 || bx > g.gw + 1 || by > g.gh + 1) break;
        g.blob(bx, by, 3, roles.rock, feature, (_t, q) => deep[q] === 1);
      }
    // the cave's own cell and the cell before it stay ground: the prop stands on the rock's foot —
    // with an apron a point wider either side, so a path can run on to the mouth's sill without a
    // tile of rock, ground and path (issue #39, decision 0137: the path stopped a tile short of it)
    for (let dy = 0; dy <= 2; dy++)
      for (let dx = -1; dx <= 2; dx++) {
        const qx = px + dx;
        const qy = py + dy;
        if (qx >= 0 && qy >= 0 && qx < g.gw && qy < g.gh) g.paint(qy * g.gw + qx, roles.ground, feature);
      }
    for (const c of [at, at + g.space.columns])
      for (const q of g.space.cellPoints(c % g.space.columns, Math.floor(c / g.space.columns)))
        g.paint(q, roles.ground, feature);
  }
  g.place('cave', at);
  anchorOf(g, 'cave', at + g.space.columns);
  region(g, 'cave', [at]);
}

/** A clearing: an open disc kept free of trees. */
function growClearing(g: Grower, f: FeatureRequest): void {
  const forest = g.layout.features.find((x) => x.kind === 'forest');
  const [u, v] = g.targets(f, () =>
    forest && forest.placements[0] && forest.placements[0] in PLACEMENT_CENTRES
      ? PLACEMENT_CENTRES[forest.placements[0] as keyof typeof PLACEMENT_CENTRES]
      : [0.5, 0.5],
  )[0]!;
  const centre = cellNear(g, u, v, (c) => groundCell(g, c));
  if (centre === null) return;
  // inside a wood, wider: the trees' crowns (two tiles high) overhang its rim
  const r = Math.max(2, Math.min(g.space.columns, g.space.rows) * (forest ? 0.18 : 0.14) * f.scale);
  const cx = centre % g.space.columns;
  const cy = Math.floor(centre / g.space.columns);
  const cells: number[] = [];
  for (let y = Math.floor(cy - r); y <= cy + r; y++)
    for (let x = Math.floor(cx - r); x <= cx + r; x++) {
      if (
        x < 0 ||
        y < 0 ||
        x >= g.space.columns ||
        y >= g.space.rows ||
        (x - cx) ** 2 + (y - cy) ** 2 > r * r
      )
        continue;
      const c = y * g.space.columns + x;
      if (!g.space.cellWalkable(x, y)) continue;
      g.keepFree[c] = 1;
      cells.push(c);
    }
  // with no forest asked for around it, a ring of trees is what makes a clearing read (a "meadow",
  // a "field" or an "area" is open ground, not a hole in a wood)
  if (!forest && f.words.some((w) => /clearing|glade|空地/.test(w))) {
    const tree = TREE_OF[g.layout.biome];
    // a wood round it, not a hedge: a closed inner ring (issue #39, decision 0143: at 0.6 / 0.35 a
    // cell it read as a loose U), then a band about four cells deep thinning to a ragged edge (the
    // after-1130j review: "a clearing drawn as a ring of trees in open grass — no forest around it,
    // the feature means nothing")
    for (let y = Math.floor(cy - r - 6); y <= cy + r + 6; y++)
      for (let x = Math.floor(cx - r - 6); x <= cx + r + 6; x++) {
        const d = Math.hypot(x - cx, y - cy) - r;
        if (d <= 0.5 || d > 5.5 || x < 1 || y < 1 || x >= g.space.columns - 1 || y >= g.space.rows) continue;
        const c = y * g.space.columns + x;
        const chance = d < 1.8 ? 0.95 : d < 3.6 ? 0.8 : g.n(x, y, 9) > 0.45 ? 0.6 : 0.12;
        if (groundCell(g, c) && g.rng.chance(chance)) g.place(tree, c);
      }
  }
  g.anchors.push({ name: 'clearing', cell: centre });
  region(g, 'clearing', cells);
  // a clearing in a wood has a way in (issue #39: a forest clearing had no visible entrance): a trail
  // from it to the nearest side of the map, kept free of trees, where the player starts when no
  // other path is asked for
  if (forest && g.layout.roles.path !== null) {
    const { columns, rows } = g.space;
    const sides: Array<[number, number, number]> = [
      [cx, rows - 1, rows - 1 - cy],
      [0, cy, cx],
      [columns - 1, cy, columns - 1 - cx],
      [cx, 0, cy],
    ];
    const [ex, ey] = sides.sort((a, b) => a[2] - b[2])[0]!;
    const walk = (c: number) => groundCell(g, c);
    const end = cellNear(g, ex / Math.max(1, columns - 1), ey / Math.max(1, rows - 1), walk);
    if (end !== null && joinCells(g, centre, end, g.layout.roles.path, g.layout.features.indexOf(f), 1)) {
      if (!g.layout.features.some((x) => x.kind === 'path')) g.anchors.push({ name: 'path', cell: end });
    }
  }
}

const SIDES: readonly Placement[] = ['north', 'south', 'east', 'west'];

/** Whether a cell is in a forest with these placements (a blob at each place, or the ring around). */
function forestField(
  g: Grower,
  f: FeatureRequest,
  targets: ReadonlyArray<[number, number]>,
): (cell: number) => number {
  const around = f.placements.includes('around');
  const r = 0.3 * f.scale;
  // a forest on a side fills that third of the map (issue #39: "a forest in the north" was a blob, or
  // a line of trees): its inner edge ragged, in and out by about a tenth of the map
  const sides = f.placements.filter((p) => SIDES.includes(p));
  const sideTargets = new Set(
    sides.map((p) => PLACEMENT_CENTRES[p as keyof typeof PLACEMENT_CENTRES].join()),
  );
  const reach = Math.max(0.22, Math.min(0.45, (1 / 3) * f.scale));
  return (cell) => {
    const [u, v] = cellUv(g, cell);
    const x = cell % g.space.columns;
    const y = Math.floor(cell / g.space.columns);
    const wobble = (g.n(x * 2, y * 2, 9) - 0.5) * 0.2;
    let best = around ? Math.hypot(u - 0.5, v - 0.5) / 0.3 - 1 + wobble : -1;
    for (const [tu, tv] of targets)
      if (!sideTargets.has(`${tu},${tv}`)) best = Math.max(best, 1 - Math.hypot(u - tu, v - tv) / r + wobble);
    for (const side of sides) {
      const ragged = (g.n(x * 2 + 300, y * 2 + 300, 7) - 0.5) * 0.28;
      best = Math.max(best, (sideDepth(side, u, v) - (1 - reach) + ragged) * 4);
    }
    return best;
  };
}

/**
 * Where a wood round a place stands (> 0 inside, growing inwards), or null when the forest is not
 * round anything: with a clearing and no side or corner named, everywhere but the clearing (a glade
 * "in" or "deep in" a wood); placed "around" with a clearing, a lake, a pond or a village in the
 * middle (or unplaced), a band a quarter of the map's shorter side wide round it, its outer edge
 * ragged.
 */
function roundForest(g: Grower, forest: FeatureRequest): ((cell: number) => number) | null {
  const { columns, rows } = g.space;
  const aroundOnly = forest.placements.every((p) => p === 'around');
  if (!aroundOnly) return null;
  const clearing = g.extraRegions.find((r) => r.kind === 'clearing')?.cells ?? [];
  let inner: number[] = clearing;
  if (!inner.length && forest.placements.includes('around')) {
    const i = g.layout.features.findIndex(
      (x) =>
        (x.kind === 'lake' || x.kind === 'pond' || x.kind === 'village') &&
        (x.placements.length === 0 || x.placements.includes('centre')),
    );
    if (i >= 0) {
      const f = g.layout.features[i]!;
      inner =
        f.kind === 'village'
          ? g.extraRegions.filter((r) => r.kind === 'village').flatMap((r) => r.cells)
          : g.cellsOwnedBy(i);
    }
  }
  if (!inner.length) return null;
  // the distance of every cell from the place (its cells' middles)
  const dist = new Float32Array(columns * rows).fill(Infinity);
  for (let c = 0; c < dist.length; c++) {
    const x = c % columns;
    const y = Math.floor(c / columns);
    for (const q of inner) {
      const d = Math.hypot((q % columns) - x, Math.floor(q / columns) - y);
      if (d < dist[c]!) dist[c] = d;
    }
  }
  const whole = !forest.placements.includes('around');
  const width = Math.max(4, Math.min(columns, rows) * 0.25 * forest.scale);
  return (cell) => {
    const d = dist[cell]!;
    if (d < 0.9) return -1;
    if (whole) return 1;
    const x = cell % columns;
    const y = Math.floor(cell / columns);
    const ragged = (g.n(x * 2 + 500, y * 2 + 500, 7) - 0.5) * width * 0.5;
    return Math.min(1, (width + ragged - d) / 2);
  };
}

/** Trees: dense where a forest is asked for, a few elsewhere; rocks and bushes scattered. */
function scatterProps(g: Grower): void {
  const { layout } = g;
  const asked = layout.features.find((f) => f.kind === 'forest');
  const palms = asked !== undefined && asked.words.some((w) => /palm|棕榈|椰/.test(w));
  // palms with no place of their own stand round the water (plantPalms), not in a wood
  const forest =
    asked &&
    palms &&
    !asked.placements.length &&
    layout.features.some((f) => f.kind === 'lake' || f.kind === 'pond')
      ? undefined
      : asked;
  const tree = palms && forest ? 'palm' : TREE_OF[layout.biome];
  const forestIndex = forest ? layout.features.indexOf(forest) : -1;
  const targets =
    forest && forest.placements.some((p) => p !== 'around')
      ? g.targets(forest, () => [0.5, 0.5])
      : forest && !forest.placements.length
        ? g.targets(forest, () => g.somewhere())
        : [];
  // a wood round something (issue #39, decision 0137: "a clearing in a thick forest" stood beside a
  // wood in one corner, "a ring of trees around a pond" was a sparse band round the map's middle):
  // with a clearing and no side named, the wood fills the map round the clearing; "around" with a
  // clearing, a lake, a pond or a village in the middle is a band round that place
  const round = forest ? roundForest(g, forest) : null;
  const field = forest ? forestField(g, forest, targets) : () => -1;
  // a clearing in a wood on a side is inside it: the wood closes round the clearing too (issue #39,
  // decision 0143: "a clearing in a forest in the west" was a notch open to the east)
  const clearing = g.extraRegions.find((r) => r.kind === 'clearing')?.cells ?? [];
  let wrap: ((cell: number) => number) | null = null;
  if (forest && !round && clearing.length) {
    const { columns } = g.space;
    const mx = clearing.reduce((a, c) => a + (c % columns), 0) / clearing.length;
    const my = clearing.reduce((a, c) => a + Math.floor(c / columns), 0) / clearing.length;
    const reach = Math.sqrt(clearing.length / Math.PI) + 3.5;
    wrap = (cell) => (Math.hypot((cell % columns) - mx, Math.floor(cell / columns) - my) <= reach ? 1 : -1);
  }
  const inForest = round ?? (wrap ? (cell: number) => Math.max(field(cell), wrap(cell)) : field);
  // "dense", "thick", "surrounding", "a ring of": closed, a tree on most cells, no glades
  const dense = forest !== undefined && (forest.scale > 1.05 || forest.placements.includes('around'));
  // a wood named on a side or at a place covers it (issue #39, decision 0143: "a forest in the
  // north" was seven trees, "woods to the east" a scatter of clumps): a tree on about seven cells in
  // ten of its third (a blob's disc), a little thinner at its ragged edge, its pockets planted up
  const covers = forest !== undefined && !dense && targets.length > 0 && !palms;
  const density = Math.min(0.75, 0.5 * (forest?.scale ?? 1));
  const forestCells: number[] = [];
  const { columns, rows } = g.space;
  for (let y = 1; y < rows; y++)
    for (let x = 1; x < columns - 1; x++) {
      const c = y * columns + x;
      const f = inForest(c);
      if (f > 0) forestCells.push(c);
      if (!groundCell(g, c) || g.space.terrainAt(...pointXY(g, c)) !== layout.roles.ground) {
        // palms on the beach
        if (
          layout.roles.shore !== null &&
          g.space.cellIs(x, y, layout.roles.shore) &&
          groundCell(g, c) &&
          g.rng.chance(0.025)
        )
          g.place(layout.biome === 'grass' ? 'palm' : tree, c);
        continue;
      }
      // a wood grows in clumps with glades between them, thinning to its edge (issue #39: trees in
      // even blocks with grid-like gaps): the density follows a finer noise and the depth inside
      const clump = g.n(x * 2 + 700, y * 2 + 700, 11);
      const chance =
        f > 0
          ? dense
            ? Math.min(0.9, 0.8 + Math.max(0, clump - 0.5))
            : covers
              ? Math.min(0.9, 0.66 + (clump - 0.5) * 0.6) * Math.min(1, 0.55 + f * 1.5)
              : Math.min(0.9, density * (0.4 + 2 * Math.max(0, clump - 0.35)) * Math.min(1, 0.4 + f * 1.5))
          : 0.025;
      // a dense wood leaves the map's bottom row open: with the top row and the side columns (no
      // prop stands on those) it is one walk round the map, joined where the way out meets an edge
      // (else the joining cut a straight lane through the wood to the strip along the edges)
      if (dense && f > 0 && y === rows - 1) continue;
      if (g.rng.chance(chance))
        g.place(f > 0 && forest && tree === 'tree' && g.rng.chance(0.25) ? 'pine' : tree, c);
      else if (g.rng.chance(f > 0 ? 0.04 : 0.012)) g.place(g.rng.chance(0.5) ? 'rock' : 'bush', c);
    }
  // a dense wood has no glades cut off inside it: an open pocket of the wood that holds no place
  // and no edge of the map is planted up (the joining would cut a lane to each)
  if (dense || covers) {
    const open = components(columns, rows, (c) => g.open(c));
    const held = new Set([g.spawn, ...g.anchors.map((a) => a.cell)].map((c) => open.label[c]));
    const inner = new Array<boolean>(open.sizes.length).fill(true);
    for (let c = 0; c < columns * rows; c++) {
      const l = open.label[c]!;
      if (l < 0) continue;
      const x = c % columns;
      const y = Math.floor(c / columns);
      if (held.has(l) || x === 0 || y === 0 || x === columns - 1 || y === rows - 1 || inForest(c) <= 0)
        inner[l] = false;
    }
    for (let c = 0; c < columns * rows; c++) {
      const l = open.label[c]!;
      if (l >= 0 && inner[l] && groundCell(g, c)) g.place(tree, c);
    }
  }
  if (forestIndex >= 0)
    region(
      g,
      'forest',
      forestCells.filter((c) => g.propAt[c]! >= 0),
    );
  scatterCover(g);
}

/**
 * Ground cover, walked over: flowers and tufts in noise-shaped patches (thin elsewhere), so open
 * grass reads as a field and not as one tile repeated; reeds on the ground at still water's edge.
 * A clearing gets its flowers too (its cells are kept free of trees, not of cover).
 */
function scatterCover(g: Grower): void {
  const { layout } = g;
  if (layout.biome !== 'grass' && layout.biome !== 'swamp') return;
  const { columns, rows } = g.space;
  const { water, ground } = layout.roles;
  const anchors = new Set(g.anchors.map((a) => a.cell));
  const clearing = new Set(g.extraRegions.filter((r) => r.kind === 'clearing').flatMap((r) => r.cells));
  const wet = (x: number, y: number) =>
    water !== null &&
    x >= 0 &&
    y >= 0 &&
    x < columns &&
    y < rows &&
    g.space.cellTerrains(x, y).includes(water);
  for (let y = 1; y < rows; y++)
    for (let x = 1; x < columns - 1; x++) {
      const c = y * columns + x;
      if (g.propAt[c] !== -1 || anchors.has(c) || !g.space.cellIs(x, y, ground)) continue;
      if (g.keepFree[c] && !clearing.has(c)) continue;
      const shore = wet(x - 1, y) || wet(x + 1, y) || wet(x, y - 1) || wet(x, y + 1);
      const patch = g.n(x + 40, y + 40, 6);
      let kind: 'flowers' | 'tuft' | 'reeds' | null = null;
      if (shore && g.rng.chance(layout.biome === 'swamp' ? 0.55 : 0.3)) kind = 'reeds';
      else if (clearing.has(c) ? g.rng.chance(0.22) : g.rng.chance(patch > 0.58 ? 0.45 : 0.02))
        kind =
          layout.biome === 'swamp'
            ? 'tuft'
            : g.n(x * 3, y * 3, 5) > 0.5 || clearing.has(c)
              ? 'flowers'
              : 'tuft';
      if (!kind) continue;
      const free = g.keepFree[c]!;
      g.keepFree[c] = 0;
      g.place(kind, c);
      g.keepFree[c] = free;
    }
}

const pointXY = (g: Grower, cell: number): [number, number] => {
  const p = g.space.pointOfCell(cell);
  return [p % g.gw, Math.floor(p / g.gw)];
};

/** A path: from a side or the spawn to its goal (a feature, a side), or a ring around the centre. */
function growPath(g: Grower, f: FeatureRequest): void {
  const { roles } = g.layout;
  const t = roles.path ?? roles.ground;
  const feature = g.layout.features.indexOf(f);
  const winds = windingAsked(g.layout.understood) ? 1.8 : 1;
  if (f.placements.includes('around') && !f.from) {
    // a ring around what is in the centre (the lava, the lake): at each bearing three cells past its
    // edge, but never nearer the next barrier (the shore's rock, the sea) than halfway, so the ring
    // closes (issue #39: a volcanic island's path around the lava broke where it met the shore)
    const inner =
      g.layout.features.find((x) => x !== f && x.placements.includes('centre')) ??
      g.layout.features.find(
        (x) =>
          x !== f && !x.placements.length && (x.kind === 'lava' || x.kind === 'lake' || x.kind === 'pond'),
      );
    const { columns, rows } = g.space;
    const r = (inner ? 0.3 * inner.scale + 0.08 : 0.3) * Math.min(columns, rows);
    const mine = new Uint8Array(columns * rows);
    if (inner) for (const c of g.cellsOwnedBy(g.layout.features.indexOf(inner))) mine[c] = 1;
    const ring: number[] = [];
    for (let a = 0; a < 360; a += 2) {
      const [dx, dy] = [Math.cos((a * Math.PI) / 180), Math.sin((a * Math.PI) / 180)];
      const cellAt = (t: number) => {
        const x = Math.round(columns / 2 + dx * t);
        const y = Math.round(rows / 2 + dy * t);
        return x >= 0 && y >= 0 && x < columns && y < rows ? y * columns + x : -1;
      };
      let edge = -1;
      let stop = Math.max(columns, rows);
      for (let t = 0; t < Math.max(columns, rows); t += 0.5) {
        const c = cellAt(t);
        if (c < 0) {
          stop = t;
          break;
        }
        if (mine[c]) edge = t;
        else if (t > edge + 2 && edge >= 0 && !g.space.cellWalkable(c % columns, Math.floor(c / columns))) {
          stop = t;
          break;
        }
      }
      const want = edge >= 0 ? Math.min(edge + 3, (edge + stop) / 2) : r;
      const c = cellAt(want);
      if (c >= 0) ring.push(c);
    }
    for (let k = 0; k + 1 < ring.length; k += 1) joinCells(g, ring[k]!, ring[k + 1]!, t, feature);
    joinCells(g, ring.at(-1)!, ring[0]!, t, feature);
    return;
  }
  const walk = (c: number) => g.space.cellWalkable(c % g.space.columns, Math.floor(c / g.space.columns));
  const sideCell = (side: Placement): number | null => {
    const [u, v] =
      side in PLACEMENT_CENTRES ? PLACEMENT_CENTRES[side as keyof typeof PLACEMENT_CENTRES] : [0.5, 0.5];
    // at the map's very edge: a path "from west to east" leaves the map on both sides
    const uu = side.includes('east') ? 1 : side.includes('west') ? 0 : u;
    const vv = side.includes('south') ? 1 : side.includes('north') ? 0 : v;
    return cellNear(g, uu, vv, walk);
  };
  const goalOf = (to: FeatureRequest['to']): number | null => {
    if (to === null) return null;
    const anchor = g.anchors.find((a) => a.name === to);
    if (anchor) return anchor.cell;
    return to in PLACEMENT_CENTRES ? sideCell(to as Placement) : null;
  };
  let from = f.from ? sideCell(f.from) : null;
  let to = goalOf(f.to);
  const through = f.placements.find((p) => p in PLACEMENT_CENTRES) as
    | keyof typeof PLACEMENT_CENTRES
    | undefined;
  // a road with nowhere named, in a level with a river, crosses it: from the side across its flow to
  // the other (issue #39, decision 0137: "a road crossing a river by a bridge" ran along one bank)
  const river = g.layout.features.findIndex((x) => x.kind === 'river');
  if (
    river >= 0 &&
    from === null &&
    to === null &&
    !through &&
    !g.anchors.some((a) => a.name !== 'spawn' && a.name !== 'path')
  ) {
    const wet = g.cellsOwnedBy(river);
    if (wet.length) {
      const xs = wet.map((c) => c % g.space.columns);
      const ys = wet.map((c) => Math.floor(c / g.space.columns));
      const across = (Math.max(...xs) - Math.min(...xs)) / g.space.columns;
      const down = (Math.max(...ys) - Math.min(...ys)) / g.space.rows;
      from = sideCell(down >= across ? 'west' : 'north');
      to = sideCell(down >= across ? 'east' : 'south');
    }
  }
  if (from === null)
    from =
      g.anchors.find((a) => a.name === 'village')?.cell ??
      (through && f.to === null ? sideCell(f.from ?? 'west') : null);
  if (to === null) {
    to =
      g.anchors.find((a) => a.name !== 'village' && a.name !== 'spawn')?.cell ??
      sideCell(
        f.from
          ? (({ north: 'south', south: 'north', east: 'west', west: 'east' } as Record<string, Placement>)[
              f.from
            ] ?? 'east')
          : 'east',
      );
  }
  if (from === null && to !== null) {
    // with no start named and no village, the way comes in from the map's edge (issue #39: "a path
    // to a cave" started from nowhere in the grass): the south edge, or the north one when its
    // target lies in the south
    const goalV = Math.floor(to / g.space.columns) / Math.max(1, g.space.rows - 1);
    const goalU = (to % g.space.columns) / Math.max(1, g.space.columns - 1);
    from = cellNear(g, Math.max(0.2, Math.min(0.8, goalU)), goalV > 0.6 ? 0 : 1, walk);
  }
  if (from === null || to === null) return;
  if (through && through !== 'centre') {
    // "a path in the north": it runs through there
    const mid = cellNear(g, ...PLACEMENT_CENTRES[through], walk);
    if (mid !== null) {
      joinCells(g, from, mid, t, feature, winds);
      joinCells(g, mid, to, t, feature, winds);
      g.anchors.push({ name: 'path', cell: from }, { name: 'path', cell: to });
      return;
    }
  }
  joinCells(g, from, to, t, feature, winds);
  g.anchors.push({ name: 'path', cell: from }, { name: 'path', cell: to });
}

/** Houses without a village: a few at their place. */
function growHouses(g: Grower, f: FeatureRequest): void {
  const count = f.count || 3;
  const cells: number[] = [];
  for (const [u, v] of g.targets(f, () => g.somewhere())) {
    for (let k = 0; k < count * 8 && cells.length < count * 2; k++) {
      const c = cellNear(
        g,
        u + g.rng.range(-0.12, 0.12),
        v + g.rng.range(-0.1, 0.1),
        (cell) =>
          groundCell(g, cell) &&
          groundCell(g, cell - g.space.columns) &&
          groundCell(g, cell + g.space.columns),
      );
      if (c === null) break;
      const x = c % g.space.columns;
      const y = Math.floor(c / g.space.columns);
      if (g.props.some((p) => isBuilding(p.kind) && Math.abs(p.x - x) < 3 && Math.abs(p.y - y) < 3)) continue;
      if (g.place('house', c)) {
        g.keepFree[c - g.space.columns] = 1;
        g.keepFree[c + g.space.columns] = 1;
        cells.push(c);
        g.anchors.push({ name: 'house', cell: c + g.space.columns });
      }
      if (cells.length >= count) break;
    }
  }
  region(g, 'houses', cells);
}

/** A chest: where its words put it, else in the clearing, else near the spawn. */
function growChest(g: Grower, f: FeatureRequest): void {
  const clearing = g.anchors.find((a) => a.name === 'clearing');
  const [u, v] = f.placements.length
    ? g.targets(f, () => [0.5, 0.5])[0]!
    : clearing
      ? cellUv(g, clearing.cell)
      : g.somewhere();
  const c = cellNear(g, u, v, (cell) => {
    const x = cell % g.space.columns;
    const y = Math.floor(cell / g.space.columns);
    return (
      y >= 1 &&
      x >= 1 &&
      x < g.space.columns - 1 &&
      g.space.cellWalkable(x, y) &&
      g.propAt[cell] === -1 &&
      (g.keepFree[cell] === 0 || clearing !== undefined)
    );
  });
  if (c === null) return;
  g.keepFree[c] = 0;
  g.place('chest', c);
  g.keepFree[c] = 1;
  g.anchors.push({ name: 'chest', cell: c });
  region(g, 'chest', [c]);
}

/** The spawn: the start of a path, the village, or a walkable cell towards the south. */
function placeSpawn(g: Grower): void {
  const walk = (c: number) =>
    g.space.cellWalkable(c % g.space.columns, Math.floor(c / g.space.columns)) && g.propAt[c] === -1;
  const start = g.anchors.find((a) => a.name === 'path') ?? g.anchors.find((a) => a.name === 'village');
  const cell = start?.cell ?? cellNear(g, 0.5, 0.62, walk);
  if (cell === null || cell === undefined) return;
  g.spawn = cell;
  g.keepFree[cell] = 1;
  g.anchors.unshift({ name: 'spawn', cell });
}

/**
 * Joins every anchor to the spawn over open cells: where a blocking prop is in the way it goes,
 * where water or rock is, a path (a ford, a cut) is painted. The archipelago's islands stay apart.
 */
export function joinAnchors(g: Grower): void {
  if (g.spawn < 0) return;
  const { columns, rows } = g.space;
  const { roles } = g.layout;
  const t = roles.path ?? roles.floor ?? roles.ground;
  for (const anchor of g.anchors) {
    if (anchor.cell === g.spawn) continue;
    const reach = components(columns, rows, (c) => g.open(c));
    if (reach.label[anchor.cell] !== -1 && reach.label[anchor.cell] === reach.label[g.spawn]) continue;
    if (g.layout.base === 'archipelago') continue;
    const target = reach.label[g.spawn]!;
    const route = cheapestRoute(
      columns,
      rows,
      anchor.cell,
      (c) => target !== -1 && reach.label[c] === target,
      (c) => {
        if (g.open(c)) return 1;
        const x = c % columns;
        const y = Math.floor(c / columns);
        if (g.propAt[c]! >= 0 && g.space.cellWalkable(x, y))
          return isBuilding(g.props[g.propAt[c]!]!.kind) ? 40 : 4;
        const terr = g.space.cellTerrains(x, y);
        return terr.includes(roles.sea ?? -1) ? 80 : 25;
      },
    );
    if (!route) continue;
    for (const c of route) {
      if (g.open(c)) continue;
      g.removePropAt(c);
      const x = c % columns;
      const y = Math.floor(c / columns);
      if (!g.space.cellWalkable(x, y)) for (const p of g.space.cellPoints(x, y)) g.paint(p, t, -1);
    }
  }
}

/**
 * Gives every water or lava feature no walker can reach a shore and a way to it: rock within two
 * points of its edge becomes walked ground (two points, so whole cells along the shore are walked and
 * no tile holds liquid, ground and rock), then the cheapest cut through rock (never through other
 * water) joins that shore to the spawn's region. A lake ringed by rock gets a beach and a gap; where
 * no cut is found the check names the lake and the level is retried.
 */
export function joinFeatures(g: Grower): void {
  if (g.spawn < 0 || g.layout.base === 'archipelago') return;
  const { columns, rows } = g.space;
  const { roles } = g.layout;
  const wet = new Set([roles.water, roles.sea, roles.lava].filter((t): t is number => t !== null));
  const shore =
    g.layout.base === 'cave' || g.layout.base === 'dungeon'
      ? (roles.floor ?? roles.ground)
      : (roles.shore ?? roles.ground);
  const t = roles.path ?? roles.floor ?? roles.ground;
  g.layout.features.forEach((f, i) => {
    const barrier = barrierOf(f.kind, g.layout);
    if (barrier === null || !wet.has(barrier)) return;
    const reached = () => {
      const reach = components(columns, rows, (c) => g.open(c));
      const home = reach.label[g.spawn]!;
      return {
        reach,
        home,
        ok: featureReached(
          g.space,
          g.cellsOwnedBy(i),
          barrier,
          walkedPoints(g.space, (c) => home !== -1 && reach.label[c] === home),
        ),
      };
    };
    if (g.cellsOwnedBy(i).length === 0 || reached().ok) return;
    // a shore: what is not walked on (rock) within two points of the feature's edge becomes ground
    // the feature's liquid: the points it painted and the same liquid joined to them (a repair may
    // have widened it without naming the feature)
    const mine = new Uint8Array(g.gw * g.gh);
    const stack: number[] = [];
    for (let p = 0; p < mine.length; p++)
      if (g.owner[p] === i && g.grid.cells[p] === barrier) {
        mine[p] = 1;
        stack.push(p);
      }
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % g.gw;
      const y = Math.floor(p / g.gw);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const q = (y + dy) * g.gw + x + dx;
          if (x + dx < 0 || y + dy < 0 || x + dx >= g.gw || y + dy >= g.gh || mine[q]) continue;
          if (g.grid.cells[q] !== barrier) continue;
          mine[q] = 1;
          stack.push(q);
        }
    }
    for (let p = 0; p < mine.length; p++) {
      if (!mine[p]) continue;
      const x = p % g.gw;
      const y = Math.floor(p / g.gw);
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= g.gw || ny >= g.gh) continue;
          const q = ny * g.gw + nx;
          const v = g.grid.cells[q]!;
          if (!g.space.walkable[v] && !wet.has(v)) g.paint(q, shore, -1);
        }
    }
    const { reach, home, ok } = reached();
    if (ok || home === -1) return;
    // the shore's cells, and the cheapest cut from one of them to the spawn's region
    const onShore = (c: number) =>
      g.space.cellWalkable(c % columns, Math.floor(c / columns)) && featureReached(g.space, [c], null, mine);
    let start = -1;
    for (let c = 0; c < columns * rows && start < 0; c++) if (onShore(c)) start = c;
    if (start < 0) return;
    const route = cheapestRoute(
      columns,
      rows,
      start,
      (c) => reach.label[c] === home,
      (c) => {
        const x = c % columns;
        const y = Math.floor(c / columns);
        if (g.open(c)) return 1;
        if (g.space.cellTerrains(x, y).some((k) => wet.has(k))) return Infinity;
        return x < 1 || y < 1 || x >= columns - 1 || y >= rows - 1 ? Infinity : 25;
      },
    );
    if (!route) return;
    for (const c of route) {
      if (g.open(c)) continue;
      g.removePropAt(c);
      const x = c % columns;
      const y = Math.floor(c / columns);
      if (!g.space.cellWalkable(x, y)) for (const p of g.space.cellPoints(x, y)) g.paint(p, t, -1);
    }
  });
}

/** The longest bridge or cut the growing builds (cells over water or through rock). */
const MAX_SPAN = 9;

/**
 * Joins every walkable region (a pocket excepted) to the spawn's: water, the sea and lava are
 * barriers, so a river with no crossing cuts a map in two. Each round takes the shortest straight
 * span (east–west or north–south, at most MAX_SPAN cells) from a joined region to one not yet
 * joined: over water, sea or lava its cells become the bank's walkable terrain with a bridge prop on
 * each (planks drawn over the crossing; under them the tiles are walked on, so Tiled's, LDtk's and
 * Godot's collisions agree); through rock they become a gap of that terrain. Spans near the middle
 * of the shared bank win ties, and a bridge goes where a path meets the water when one does.
 * Returns the regions it could not join (the check then names them).
 */
export function bridgeRegions(g: Grower): number {
  if (g.spawn < 0 || g.layout.base === 'archipelago') return 0;
  const { columns, rows } = g.space;
  const { roles } = g.layout;
  const walk = (c: number) => g.space.cellWalkable(c % columns, Math.floor(c / columns));
  const pocket = pocketSize(columns, rows);
  const wet = new Set([roles.water, roles.sea, roles.lava].filter((t): t is number => t !== null));
  for (let round = 0; round < 24; round++) {
    const land = components(columns, rows, walk);
    const home = land.label[g.spawn]!;
    if (home < 0) return 0;
    const joined = new Set([home]);
    const apart = land.sizes.filter((n, i) => i !== home && n >= pocket).length;
    if (apart === 0) return 0;
    // cells within two of a road's (the path terrain's) points: a span both of whose ends a road
    // comes down to is where the road crosses (decision 0137: the planks stood up the river from it)
    const roadNear = new Uint8Array(columns * rows);
    if (roles.path !== null)
      for (let p = 0; p < g.grid.cells.length; p++) {
        if (g.grid.cells[p] !== roles.path) continue;
        const px = Math.min(columns - 1, p % g.gw);
        const py = Math.min(rows - 1, Math.floor(p / g.gw));
        for (let dy = -2; dy <= 1; dy++)
          for (let dx = -2; dx <= 1; dx++)
            if (px + dx >= 0 && py + dy >= 0 && px + dx < columns && py + dy < rows)
              roadNear[(py + dy) * columns + px + dx] = 1;
      }
    let best: { cells: number[]; dx: number; score: number } | null = null;
    for (let c = 0; c < columns * rows; c++) {
      const la = land.label[c]!;
      if (la < 0) continue;
      const x0 = c % columns;
      const y0 = Math.floor(c / columns);
      for (const [dx, dy] of [
        [1, 0],
        [0, 1],
      ] as const) {
        const cells: number[] = [];
        let x = x0 + dx;
        let y = y0 + dy;
        while (x < columns - 1 && y < rows && cells.length <= MAX_SPAN && !walk(y * columns + x)) {
          cells.push(y * columns + x);
          x += dx;
          y += dy;
        }
        if (!cells.length || cells.length > MAX_SPAN || x >= columns - 1 || y >= rows) continue;
        const lb = land.label[y * columns + x]!;
        if (lb < 0 || lb === la) continue;
        const [a, b] = joined.has(la) ? [la, lb] : [lb, la];
        if (!joined.has(a) || joined.has(b) || land.sizes[b]! < pocket) continue;
        // keep the planks inside the map (a prop's sprite is 2 × 2 tiles) and off the map's edge rows
        if (y0 < 1 || x0 < 1 || (dy === 1 && (x0 >= columns - 1 || x0 < 1))) continue;
        if (dx === 1 && (y0 < 1 || y0 >= rows - 1)) continue;
        // a straight crossing reads best: its sides must be barrier too (not a diagonal sliver)
        let sides = 0;
        for (const q of cells) {
          const qx = q % columns;
          const qy = Math.floor(q / columns);
          for (const s of [-1, 1]) {
            const sx = qx + dy * s;
            const sy = qy + dx * s;
            if (sx >= 0 && sy >= 0 && sx < columns && sy < rows && !walk(sy * columns + sx)) sides++;
          }
        }
        const onPath =
          (roles.path !== null && (g.keepFree[c] || g.keepFree[y * columns + x]) ? -1.5 : 0) -
          (roadNear[c] && roadNear[y * columns + x] ? 6 : 0);
        // towards the map's middle rather than at its edge, where nobody would walk round to it
        const middle = 6 * Math.hypot(x0 / columns - 0.5, y0 / rows - 0.5);
        const score =
          cells.length + (2 * cells.length - sides) * 0.75 + onPath + middle + g.detail.at(x0 / 7, y0 / 7);
        if (!best || score < best.score) best = { cells, dx, score };
      }
      // regions already joined grow as bridges land: a region is joined once a span from home reaches it
    }
    if (!best) return apart;
    const from = best.cells[0]! - (best.dx ? 1 : columns);
    const to = best.cells.at(-1)! + (best.dx ? 1 : columns);
    const bank = [from, to]
      .flatMap((c) => g.space.cellPoints(c % columns, Math.floor(c / columns)))
      .map((p) => g.grid.cells[p]!);
    const counts = new Map<number, number>();
    for (const t of bank) if (g.space.walkable[t]) counts.set(t, (counts.get(t) ?? 0) + 1);
    const t = [...counts.entries()].sort((p, q) => q[1] - p[1])[0]?.[0] ?? roles.ground;
    for (const c of best.cells) {
      const x = c % columns;
      const y = Math.floor(c / columns);
      const overWater = g.space.cellTerrains(x, y).some((k) => wet.has(k));
      for (const p of g.space.cellPoints(x, y)) g.paint(p, t, -1);
      if (overWater) {
        g.removePropAt(c);
        g.keepFree[c] = 0;
        g.place(best.dx ? 'bridge' : 'bridge-ns', c);
      }
      g.keepFree[c] = 1;
    }
    for (const c of [from, to])
      if (g.propAt[c]! >= 0 && PROP_BLOCKS[g.props[g.propAt[c]!]!.kind]) g.removePropAt(c);
  }
  return 0;
}

/**
 * A road runs on to the bridge it crosses by (issue #39, decision 0137: a road ended one or two tiles
 * short of the planks on both banks, its painting kept off any point beside water). From each end of
 * a span of planks, the cheapest walk over walked cells to the nearest cell of the path terrain within
 * a few cells is painted path, and so are the deck's own points — a point only where no tile would
 * then hold three terrains (a ground point in such a tile becomes path too, else the point is left).
 * Returns the bridge ends joined.
 */
export function joinBridges(g: Grower): number {
  const t = g.layout.roles.path;
  if (t === null || g.space.kind !== 'wang16') return 0;
  const { columns, rows } = g.space;
  const { cells } = g.grid;
  const walk = (c: number) => g.space.cellWalkable(c % columns, Math.floor(c / columns));
  const pathCell = (c: number) =>
    g.space.cellPoints(c % columns, Math.floor(c / columns)).filter((p) => cells[p] === t).length >= 2;
  const planks = new Set(
    g.props.filter((p) => p.kind === 'bridge' || p.kind === 'bridge-ns').map((p) => p.y * columns + p.x),
  );
  // paints a point with the path where every tile round it keeps two terrains at most (a road can
  // never meet water beside grass in one tile: it stops a point short of the shore)
  const paintSafe = (p: number): boolean => {
    if (cells[p] === t) return true;
    if (!g.space.walkable[cells[p]!]) return false;
    const x = p % g.gw;
    const y = Math.floor(p / g.gw);
    const was = cells[p]!;
    cells[p] = t;
    for (const [dx, dy] of [
      [-1, -1],
      [0, -1],
      [-1, 0],
      [0, 0],
    ] as const) {
      const cx = x + dx;
      const cy = y + dy;
      if (cx < 0 || cy < 0 || cx >= columns || cy >= rows) continue;
      if (new Set(g.space.cellPoints(cx, cy).map((q) => cells[q])).size > 2) {
        cells[p] = was;
        return false;
      }
    }
    return true;
  };
  let joined = 0;
  for (const start of planks) {
    const x = start % columns;
    const y = Math.floor(start / columns);
    const kind = g.props[g.propAt[start]!]!.kind;
    const [dx, dy] = kind === 'bridge' ? [1, 0] : [0, 1];
    // the run's first plank only (the one with no plank before it)
    if (planks.has(start - dx - dy * columns)) continue;
    const run: number[] = [];
    for (let k = 0; ; k++) {
      const c = (y + dy * k) * columns + x + dx * k;
      if (x + dx * k >= columns || y + dy * k >= rows || !planks.has(c)) break;
      run.push(c);
    }
    const ends = [start - dx - dy * columns, run.at(-1)! + dx + dy * columns];
    const near = ends.map((end) => {
      const ex = end % columns;
      const ey = Math.floor(end / columns);
      if (ex < 0 || ey < 0 || ex >= columns || ey >= rows || !walk(end)) return null;
      if (pathCell(end)) return [end];
      return cheapestRoute(
        columns,
        rows,
        end,
        (c) => pathCell(c) && !planks.has(c),
        (c) => {
          const cx = c % columns;
          const cy = Math.floor(c / columns);
          if (planks.has(c) || !walk(c) || Math.hypot(cx - ex, cy - ey) > 6) return Infinity;
          return 1;
        },
      );
    });
    // only a bridge a road comes to is joined (a bridge of the regions' joining stays as it is)
    if (near.every((r) => r === null)) continue;
    for (const [k, route] of near.entries()) {
      if (!route) continue;
      for (const c of route) {
        for (const p of g.space.cellPoints(c % columns, Math.floor(c / columns))) paintSafe(p);
        g.keepFree[c] = 1;
      }
      // the planks run on over the bank to where the road is (the road stops a point short of the
      // water, so it would end a tile of grass before them): up to three cells on, not past a tree
      const step = (k === 0 ? -1 : 1) * (dx + dy * columns);
      const ex = ends[k]! % columns;
      const ey = Math.floor(ends[k]! / columns);
      const hasPath = (c: number) =>
        g.space.cellPoints(c % columns, Math.floor(c / columns)).some((p) => cells[p] === t);
      let reach = -1;
      for (let j = 0; j <= 3; j++) {
        const cx = ex + (k === 0 ? -1 : 1) * dx * j;
        const cy = ey + (k === 0 ? -1 : 1) * dy * j;
        if (cx < 1 || cy < 1 || cx >= columns - 1 || cy >= rows - 1 || !walk(cy * columns + cx)) break;
        if (hasPath(cy * columns + cx)) {
          reach = j;
          break;
        }
      }
      if (reach < 0) continue;
      const lay = Array.from({ length: Math.max(1, reach) }, (_, j) => ends[k]! + step * j);
      if (lay.some((c) => g.propAt[c]! >= 0 && PROP_BLOCKS[g.props[g.propAt[c]!]!.kind])) continue;
      for (const c of lay) {
        if (g.propAt[c]! >= 0) g.removePropAt(c);
        g.keepFree[c] = 0;
        if (g.place(kind, c)) joined++;
        g.keepFree[c] = 1;
      }
    }
  }
  return joined;
}

/**
 * A way two cells wide from the spawn to every chest, cave mouth and clearing (issue #39: a chest's
 * access hung on a one-tile gap between trees): over 2 × 2 blocks of walked cells, the cheapest run
 * of blocks from one holding the place to the spawn's loses the blocking props (trees, rocks) on it.
 * Terrain is never changed, so the tiling is not touched; a place with no walked 2 × 2 block round
 * it (a dungeon's corridor) is left as it is.
 */
export function widenWays(g: Grower): void {
  if (g.spawn < 0 || g.layout.base === 'dungeon') return;
  const { columns, rows } = g.space;
  const walked = (c: number) => g.space.cellWalkable(c % columns, Math.floor(c / columns));
  const block = (c: number, ok: (q: number) => boolean) => {
    const x = c % columns;
    const y = Math.floor(c / columns);
    return x + 1 < columns && y + 1 < rows && [c, c + 1, c + columns, c + columns + 1].every(ok);
  };
  const holding = (cell: number) =>
    [cell, cell - 1, cell - columns, cell - columns - 1].filter(
      (c) => c >= 0 && Math.abs((c % columns) - (cell % columns)) <= 1 && block(c, walked),
    );
  // the spawn stands in a 2 × 2 block with nothing blocking in it
  const own = holding(g.spawn)[0];
  if (own !== undefined)
    for (const q of [own, own + 1, own + columns, own + columns + 1]) if (!g.open(q)) g.removePropAt(q);
  for (const a of g.anchors) {
    if (a.name !== 'chest' && a.name !== 'cave' && a.name !== 'clearing') continue;
    const wide = components(columns, rows, (c) => block(c, (q) => g.open(q)));
    const home = holding(g.spawn)
      .map((c) => wide.label[c]!)
      .find((l) => l >= 0);
    const starts = holding(a.cell);
    if (home === undefined || starts.length === 0) continue;
    if (starts.some((c) => wide.label[c] === home)) continue;
    const route = cheapestRoute(
      columns,
      rows,
      starts[0]!,
      (c) => wide.label[c] === home,
      (c) => (!block(c, walked) ? Infinity : block(c, (q) => g.open(q)) ? 1 : 4),
    );
    if (!route) continue;
    for (const c of route)
      for (const q of [c, c + 1, c + columns, c + columns + 1]) if (!g.open(q)) g.removePropAt(q);
  }
}

/**
 * Clears the blocking props (trees, rocks) that shut a walkable region off from the spawn's: the
 * cheapest way through, over walkable cells only, loses the props on it.
 */
export function clearRegions(g: Grower): void {
  if (g.spawn < 0) return;
  const { columns, rows } = g.space;
  const walk = (c: number) => g.space.cellWalkable(c % columns, Math.floor(c / columns));
  const pocket = pocketSize(columns, rows);
  for (let round = 0; round < 32; round++) {
    const reach = components(columns, rows, (c) => g.open(c));
    const land = components(columns, rows, walk);
    const home = reach.label[g.spawn]!;
    if (home < 0) return;
    const homeLand = land.label[g.spawn]!;
    const cut = reach.sizes.findIndex(
      (n, i) => i !== home && n >= pocket && land.label[reach.label.indexOf(i)] === homeLand,
    );
    if (cut < 0) return;
    const start = reach.label.indexOf(cut);
    const route = cheapestRoute(
      columns,
      rows,
      start,
      (c) => reach.label[c] === home,
      (c) => (!walk(c) ? Infinity : g.open(c) ? 1 : 4),
    );
    if (!route) return;
    for (const c of route) if (!g.open(c)) g.removePropAt(c);
  }
}

/**
 * Every tile of a wang16 map is one terrain pair's. A 2×2 block of corners holding three or four
 * terrains is mended locally first: the terrain with the fewest corners there (ties: the one least
 * worth keeping) takes the block's commonest other terrain, each corner changed at most once so
 * nothing oscillates. What is left then moves up an order (the corners of the terrain least worth
 * keeping take the next one up among them): a corner only ever moves up, so the repair ends.
 * Returns the corners changed.
 */
export function repairPairs(g: Grower): number {
  if (g.space.kind !== 'wang16') return 0;
  const rank = keepRank(g).map((r, id) => r * 64 + id);
  const { cells } = g.grid;
  const frozen = new Uint8Array(cells.length);
  let changed = 0;
  const around = (p: number, into: Set<number>) => {
    const x = p % g.gw;
    const y = Math.floor(p / g.gw);
    for (const [dx, dy] of [
      [-1, -1],
      [0, -1],
      [-1, 0],
      [0, 0],
    ] as const)
      if (x + dx >= 0 && y + dy >= 0 && x + dx + 1 < g.gw && y + dy + 1 < g.gh)
        into.add((y + dy) * g.gw + x + dx);
  };
  const all: number[] = [];
  for (let y = 0; y + 1 < g.gh; y++) for (let x = 0; x + 1 < g.gw; x++) all.push(y * g.gw + x);
  for (const phase of ['local', 'majority'] as const) {
    let queue = all;
    for (let pass = 0; queue.length && pass < (phase === 'local' ? 1e9 : 4); pass++) {
      const next = new Set<number>();
      for (const i of queue) {
        const corners = [i, i + 1, i + g.gw, i + g.gw + 1];
        const counts = new Map<number, number>();
        for (const p of corners) counts.set(cells[p]!, (counts.get(cells[p]!) ?? 0) + 1);
        if (counts.size <= 2) continue;
        let drop: number;
        let into: number;
        if (phase === 'local') {
          // the fewest, not yet changed, corners give way to the block's commonest terrain
          const order = [...counts.entries()].sort((a, b) => a[1] - b[1] || rank[a[0]]! - rank[b[0]]!);
          const movable = order.filter(([t]) => !corners.some((p) => cells[p] === t && frozen[p]));
          const pick = movable.find(([, n]) => n <= 2 && n < 4);
          if (!pick) continue;
          drop = pick[0];
          // into the terrain next to it in the keeping order (grass between sea and beach becomes beach)
          into = order
            .filter(([t]) => t !== drop)
            .sort(
              (a, b) =>
                Math.abs(rank[a[0]]! - rank[drop]!) - Math.abs(rank[b[0]]! - rank[drop]!) || b[1] - a[1],
            )[0]![0];
        } else {
          // what is left: the block takes its commonest terrain wholly (at most a few passes)
          const order = [...counts.entries()].sort((a, b) => b[1] - a[1] || rank[b[0]]! - rank[a[0]]!);
          into = order[0]![0];
          drop = -1;
          for (const p of corners)
            if (cells[p] !== into) {
              cells[p] = into;
              changed++;
              around(p, next);
            }
          continue;
        }
        for (const p of corners) {
          if (cells[p] !== drop) continue;
          cells[p] = into;
          frozen[p] = 1;
          changed++;
          around(p, next);
        }
      }
      queue = [...next];
    }
  }
  return changed;
}

/**
 * How much each terrain is worth keeping in a repair: the sea and walls over paths over ground. A
 * dungeon's wall ranks between its rock and its floor, so a block of all three gives way into the
 * wall (never the rock into floor, which would flood the rock round a room).
 */
function keepRank(g: Grower): number[] {
  const { roles, terrains } = g.layout;
  return terrains.map((_, id) =>
    id === roles.sea || id === roles.water || id === roles.lava
      ? 5
      : id === roles.wall && id !== roles.rock
        ? 2
        : id === roles.rock && g.layout.base !== 'dungeon'
          ? 4
          : id === roles.path || id === roles.floor
            ? 3
            : id === roles.shore
              ? 2
              : 1,
  );
}

/** Whether the prompt asks for palms, or an oasis (whose water palms ring). */
export function palmsAsked(layout: LevelLayout): boolean {
  return layout.features.some(
    (f) =>
      (f.kind === 'forest' && f.words.some((w) => /palm|棕榈|椰/.test(w))) ||
      ((f.kind === 'lake' || f.kind === 'pond') && f.words.some((w) => /oasis|绿洲/.test(w))),
  );
}

/**
 * Palms round an oasis, or round the water when palms are asked with no place of their own (issue
 * #39: an oasis was a bare pond): on walked cells within two cells of the lake's water, none
 * beside another. Returns the cells; none placed is said in notHonoured.
 */
function plantPalms(g: Grower): number[] {
  const { columns, rows } = g.space;
  const still = g.layout.features.flatMap((f, i) => (f.kind === 'lake' || f.kind === 'pond' ? [i] : []));
  const wet = new Uint8Array(columns * rows);
  for (const i of still) for (const c of g.cellsOwnedBy(i)) wet[c] = 1;
  const cells: number[] = [];
  const near = (x: number, y: number, d: number, m: Uint8Array) => {
    for (let dy = -d; dy <= d; dy++)
      for (let dx = -d; dx <= d; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx >= 0 && ny >= 0 && nx < columns && ny < rows && m[ny * columns + nx]) return true;
      }
    return false;
  };
  const planted = new Uint8Array(columns * rows);
  for (let y = 1; y < rows; y++)
    for (let x = 1; x < columns - 1; x++) {
      const c = y * columns + x;
      if (!g.space.cellWalkable(x, y) || g.propAt[c] !== -1 || g.keepFree[c]) continue;
      if (!near(x, y, 2, wet) || near(x, y, 1, planted) || !g.rng.chance(0.4)) continue;
      if (g.place('palm', c)) {
        planted[c] = 1;
        cells.push(c);
      }
    }
  return cells;
}

/**
 * Fields (issue #39: a farm village had no farm): two or three plots of tilled soil (the path
 * terrain) beside the village, or where the words put them, each a rectangle of whole cells with a
 * crop row prop on every cell, a lane from each to the village. A plot needs open ground with a
 * point of it all round; where none fits, the fields are named in notHonoured.
 */
function growFields(g: Grower, f: FeatureRequest): void {
  const { roles } = g.layout;
  const soil = roles.path ?? roles.ground;
  const feature = g.layout.features.indexOf(f);
  const { columns, rows } = g.space;
  const village = g.anchors.find((a) => a.name === 'village');
  const [u, v] = f.placements.length
    ? g.targets(f, () => [0.5, 0.5])[0]!
    : village
      ? cellUv(g, village.cell)
      : g.somewhere();
  const cx = Math.round(u * (columns - 1));
  const cy = Math.round(v * (rows - 1));
  const want = Math.max(2, Math.min(4, f.count || 3));
  const cells: number[] = [];
  const deep = g.deepGround(1);
  const fits = (x0: number, y0: number, w: number, h: number) => {
    if (x0 < 1 || y0 < 1 || x0 + w >= columns - 1 || y0 + h >= rows - 1) return false;
    for (let y = y0 - 1; y <= y0 + h; y++)
      for (let x = x0 - 1; x <= x0 + w; x++) {
        const c = y * columns + x;
        if (g.propAt[c] !== -1 || g.keepFree[c]) return false;
      }
    for (let y = y0; y <= y0 + h; y++)
      for (let x = x0; x <= x0 + w; x++) if (!deep[y * g.gw + x]) return false;
    return true;
  };
  let plots = 0;
  for (let k = 0; k < 120 && plots < want; k++) {
    const w = g.rng.int(5, 8);
    const h = g.rng.int(3, 5);
    // outwards from the place: nearer tries first
    const reach = 3 + k * 0.25;
    const a = g.rng.range(0, Math.PI * 2);
    const x0 = Math.round(cx + Math.cos(a) * reach * 1.4 - w / 2);
    const y0 = Math.round(cy + Math.sin(a) * reach - h / 2);
    if (!fits(x0, y0, w, h)) continue;
    for (let y = y0; y <= y0 + h; y++)
      for (let x = x0; x <= x0 + w; x++) g.paint(y * g.gw + x, soil, feature);
    for (let y = y0; y < y0 + h; y++)
      for (let x = x0; x < x0 + w; x++) {
        const c = y * columns + x;
        g.place('crops', c);
        g.keepFree[c] = 1;
        cells.push(c);
      }
    plots++;
    if (village) joinCells(g, (y0 + h) * columns + x0 + Math.floor(w / 2), village.cell, soil, feature);
  }
  if (plots === 0) g.notHonoured.push(`${f.words[0] ?? 'fields'} (no open ground for a field)`);
  region(g, 'fields', cells);
}

/** The walked-on places in the order they depend on each other (a path goes to a cave). */
export function growPlaces(g: Grower): void {
  const { features } = g.layout;
  const byKind = (k: FeatureKind) => features.filter((f) => f.kind === k);
  const houses = byKind('houses')[0];
  for (const f of byKind('village')) growVillage(g, f, houses);
  if (houses && !byKind('village').length) growHouses(g, houses);
  for (const f of byKind('fields')) growFields(g, f);
  for (const f of byKind('cave')) growCave(g, f);
  for (const f of byKind('clearing')) growClearing(g, f);
  for (const f of byKind('path')) growPath(g, f);
  placeSpawn(g);
  for (const f of byKind('chest')) growChest(g, f);
  if (palmsAsked(g.layout) && features.some((f) => f.kind === 'lake' || f.kind === 'pond')) {
    const palms = plantPalms(g);
    if (palms.length < 3) g.notHonoured.push('palms (no room round the water)');
    if (features.some((f) => f.kind === 'forest')) region(g, 'forest', palms);
  }
  scatterProps(g);
}
