/**
 * Dungeons and caves. A dungeon is rooms placed apart on solid rock, joined by corridors along a
 * minimum spanning tree of the rooms (plus a few loops), so every room is reachable by
 * construction; a door stands where a corridor leaves a room, stairs up in the first room, stairs
 * down in the room farthest from them (the goal), the chest there too when the words say "last". A
 * cave is grown by a cellular automaton (the 4-5 rule) and its hollows joined by tunnels.
 */
import { cheapestRoute, components, distances } from './grid.js';
import type { Grower } from './grow.js';
import { PLACEMENT_CENTRES } from './grow.js';
import { PROP_BLOCKS, type PropKind } from './plan.js';

interface Room {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Room rectangles in terrain points, apart from each other by a margin of rock. */
function placeRooms(g: Grower, count: number): Room[] {
  const rooms: Room[] = [];
  const span = Math.min(g.gw, g.gh);
  const min = Math.max(4, Math.round(span / 9));
  const max = Math.max(min + 2, Math.round(span / 4.5));
  for (let tries = 0; rooms.length < count && tries < count * 80; tries++) {
    const w = g.rng.int(min, max);
    const h = g.rng.int(min, Math.max(min, Math.round(max * 0.8)));
    const x = g.rng.int(2, g.gw - w - 3);
    const y = g.rng.int(2, g.gh - h - 3);
    if (x < 2 || y < 2) continue;
    const r = { x, y, w, h };
    if (rooms.some((o) => x < o.x + o.w + 3 && o.x < x + w + 3 && y < o.y + o.h + 3 && o.y < y + h + 3))
      continue;
    rooms.push(r);
  }
  return rooms;
}

const centreOf = (r: Room): [number, number] => [Math.floor(r.x + r.w / 2), Math.floor(r.y + r.h / 2)];

/** The corridors: a minimum spanning tree over the room centres, and a few more for loops. */
function corridorEdges(g: Grower, rooms: readonly Room[]): Array<[number, number]> {
  const edges: Array<[number, number]> = [];
  const inTree = new Set([0]);
  const dist = (a: number, b: number) => {
    const [ax, ay] = centreOf(rooms[a]!);
    const [bx, by] = centreOf(rooms[b]!);
    return Math.abs(ax - bx) + Math.abs(ay - by);
  };
  while (inTree.size < rooms.length) {
    let best: [number, number] | null = null;
    for (const a of inTree)
      for (let b = 0; b < rooms.length; b++)
        if (!inTree.has(b) && (!best || dist(a, b) < dist(best[0], best[1]))) best = [a, b];
    edges.push(best!);
    inTree.add(best![1]);
  }
  const extra = Math.floor(rooms.length / 4);
  for (let k = 0; k < extra; k++) {
    const a = g.rng.int(0, rooms.length - 1);
    let b = -1;
    for (let c = 0; c < rooms.length; c++)
      if (
        c !== a &&
        !edges.some(([p, q]) => (p === a && q === c) || (p === c && q === a)) &&
        (b < 0 || dist(a, c) < dist(a, b))
      )
        b = c;
    if (b >= 0) edges.push([a, b]);
  }
  return edges;
}

/** Grows a dungeon of rooms, corridors and doors. */
export function growDungeon(g: Grower): Array<{ x: number; y: number; w: number; h: number }> {
  const { roles, features } = g.layout;
  const floor = roles.floor ?? roles.path ?? roles.ground;
  const wall = roles.rock ?? roles.ground;
  g.grid.cells.fill(wall);
  const wanted = features.find((f) => f.kind === 'rooms');
  const byArea = Math.round((g.gw * g.gh) / 260);
  // "the final chamber", "the first room" name one room, not a dungeon of one (issue #39, decision
  // 0143: "a crypt where the final chamber holds a relic" was two rooms in a corner)
  const asked = wanted && wanted.count > 1 ? wanted.count : 0;
  // unasked, the count follows the map's size and the seed (decision 0143: every 40 × 30 dungeon had five)
  const count = Math.max(2, Math.min(24, asked || Math.max(4, Math.min(12, byArea + g.rng.int(-1, 2)))));
  const rooms = placeRooms(g, count);
  const roomsIndex = features.findIndex((f) => f.kind === 'rooms');
  const corridorIndex = features.findIndex((f) => f.kind === 'corridors');
  for (const r of rooms)
    for (let y = r.y; y <= r.y + r.h; y++)
      for (let x = r.x; x <= r.x + r.w; x++) g.paint(y * g.gw + x, floor, roomsIndex);
  const inRoom = (p: number) => {
    const x = p % g.gw;
    const y = Math.floor(p / g.gw);
    return rooms.findIndex((r) => x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h);
  };
  // doors: where a corridor leaves a room, the first corridor cell outside it (hung once the walls
  // are up, so a door stands only in a gap of the wall)
  const doors: Array<{ cell: number; eastWest: boolean }> = [];
  for (const [a, b] of corridorEdges(g, rooms)) {
    const [ax, ay] = centreOf(rooms[a]!);
    const [bx, by] = centreOf(rooms[b]!);
    const route: number[] = [];
    const horizontalFirst = g.rng.chance(0.5);
    const [mx, my] = horizontalFirst ? [bx, ay] : [ax, by];
    for (const [x0, y0, x1, y1] of [
      [ax, ay, mx, my],
      [mx, my, bx, by],
    ] as const) {
      const steps = Math.abs(x1 - x0) + Math.abs(y1 - y0);
      for (let s = 0; s <= steps; s++) {
        const x = x0 + Math.sign(x1 - x0) * Math.min(s, Math.abs(x1 - x0));
        const y = y0 + Math.sign(y1 - y0) * Math.min(s, Math.abs(y1 - y0));
        route.push(y * g.gw + x);
      }
    }
    for (const p of route) if (inRoom(p) < 0) g.owner[p] = corridorIndex;
    g.paintRoute(
      route.filter((p) => inRoom(p) < 0),
      floor,
      corridorIndex,
      false,
    );
    for (let k = 1; k < route.length; k++) {
      const was = inRoom(route[k - 1]!);
      const now = inRoom(route[k]!);
      const eastWest = Math.abs(route[k]! - route[k - 1]!) === 1;
      if (was >= 0 && now < 0) doors.push({ cell: g.space.cellOfPoint(route[k]!), eastWest });
      if (was < 0 && now >= 0) doors.push({ cell: g.space.cellOfPoint(route[k - 1]!), eastWest });
    }
  }
  finishDungeon(g, rooms, floor);
  buildWalls(g);
  hangDoors(g, doors);
  // in map cells: a room of points x…x+w covers the cells x…x+w−1 wholly (wang16), x…x+w (blob47)
  const extra = g.space.kind === 'wang16' ? 0 : 1;
  return rooms.map((r) => ({ x: r.x, y: r.y, w: r.w + extra, h: r.h + extra }));
}

/**
 * Walls round every room and corridor: the rock next to what is walked on (or a pool) becomes laid
 * blocks, so the rooms read as rooms and the rock beyond as solid ground — one point thick all round
 * (a tile's width of wall between floor and rock; no tile holds floor, wall and rock).
 */
export function buildWalls(g: Grower): void {
  const { wall, rock } = g.layout.roles;
  const solid = rock ?? g.layout.roles.ground;
  if (wall === null || wall === solid) return;
  const { gw, gh } = g;
  const cells = g.grid.cells;
  const open = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < gw && y < gh && cells[y * gw + x] !== solid && cells[y * gw + x] !== wall;
  const ring: number[] = [];
  for (let y = 0; y < gh; y++)
    for (let x = 0; x < gw; x++) {
      if (cells[y * gw + x] !== solid) continue;
      let near = false;
      for (let dy = -1; dy <= 1 && !near; dy++)
        for (let dx = -1; dx <= 1 && !near; dx++) near = open(x + dx, y + dy);
      if (near) ring.push(y * gw + x);
    }
  for (const p of ring) g.paint(p, wall, -1);
}

/**
 * A door where a corridor meets a room, only where it stands in a gap of the wall (cells not walked
 * on either side across the way walked, walked cells ahead and behind) and never within two cells of
 * another door — a corridor along a room's side, or a short one between two rooms, gets one door, not
 * a row of them. A door walked east–west is drawn edge-on (`door-ew`), one walked north–south face on.
 */
function hangDoors(g: Grower, doors: ReadonlyArray<{ cell: number; eastWest: boolean }>): void {
  const { columns, rows } = g.space;
  const walked = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < columns && y < rows && g.space.cellWalkable(x, y);
  const hung: number[] = [];
  for (const { cell, eastWest } of doors) {
    const x = cell % columns;
    const y = Math.floor(cell / columns);
    if (!walked(x, y)) continue;
    // across the way walked: the two sides; along it: ahead and behind
    const [ax, ay] = eastWest ? [0, 1] : [1, 0];
    if (walked(x + ax, y + ay) || walked(x - ax, y - ay)) continue;
    if (!walked(x + ay, y + ax) || !walked(x - ay, y - ax)) continue;
    const near = hung.some(
      (h) => Math.max(Math.abs((h % columns) - x), Math.abs(Math.floor(h / columns) - y)) <= 2,
    );
    if (near) continue;
    if (g.place(eastWest ? 'door-ew' : 'door', cell)) hung.push(cell);
  }
}

/** Stairs up in the first room (the spawn), stairs down in the farthest (the goal), a chest where the words put it, every room an anchor. */
function finishDungeon(g: Grower, rooms: Room[], floor: number): void {
  const { columns } = g.space;
  const cellOf = (r: Room) => {
    const [cx, cy] = centreOf(r);
    return Math.min(g.space.rows - 1, cy) * columns + Math.min(columns - 1, cx);
  };
  if (!rooms.length) return;
  const spawnRoom = pickRoom(rooms, g.layout.features.find((f) => f.kind === 'rooms')?.placements[0], g);
  const spawn = cellOf(rooms[spawnRoom]!);
  g.place('stairs', spawn);
  // a stairwell is drawn a little wider and taller than its cell: nothing stands round it
  const clearRound = (cell: number) => {
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const c = cell + dy * columns + dx;
        if ((dx || dy) && c >= 0 && c < g.keepFree.length) g.keepFree[c] = 1;
      }
  };
  clearRound(spawn);
  g.spawn = spawn;
  g.anchors.push({ name: 'spawn', cell: spawn });
  rooms.forEach((r, i) => {
    g.anchors.push({ name: `room ${i + 1}`, cell: cellOf(r) });
    g.keepFree[cellOf(r)] = 1;
  });
  const reach = distances(columns, g.space.rows, [spawn], (c) =>
    g.space.cellWalkable(c % columns, Math.floor(c / columns)),
  );
  // the goal: stairs down in the room farthest walked from the spawn (issue #39: "the last room" was
  // not marked, a dungeon had a start and no end), so a player sees at once where the level leads
  let goalRoom = rooms.length > 1 ? (spawnRoom + 1) % rooms.length : -1;
  rooms.forEach((r, i) => {
    if (i !== spawnRoom && (reach[cellOf(r)] ?? -1) > (reach[cellOf(rooms[goalRoom]!)] ?? -1)) goalRoom = i;
  });
  if (goalRoom >= 0) {
    const goal = cellOf(rooms[goalRoom]!);
    g.keepFree[goal] = 0;
    if (g.place('stairs-down', goal)) {
      g.anchors.push({ name: 'goal', cell: goal });
      clearRound(goal);
    }
  }
  const chest = g.layout.features.find((f) => f.kind === 'chest');
  if (chest) {
    let best = goalRoom >= 0 ? goalRoom : 0;
    const named = g.layout.features.find((f) => f.kind === 'rooms');
    // "a chest in the first room", "the entrance room holds a chest": beside the stairs up
    const first = chest.first || (named?.first && !named.last && !chest.last && !chest.placements.length);
    if (first) best = spawnRoom;
    else if (!chest.last && chest.placements.length > 0) best = pickRoom(rooms, chest.placements[0], g);
    const r = rooms[best]!;
    const cell = cellOf(r) + 1;
    g.keepFree[cell] = 0;
    g.place('chest', cell);
    g.anchors.push({ name: 'chest', cell });
    g.extraRegions.push({ kind: 'chest', words: [], placements: [], cells: [cell] });
  }
  furnish(g, rooms);
  // a pool in a room when water is asked for
  const lake = g.layout.features.find((f) => f.kind === 'lake' || f.kind === 'pond');
  if (lake && g.layout.roles.water !== null && rooms.length > 1) {
    const r = rooms[pickRoom(rooms, lake.placements[0], g, [spawnRoom, goalRoom])]!;
    const [cx, cy] = centreOf(r);
    // on floor whose every neighbour is floor: the pool keeps a walk of floor between it and the walls
    const inner = new Uint8Array(g.gw * g.gh);
    for (let p = 0; p < inner.length; p++) {
      const x = p % g.gw;
      const y = Math.floor(p / g.gw);
      let all = true;
      for (let dy = -1; dy <= 1 && all; dy++)
        for (let dx = -1; dx <= 1 && all; dx++)
          all = g.grid.cells[Math.max(0, Math.min(g.gh - 1, y + dy)) * g.gw + x + dx] === floor;
      inner[p] = all ? 1 : 0;
    }
    g.blob(
      cx,
      cy,
      Math.max(1.5, Math.min(r.w, r.h) / 3),
      g.layout.roles.water,
      g.layout.features.indexOf(lake),
      (t, p) => t === floor && inner[p] === 1,
    );
  }
}

/** What a room is for, chosen by its size: it decides what stands in it (decision 0114). */
type RoomRole = 'hall' | 'store' | 'guard' | 'ossuary' | 'ruin' | 'library';
const ROLES_BY_SIZE: Readonly<Record<'large' | 'middle' | 'small', readonly RoomRole[]>> = {
  large: ['hall', 'library', 'guard', 'store', 'ossuary'],
  middle: ['guard', 'store', 'library', 'hall', 'ossuary', 'ruin'],
  small: ['ossuary', 'ruin', 'store', 'guard'],
};

/**
 * Every room furnished (issue #39: the review found empty rooms, then every room the same barrels in
 * its corners and a torch): each room gets a role by its size — a hall (a table in its middle),
 * a store (crates and barrels in its corners), a guard room (a table, a barrel), an ossuary (bones
 * on its floor), a ruin (rubble and bones, its torch gone out) — no role twice in a row, and
 * what it holds placed by the seed. Blocking things stand only in a corner cell walked to from two
 * sides (never in a way through: a corridor's mouth has a third) or on a cell in a room's middle whose
 * eight neighbours are all walked and none kept free; bones and rubble are walked over. A torch on the north wall of every room
 * but a ruin, over a floor cell whose north neighbour is wall.
 */
function furnish(g: Grower, rooms: readonly Room[]): void {
  const { columns, rows } = g.space;
  const walk = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < columns && y < rows && g.space.cellWalkable(x, y);
  const free = (c: number) => g.propAt[c] === -1 && g.keepFree[c] === 0;
  let last: RoomRole | null = null;
  const used = new Set<RoomRole>();
  for (const r of rooms) {
    const cells: Array<[number, number]> = [];
    for (let y = Math.max(0, r.y - 1); y <= Math.min(rows - 1, r.y + r.h); y++)
      for (let x = Math.max(0, r.x - 1); x <= Math.min(columns - 1, r.x + r.w); x++)
        if (walk(x, y)) cells.push([x, y]);
    const size = cells.length >= 36 ? 'large' : cells.length >= 16 ? 'middle' : 'small';
    // each role once before any comes again, none twice in a row
    const fresh = ROLES_BY_SIZE[size].filter((k) => !used.has(k));
    const role = g.rng.pick(fresh.length ? fresh : ROLES_BY_SIZE[size].filter((k) => k !== last));
    used.add(role);
    last = role;
    const [mx, my] = centreOf(r);
    if (role !== 'ruin' || g.rng.chance(0.3)) {
      const wall = cells
        .filter(([x, y]) => !walk(x, y - 1) && walk(x - 1, y) && walk(x + 1, y) && walk(x, y + 1))
        .sort((a, b) => Math.abs(a[0] - mx) - Math.abs(b[0] - mx));
      for (const [x, y] of wall.slice(0, 3))
        if (free(y * columns + x) && g.place('torch', y * columns + x)) break;
    }
    const corners = cells
      .filter(([x, y]) => {
        const open = [walk(x - 1, y), walk(x + 1, y), walk(x, y - 1), walk(x, y + 1)];
        return open.filter(Boolean).length === 2 && open[0] !== open[1] && open[2] !== open[3];
      })
      .map((c) => [g.rng.next(), c] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, c]) => c);
    const inCorners = (kinds: readonly PropKind[], n: number) => {
      let placed = 0;
      for (const [x, y] of corners) {
        if (placed >= n) break;
        const c = y * columns + x;
        if (free(c) && g.place(kinds[placed % kinds.length]!, c)) placed++;
      }
      return placed;
    };
    // nearest the middle, a cell whose eight neighbours are walked with nothing standing on them: a
    // thing there blocks no way through (the corridors cross a room's middle, kept free)
    const middle = () => {
      const clear = (x: number, y: number) => {
        if (!walk(x, y)) return false;
        const i = g.propAt[y * columns + x]!;
        return i < 0 || !PROP_BLOCKS[g.props[i]!.kind];
      };
      const spots = cells
        .filter(([x, y]) => {
          if (!free(y * columns + x)) return false;
          for (let dy = -1; dy <= 1; dy++)
            for (let dx = -1; dx <= 1; dx++) if ((dx || dy) && !clear(x + dx, y + dy)) return false;
          return true;
        })
        .sort((a, b) => Math.hypot(a[0] - mx, a[1] - my) - Math.hypot(b[0] - mx, b[1] - my));
      return spots.length > 0 && g.place('table', spots[0]![1] * columns + spots[0]![0]);
    };
    const strew = (kinds: readonly PropKind[], n: number) => {
      const open = cells
        .filter(([x, y]) => free(y * columns + x) && walk(x, y - 1))
        .map((c) => [g.rng.next(), c] as const)
        .sort((a, b) => a[0] - b[0]);
      let placed = 0;
      for (const [, [x, y]] of open) {
        if (placed >= n) break;
        if (g.place(kinds[g.rng.int(0, kinds.length - 1)]!, y * columns + x)) placed++;
      }
    };
    const scale = cells.length / 25;
    // against the north wall, a cell whose row below is walked (it cuts no way along the wall)
    const onWall = (kind: PropKind, n: number) => {
      let placed = 0;
      const spots = cells
        .filter(
          ([x, y]) =>
            !walk(x, y - 1) &&
            walk(x - 1, y) &&
            walk(x + 1, y) &&
            walk(x - 1, y + 1) &&
            walk(x, y + 1) &&
            walk(x + 1, y + 1),
        )
        .map((c) => [g.rng.next(), c] as const)
        .sort((a, b) => a[0] - b[0]);
      for (const [, [x, y]] of spots) {
        if (placed >= n) break;
        const c = y * columns + x;
        // not beside another shelf's cell: a run of them would wall the room off from its north side
        if (g.propAt[c - 1]! >= 0 || g.propAt[c + 1]! >= 0) continue;
        if (free(c) && g.place(kind, c)) placed++;
      }
      return placed;
    };
    // the same kinds in another order and mix room by room (issue #39, decision 0137: every room
    // showed the same barrel, table and bones)
    const mix = (kinds: readonly PropKind[]) =>
      kinds
        .map((k) => [g.rng.next(), k] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, k]) => k);
    if (role === 'hall') {
      middle();
      onWall('shelf', 1);
      inCorners(mix(['barrel', 'urn']), 1);
      strew(['rubble'], 1);
    } else if (role === 'library') {
      onWall('shelf', Math.max(2, Math.min(4, Math.round(scale * 2))));
      middle();
      strew(['rubble'], 1);
    } else if (role === 'store') {
      inCorners(
        mix(['crate', 'barrel', 'urn', 'crate', 'barrel']),
        Math.max(2, Math.min(4, Math.round(scale * 2))),
      );
      if (scale > 1) onWall('shelf', 1);
    } else if (role === 'guard') {
      if (!middle()) inCorners(['crate'], 1);
      inCorners(mix(['barrel', 'crate']), 1);
      strew(['bones'], 1);
    } else if (role === 'ossuary') {
      strew(['bones'], Math.max(2, Math.round(scale * 2)));
      inCorners(mix(['urn', 'urn', 'crate']), 2);
    } else {
      strew(['rubble', 'rubble', 'bones'], Math.max(2, Math.round(scale * 3)));
      inCorners(mix(['barrel', 'urn']), 1);
    }
  }
}

/** The room nearest a placement (or a random one), avoiding those in `not` while another is left. */
function pickRoom(
  rooms: readonly Room[],
  place: string | undefined,
  g: Grower,
  avoid: readonly number[] = [],
): number {
  const not = rooms.length > avoid.length ? avoid : avoid.slice(0, 1);
  if (!place || !(place in PLACEMENT_CENTRES)) {
    const choices = rooms.map((_, i) => i).filter((i) => !not.includes(i));
    return choices.length ? g.rng.pick(choices) : 0;
  }
  const [u, v] = PLACEMENT_CENTRES[place as keyof typeof PLACEMENT_CENTRES];
  let best = 0;
  let bestD = Infinity;
  rooms.forEach((r, i) => {
    const [cx, cy] = centreOf(r);
    const d = Math.hypot(cx / g.gw - u, cy / g.gh - v);
    if (!not.includes(i) && d < bestD) {
      best = i;
      bestD = d;
    }
  });
  return best;
}

/** Grows a cave: rock and floor by the 4-5 rule, its hollows joined, water where asked. */
export function growCaveLevel(g: Grower): void {
  const { roles } = g.layout;
  const floor = roles.floor ?? roles.ground;
  const wall = roles.rock ?? roles.ground;
  const { gw, gh } = g;
  let solid = new Uint8Array(gw * gh);
  for (let p = 0; p < gw * gh; p++) {
    const x = p % gw;
    const y = Math.floor(p / gw);
    solid[p] = x < 2 || y < 2 || x >= gw - 2 || y >= gh - 2 || g.rng.chance(0.45) ? 1 : 0;
  }
  for (let step = 0; step < 5; step++) {
    const next = new Uint8Array(gw * gh);
    for (let p = 0; p < gw * gh; p++) {
      const x = p % gw;
      const y = Math.floor(p / gw);
      let walls = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          walls += nx < 0 || ny < 0 || nx >= gw || ny >= gh ? 1 : solid[ny * gw + nx]!;
        }
      next[p] = x < 2 || y < 2 || x >= gw - 2 || y >= gh - 2 ? 1 : walls >= 5 ? 1 : 0;
    }
    solid = next;
  }
  // an underground lake is a body of water (issue #39: it was a 4 × 3-tile puddle wherever the
  // automaton left floor): its basin is hollowed out first — the lake about a tenth of the map, a
  // pond a twentieth, with two points of floor round it for a shore — and joined like any hollow; a
  // lava cave's magma pool likewise
  const pools: Array<{ feature: number; terrain: number; basin: [number, number, number] }> = [];
  const liquids = g.layout.features.flatMap((f, i) => {
    const terrain =
      f.kind === 'lake' || f.kind === 'pond' || f.kind === 'river'
        ? roles.water
        : f.kind === 'lava'
          ? roles.lava
          : null;
    return terrain === null ? [] : [{ f, i, terrain }];
  });
  // a path "around" it needs a floor wide enough to ring it
  const ringed = g.layout.features.some((f) => f.kind === 'path' && f.placements.includes('around'));
  const rim = ringed ? 7 : 2.5;
  for (const [k, { f, i, terrain }] of liquids.slice(0, 2).entries()) {
    const [u, v] =
      f.placements[0] && f.placements[0] in PLACEMENT_CENTRES
        ? PLACEMENT_CENTRES[f.placements[0] as keyof typeof PLACEMENT_CENTRES]
        : liquids.length > 1
          ? ([
              [0.3, 0.45],
              [0.72, 0.5],
            ][k] as [number, number])
          : [0.55, 0.45];
    const share = (f.kind === 'pond' ? 0.05 : 0.11) * f.scale * (liquids.length > 1 ? 0.7 : 1);
    const r = Math.max(2.5, Math.sqrt((share * gw * gh) / Math.PI));
    const margin = Math.min(r + rim + 2, (Math.min(gw, gh) - 1) / 2);
    const cx = Math.max(margin, Math.min(gw - 1 - margin, u * (gw - 1)));
    const cy = Math.max(margin, Math.min(gh - 1 - margin, v * (gh - 1)));
    const basin: [number, number, number] = [cx, cy, r];
    pools.push({ feature: i, terrain, basin });
    for (let p = 0; p < gw * gh; p++) {
      const x = p % gw;
      const y = Math.floor(p / gw);
      if (x < 2 || y < 2 || x >= gw - 2 || y >= gh - 2) continue;
      if (basinDistance(g, x, y, basin) < 1 + rim / r) solid[p] = 0;
    }
  }
  for (let p = 0; p < gw * gh; p++) g.paint(p, solid[p] ? wall : floor, -1);
  // join the hollows to the largest one with tunnels; drop the crumbs
  const hollow = components(gw, gh, (i) => solid[i] === 0);
  const order = hollow.sizes.map((s, i) => [s, i] as const).sort((a, b) => b[0] - a[0]);
  const main = order[0]?.[1] ?? -1;
  for (const [size, id] of order.slice(1)) {
    const members: number[] = [];
    for (let p = 0; p < gw * gh; p++) if (hollow.label[p] === id) members.push(p);
    if (size < 12) {
      for (const p of members) g.paint(p, wall, -1);
      continue;
    }
    const route = cheapestRoute(
      gw,
      gh,
      members[0]!,
      (p) => hollow.label[p] === main,
      (p) => {
        const x = p % gw;
        const y = Math.floor(p / gw);
        return x < 2 || y < 2 || x >= gw - 3 || y >= gh - 3 ? Infinity : solid[p] ? 3 : 1;
      },
    );
    if (route) g.paintRoute(route, floor, -1, false);
  }
  for (const { feature, terrain, basin } of pools)
    for (let p = 0; p < gw * gh; p++)
      if (basinDistance(g, p % gw, Math.floor(p / gw), basin) < 1 && g.grid.cells[p] === floor)
        g.paint(p, terrain, feature);
}

/** How far a point lies from a basin's middle, in its radii, its rim wobbling with the detail noise. */
function basinDistance(g: Grower, x: number, y: number, [cx, cy, r]: [number, number, number]): number {
  const wobble = (g.detail.fbm((x / g.gw) * 18, (y / g.gh) * 18, 2) - 0.5) * 0.35;
  return Math.hypot(x - cx, y - cy) / r + wobble;
}
