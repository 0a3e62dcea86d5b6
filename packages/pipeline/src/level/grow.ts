/**
 * Growing a level from its layout (decision 0051): value noise shaped by where the words put each
 * feature, then constraints — one island kept whole, shores between sea and land, rivers and paths
 * routed as cheapest paths over a noise cost, every place the layout names joined to the spawn
 * over walkable cells, and at most two terrains in a tile (so each tile is one of the tileset's
 * pair tiles). Dungeons and caves are grown in dungeon.ts. Deterministic in the seed.
 */
import { Noise1D, Noise2D, Rng } from '../pixel/random.js';
import { components, disc, type Grid, makeGrid } from './grid.js';
import type { FeatureRequest, LevelLayout } from './layout.js';
import type { Anchor, FeatureRegion, LevelPlan, PlacedProp, PropKind } from './plan.js';
import { PROP_BLOCKS } from './plan.js';
import { LevelSpace } from './space.js';
import { type Placement, WINDING_WORDS } from './words.js';

/** Where each placement word points, in map fractions (0,0 top-left). */
export const PLACEMENT_CENTRES: Readonly<
  Record<Exclude<Placement, 'around' | 'corner' | 'corners'>, [number, number]>
> = {
  north: [0.5, 0.2],
  south: [0.5, 0.8],
  east: [0.8, 0.5],
  west: [0.2, 0.5],
  northeast: [0.8, 0.2],
  northwest: [0.2, 0.2],
  southeast: [0.8, 0.8],
  southwest: [0.2, 0.8],
  centre: [0.5, 0.5],
};
const CORNERS: ReadonlyArray<[number, number]> = [
  [0.17, 0.17],
  [0.83, 0.17],
  [0.17, 0.83],
  [0.83, 0.83],
];

/** The props of each biome's scattered and forest trees. */
const TREE_OF: Readonly<Record<LevelLayout['biome'], PropKind>> = {
  grass: 'tree',
  desert: 'cactus',
  snow: 'pine',
  swamp: 'tree',
  volcanic: 'pine',
};

/** State shared by the steps of growing one level. */
export class Grower {
  readonly rng: Rng;
  readonly noise: Noise2D;
  readonly detail: Noise2D;
  readonly space: LevelSpace;
  readonly grid: Grid;
  /** Which feature (index into layout.features) painted each terrain point; -1 none. */
  readonly owner: Int16Array;
  readonly props: PlacedProp[] = [];
  /** Cells a prop stands on (its index into props), -1 none. */
  readonly propAt: Int32Array;
  /** Cells that must stay free (paths, mouths of caves, plazas). */
  readonly keepFree: Uint8Array;
  readonly anchors: Anchor[] = [];
  readonly extraRegions: FeatureRegion[] = [];
  /** Features that could not be drawn as asked, with why (the plan's `notHonoured`). */
  readonly notHonoured: string[] = [];
  spawn = -1;

  constructor(
    readonly layout: LevelLayout,
    kind: 'wang16' | 'blob47',
    columns: number,
    rows: number,
    seed: number,
  ) {
    this.rng = new Rng(seed);
    this.noise = new Noise2D(this.rng.fork('land'), 16);
    this.detail = new Noise2D(this.rng.fork('detail'), 64);
    const gw = kind === 'wang16' ? columns + 1 : columns;
    const gh = kind === 'wang16' ? rows + 1 : rows;
    this.grid = makeGrid(gw, gh, layout.roles.ground);
    this.space = new LevelSpace(kind, columns, rows, layout.terrains, this.grid);
    this.owner = new Int16Array(gw * gh).fill(-1);
    this.propAt = new Int32Array(columns * rows).fill(-1);
    this.keepFree = new Uint8Array(columns * rows);
  }

  get gw() {
    return this.grid.width;
  }
  get gh() {
    return this.grid.height;
  }
  /** Noise in 0–1 at a point, features about a sixth of the map across. */
  n(x: number, y: number, scale = 5): number {
    return this.noise.fbm((x / this.gw) * scale, (y / this.gh) * scale, 3, 0.5);
  }
  /** A point's map fractions. */
  uv(p: number): [number, number] {
    const x = p % this.gw;
    return [x / (this.gw - 1), (p - x) / this.gw / (this.gh - 1)];
  }
  /** The point nearest map fractions (u, v). */
  pointAt(u: number, v: number): number {
    const x = Math.max(0, Math.min(this.gw - 1, Math.round(u * (this.gw - 1))));
    const y = Math.max(0, Math.min(this.gh - 1, Math.round(v * (this.gh - 1))));
    return y * this.gw + x;
  }
  /** Half the shorter side, in points: the unit feature sizes are given in. */
  get unit(): number {
    return Math.min(this.gw, this.gh) / 2;
  }

  /**
   * Points of the ground terrain whose neighbours within `d` points are ground (or `also`) too: where a
   * feature may go without three terrains meeting in a tile (its edge then touches the ground only).
   */
  deepGround(d: number, also: readonly number[] = []): Uint8Array {
    const { ground } = this.layout.roles;
    const ok = (t: number) => t === ground || also.includes(t);
    const out = new Uint8Array(this.gw * this.gh);
    for (let y = 0; y < this.gh; y++)
      for (let x = 0; x < this.gw; x++) {
        let good = ok(this.grid.cells[y * this.gw + x]!);
        for (let dy = -d; dy <= d && good; dy++)
          for (let dx = -d; dx <= d; dx++) {
            const nx = x + dx;
            const ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= this.gw || ny >= this.gh) continue;
            if (!ok(this.grid.cells[ny * this.gw + nx]!)) {
              good = false;
              break;
            }
          }
        out[y * this.gw + x] = good ? 1 : 0;
      }
    return out;
  }

  paint(p: number, terrain: number, feature: number): void {
    this.grid.cells[p] = terrain;
    this.owner[p] = feature;
  }

  /** A noisy blob of `terrain` around (cx, cy) points, radius r; `only` limits what it covers. */
  blob(
    cx: number,
    cy: number,
    r: number,
    terrain: number,
    feature: number,
    only?: (t: number, p: number) => boolean,
    rough = 0.9,
  ): void {
    const reach = Math.ceil(r * 1.5);
    for (let y = Math.floor(cy - reach); y <= cy + reach; y++)
      for (let x = Math.floor(cx - reach); x <= cx + reach; x++) {
        if (x < 0 || y < 0 || x >= this.gw || y >= this.gh) continue;
        const d = Math.hypot(x - cx, y - cy) / r;
        const wobble = (this.detail.fbm((x / this.gw) * 24, (y / this.gh) * 24, 2) - 0.5) * rough;
        if (d + wobble >= 1) continue;
        const p = y * this.gw + x;
        if (only && !only(this.grid.cells[p]!, p)) continue;
        this.paint(p, terrain, feature);
      }
  }

  /** The centres a feature goes to: one per placement (four for corners), else where `fallback` says. */
  targets(f: FeatureRequest, fallback: () => [number, number]): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (const p of f.placements) {
      if (p === 'corners') out.push(...CORNERS);
      else if (p === 'corner') out.push(this.rng.pick(CORNERS));
      else if (p !== 'around') out.push(PLACEMENT_CENTRES[p]);
    }
    if (out.length === 0) out.push(fallback());
    // "three ponds in the north": more than one in the same place spread around it
    const want = Math.max(out.length, f.count > 1 && out.length === 1 ? Math.min(f.count, 6) : out.length);
    while (out.length < want) {
      const [u, v] = out[out.length % Math.max(1, f.placements.length)] ?? out[0]!;
      out.push([
        Math.max(0.12, Math.min(0.88, u + this.rng.range(-0.18, 0.18))),
        Math.max(0.12, Math.min(0.88, v + this.rng.range(-0.18, 0.18))),
      ]);
    }
    return out;
  }

  /** A random point of the map's middle part (a feature without a placement word). */
  somewhere(): [number, number] {
    return [this.rng.range(0.3, 0.7), this.rng.range(0.3, 0.7)];
  }

  /** The land point nearest map fractions (u, v), or null when there is no land. */
  nearestLand(u: number, v: number, ok: (p: number) => boolean): number | null {
    const start = this.pointAt(u, v);
    if (ok(start)) return start;
    let best: number | null = null;
    let bestD = Infinity;
    const sx = start % this.gw;
    const sy = Math.floor(start / this.gw);
    for (let p = 0; p < this.gw * this.gh; p++) {
      if (!ok(p)) continue;
      const d = ((p % this.gw) - sx) ** 2 + (Math.floor(p / this.gw) - sy) ** 2;
      if (d < bestD) {
        bestD = d;
        best = p;
      }
    }
    return best;
  }

  isLand(p: number): boolean {
    const { sea, water, lava } = this.layout.roles;
    const t = this.grid.cells[p]!;
    return t !== sea && t !== water && t !== lava;
  }

  /** Places a prop on a free cell; false when the cell is taken or kept free. */
  place(kind: PropKind, cell: number): boolean {
    if (cell < 0 || cell >= this.propAt.length || this.propAt[cell] !== -1 || this.keepFree[cell])
      return false;
    const x = cell % this.space.columns;
    const y = Math.floor(cell / this.space.columns);
    // a prop's sprite is two tiles high and wide: keep it inside the map
    if (y < 1 || x < 1 || x >= this.space.columns - 1) return false;
    this.propAt[cell] = this.props.length;
    this.props.push({ kind, x, y });
    return true;
  }

  removePropAt(cell: number): void {
    const i = this.propAt[cell]!;
    if (i < 0) return;
    this.props[i] = { ...this.props[i]!, kind: this.props[i]!.kind, x: -1, y: -1 };
    this.propAt[cell] = -1;
  }

  /** A cell walked on, with no blocking prop. */
  open(cell: number): boolean {
    const x = cell % this.space.columns;
    const y = Math.floor(cell / this.space.columns);
    if (!this.space.cellWalkable(x, y)) return false;
    const prop = this.propAt[cell]!;
    return prop < 0 || !PROP_BLOCKS[this.props[prop]!.kind];
  }

  /** Paints a 2-point-wide route of terrain `t` (so the cells along it are wholly that terrain). */
  paintRoute(
    route: readonly number[],
    t: number,
    feature: number,
    keep = true,
    only?: (p: number) => boolean,
  ): void {
    for (const p of route) {
      const x = p % this.gw;
      const y = Math.floor(p / this.gw);
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        if (x + dx >= this.gw || y + dy >= this.gh) continue;
        const q = (y + dy) * this.gw + x + dx;
        if (only && !only(q)) continue;
        this.paint(q, t, feature);
      }
      if (keep) {
        const c = this.space.cellOfPoint(p);
        this.keepFree[c] = 1;
      }
    }
  }

  finish(method: string, rooms: LevelPlan['rooms'] = []): LevelPlan {
    const props = this.props.filter((p) => p.x >= 0);
    const regions: FeatureRegion[] = this.layout.features.map((f, i) => ({
      kind: f.kind,
      words: f.words,
      placements: f.placements,
      cells: this.cellsOwnedBy(i),
    }));
    for (const extra of this.extraRegions) {
      const region = regions.find((r) => r.kind === extra.kind);
      if (region) region.cells.push(...extra.cells);
    }
    return {
      kind: this.space.kind,
      columns: this.space.columns,
      rows: this.space.rows,
      terrain: this.grid,
      props,
      regions,
      anchors: this.anchors,
      rooms,
      spawn: this.spawn,
      method,
      notHonoured: [...new Set(this.notHonoured)],
    };
  }

  /** The map cells whose top-left point the feature painted last. */
  cellsOwnedBy(feature: number): number[] {
    const out = new Set<number>();
    for (let p = 0; p < this.owner.length; p++)
      if (this.owner[p] === feature) out.add(this.space.cellOfPoint(p));
    return [...out];
  }
}

/** The island(s) or sea of an outdoor level. */
function growGround(g: Grower): void {
  const { layout } = g;
  const { sea } = layout.roles;
  if (layout.base === 'island' || layout.base === 'archipelago') {
    const centres: Array<[number, number, number, number, number]> =
      layout.base === 'island'
        ? [[0.5, 0.5, Math.max(0.55, Math.min(0.92, 0.86 * layout.scale)), 1, 0]]
        : archipelagoCentres(g);
    for (let p = 0; p < g.gw * g.gh; p++) {
      const [u, v] = g.uv(p);
      let land = false;
      for (const [cu, cv, r, stretch, angle] of centres) {
        // the offset turned onto the island's bearing, its long axis `stretch` times its short one
        const [du, dv] = [(u - cu) * 2, (v - cv) * 2];
        const along = du * Math.cos(angle) + dv * Math.sin(angle);
        const across = -du * Math.sin(angle) + dv * Math.cos(angle);
        const d = Math.hypot(along / Math.sqrt(stretch), across * Math.sqrt(stretch)) / r;
        if (d + (g.n(p % g.gw, Math.floor(p / g.gw)) - 0.5) * 0.7 < 1) land = true;
      }
      const x = p % g.gw;
      const y = Math.floor(p / g.gw);
      // the sea always rims the map
      if (x < 2 || y < 2 || x >= g.gw - 2 || y >= g.gh - 2) land = false;
      if (!land) g.paint(p, sea!, -1);
    }
    if (layout.base === 'island') keepLargestLand(g);
  }
  const seaFeature = layout.features.findIndex((f) => f.kind === 'sea');
  if (seaFeature >= 0 && layout.base !== 'island' && layout.base !== 'archipelago') {
    const f = layout.features[seaFeature]!;
    const sides = f.placements.filter((p) => p !== 'centre' && p !== 'corners' && p !== 'corner');
    for (const side of sides.length ? sides : (['south'] as Placement[])) {
      for (let p = 0; p < g.gw * g.gh; p++) {
        const [u, v] = g.uv(p);
        const depth = sideDepth(side, u, v);
        if (depth + (g.n(p % g.gw, Math.floor(p / g.gw), 3) - 0.5) * 0.16 > 0.74 / f.scale)
          g.paint(p, sea!, seaFeature);
      }
    }
  }
}

/** The shore: land within two points of the sea (rivers that reach it get banks too). */
function growShore(g: Grower): void {
  const { sea, shore } = g.layout.roles;
  if (sea === null || shore === null) return;
  const seaFeature = g.layout.features.findIndex((f) => f.kind === 'sea');
  shoreRing(g, sea, shore, 2, seaFeature);
}

/** How far (0 at the far side, 1 at the near edge) a point lies towards a side. */
function sideDepth(side: Placement, u: number, v: number): number {
  switch (side) {
    case 'north':
      return 1 - v;
    case 'south':
      return v;
    case 'east':
      return u;
    case 'west':
      return 1 - u;
    case 'northeast':
      return (u + 1 - v) / 2;
    case 'northwest':
      return (2 - u - v) / 2;
    case 'southeast':
      return (u + v) / 2;
    case 'southwest':
      return (1 - u + v) / 2;
    default:
      // around: the outer ring
      return Math.max(Math.abs(u - 0.5), Math.abs(v - 0.5)) * 2;
  }
}

/**
 * An archipelago's islands (issue #39: four look-alike islands in an empty sea): two or three large
 * ones, then smaller islands and islets filling the sea between them, each stretched along its own
 * bearing (an ellipse: `[u, v, r, stretch, angle]`), so the chain has islands of varied size and shape.
 */
function archipelagoCentres(g: Grower): Array<[number, number, number, number, number]> {
  const out: Array<[number, number, number, number, number]> = [];
  const sizes = [
    ...Array.from({ length: g.rng.int(2, 3) }, () => g.rng.range(0.26, 0.34)),
    ...Array.from({ length: g.rng.int(3, 4) }, () => g.rng.range(0.15, 0.22)),
    ...Array.from({ length: g.rng.int(2, 4) }, () => g.rng.range(0.08, 0.12)),
  ];
  for (const size of sizes) {
    const r = size * g.layout.scale;
    for (let tries = 0; tries < 80; tries++) {
      const c: [number, number, number, number, number] = [
        g.rng.range(0.12 + r / 3, 0.88 - r / 3),
        g.rng.range(0.14 + r / 3, 0.86 - r / 3),
        r,
        g.rng.range(1, 1.7),
        g.rng.range(0, Math.PI),
      ];
      if (out.every(([u, v, rr]) => Math.hypot(u - c[0], v - c[1]) > (rr + r) * 0.58)) {
        out.push(c);
        break;
      }
    }
  }
  return out;
}

function keepLargestLand(g: Grower): void {
  const sea = g.layout.roles.sea!;
  const land = components(g.gw, g.gh, (i) => g.grid.cells[i] !== sea);
  let best = 0;
  land.sizes.forEach((s, i) => {
    if (s > land.sizes[best]!) best = i;
  });
  for (let p = 0; p < g.gw * g.gh; p++)
    if (land.label[p] !== -1 && land.label[p] !== best) g.paint(p, sea, -1);
  // lakes inside come from the words, not from holes in the noise
  const water = components(g.gw, g.gh, (i) => g.grid.cells[i] === sea);
  const edge = new Set<number>();
  for (let x = 0; x < g.gw; x++) edge.add(water.label[x]!).add(water.label[(g.gh - 1) * g.gw + x]!);
  for (let y = 0; y < g.gh; y++) edge.add(water.label[y * g.gw]!).add(water.label[y * g.gw + g.gw - 1]!);
  for (let p = 0; p < g.gw * g.gh; p++)
    if (water.label[p] !== -1 && !edge.has(water.label[p]!)) g.paint(p, g.layout.roles.ground, -1);
}

/** Land within `width` points of the sea becomes shore. */
function shoreRing(g: Grower, sea: number, shore: number, width: number, feature = -1): void {
  const near = new Uint8Array(g.gw * g.gh);
  // the sea is the water that reaches the map's edge (a lake inside meets its grass directly)
  const water = components(g.gw, g.gh, (i) => g.grid.cells[i] === sea);
  const open = new Set<number>();
  for (let x = 0; x < g.gw; x++) open.add(water.label[x]!).add(water.label[(g.gh - 1) * g.gw + x]!);
  for (let y = 0; y < g.gh; y++) open.add(water.label[y * g.gw]!).add(water.label[y * g.gw + g.gw - 1]!);
  open.delete(-1);
  for (let p = 0; p < g.gw * g.gh; p++) {
    if (g.grid.cells[p] !== sea || !open.has(water.label[p]!)) continue;
    const x = p % g.gw;
    const y = Math.floor(p / g.gw);
    for (let dy = -width; dy <= width; dy++)
      for (let dx = -width; dx <= width; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= g.gw || ny >= g.gh || dx * dx + dy * dy > width * width + 1) continue;
        near[ny * g.gw + nx] = 1;
      }
  }
  for (let p = 0; p < g.gw * g.gh; p++) if (near[p] && g.grid.cells[p] !== sea) g.paint(p, shore, feature);
}

/** Terrain features: rocks, lava, lakes and ponds, rivers. */
function growWaterAndRock(g: Grower): void {
  const { layout } = g;
  const { roles } = layout;
  /** The lakes that hold an island: centre, radius, feature. */
  const isles: Array<[number, number, number, number]> = [];
  layout.features.forEach((f, i) => {
    // a feature stands on the ground, two points clear of anything else: its edge meets the ground only
    const deep = g.deepGround(2);
    const onGround = (_t: number, p: number) => deep[p] === 1;
    if (f.kind === 'mountain' && roles.rock !== null) {
      if (f.placements.includes('around')) {
        for (let p = 0; p < g.gw * g.gh; p++) {
          const [u, v] = g.uv(p);
          const edge = Math.max(Math.abs(u - 0.5), Math.abs(v - 0.5)) * 2;
          if (
            edge + (g.n(p % g.gw, Math.floor(p / g.gw), 7) - 0.5) * 0.25 > 0.8 &&
            (deep[p] || g.layout.base === 'land')
          )
            g.paint(p, roles.rock, i);
        }
      }
      for (const [u, v] of f.placements.some((p) => p !== 'around') || !f.placements.length
        ? g.targets(f, () => g.somewhere())
        : []) {
        // a band of rocks along the side named, a clump elsewhere
        const r = g.unit * 0.32 * f.scale;
        const [cx, cy] = [u * (g.gw - 1), v * (g.gh - 1)];
        const wide = u === 0.5 && (v < 0.3 || v > 0.7);
        const tall = v === 0.5 && (u < 0.3 || u > 0.7);
        if (wide || tall) {
          // one unbroken band from edge to edge, running on to the map's side behind it, its inner
          // side wobbling (issue #39: a chain of blobs left gaps in the rock walls of a mountain pass,
          // and the strip of land behind was joined to the rest by cutting more gaps through it)
          for (let p = 0; p < g.gw * g.gh; p++) {
            const x = p % g.gw;
            const y = Math.floor(p / g.gw);
            const across = tall
              ? Math.max(0, u < 0.5 ? x - cx : cx - x)
              : Math.max(0, v < 0.5 ? y - cy : cy - y);
            const wobble = (g.n(x + 500, y + 500, 7) - 0.5) * 0.7;
            if (across / (r * 0.85) + wobble < 1 && deep[p] === 1) g.paint(p, roles.rock, i);
          }
        } else g.blob(cx, cy, r, roles.rock, i, onGround);
      }
    }
    if (f.kind === 'lava' && roles.lava !== null) {
      for (const [u, v] of g.targets(f, () => [0.5, 0.5])) {
        // a pool with lobes and a gently wavy edge, like a lake (issue #39: a rough 0.9 blob had
        // crude, toothed edges and one-point spikes; decision 0144)
        growLobedLake(g, u * (g.gw - 1), v * (g.gh - 1), g.unit * 0.34 * f.scale, roles.lava, i, onGround);
      }
    }
    if ((f.kind === 'lake' || f.kind === 'pond') && roles.water !== null) {
      // a real body of water (issue #39: a named lake was a 4 × 3-tile puddle): a lake about a tenth
      // of the map, shared among its places, a pond about a fortieth each; kept inside the map with
      // room for its shore, so the map's edge never clips it
      const targets = g.targets(f, () => g.somewhere());
      // a lake or pond holding an island is wider: room for the island and water all round it
      const share =
        (f.kind === 'lake'
          ? Math.max(0.045, (LAKE_SHARE * f.scale) / targets.length)
          : POND_SHARE * f.scale) * (f.isle ? (f.kind === 'lake' ? 1.8 : 3.6) : 1);
      for (const [u, v] of targets) {
        const r = Math.max(2.5, Math.sqrt((share * g.gw * g.gh) / Math.PI));
        // placed on a side, it goes nearer that side (issue #39: "a lake in the south" had its middle
        // on the line between the middle and southern thirds): room for its bank, no more
        const sided = f.placements.some((p) => p !== 'centre' && p !== 'around');
        const margin = Math.min(r + (sided ? 2.5 : 4), (Math.min(g.gw, g.gh) - 1) / 2);
        const cx = Math.max(margin, Math.min(g.gw - 1 - margin, u * (g.gw - 1)));
        const cy = Math.max(margin, Math.min(g.gh - 1 - margin, v * (g.gh - 1)));
        if (f.kind === 'lake' || f.isle) growLobedLake(g, cx, cy, r, roles.water, i, onGround, f.isle);
        else g.blob(cx, cy, r, roles.water, i, onGround, 0.5);
        if (f.isle && isles.length === 0) isles.push([cx, cy, r, i]);
      }
    }
    if (f.kind === 'river' && roles.water !== null) growRiver(g, f, i, roles.water);
  });
  // after the rivers: a valley's slopes follow its river
  layout.features.forEach((f, i) => {
    if (f.kind === 'valley' && roles.rock !== null) growValley(g, f, i, roles.rock);
  });
  if (layout.biome === 'swamp' && roles.water !== null && layout.base !== 'archipelago')
    growPools(g, roles.water);
  if (roles.water !== null) {
    smoothWater(g, roles.water);
    // a swamp's pools (owned by no feature) are bowed like ponds: they were boxes with straight sides
    roundShores(g, roles.water, ['lake', 'pond'], layout.biome === 'swamp');
  }
  if (roles.lava !== null) roundShores(g, roles.lava, ['lava']);
  for (const [cx, cy, r, feature] of isles) growIsle(g, cx, cy, r, feature, roles.water!);
  // no one-point spikes of still water or lava (decision 0144)
  if (roles.water !== null) trimSpikes(g, roles.water, ['lake', 'pond'], layout.biome === 'swamp');
  if (roles.lava !== null) trimSpikes(g, roles.lava, ['lava']);
  growBanks(g);
}

/**
 * Takes away the one-point spikes of still water or lava (issue #39: "crude lava and lake edges"):
 * a point of it owned by one of `kinds` (or by none, with `pools`) with at most one neighbour of it
 * across or down and at most two of its eight — the tip of a taper, or a speck — becomes the ground
 * when only the ground is round it otherwise, pass after pass (at most four). A bowed point on a
 * straight side (roundShores) has three behind it and stays: it is a bump, not a spike.
 */
function trimSpikes(g: Grower, t: number, kinds: readonly FeatureRequest['kind'][], pools = false): void {
  const { ground } = g.layout.roles;
  const owned = new Set(g.layout.features.flatMap((f, i) => (kinds.includes(f.kind) ? [i] : [])));
  const is = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < g.gw && y < g.gh && g.grid.cells[y * g.gw + x] === t;
  for (let pass = 0; pass < 4; pass++) {
    const dry: number[] = [];
    for (let y = 1; y < g.gh - 1; y++)
      for (let x = 1; x < g.gw - 1; x++) {
        const p = y * g.gw + x;
        if (g.grid.cells[p] !== t || !(owned.has(g.owner[p]!) || (pools && g.owner[p] === -1))) continue;
        if (+is(x + 1, y) + +is(x - 1, y) + +is(x, y + 1) + +is(x, y - 1) > 1) continue;
        let same = 0;
        let other = false;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            if (!dx && !dy) continue;
            const c = g.grid.cells[(y + dy) * g.gw + x + dx]!;
            if (c === t) same++;
            else if (c !== ground) other = true;
          }
        if (same <= 2 && !other) dry.push(p);
      }
    if (!dry.length) break;
    for (const p of dry) g.paint(p, ground, -1);
  }
}

/**
 * The island of "a lake with an island in it" (decision 0144): a round, gently lobed patch of the
 * ground in the lake's middle, about 0.42 of its radius, so water rings it two points or more wide;
 * its edge then becomes the bank (sand round grass) like the lake's outer shore. The bridges that
 * join every walkable region to the spawn reach it.
 */
function growIsle(g: Grower, cx: number, cy: number, r: number, feature: number, water: number): void {
  const { ground } = g.layout.roles;
  const ri = Math.max(2.2, r * 0.45);
  // only where the lake's water reaches three points all round: the ring of water never closes
  const ring = 3;
  const deepWater = (p: number) => {
    const x = p % g.gw;
    const y = Math.floor(p / g.gw);
    for (let dy = -ring; dy <= ring; dy++)
      for (let dx = -ring; dx <= ring; dx++) {
        if (dx * dx + dy * dy > ring * ring + 1) continue;
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= g.gw || ny >= g.gh) return false;
        const q = ny * g.gw + nx;
        if (g.grid.cells[q] !== water || g.owner[q] !== feature) return false;
      }
    return true;
  };
  const ok = new Uint8Array(g.gw * g.gh);
  for (let p = 0; p < ok.length; p++) ok[p] = deepWater(p) ? 1 : 0;
  // a round middle and three small lobes at angles from the detail noise (a disc alone had sides of
  // four or five points straight): bays and points, like the lake's own shore
  const isle = new Set<number>();
  const only = (_t: number, p: number) => ok[p] === 1 && isle.add(p) !== null;
  g.blob(cx, cy, ri * 0.8, ground, -1, only, 0.3);
  const at = (k: number) => g.detail.fbm(cx * 0.53 + k * 3.7, cy * 0.29 + k * 4.1, 2);
  const a0 = at(1) * Math.PI * 4;
  for (let k = 0; k < 3; k++) {
    const a = a0 + (k * 2 * Math.PI) / 3 + (at(2 + k) - 0.5);
    g.blob(cx + Math.cos(a) * ri * 0.55, cy + Math.sin(a) * ri * 0.5, ri * 0.5, ground, -1, only, 0.3);
  }
  // an island whose ground would show only as a speck or two inside its bank (the bank rims it
  // √5 points deep) is all bank: a sandy islet, not sand with holes of grass (decision 0144)
  const { bank } = g.layout.roles;
  let core = 0;
  for (const p of isle) {
    const [x, y] = [p % g.gw, Math.floor(p / g.gw)];
    let dry = true;
    for (let dy = -2; dy <= 2 && dry; dy++)
      for (let dx = -2; dx <= 2; dx++)
        if (dx * dx + dy * dy <= 5 && g.grid.cells[(y + dy) * g.gw + x + dx] === water) {
          dry = false;
          break;
        }
    if (dry) core++;
  }
  if (bank !== null && core < 6) for (const p of isle) g.paint(p, bank, -1);
  const n = isle.size;
  if (n < 4) {
    // too small a lake to hold one: said, never a lake without it silently
    for (let p = 0; p < ok.length; p++)
      if (ok[p] && g.grid.cells[p] === ground && g.owner[p] === -1) g.paint(p, water, feature);
    g.notHonoured.push(
      `island (the ${g.layout.features[feature]!.words[0] ?? 'lake'} too small to hold one)`,
    );
  }
}

/** A named lake's share of the map, and a pond's (each). */
const LAKE_SHARE = 0.1;
const POND_SHARE = 0.028;

/**
 * Still water with smooth edges (issue #39: boxy lake edges and stray 1-tile specks): two passes of
 * a majority rule over the water's edge points (a point with five of its eight neighbours water
 * becomes water when it is ground, a water point with three or fewer becomes ground), then water
 * bodies of fewer than six points are dried up. Rivers are left as they run.
 */
function smoothWater(g: Grower, water: number): void {
  const { ground } = g.layout.roles;
  const river = new Set(g.layout.features.flatMap((f, i) => (f.kind === 'river' ? [i] : [])));
  for (let pass = 0; pass < 2; pass++) {
    const next = g.grid.cells.slice();
    const owner = g.owner.slice();
    for (let y = 1; y < g.gh - 1; y++)
      for (let x = 1; x < g.gw - 1; x++) {
        const p = y * g.gw + x;
        const t = g.grid.cells[p]!;
        if ((t !== water && t !== ground) || river.has(g.owner[p]!)) continue;
        let wet = 0;
        let by = -1;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const q = p + dy * g.gw + dx;
            if (q === p || g.grid.cells[q] !== water) continue;
            wet++;
            if (by < 0 && !river.has(g.owner[q]!)) by = g.owner[q]!;
          }
        if (t === ground && wet >= 5) {
          next[p] = water;
          owner[p] = by;
        } else if (t === water && wet <= 3) {
          next[p] = ground;
          owner[p] = -1;
        }
      }
    g.grid.cells.set(next);
    g.owner.set(owner);
  }
  const bodies = components(g.gw, g.gh, (p) => g.grid.cells[p] === water);
  for (let p = 0; p < g.gw * g.gh; p++) {
    const l = bodies.label[p]!;
    if (l >= 0 && bodies.sizes[l]! < 6) g.paint(p, ground, -1);
  }
}

/**
 * A lake's, a pond's or a lava pool's flat sides bowed out (issue #39: stair-step rectangular lake
 * shores, a pond that read as a box): where the water's edge runs straight along a row or a column for four points
 * or more, the one point just beyond its middle becomes water too, when it is ground with only
 * ground or this water round it — pass after pass (at most six) until no side runs four straight.
 * (Bowing out all but the ends of each side, twice, turned a round lake into a diamond: 0126.)
 * Rivers and the sea are left as they are; a swamp's pools (`pools`) are bowed too (decision 0128).
 */
function roundShores(
  g: Grower,
  water: number,
  kinds: readonly FeatureRequest['kind'][],
  pools = false,
): void {
  const { ground } = g.layout.roles;
  const owned = new Set(g.layout.features.flatMap((f, i) => (kinds.includes(f.kind) ? [i] : [])));
  if (!owned.size && !pools) return;
  // a swamp's pools are water no feature owns (-1)
  const still = { has: (o: number) => owned.has(o) || (pools && o === -1) };
  const wet = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < g.gw && y < g.gh && g.grid.cells[y * g.gw + x] === water;
  const mine = (x: number, y: number) => wet(x, y) && still.has(g.owner[y * g.gw + x]!);
  const safe = (x: number, y: number) => {
    if (x < 1 || y < 1 || x >= g.gw - 1 || y >= g.gh - 1 || g.grid.cells[y * g.gw + x] !== ground)
      return false;
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const t = g.grid.cells[(y + dy) * g.gw + x + dx]!;
        if (t !== ground && !(t === water && still.has(g.owner[(y + dy) * g.gw + x + dx]!))) return false;
      }
    return true;
  };
  for (let pass = 0; pass < 8; pass++) {
    const grow: Array<[number, number, number]> = [];
    for (const [dx, dy] of [
      [0, -1],
      [0, 1],
      [-1, 0],
      [1, 0],
    ] as const) {
      const rowwise = dy !== 0;
      for (let a = 0; a < (rowwise ? g.gh : g.gw); a++) {
        let start = -1;
        for (let b = 0; b <= (rowwise ? g.gw : g.gh); b++) {
          const [x, y] = rowwise ? [b, a] : [a, b];
          const edge = mine(x, y) && !wet(x + dx, y + dy);
          if (edge && start < 0) start = b;
          if (edge) continue;
          if (start >= 0 && b - start >= 4) {
            // one point per straight side, at its middle (or the point beside it when that is not
            // free): bowing the whole side out, twice, made a round lake a diamond (decision 0126)
            const mid = start + Math.floor((b - start - 1) / 2);
            for (const k of [mid, mid + 1, mid - 1]) {
              const [px, py] = rowwise ? [k, a] : [a, k];
              if (!safe(px + dx, py + dy)) continue;
              grow.push([px + dx, py + dy, g.owner[py * g.gw + px]!]);
              break;
            }
          }
          start = -1;
        }
      }
    }
    // a one-point notch left between two bowed points (water either side of it) is filled too
    for (let y = 1; y < g.gh - 1; y++)
      for (let x = 1; x < g.gw - 1; x++) {
        if (!safe(x, y)) continue;
        const by =
          mine(x - 1, y) && mine(x + 1, y)
            ? y * g.gw + x - 1
            : mine(x, y - 1) && mine(x, y + 1)
              ? (y - 1) * g.gw + x
              : -1;
        if (by >= 0) grow.push([x, y, g.owner[by]!]);
      }
    if (!grow.length) break;
    for (const [x, y, owner] of grow) g.paint(y * g.gw + x, water, owner);
  }
}

/**
 * A lake as a main pool with two to four lobes round it (issue #39: lakes came out as discs, then
 * diamonds): a disc of 0.8 of the lake's radius and lobes of about half of it, their centres a bit
 * over half the radius out at angles spread round it, each with a wavy edge — so the shore has bays
 * and points and no lake stands more than about its radius from its centre (its margin holds). The
 * lobes' count and angles come from the map's detail noise, so the draws of the seed are not moved.
 */
function growLobedLake(
  g: Grower,
  cx: number,
  cy: number,
  r: number,
  water: number,
  feature: number,
  only: (t: number, p: number) => boolean,
  isle = false,
): void {
  // with an island in it, the main pool is wider (the island takes its middle)
  g.blob(cx, cy, r * (isle ? 0.86 : 0.72), water, feature, only, isle ? 0.3 : 0.5);
  const at = (k: number) => g.detail.fbm(cx * 0.37 + k * 5.3, cy * 0.41 + k * 2.9, 2);
  const lobes = 2 + Math.min(2, Math.floor(at(1) * 4));
  const a0 = at(2) * Math.PI * 4;
  for (let k = 0; k < lobes; k++) {
    const a = a0 + (k * 2 * Math.PI) / lobes + (at(3 + k) - 0.5) * 1.2;
    const lr = r * (0.45 + at(8 + k) * 0.2);
    const d = Math.min(r * 0.72, r * 1.2 - lr);
    g.blob(cx + Math.cos(a) * d, cy + Math.sin(a) * d * 0.85, lr, water, feature, only, 0.5);
  }
}

/**
 * The shore of inland water (issue #39: lakes met the grass with no beach): ground within two points
 * of a lake's or a pond's water becomes the bank terrain (sand round a lake in grass, grass round an
 * oasis in sand), so water meets the bank and the bank the ground — never three in a tile.
 */
function growBanks(g: Grower): void {
  const { bank, water, ground } = g.layout.roles;
  if (bank === null || water === null || bank === ground) return;
  const still = new Set(
    g.layout.features.flatMap((f, i) => (f.kind === 'lake' || f.kind === 'pond' ? [i] : [])),
  );
  const near = new Uint8Array(g.gw * g.gh);
  for (let p = 0; p < g.gw * g.gh; p++) {
    if (g.grid.cells[p] !== water || !still.has(g.owner[p]!)) continue;
    const x = p % g.gw;
    const y = Math.floor(p / g.gw);
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= g.gw || ny >= g.gh || dx * dx + dy * dy > 5) continue;
        near[ny * g.gw + nx] = 1;
      }
  }
  for (let p = 0; p < g.gw * g.gh; p++) if (near[p] && g.grid.cells[p] === ground) g.paint(p, bank, -1);
}

/**
 * A valley: rock slopes along both sides, the floor between them a third to a half of the map wide,
 * its edges wobbling; it runs along the level's river when there is one (its centre line), else
 * north–south (east–west when its words put it in the north or south). The rock keeps two points
 * clear of other features, so no tile holds three terrains.
 */
function growValley(g: Grower, f: FeatureRequest, feature: number, rock: number): void {
  const river = g.layout.features.findIndex((r) => r.kind === 'river');
  const riverF = river >= 0 ? g.layout.features[river]! : null;
  const down = riverF
    ? !(
        riverF.from === 'west' ||
        riverF.from === 'east' ||
        riverF.placements.some((p) => p === 'north' || p === 'south')
      )
    : !f.placements.some((p) => p === 'north' || p === 'south');
  const length = down ? g.gh : g.gw;
  const span = down ? g.gw : g.gh;
  // the floor's middle along its length: the river's water there, else the map's middle line
  const mid = new Float64Array(length).fill((span - 1) / 2);
  if (river >= 0)
    for (let k = 0; k < length; k++) {
      let sum = 0;
      let n = 0;
      for (let a = 0; a < span; a++) {
        const p = down ? k * g.gw + a : a * g.gw + k;
        if (g.owner[p] === river) {
          sum += a;
          n++;
        }
      }
      if (n) mid[k] = sum / n;
    }
  const deep = g.deepGround(2);
  const half = span * 0.26 * f.scale;
  for (let k = 0; k < length; k++)
    for (let a = 0; a < span; a++) {
      const p = down ? k * g.gw + a : a * g.gw + k;
      const [x, y] = [p % g.gw, Math.floor(p / g.gw)];
      const edge = half * (1 + (g.n(x + 200, y + 200, 6) - 0.5) * 0.5);
      if (Math.abs(a - mid[k]!) > edge && deep[p]) g.paint(p, rock, feature);
    }
}

/**
 * A swamp's pools: still water in the mud where a slow noise is high, clear of the other features,
 * rounded (issue #39: the pools' outlines were ragged, notched on every side, and did not read as
 * pools; decision 0144): the noise's patches (a little larger than before: the smoothing erodes) are smoothed twice by a majority over a disc of radius
 * two (a point is water when more than half the 21 points round it are), which rounds their bays and
 * points off and drops the slivers, then patches too small to read as a pool (under 10 points) go.
 */
function growPools(g: Grower, water: number): void {
  const deep = g.deepGround(2);
  let wet = new Uint8Array(g.gw * g.gh);
  for (let p = 0; p < g.gw * g.gh; p++) {
    const [x, y] = [p % g.gw, Math.floor(p / g.gw)];
    if (x < 2 || y < 2 || x >= g.gw - 2 || y >= g.gh - 2 || !deep[p]) continue;
    if (g.n(x + 300, y + 300, 8) + (g.detail.fbm((x / g.gw) * 24, (y / g.gh) * 24, 2) - 0.5) * 0.2 > 0.58)
      wet[p] = 1;
  }
  for (let pass = 0; pass < 2; pass++) {
    const next = new Uint8Array(wet.length);
    for (let y = 2; y < g.gh - 2; y++)
      for (let x = 2; x < g.gw - 2; x++) {
        const p = y * g.gw + x;
        if (!deep[p]) continue;
        let n = 0;
        for (let dy = -2; dy <= 2; dy++)
          for (let dx = -2; dx <= 2; dx++) if (dx * dx + dy * dy <= 5) n += wet[p + dy * g.gw + dx]!;
        next[p] = n > 10 ? 1 : 0;
      }
    wet = next;
  }
  const pools = components(g.gw, g.gh, (p) => wet[p] === 1);
  for (let p = 0; p < g.gw * g.gh; p++)
    if (wet[p] && pools.sizes[pools.label[p]!]! >= 10) g.paint(p, water, -1);
}

const OPPOSITE: Partial<Record<Placement, Placement>> = {
  north: 'south',
  south: 'north',
  east: 'west',
  west: 'east',
};

function growRiver(g: Grower, f: FeatureRequest, feature: number, water: number): void {
  const side =
    (f.placements.find((p) => p === 'east' || p === 'west')
      ? 'ns'
      : f.placements.find((p) => p === 'north' || p === 'south')
        ? 'ew'
        : null) ?? null;
  // it runs from side to side across the map: the side it comes from, else the one opposite where it goes
  const to = typeof f.to === 'string' && f.to in OPPOSITE ? (f.to as Placement) : null;
  let from: Placement = f.from ?? (to ? OPPOSITE[to]! : side === 'ew' ? 'west' : 'north');
  if (!(from in OPPOSITE)) from = 'north';
  // the line it runs along: a placement across the flow moves it ("a river in the east")
  const place = f.placements.find((p) => p in PLACEMENT_CENTRES && p !== 'centre') as
    | keyof typeof PLACEMENT_CENTRES
    | undefined;
  const [pu, pv] = place ? PLACEMENT_CENTRES[place] : [0.5, 0.5];
  // a meandering centre line (decision 0051's follow-up: rivers were cheapest routes, near-straight
  // channels): a slow sine of one to two and a half bends across the map plus 1D noise, kept within
  // its band, and a width that breathes along it — discs painted every quarter point
  const down = from === 'north' || from === 'south';
  const length = down ? g.gh : g.gw;
  const span = down ? g.gw : g.gh;
  const base = (down ? pu : pv) * (span - 1);
  const rng = g.rng.fork(`river-${feature}`);
  const wander = new Noise1D(rng.fork('wander'), 64);
  const breadth = new Noise1D(rng.fork('width'), 64);
  const waves = rng.range(1.2, 2.4) * (windingAsked(g.layout.understood) ? 1.4 : 1);
  const phase = rng.range(0, Math.PI * 2);
  const winds = windingAsked(g.layout.understood);
  const amp = span * rng.range(0.07, 0.11) * (winds ? 1.5 : 1);
  const lo = Math.max(1, base - span * 0.2);
  const hi = Math.min(span - 2, base + span * 0.2);
  const reversed = from === 'south' || from === 'east';
  const centre: Array<[number, number, number]> = [];
  for (let t = -2; t <= length + 1; t += 0.25) {
    const k = t / length;
    const off = Math.sin(k * waves * Math.PI * 2 + phase) * amp + (wander.fbm(k * 3, 3) - 0.5) * amp * 1.6;
    const across = Math.max(lo, Math.min(hi, base + off));
    const r = (1.35 + (breadth.fbm(k * 4 + 9, 2) - 0.5) * 1.0) * f.scale;
    const along = reversed ? length - 1 - t : t;
    centre.push(down ? [across, along, r] : [along, across, r]);
  }
  for (const [x, y, r] of centre) {
    disc(g.grid, x + 0.5, y + 0.5, Math.max(0.9, r), water);
    const cx = Math.round(x);
    const cy = Math.round(y);
    for (let dy = -3; dy <= 3; dy++)
      for (let dx = -3; dx <= 3; dx++) {
        const q = (cy + dy) * g.gw + cx + dx;
        if (
          cx + dx >= 0 &&
          cy + dy >= 0 &&
          cx + dx < g.gw &&
          cy + dy < g.gh &&
          g.grid.cells[q] === water &&
          g.owner[q] === -1
        )
          g.owner[q] = feature;
      }
  }
}

/** Whether the prompt asks for winding rivers and paths ("a winding river"). */
export function windingAsked(understood: readonly string[]): boolean {
  return understood.some((w) => [...WINDING_WORDS.en, ...WINDING_WORDS.zh].includes(w as never));
}

export { growGround, growShore, growWaterAndRock, sideDepth, TREE_OF };
