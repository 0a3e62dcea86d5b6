import type { Rgb } from '../palette.js';
import { Noise2D, type Rng } from '../pixel/random.js';
import type { TileRule } from '../tileset/rules.js';
import type { TerrainSpec } from '../tileset/terrains.js';
import type { RgbaImage } from '../types/index.js';
import { checker, type TerrainTexture } from './textures.js';

/**
 * Pixels next to a tile edge that depend on the edge alone. The shore is drawn from the terrain
 * mask of a 2-pixel neighbourhood, the mask is cleaned over 1 more: so 3 pixels on each side of
 * an edge must see the same mask from both tiles. Tiles under 16 px keep 2 (no cleaning), or their
 * inside would be too narrow for a shore to pass through.
 */
const EDGE_BAND = 3;
/** Pale grounds whose edges are a soft shade of their own, never their ramp's dark shadow step. */
const FROST: ReadonlySet<string> = new Set(['snow', 'ice']);
const bandFor = (n: number) => (n >= 16 ? EDGE_BAND : 2);
/**
 * The share of the shore's wander a tile of 32 px or more keeps (decision 0134): of the shoreline the
 * tiles share (it runs on across joints) and of each tile's own. Its ramp from one terrain to the
 * other is 13 px wide; the full wander (up to 1.3 of it) pushed the shore into the flat edge band,
 * where it stopped dead: vertical teeth and stray specks at every joint.
 */
const WIDE_CALM = { shared: 0.42, local: 0.25 };

export interface TerrainLayer {
  spec: TerrainSpec;
  texture: TerrainTexture;
  /**
   * Other drawings of the same loose ground (decision 0129: a snow set's transition tiles all drew
   * the one plain texture, so its hollows repeated every tile): tile by tile, the inside of the
   * terrain is taken from one of these as a full tile's variant takes it (`fullTileVariant`: the
   * plain tile's outer ring, a dither of both in the next, the other drawing inside), so every
   * joint stays the pixels it was.
   */
  alternates?: readonly TerrainTexture[];
}

export interface TerrainRenderJob {
  tiles: readonly TileRule[];
  size: number;
  /** terrain 0 and terrain 1 (only 0 for a seamless tile). */
  layers: readonly TerrainLayer[];
  rng: Rng;
  /** When given, each tile's terrain mask (n × n, 1 where terrain 1 lies) is pushed onto it, in order. */
  masks?: Uint8Array[];
  /**
   * When given, `count` further drawings of every tile are pushed onto `out` (one array per drawing,
   * in the tiles' order): the same shore along every joint, another wander of it inside the tile.
   */
  drawings?: { count: number; out: RgbaImage[][] };
}

/**
 * The lattice coordinate (0–2) of a pixel position `p` (may lie outside the tile) on an edge of
 * `n` pixels: flat over the EDGE_BAND pixels at each edge (and beyond), so the field there depends
 * only on the lattice values on that edge.
 */
function latticeCoord(p: number, n: number): number {
  const u = (p + 0.5) / n;
  const a = bandFor(n) / n;
  const span = 0.5 - a;
  if (u < 0.5) return Math.max(0, Math.min(1, (u - a) / span));
  return 1 + Math.max(0, Math.min(1, (u - 0.5) / span));
}

/** 0 in the edge bands, rising to 1 towards the middle: where a tile may differ from its neighbours. */
function interiorWeight(p: number, n: number): number {
  const s = latticeCoord(p, n);
  return Math.min(s, 2 - s);
}

function sampleLattice(lat: readonly number[], s: number, t: number): number {
  const cx = s < 1 ? 0 : 1;
  const cy = t < 1 ? 0 : 1;
  const fx = s - cx;
  const fy = t - cy;
  const v = (ix: number, iy: number) => lat[iy * 3 + ix]!;
  const a = v(cx, cy);
  const b = v(cx + 1, cy);
  const c = v(cx, cy + 1);
  const d = v(cx + 1, cy + 1);
  const top = a + (b - a) * fx;
  const bottom = c + (d - c) * fx;
  return top + (bottom - top) * fy;
}

/** A blob47 tile's lattice: all 0/1 with the centre set (a Wang tile has halves, a fill is all 0). */
const isBlob = (lat: readonly number[]) =>
  lat[4] === 1 && lat.some((v) => v === 0) && lat.every((v) => v === 0 || v === 1);

/**
 * Where a blob cell's shore lies, as a fraction of the way from the edge band to the middle: the
 * cell's terrain fills all but this much of the inside, so an isolated cell is a pond (or a patch)
 * and a one-cell channel a channel between banks, not a line of foam (issue #39, decision 0082).
 */
const BLOB_SHORE = 0.15;
/**
 * How far a blob cell's shore wanders, as a share of a Wang tile's (decision 0134: half of it pinched
 * a 16 px one-cell channel to 0–4 px in some rows, a river broken or a trickle).
 */
const BLOB_WANDER = 0.35;

/**
 * Whether pixel (x, y) (may lie in the band round the tile) is on a blob cell's spine: the two middle
 * columns or rows from the centre out to each side the cell joins, and the centre itself.
 */
function onSpine(lat: readonly number[], x: number, y: number, n: number): boolean {
  const c = (n - 1) / 2;
  const midX = Math.abs(x - c) <= 1;
  const midY = Math.abs(y - c) <= 1;
  if (midX && midY) return true;
  if (midX) return lat[y < c ? 1 : 7]! >= 1;
  if (midY) return lat[x < c ? 3 : 5]! >= 1;
  return false;
}

/**
 * The field of a blob tile at lattice coordinate (s, t): per quadrant, a rounded square round the
 * centre (no side set), a strip to the set side, a rounded inner corner (both sides, no corner) or
 * full. Bilinear interpolation gives an isolated cell `x·y` (its shore a hyperbola a few pixels
 * across, which the shore noise then wipes out); this one keeps the cell's inside. On every tile
 * edge it equals the bilinear field of that edge's lattice values, so joints stay what they were.
 */
function blobField(lat: readonly number[], s: number, t: number): number {
  const X = 1 - Math.abs(s - 1);
  const Y = 1 - Math.abs(t - 1);
  const tx = s < 1 ? 0 : 2;
  const ty = t < 1 ? 0 : 2;
  const vertical = lat[ty * 3 + 1]! >= 1;
  const horizontal = lat[3 + tx]! >= 1;
  const corner = lat[ty * 3 + tx]! >= 1;
  let f: number;
  if (vertical && horizontal) f = corner ? 1 : Math.min(1, Math.hypot(X, Y));
  else if (vertical) f = X;
  else if (horizontal) f = Y;
  else f = Math.max(0, 1 - Math.hypot(1 - X, 1 - Y));
  // the shore moves from the middle of the ramp to BLOB_SHORE of it (0 and 1 stay put)
  return f <= BLOB_SHORE ? (0.5 * f) / BLOB_SHORE : 0.5 + (0.5 * (f - BLOB_SHORE)) / (1 - BLOB_SHORE);
}

/**
 * Draws every tile of a set. The terrain is a field over the tile's lattice plus noise that wraps
 * with the tile (one shoreline continues from tile to tile); per-tile noise varies the inside of
 * each tile only. The shore is then drawn per pixel from the terrain mask: the higher terrain gets a
 * lit rim where it faces the light and a dark bank below, the lower one a cast shadow (or, for a
 * liquid, a foam or glow line) and a dithered band — all from a neighbourhood that the edge bands
 * keep identical on both sides of every joint the rules allow.
 */
export function renderTerrainTiles(job: TerrainRenderJob): RgbaImage[] {
  const n = job.size;
  const layers = job.layers;
  const noiseCells = n >= 16 ? 4 : 2;
  const shore = new Noise2D(job.rng.fork('shore'), noiseCells);
  // the shore wanders less on small tiles: a few pixels of wobble is all an 8 px tile can hold
  const amp = 2.0 * Math.min(1, n / 16);
  const octaves = n >= 16 ? 2 : 1;
  const calm = n >= 32 ? WIDE_CALM : { shared: 1, local: 1 };
  const upper =
    layers.length > 1 && layers[1]!.spec.height > layers[0]!.spec.height ? 1 : layers.length > 1 ? 0 : 0;
  const lower = 1 - upper;
  const band = bandFor(n);
  const clean = band === EDGE_BAND;
  const span = n + 2 * band;
  /** A saddle's bridge of the lower terrain: its core is half this wide along a row, its pull 3 × (decision 0134). */
  const bridge = Math.max(2, Math.round(n / 8));
  const draw = (tile: TileRule, own: Noise2D, masks: Uint8Array[] | undefined): RgbaImage => {
    const blob = isBlob(tile.lattice);
    // a Wang saddle: 0 when the lower terrain holds the NW and SE corners, 1 for NE and SW, else -1
    const l = tile.lattice;
    const saddle =
      layers.length > 1 && !blob && l[0] === l[8] && l[2] === l[6] && l[0] !== l[2]
        ? l[0] === lower
          ? 0
          : 1
        : -1;
    // raw mask over the tile and a band around it
    const raw = new Uint8Array(span * span);
    for (let y = -band; y < n + band; y++) {
      const t = latticeCoord(y, n);
      for (let x = -band; x < n + band; x++) {
        const s = latticeCoord(x, n);
        const f = blob ? blobField(tile.lattice, s, t) : sampleLattice(tile.lattice, s, t);
        let value = f;
        if (f > 0 && f < 1) {
          const g = shore.fbm((x / n) * noiseCells, (y / n) * noiseCells, octaves, 0.35) - 0.5;
          const w = Math.min(interiorWeight(x, n), interiorWeight(y, n));
          const local = w > 0 ? (own.at((x / n) * 3, (y / n) * 3) - 0.5) * w : 0;
          // the shared shoreline runs calmer where it crosses a joint (the damping is the same on
          // both sides of every edge), and wanders freely inside the tile
          // (a blob cell's shore wanders half as far: a pond or a channel keeps its inside)
          // (decision 0134: from 32 px the wander is held to under half the ramp — past it the
          // shore met the flat edge band and was cut off there, a comb of square teeth along every
          // path and rock edge; a few pixels of smooth curve instead)
          value =
            f +
            (blob ? BLOB_WANDER : 1) * (calm.shared * amp * (0.45 + 0.55 * w) * g + calm.local * 1.2 * local);
        }
        // a blob cell's spine (the middle two pixels from its centre to each side it joins) is
        // always its terrain: the wander never pinches a one-cell channel shut (decision 0134)
        if (blob && f > 0 && onSpine(tile.lattice, x, y, n)) value = 1;
        // a saddle (two opposite corners of each terrain): the lower terrain — a path, a river —
        // runs on through the middle along its diagonal, so a path that steps stays one shape and
        // never two pieces touching at a corner (decision 0134); inside the edge bands only
        if (saddle >= 0 && x >= band && y >= band && x < n - band && y < n - band) {
          const d = saddle === 0 ? Math.abs(x - y) : Math.abs(x + y - (n - 1));
          const pull = Math.max(0, 1 - d / (3 * bridge));
          value += (lower === 1 ? 1 : -1) * pull;
          if (d <= bridge / 2) value = lower;
        }
        raw[(y + band) * span + x + band] = value > 0.5 ? 1 : 0;
      }
    }
    // cleaned mask: no single-pixel spurs or pits (a pixel with 3+ of 4 neighbours of the other
    // terrain flips); tiles under 16 px keep the raw mask (their edge band is 2 px)
    const rawAt = (x: number, y: number) => raw[(y + band) * span + x + band]!;
    let mask = raw;
    if (clean) {
      mask = new Uint8Array(span * span);
      const inner = band - 1;
      for (let y = -inner; y < n + inner; y++) {
        for (let x = -inner; x < n + inner; x++) {
          const v = rawAt(x, y);
          const other =
            (rawAt(x - 1, y) !== v ? 1 : 0) +
            (rawAt(x + 1, y) !== v ? 1 : 0) +
            (rawAt(x, y - 1) !== v ? 1 : 0) +
            (rawAt(x, y + 1) !== v ? 1 : 0);
          mask[(y + band) * span + x + band] = other >= 3 ? 1 - v : v;
        }
      }
    }
    // (twice: an island of mud inside an island of grass joins the mud once the grass is gone)
    let passes = 0;
    while (passes++ < 3 && dropIslands(mask, n, band, span, blob ? tile.lattice[4]! : -1)) {}
    const at = (x: number, y: number) => mask[(y + band) * span + x + band]!;
    masks?.push(Uint8Array.from({ length: n * n }, (_, i) => at(i % n, Math.floor(i / n))));
    const data = new Uint8Array(n * n * 4);
    // which drawing of each layer this tile takes its inside from (decision 0129)
    const drawing = layers.map((layer) => {
      const alts = layer.alternates ?? [];
      const k = (tile.index * 7 + 3) % (alts.length + 1);
      return k === 0 || n < 16 ? null : alts[k - 1]!;
    });
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const t = at(x, y);
        const layer = layers[t] ?? layers[0]!;
        const ramp = layer.texture.ramp;
        const alt = drawing[t] ?? null;
        let c: Rgb = alt ? blendedAt(layer.texture, alt, x, y, n) : layer.texture.at(x, y);
        if (layers.length > 1) {
          const other = 1 - t;
          const up = at(x, y - 1) === other;
          const down = at(x, y + 1) === other;
          const side = at(x - 1, y) === other || at(x + 1, y) === other;
          const near4 = up || down || side;
          let near2 = false;
          if (!near4) {
            for (let dy = -2; dy <= 2 && !near2; dy++)
              for (let dx = -2; dx <= 2; dx++)
                if (Math.abs(dx) + Math.abs(dy) <= 2 && at(x + dx, y + dy) === other) {
                  near2 = true;
                  break;
                }
          }
          if (t === upper) {
            // the higher ground: a dark bank where it drops to the lower terrain below, a lit rim
            // where the lower terrain is above it (light from the top), a darker edge at the sides
            // (snow and ice: a soft shade of their own, not a dark band, decision 0104)
            if (down) c = FROST.has(layer.spec.name) ? ramp.dark : ramp.shadow;
            else if (up) c = ramp.light;
            else if (side) c = ramp.dark;
          } else if (t === lower) {
            if (layer.spec.liquid) {
              // water: the bank's shadow right under the higher ground, foam along the rest of the
              // shore, then a dithered shallow band
              if (up) c = ramp.dark;
              else if (near4) c = layer.texture.foam;
              else if (near2 && checker(x, y)) c = ramp.light;
            } else {
              // dry lower ground: a darker rim of its own ramp along the higher ground, the same on
              // every side (no checkered second row: it read as dark notches along the bank, decision
              // 0082; no cast shadow under it: a row of dark pits along every north shore, 0104)
              // (snow: the bank's own rim is the edge, none of its own; ice: a frozen lake's shore,
              // decision 0117 — its edge a line of its deep blue along the bank, so the sheet reads
              // as ice set in its shore and not as open water)
              if (layer.spec.name === 'ice') {
                if (near4) c = layer.texture.foam;
                // (decision 0129) no patch of the deep blue within 3 px of the shore: one that
                // touched the rim read as a square hole punched through the ice's edge
                else if (sameRgb(c, layer.texture.foam) && within(at, x, y, other, Math.min(3, band)))
                  c = layer.texture.ramp.base;
              } else if (near4 && !FROST.has(layer.spec.name)) c = ramp.dark;
            }
          }
        }
        const i = (y * n + x) * 4;
        data[i] = c[0];
        data[i + 1] = c[1];
        data[i + 2] = c[2];
        data[i + 3] = 255;
      }
    }
    return { width: n, height: n, data };
  };
  const shapes: Uint8Array[] = [];
  const tiles = job.tiles.map((tile) => {
    const image = draw(tile, new Noise2D(job.rng.fork(`tile-${tile.index}`), 3), shapes);
    job.masks?.push(shapes[shapes.length - 1]!);
    return image;
  });
  // the further drawings (decision 0149): each tile's own wander drawn again, the shared shore and the
  // edge bands the same — forked after the first drawing's, so it stays what it was; a wander that
  // leaves more pieces of terrain than the first (a speck of sand off a coast) is drawn again, up to
  // 4 times, and else the tile keeps its first drawing
  for (let d = 1; d <= (job.drawings?.count ?? 0); d++)
    job.drawings!.out.push(
      job.tiles.map((tile, k) => {
        for (let attempt = 0; attempt < 4; attempt++) {
          const mask: Uint8Array[] = [];
          const image = draw(tile, new Noise2D(job.rng.fork(`tile-${tile.index}-${d}-${attempt}`), 3), mask);
          if (pieces(mask[0]!, n) <= pieces(shapes[k]!, n)) return image;
        }
        return tiles[k]!;
      }),
    );
  return tiles;
}

/** How many 4-connected pieces of either terrain an n × n mask holds. */
function pieces(mask: Uint8Array, n: number): number {
  const seen = new Uint8Array(n * n);
  let count = 0;
  for (let start = 0; start < n * n; start++) {
    if (seen[start]) continue;
    count++;
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % n;
      for (const j of [i - n, i + n, x > 0 ? i - 1 : -1, x < n - 1 ? i + 1 : -1])
        if (j >= 0 && j < n * n && !seen[j] && mask[j] === mask[i]) {
          seen[j] = 1;
          stack.push(j);
        }
    }
  }
  return count;
}

const sameRgb = (a: Rgb, b: Rgb) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

/** Whether a pixel of terrain `other` lies within `r` (Manhattan) of (x, y). */
function within(
  at: (x: number, y: number) => number,
  x: number,
  y: number,
  other: number,
  r: number,
): boolean {
  for (let dy = -r; dy <= r; dy++)
    for (let dx = -r + Math.abs(dy); dx <= r - Math.abs(dy); dx++)
      if (at(x + dx, y + dy) === other) return true;
  return false;
}

/** A loose ground's pixel from another drawing inside, the plain one at the joint (`fullTileVariant`). */
function blendedAt(base: TerrainTexture, inner: TerrainTexture, x: number, y: number, n: number): Rgb {
  const d = Math.min(x, y, n - 1 - x, n - 1 - y);
  const w = d === 0 ? 0 : d === 1 ? 0.5 : 1;
  return w > BAYER4[(y & 3) * 4 + (x & 3)]! ? inner.at(x, y) : base.at(x, y);
}

/**
 * Flips every region of one terrain that lies wholly inside the tile, clear of its edge band (issue
 * #39, decision 0123: the shore's noise cut a chip of grass off inside a swamp corner tile's mud, a
 * wedge that floated off every island's corner in a map): a terrain reaches the tile from its edges,
 * so a region that touches none of them is an island of it in the other's ground. A blob tile's
 * own centre terrain (`centre`, an isolated cell's pond) is the one region kept. The edge band is
 * never changed, so every joint stays what its neighbours see.
 */
function dropIslands(mask: Uint8Array, n: number, band: number, span: number, centre: number): boolean {
  const idx = (x: number, y: number) => (y + band) * span + x + band;
  const seen = new Uint8Array(n * n);
  const middle = (n >> 1) * n + (n >> 1);
  let flipped = false;
  for (let start = 0; start < n * n; start++) {
    if (seen[start]) continue;
    const v = mask[idx(start % n, Math.floor(start / n))]!;
    const region: number[] = [];
    const stack = [start];
    seen[start] = 1;
    let open = false;
    let inside = true;
    while (stack.length) {
      const k = stack.pop()!;
      const x = k % n;
      const y = (k - x) / n;
      region.push(k);
      if (x === 0 || y === 0 || x === n - 1 || y === n - 1) open = true;
      if (x < band || y < band || x >= n - band || y >= n - band) inside = false;
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= n || yy >= n) continue;
        const kk = yy * n + xx;
        if (!seen[kk] && mask[idx(xx, yy)] === v) {
          seen[kk] = 1;
          stack.push(kk);
        }
      }
    }
    if (open || !inside || (v === centre && region.includes(middle))) continue;
    for (const k of region) mask[idx(k % n, Math.floor(k / n))] = 1 - v;
    flipped = true;
  }
  return flipped;
}

/** 4 × 4 ordered-dither thresholds (0…1): the steps of a pixel artist's hand-placed dither. */
const BAYER4 = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map((v) => (v + 0.5) / 16);

/**
 * A variant of a terrain's full tile (issue #42: full tiles break up the grid): the base texture in
 * the edge bands — so every joint with a neighbour is the pixels it was and the seam checks see the
 * same edges — and `inner`, another drawing of the same terrain (its own patches and marks), inside,
 * the two met by an ordered dither over the band's inner rim rather than a straight cut.
 */
export function fullTileVariant(base: TerrainTexture, inner: TerrainTexture, size: number): RgbaImage {
  const n = size;
  const data = new Uint8Array(n * n * 4);
  if (base.surface && inner.surface && n >= 8) {
    // a material drawn from a field (lava, decision 0112): the two fields blend, not their pixels —
    // the plain tile's outer ring exactly, then over a few pixels the other drawing's field, so a
    // plate cut by the edge runs on into the new plates (a 3 px band of the plain tile in every
    // drawing kept the fill's 16 px period: a blob pattern)
    const from = base.surface;
    const to = inner.surface;
    const ramp = Math.max(1.5, n / 8);
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++) {
        const i = y * n + x;
        const d = Math.min(x, y, n - 1 - x, n - 1 - y);
        const w = Math.min(1, Math.max(0, (d - 0.5) / ramp));
        const c =
          w === 0
            ? base.at(x, y)
            : from.paint(
                from.field[i]! + w * (to.field[i]! - from.field[i]!),
                from.noise[i]! + w * (to.noise[i]! - from.noise[i]!),
                x,
                y,
              );
        data.set([c[0], c[1], c[2], 255], i * 4);
      }
    return { width: n, height: n, data };
  }
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      // a loose ground's: the outermost pixel ring is the plain tile's (every joint stays the pixels
      // it was), the next two blend into the other drawing (decision 0104: a 3 px shared band was
      // 61 % of a 16 px tile, the same in every drawing, and a fill repeated on the tile's period).
      // A material of strong pieces or contrast (lava's plates, rock's facets, laid stone) keeps
      // the band: its one shared ring would run through the other drawing as a straight line
      const d = Math.min(x, y, n - 1 - x, n - 1 - y);
      // (decision 0123: the next two rings half the plain tile's calm band — marks kept out of it —
      // were a clean cross on the tile's period; the other drawing's marks come to the outer ring)
      const w =
        n < 8 || !base.loose
          ? Math.min(1, 4 * Math.min(interiorWeight(x, n), interiorWeight(y, n)))
          : d === 0
            ? 0
            : d === 1
              ? 0.5
              : 1;
      const c = w > BAYER4[(y & 3) * 4 + (x & 3)]! ? inner.at(x, y) : base.at(x, y);
      data.set([c[0], c[1], c[2], 255], (y * n + x) * 4);
    }
  return { width: n, height: n, data };
}
