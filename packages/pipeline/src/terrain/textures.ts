import { oklab } from '../colour.js';
import { mix, type Rgb } from '../palette.js';
import type { Painter, Ramp } from '../pixel/canvas.js';
import { hash53, Noise2D, Rng } from '../pixel/random.js';
import type { TerrainSpec } from '../tileset/terrains.js';

/**
 * A terrain's surface: `size × size` palette colours that wrap on both axes (every feature is placed
 * modulo the tile), so the same terrain continues across any tile edge without a seam.
 */
export interface TerrainTexture {
  size: number;
  pixels: Rgb[];
  ramp: Ramp;
  /**
   * Colour of the liquid's shore line (foam on water, glow on lava); ice's rim where it meets a
   * higher bank (decision 0117).
   */
  foam: Rgb;
  at(x: number, y: number): Rgb;
  /** The seed its pieces were laid from, and where its joint was put: another drawing keeps them. */
  layoutSeed?: number;
  shift?: readonly [number, number];
  /**
   * A loose ground (dirt, mud, sand, grass, snow): soft, low-contrast marks, so another drawing of
   * it may take all but the outer pixel ring of a full tile (decision 0104, `fullTileVariant`).
   */
  loose?: boolean;
  /**
   * A material drawn from a field (lava's plates, decision 0112): the field and the soft noise per
   * pixel (in tile coordinates) and how a pixel is painted from them. Another drawing of it blends
   * its field into this one's towards the tile's edge, so its plates run on across the edge band
   * into the new ones instead of being cut there (`fullTileVariant`).
   *
   * @internal
   */
  surface?: Surface;
}

/** A texture's field, its soft noise, and the paint that turns a value of each into a colour. */
interface Surface {
  field: Float64Array;
  noise: Float64Array;
  paint(field: number, noise: number, x: number, y: number): Rgb;
}

const wrap = (v: number, n: number) => ((v % n) + n) % n;
/** Checkerboard that keeps its phase across tiles of even size. */
export const checker = (x: number, y: number) => ((x + y) & 1) === 0;

/** Stone that is grey unless the words say otherwise: its ramp from the palette's greys, not a hue-shifted one. */
const GREY: ReadonlySet<string> = new Set(['stone', 'cobble', 'wall', 'rock']);

function terrainRamp(painter: Painter, spec: TerrainSpec, avoid: readonly Rgb[] = []): Ramp {
  return GREY.has(spec.name) ? greyRamp(painter, spec.color, avoid) : painter.spriteRamp(spec.color, avoid);
}

/**
 * A ramp of the palette's most neutral colours round `target`'s lightness (issue #39, decision 0087:
 * a hue-shifted ramp lit cobbles pink and walls terracotta): each step the palette colour nearest a
 * cool grey of its lightness, a colour's chroma counted twice, each step distinct from the one above
 * where the palette allows.
 */
function greyRamp(painter: Painter, target: Rgb, avoid: readonly Rgb[] = []): Ramp {
  const [L] = oklab(target);
  const pick = (l: number, not: readonly Rgb[]) => {
    let best: Rgb = painter.palette[0]!;
    let bestD = Number.POSITIVE_INFINITY;
    for (const c of painter.palette) {
      const [l2, a2, b2] = oklab(c);
      // a touch cool: blue-greys are stone, olive-greys are not
      const chroma = Math.hypot(a2 + 0.004, b2 + 0.018);
      const taken = not.some((x) => same(x, c)) ? 0.02 : 0;
      const d = (l2 - l) ** 2 + 12 * chroma ** 2 + taken;
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best;
  };
  const base = pick(L, avoid);
  const light = pick(Math.min(0.95, L + 0.13), [base]);
  const dark = pick(L - 0.11, [base]);
  const shadow = pick(L - 0.21, [base, dark]);
  const outline = pick(Math.max(0.12, L - 0.34), [shadow, dark]);
  return { outline, shadow, dark, base, light };
}

/** What a terrain's drawing works on: the wrapping pixels, the tones, and the two ways it marks them. */
interface TextureCanvas {
  n: number;
  area: number;
  ramp: Ramp;
  foam: Rgb;
  rng: Rng;
  set(x: number, y: number, c: Rgb): void;
  get(x: number, y: number): Rgb;
  /** The soft noise the patches follow, in 0…1, wrapping with the tile. */
  patch(x: number, y: number): number;
  /**
   * Large soft patches of `tone`, their edges dithered the way a pixel artist would; `soft` patches
   * are a checker inside and one pixel in four at their edge, so they shade the ground without blots.
   */
  patches(lo: number, band: number, tone: Rgb, above?: boolean, soft?: boolean): void;
  /** `count` marks at random places. */
  scatter(count: number, draw: (x: number, y: number) => void): void;
  /**
   * A value in 0…1 for a pixel of this drawing (wrapping with the tile), from a hash of its place and
   * the drawing's seed (decision 0123): grains and specks placed by it fall on no sub-grid, and each
   * drawing of a full tile has its own.
   */
  hash(x: number, y: number): number;
  /** Chooses the palette colours a drawing needs beyond the ramp (lava's glow). */
  painter: Painter;
  /**
   * Where the pieces go (bricks, planks, stones, cracks): drawn from the layout seed, so the other
   * drawings of the same terrain in a level keep them and differ only in shades and marks.
   */
  layout: Rng;
  /**
   * Fixes where the tile's joint falls (the calmest column and row pair, see {@link calmestShift}) from
   * the pixels drawn so far: the marks drawn after it do not move the pieces.
   */
  settle(): void;
  /** A random place at least `margin` px inside the settled tile's edge band (after `settle`). */
  inside(margin: number): readonly [number, number];
  /** Records the field the pixels were painted from (untranslated coordinates), see {@link Surface}. */
  surface?: Surface;
}

/** The divisor of `n` nearest `target` (at least 2): a course or plank height that repeats with the tile. */
function divisorNear(n: number, target: number): number {
  let best = n;
  for (let d = 2; d <= n; d++) if (n % d === 0 && Math.abs(d - target) < Math.abs(best - target)) best = d;
  return best;
}

/** A wrapped Voronoi of `k × k` jittered sites: each pixel's cell, and how far it is from the next cell. */
function cells(
  t: TextureCanvas,
  k: number,
  jitter: number,
  stagger: boolean,
  square = false,
  layout: Rng = t.layout,
  given?: ReadonlyArray<readonly [number, number]>,
) {
  const { n } = t;
  const sites: Array<readonly [number, number]> = given ? [...given] : [];
  if (!given)
    for (let j = 0; j < k; j++)
      for (let i = 0; i < k; i++)
        sites.push([
          ((i + 0.5 + layout.range(-jitter, jitter) + (stagger ? (j % 2) * 0.5 : 0)) * n) / k,
          ((j + 0.5 + layout.range(-jitter, jitter)) * n) / k,
        ]);
  const id = new Int32Array(t.area);
  const gap = new Float64Array(t.area);
  const reach = new Float64Array(t.area);
  const next = new Int32Array(t.area);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      let d1 = Number.POSITIVE_INFINITY;
      let d2 = Number.POSITIVE_INFINITY;
      let best = 0;
      let second = 0;
      for (let s = 0; s < sites.length; s++) {
        const [sx, sy] = sites[s]!;
        let dx = Math.abs(x + 0.5 - sx);
        let dy = Math.abs(y + 0.5 - sy);
        dx = Math.min(dx, n - dx);
        dy = Math.min(dy, n - dy);
        // the square metric cuts slabs with straight sides (flagstones), the round one stones
        const d = square ? Math.max(dx, dy) ** 2 + 0.15 * (dx * dx + dy * dy) : dx * dx + dy * dy;
        if (d < d1) {
          d2 = d1;
          second = best;
          d1 = d;
          best = s;
        } else if (d < d2) {
          d2 = d;
          second = s;
        }
      }
      id[y * n + x] = best;
      next[y * n + x] = second;
      gap[y * n + x] = Math.sqrt(d2) - Math.sqrt(d1);
      reach[y * n + x] = Math.sqrt(d1) / (k > 0 ? n / k : n);
    }
  return {
    count: sites.length,
    id,
    next,
    gap,
    reach,
    at: (x: number, y: number) => id[wrap(y, n) * n + wrap(x, n)]!,
  };
}

/**
 * Bevelled pieces over a map of piece ids (-1 a joint): each piece's face in its own tone, lit along
 * its top and left edges, shaded along its bottom and right (one light from the top-left), the joints
 * `joint`. `tone(piece)` is the piece's face.
 */
function bevel(
  t: TextureCanvas,
  ids: Int32Array,
  joint: Rgb,
  tone: (piece: number) => Ramp | Rgb,
  rim = true,
  far = true,
): void {
  const { n, set } = t;
  const at = (x: number, y: number) => ids[wrap(y, n) * n + wrap(x, n)]!;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const id = at(x, y);
      if (id < 0) {
        set(x, y, joint);
        continue;
      }
      const face = tone(id);
      const r: Ramp = Array.isArray(face) ? { ...t.ramp, base: face as Rgb } : (face as Ramp);
      if (at(x, y - 1) !== id || (rim && at(x - 1, y) !== id)) set(x, y, r.light);
      else if (far && (at(x, y + 1) !== id || (rim && at(x + 1, y) !== id))) set(x, y, r.dark);
      else set(x, y, r.base);
    }
}

/** The ramp one step darker or lighter than the terrain's (a piece's own shade). */
function shadeStep(t: TextureCanvas, dir: -1 | 0 | 1): Ramp {
  const { ramp } = t;
  if (dir === 0) return ramp;
  if (dir < 0) return { ...ramp, light: ramp.base, base: ramp.dark, dark: ramp.shadow };
  return {
    ...ramp,
    dark: ramp.base,
    base: t.painter.choose(mix(ramp.base, ramp.light, 0.5)),
    light: ramp.light,
  };
}

/** A piece's shade: mostly the terrain's own, some a step darker, a few a step lighter. */
function pieceShade(t: TextureCanvas, darker = 0.25, lighter = 0.15): Ramp {
  const r = t.layout.next();
  return shadeStep(t, r < darker ? -1 : r < darker + lighter ? 1 : 0);
}

/**
 * Courses of blocks laid in stretcher bond: `course` pixels high (the last row the joint), `block`
 * long (the last column the joint), every other course offset by half a block; each block its own
 * shade.
 */
function courses(
  t: TextureCanvas,
  course: number,
  block: number,
  joint: Rgb,
  rim: boolean,
  lighter = 0.15,
  darker = 0.25,
): Int32Array {
  const { n } = t;
  const ids = new Int32Array(t.area);
  const perRow = Math.max(1, Math.round(n / block));
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const row = Math.floor(y / course);
      const xs = x + (row % 2) * Math.floor(block / 2);
      const u = xs % block;
      const v = y % course;
      ids[y * n + x] =
        v === course - 1 || u === block - 1 ? -1 : row * perRow + (Math.floor(xs / block) % perRow);
    }
  // (decision 0142) a piece's shade is scattered, never a whole course of one: a course of one
  // block (a 16 px tile's dungeon wall) or of darker blocks side by side made a band every tile
  const rows = n / course;
  const shades = Array.from({ length: rows * perRow }, () => pieceShade(t, darker, lighter));
  for (let r = 0; r < rows; r++)
    for (let i = 0; i < perRow; i++) {
      const p = r * perRow + i;
      const left = r * perRow + ((i + perRow - 1) % perRow);
      const above = ((r + rows - 1) % rows) * perRow + i;
      // a shaded piece beside or above another shaded one takes the plain face
      if (
        shades[p] !== t.ramp &&
        ((perRow > 1 && left < p && shades[left] !== t.ramp) || (above < p && shades[above] !== t.ramp))
      )
        shades[p] = t.ramp;
    }
  if (perRow > 1)
    for (let r = 0; r < rows; r++)
      if (Array.from({ length: perRow }, (_, i) => shades[r * perRow + i]).every((x) => x !== t.ramp))
        shades[r * perRow] = t.ramp;
  bevel(t, ids, joint, (p) => shades[p]!, rim);
  return ids;
}

function brick(t: TextureCanvas): void {
  // bricks twice as long as high (4 × 8 at 16 and 32 px, 8 × 16 at 64), dark mortar, each brick its
  // own shade, its top row lit
  const course = divisorNear(t.n, Math.max(4, t.n / 7));
  courses(t, course, Math.min(t.n, 2 * course), t.ramp.shadow, false);
  t.settle();
  // a few chipped corners and specks on the faces
  t.scatter(Math.max(1, Math.round(t.area / 48)), (x, y) => {
    if (t.get(x, y) === t.ramp.base) t.set(x, y, t.ramp.dark);
  });
}

function wall(t: TextureCanvas): void {
  // a dungeon's laid stone (issue #39, decision 0087: 4-px terracotta courses read as warm brick):
  // large dark-grey blocks in courses about 8 px high, each bevelled (lit top and left, shaded bottom
  // and right) and its own shade, joined by near-black mortar; a crack in some blocks, moss in a
  // mortar line or two
  const { n, ramp, set, rng, painter } = t;
  const course = divisorNear(n, Math.max(6, 8));
  // (decision 0142) a 16 px tile's course was one block the tile long: a darker block was a band
  // across every tile; blocks are half the tile there. A palette's darker grey is often a teal (the
  // default's): a block is darkened by a sparse grain of it, never a face of it
  const neutral = Math.hypot(oklab(ramp.dark)[1], oklab(ramp.dark)[2]) < 0.025;
  const ids = courses(
    t,
    course,
    2 * course < n ? 2 * course : Math.max(course, n / 2),
    ramp.outline,
    true,
    0,
    neutral ? 0.25 : 0,
  );
  const block = (x: number, y: number) => ids[wrap(y, n) * n + wrap(x, n)]!;
  if (!neutral) {
    const pieces = Math.max(...ids) + 1;
    const grained = new Set<number>();
    for (let p = 0; p < pieces; p++) if (t.layout.chance(0.3)) grained.add(p);
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++)
        if (grained.has(block(x, y)) && same(t.get(x, y), ramp.base) && t.hash(x, y) < 0.3)
          set(x, y, ramp.dark);
  }
  t.settle();
  // cracks: a short dark zigzag down a block's face, lit on its right
  for (let c = 0; c < Math.max(1, Math.round(n / 12)); c++) {
    let x = rng.int(0, n - 1);
    let y = rng.int(0, n - 1);
    const id = block(x, y);
    if (id < 0) continue;
    for (let i = 0; i < Math.round(course * 0.7); i++) {
      if (block(x, y) !== id) break;
      set(x, y, ramp.shadow);
      if (block(x + 1, y) === id) set(x + 1, y, ramp.base);
      y++;
      if (rng.chance(0.5)) x += rng.chance(0.5) ? 1 : -1;
    }
  }
  // moss: a few green pixels spilling from a mortar line over the block below it
  const moss = painter.choose([70, 104, 56]);
  const mossDark = painter.choose([44, 70, 48], [moss]);
  for (let m = 0; m < Math.max(1, Math.round(n / 16)); m++) {
    const x0 = rng.int(0, n - 1);
    const y0 = (rng.int(0, Math.max(0, n / course - 1)) + 1) * course - 1;
    const len = rng.int(2, Math.max(3, Math.round(course * 0.6)));
    for (let i = 0; i < len; i++) {
      set(x0 + i, y0, mossDark);
      if (i > 0 && i < len - 1) set(x0 + i, y0 + 1, moss);
      if (i === 1 && len > 3) set(x0 + i, y0 + 2, mossDark);
    }
  }
}

function flagstone(t: TextureCanvas): void {
  // large irregular slabs (issue #39, decision 0087: two courses of slabs and one crack repeated on
  // every tile as a visible grid): a jittered square-metric Voronoi of 4 slabs a 16 px tile (9 from
  // 32), straight-sided and of unequal size, bevelled, dark-jointed, each its own grey, a crack
  // across one and a few worn specks
  // (decision 0112: the worn dither, the specks and the crack drawn over every plain tile read as
  // "floating dash marks and speckle patches" in a fill: the plain slabs are clean; a variant's
  // crack starts at a joint, `withCrack`)
  const { n, ramp } = t;
  const k = n >= 48 ? 4 : n >= 32 ? 3 : 2;
  const v = cells(t, k, 0.3, true, true);
  // (decision 0104: k × k slabs of one size read as a small grid) from 32 px some slabs are two
  // cells joined along a row: long slabs beside square ones, the joints offset from course to course
  // (a row of 2 cells wraps onto itself: joined, it would be one band)
  const group = Array.from({ length: v.count }, (_, i) => i);
  for (let j = 0; j < k; j++)
    for (let i = 0; i < k; i += 2) {
      const a = j * k + ((i + (j % 2)) % k);
      const b = j * k + ((i + 1 + (j % 2)) % k);
      if (k >= 3 && t.layout.chance(0.6) && group[a] === a && group[b] === b) group[b] = a;
    }
  const ids = new Int32Array(t.area);
  for (let i = 0; i < t.area; i++)
    ids[i] = v.gap[i]! < 0.9 && group[v.id[i]!] !== group[v.next[i]!] ? -1 : group[v.id[i]!]!;
  // (decision 0112) each slab's top and left edges lit: a palette's grey ramp often has no lighter
  // step than the face (the default's), so the lit edge is its palest cool grey, or white
  const lit = same(ramp.light, ramp.base) ? coolest(t, [196, 204, 212], ramp.light, 0.045) : ramp.light;
  const shades = Array.from({ length: v.count }, () => ({ ...ramp, light: lit }));
  // (decision 0142: a dark line under and right of every slab beside the lit one on the next made
  // each joint a double light/dark line, noisy in a fill) one mortar line, the bevel's light on the
  // slab's top and left only
  bevel(t, ids, ramp.shadow, (p) => shades[p]!, true, false);
  t.settle();
}

function cobble(t: TextureCanvas): void {
  // rounded stones of irregular size (issue #39, decision 0087: an L of pink light on every stone
  // read as noise): a jittered Voronoi, each stone its cell cut by a disc so its corners round off
  // into the dark gaps, in greys: lit along its upper left curve, shaded along its lower right,
  // the face its own shade
  // (decision 0112: "gravel noise" — the palette's grey ramp often has no lighter step than the
  // face, so no stone caught the light) each stone a highlight of its own: a near-white fleck at its
  // upper left (two pixels from 32 px), its lower right rim in shade, stones larger from 32 px
  // (decision 0142: stones 3–5 px across, 5 × 5 to a 32 px tile, read as gravel or studded metal
  // once tiled) cobbles about 8 px across — 2 or 3 to a row of a 16 px tile, 3 to 5 of a 32 px one
  // — laid in loose rows: rows about 8 px high, each row its own count of stones and its own offset,
  // each stone jittered along it, so no column of joints runs down the tile
  const { n, set } = t;
  const rows = Math.max(2, Math.round(n / 8));
  const rowH = n / rows;
  const sites: Array<readonly [number, number]> = [];
  const radius: number[] = [];
  let last = 0;
  for (let j = 0; j < rows; j++) {
    // (three to a 16 px row were tall narrow pills, its rim and gap most of a 5 px stone: two, each
    // row at its own offset)
    const options = n >= 32 ? [3, 3, 4] : [2];
    let count = t.layout.pick(options);
    // two rows of one count side by side line their joints up: the next takes another
    const other = options.filter((c) => c !== last);
    if (count === last && other.length) count = t.layout.pick(other);
    last = count;
    const w = n / count;
    const offset = t.layout.range(0, 1);
    const y = (j + 0.5 + t.layout.range(-0.12, 0.12)) * rowH;
    for (let i = 0; i < count; i++) {
      sites.push([wrap((i + offset + t.layout.range(-0.15, 0.15)) * w, n), y]);
      radius.push(0.47 * Math.hypot(w, rowH));
    }
  }
  const v = cells(t, 0, 0, false, false, t.layout, sites);
  const ids = new Int32Array(t.area);
  for (let i = 0; i < t.area; i++) {
    const id = v.id[i]!;
    // the reach in px from the stone's site: a stone's corners round off into the gaps
    const d = v.reach[i]! * n;
    ids[i] = v.gap[i]! < 1 || d > radius[id]! ? -1 : id;
  }
  // round the corners: a face pixel with the gap above (below) and to its left (right), the face
  // going on two pixels the other ways, is gap (a corner of a square stone, not a diagonal's step)
  {
    const was = ids.slice();
    const g = (x: number, y: number) => was[wrap(y, n) * n + wrap(x, n)]! < 0;
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++)
        for (const [dx, dy] of [
          [-1, -1],
          [1, -1],
          [-1, 1],
          [1, 1],
        ] as const)
          if (
            !g(x, y) &&
            g(x, y + dy) &&
            g(x + dx, y) &&
            !g(x - dx, y) &&
            !g(x - 2 * dx, y) &&
            !g(x, y - dy) &&
            !g(x, y - 2 * dy)
          )
            ids[y * n + x] = -1;
  }
  const shades = Array.from({ length: v.count }, () => pieceShade(t, 0.12, 0.2));
  const lit = same(t.ramp.light, t.ramp.base)
    ? coolest(t, [214, 222, 226], t.ramp.light, 0.045)
    : t.ramp.light;
  const at = (x: number, y: number) => ids[wrap(y, n) * n + wrap(x, n)]!;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const id = at(x, y);
      if (id < 0) {
        set(x, y, t.ramp.outline);
        continue;
      }
      const r = shades[id]!;
      const out = (dx: number, dy: number) => at(x + dx, y + dy) !== id;
      // (decision 0104: two rows of shade under a 4–5 px stone left it dark gravel noise at 1×)
      // the lower rim falls away from the light, one pixel of shade; the top edge catches it
      if (out(0, 1) || out(1, 0)) set(x, y, r.dark);
      else if (out(0, -1) || out(-1, 0)) set(x, y, r.light);
      else set(x, y, r.base);
    }
  // the highlight: the stone's first face pixel whose upper and left neighbours are its rim
  const done = new Set<number>();
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const id = at(x, y);
      if (id < 0 || done.has(id)) continue;
      if (at(x, y - 1) === id) continue;
      if (at(x, y + 1) !== id || at(x + 1, y) !== id || at(x + 1, y + 1) !== id) continue;
      if (at(x, y + 2) !== id || at(x + 2, y) !== id) continue;
      done.add(id);
      // a glint of two pixels along the lit curve (a third below it from 32 px)
      set(x + 1, y + 1, lit);
      if (at(x + 3, y + 1) === id) set(x + 2, y + 1, lit);
      if (n >= 32 && at(x + 1, y + 3) === id) set(x + 1, y + 2, lit);
    }
  t.settle();
}

function rock(t: TextureCanvas): void {
  // rough rock: a few big facets, each turned to the light or away (lit, mid or dark), a dark crack
  // along the edges that fall away from the light, a lit lip along the top of the ones facing it,
  // a few pits
  // (decision 0104: a facet every 8 px, each ringed in shadow, read as dark cobble paving: the
  // facets are larger, and only some of their edges are cracks — the others a fold of the face)
  const { n, ramp, set } = t;
  const k = Math.max(2, Math.round(n / 11));
  const v = cells(t, k, 0.45, false);
  const tones = Array.from({ length: v.count }, () => t.layout.pick([ramp.base, ramp.base, ramp.dark]));
  const cracked = new Map<number, boolean>();
  const crack = (a: number, b: number) => {
    const key = Math.min(a, b) * 1024 + Math.max(a, b);
    if (!cracked.has(key)) cracked.set(key, t.layout.chance(0.45));
    return cracked.get(key)!;
  };
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const i = y * n + x;
      const id = v.id[i]!;
      const tone = tones[id]!;
      const below = v.at(x, y + 1) !== id ? v.at(x, y + 1) : v.at(x + 1, y) !== id ? v.at(x + 1, y) : -1;
      if (below >= 0) set(x, y, crack(id, below) ? ramp.shadow : ramp.dark);
      else if (v.at(x, y - 1) !== id) set(x, y, tone === ramp.dark ? ramp.base : ramp.light);
      // a facet shades towards its lower right
      else if (v.reach[i]! > 0.45 && v.at(x + 2, y + 2) !== id)
        set(x, y, tone === ramp.light ? ramp.base : ramp.dark);
      else set(x, y, tone);
    }
  t.settle();
  t.scatter(Math.max(1, Math.round(t.area / 80)), (x, y) => {
    if (t.get(x, y) !== tones[v.at(x, y)]) return;
    set(x, y, ramp.shadow);
    set(x, y - 1, ramp.light);
  });
}

function planks(t: TextureCanvas): void {
  // long boards laid across: each a tile long with one butt joint, a dark gap below it, grain
  // streaks along it, a nail on each side of its joint
  const { n, ramp, rng, set, layout } = t;
  const h = divisorNear(n, Math.max(4, n / 4));
  const rows = n / h;
  const ids = new Int32Array(t.area);
  const joints: number[] = [];
  for (let r = 0; r < rows; r++) joints.push(wrap(Math.round((r * 0.4 + layout.range(0.05, 0.2)) * n), n));
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const r = Math.floor(y / h);
      ids[y * n + x] = y % h === h - 1 || x === joints[r] ? -1 : r;
    }
  const shades = Array.from({ length: rows }, () => pieceShade(t, 0.35, 0.2));
  bevel(t, ids, ramp.shadow, (p) => shades[p]!, false);
  t.settle();
  // grain: long thin streaks a shade darker along the boards' faces
  for (let r = 0; r < rows; r++) {
    const face = shades[r]!;
    const streaks = Math.max(1, Math.round(n / 10));
    for (let s = 0; s < streaks; s++) {
      const y = r * h + 1 + rng.int(0, Math.max(0, h - 3));
      const x0 = rng.int(0, n - 1);
      const len = rng.int(Math.max(3, Math.round(n / 5)), Math.max(3, Math.round(n / 2)));
      for (let i = 0; i < len; i++) {
        const x = x0 + i;
        if (ids[wrap(y, n) * n + wrap(x, n)]! >= 0 && t.get(x, y) === face.base) set(x, y, face.dark);
      }
    }
    // nails: a dark dot a pixel from the joint on each side, in the board's middle row
    const y = r * h + Math.floor((h - 1) / 2);
    set(joints[r]! - 2, y, ramp.outline);
    set(joints[r]! + 2, y, ramp.outline);
  }
}

function metal(t: TextureCanvas): void {
  // riveted plates: one plate a tile across at 16 px (half a tile from 32), bevelled, dark seams, a
  // rivet in each corner (a lit dot over its shadow) and a diagonal sheen across each plate
  const { n, ramp, set } = t;
  const p = n >= 32 ? n / 2 : n;
  const ids = new Int32Array(t.area);
  const per = Math.max(1, Math.round(n / p));
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      ids[y * n + x] = x % p === p - 1 || y % p === p - 1 ? -1 : Math.floor(y / p) * per + Math.floor(x / p);
  bevel(t, ids, ramp.outline, () => ramp, true);
  t.settle();
  const inset = p >= 12 ? 2 : 1;
  for (let py = 0; py < n; py += p)
    for (let px = 0; px < n; px += p) {
      for (const [dx, dy] of [
        [inset, inset],
        [p - 3 - inset, inset],
        [inset, p - 3 - inset],
        [p - 3 - inset, p - 3 - inset],
      ] as const) {
        set(px + dx, py + dy, ramp.light);
        set(px + dx + 1, py + dy + 1, ramp.shadow);
      }
      // the sheen: two short light diagonals across the plate
      const len = Math.floor(p / 3);
      for (let i = 0; i < len; i++) {
        set(px + Math.floor(p / 3) + i, py + Math.floor((2 * p) / 3) - i, ramp.light);
        set(px + Math.floor(p / 3) + i + 2, py + Math.floor((2 * p) / 3) - i, ramp.light);
      }
    }
}

function shingles(t: TextureCanvas): void {
  // roof tiles in overlapping rows, each row lit at its top and shaded to a dark lower edge (the lip
  // over the row below), tiles split by short dark lines with rounded lower corners, rows offset by
  // half a tile
  const { n, ramp, set } = t;
  const h = divisorNear(n, Math.max(4, n / 5));
  const w = divisorNear(n, Math.max(4, n / 4));
  const shades = Array.from({ length: (n / h) * (n / w) }, () => pieceShade(t, 0.3, 0.15));
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const row = Math.floor(y / h);
      const xs = x + (row % 2) * Math.floor(w / 2);
      const u = xs % w;
      const v = y % h;
      const r = shades[row * (n / w) + (Math.floor(xs / w) % (n / w))]!;
      if (v === h - 1) set(x, y, ramp.shadow);
      else if (u === w - 1 && v > 0) set(x, y, ramp.shadow);
      else if (v === h - 2 && u === 0) set(x, y, r.dark);
      else if (v === 0) set(x, y, r.light);
      else set(x, y, r.base);
    }
  t.settle();
}

/**
 * Grass below 16 px: the drawing before 0123 (tufts on a staggered grid). The tufts thrown with a
 * minimum spacing leave an 8 px tile one or two tufts, and a level of 8 px tiles failed its seam
 * check on the dirt-grass joints (test/formats/levels.test.ts, a river crossed by a bridge); at 8 px
 * a grid of one tuft is no visible motif.
 */
function smallGrass(t: TextureCanvas): void {
  // tufts of three blades (a lit tip over a dark stem, the middle blade taller) spread evenly over a
  // calm field, a few lone blades between them
  const { n, ramp, layout } = t;
  t.patches(0.3, 0.06, ramp.dark, false, true);
  const k = Math.max(2, Math.round(n / 5));
  const step = n / k;
  for (let j = 0; j < k; j++)
    for (let i = 0; i < k; i++) {
      const x = Math.round((i + (j % 2) * 0.5) * step + layout.range(0, step * 0.6));
      const y = Math.round(j * step + layout.range(0, step * 0.6));
      tuft(t, x, y);
    }
  looseBlades(t);
}

function grass(t: TextureCanvas): void {
  if (t.n < 16) {
    smallGrass(t);
    return;
  }
  // tufts of three blades (a lit tip over a dark stem, the middle blade taller) spread evenly over a
  // calm field, a few lone blades between them
  const { n, ramp, layout } = t;
  t.patches(0.3, 0.06, ramp.dark, false, true);
  // (decision 0123: on a staggered k × k grid the tufts were one flower motif a tile, a wallpaper)
  // the tufts as far apart as the grid had them, at places of their own: darts thrown, one kept
  // where it is far enough from the others
  const k = Math.max(2, Math.round(n / 5));
  const apart = (0.8 * n) / k;
  const tufts: Array<readonly [number, number]> = [];
  for (let tries = 0; tries < 40 * k * k && tufts.length < k * k; tries++) {
    const x = layout.int(0, n - 1);
    const y = layout.int(0, n - 1);
    const near = tufts.some(([px, py]) => {
      const dx = Math.min(Math.abs(px - x), n - Math.abs(px - x));
      const dy = Math.min(Math.abs(py - y), n - Math.abs(py - y));
      return dx * dx + dy * dy < apart * apart;
    });
    if (!near) tufts.push([x, y]);
  }
  for (const [x, y] of tufts) tuft(t, x, y);
  looseBlades(t);
}

/** A tuft of three blades at x, y: a lit tip over a dark stem, the middle blade taller. */
function tuft(t: TextureCanvas, x: number, y: number): void {
  const { set, ramp } = t;
  set(x, y, ramp.light);
  set(x, y + 1, ramp.dark);
  set(x, y + 2, ramp.shadow);
  set(x - 1, y + 1, ramp.light);
  set(x - 1, y + 2, ramp.dark);
  set(x + 1, y + 1, ramp.light);
  set(x + 1, y + 2, ramp.dark);
}

/** Settles the field, then a few lone blades where it is plain (a lit or dark tip over a dark stem). */
function looseBlades(t: TextureCanvas): void {
  const { set, ramp, rng } = t;
  t.settle();
  t.scatter(Math.max(1, Math.round(t.area / 40)), (x, y) => {
    if (t.get(x, y) !== ramp.base || t.get(x, y + 1) !== ramp.base) return;
    set(x, y, rng.chance(0.5) ? ramp.light : ramp.dark);
    set(x, y + 1, ramp.dark);
  });
}

function dirt(t: TextureCanvas): void {
  const { n, ramp, area, set } = t;
  // packed soil at two scales (decision 0104: a clod with its shadow on every 16 px tile was a
  // grid of flecks in a fill): broad darker hollows and smaller lighter rises, both a sparse dither
  // (no blots), and a few small stones; clods only on tiles large enough to hold several
  sparseDither(t, 0.42);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      // (decision 0123: `(x + 2y + 2) % 8` set them in fixed columns, orange dots on a lattice)
      if (t.patch(2 * x + 5, 2 * y + 3) > 0.6 && t.hash(x, y) < 0.16 && t.get(x, y) === ramp.base)
        set(x, y, ramp.light);
  t.settle();
  if (n >= 32)
    t.scatter(Math.max(2, Math.round(area / 160)), (x, y) => {
      set(x, y, ramp.light);
      set(x + 1, y, ramp.light);
      set(x, y + 1, ramp.base);
      set(x + 1, y + 1, ramp.dark);
      set(x + 1, y + 2, ramp.dark);
    });
  // small stones: a lit pixel over a darker one
  t.scatter(Math.max(1, Math.round(area / 128)), (x, y) => {
    set(x, y, ramp.light);
    set(x, y + 1, ramp.dark);
  });
}

function mud(t: TextureCanvas): void {
  // wet mud of a marsh or a bog (issue #39, decision 0087: plain brown dirt left 'swamp' silent):
  // dark soft earth with wetter patches, murky standing water in its hollows (dark green-grey, a
  // darker rim along its upper bank, a pale glint) and a few reed tufts
  const { n, ramp, set, rng, painter } = t;
  t.patches(0.42, 0.06, ramp.dark, false, true);
  const murk = painter.choose([50, 80, 78], [ramp.base, ramp.dark]);
  const glint = painter.choose([128, 150, 140], [murk]);
  // the hollows: the highest sixth of the field, whatever its range at this size and seed
  const field = Array.from({ length: t.area }, (_, i) => t.patch(i % n, Math.floor(i / n))).sort(
    (a, b) => a - b,
  );
  const wet = field[Math.floor(0.84 * t.area)]!;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const p = t.patch(x, y);
      if (p > wet) set(x, y, t.patch(x, y - 1) <= wet ? ramp.shadow : murk);
    }
  t.settle();
  t.scatter(Math.max(1, Math.round(t.area / 96)), (x, y) => {
    if (t.get(x, y) === murk && t.get(x + 1, y) === murk) {
      set(x, y, glint);
      set(x + 1, y, glint);
    }
  });
  // reed tufts: two or three blades, a lit tip over a dark stem, on dry mud
  const reed = greenest(t, [96, 128, 56]);
  const stem = greenest(t, [56, 84, 44], [reed]);
  const tufts = Math.max(1, Math.round(t.area / 200));
  for (let i = 0, tries = 0; i < tufts && tries < 40; tries++) {
    const x = rng.int(0, n - 1);
    const y = rng.int(0, n - 1);
    if (t.patch(x, y) > wet - 0.04 || t.patch(x, y - 4) > wet) continue;
    i++;
    const h = n >= 32 ? 4 : 3;
    for (let d = 0; d < h; d++) {
      set(x, y - d, d === h - 1 ? reed : stem);
      if (d < h - 1) set(x - 1, y - d + 1, d === h - 2 ? reed : stem);
      if (d < h - 2 && rng.chance(0.7)) set(x + 1, y - d, d === h - 3 ? reed : stem);
    }
  }
}

/** The palette colour nearest `target` among the green ones (green above red and blue), else the nearest. */
function greenest(t: TextureCanvas, target: Rgb, avoid: readonly Rgb[] = []): Rgb {
  const greens = t.painter.palette.filter((c) => c[1] > c[0] + 12 && c[1] > c[2]);
  if (!greens.length) return t.painter.choose(target, avoid);
  const [L, a, b] = oklab(target);
  let best = greens[0]!;
  let bestD = Number.POSITIVE_INFINITY;
  for (const c of greens) {
    const [l2, a2, b2] = oklab(c);
    const d = ((L - l2) ** 2 + (a - a2) ** 2 + (b - b2) ** 2) * (avoid.some((x) => same(x, c)) ? 4 : 1);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/**
 * Low dunes or hollows as a sparse grain of the darker tone (about one pixel in five), placed by the
 * drawing's hash (decision 0123: `(x + 2y) % 4` stood in dotted columns every 4 px), never two side
 * by side.
 */
function sparseDither(t: TextureCanvas, below: number): void {
  for (let y = 0; y < t.n; y++)
    for (let x = 0; x < t.n; x++)
      if (
        t.patch(x, y) < below &&
        t.hash(x, y) < 0.22 &&
        t.get(x - 1, y) !== t.ramp.dark &&
        t.get(x, y - 1) !== t.ramp.dark
      )
        t.set(x, y, t.ramp.dark);
}

function sand(t: TextureCanvas): void {
  // a fine grain dither, and low wind ripples: a wavy dark trough across the tile, lit where it climbs
  // (decision 0123: a fixed grain `(3x + 5y) % 7` and a trough the whole tile wide every 8 px were
  // heavy horizontal stripes in a fill) grains by a hash of their place; the ripples low and broken —
  // each a few arcs of its own length along the wave, a patch of the field deciding where they lie
  const { n, ramp, set, layout } = t;
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (t.hash(x, y) < 0.07) set(x, y, ramp.light);
  const gap = divisorNear(n, Math.max(8, n / 4));
  const phase = layout.range(0, Math.PI * 2);
  const waves = n >= 32 ? 2 : 1;
  for (let y0 = 0; y0 < n; y0 += gap) {
    const ph = phase + y0 + layout.range(0, 2);
    const lift = layout.int(0, Math.max(0, Math.floor(gap / 2) - 1));
    const yAt = (x: number) => y0 + lift + Math.round(Math.sin(ph + (2 * Math.PI * waves * x) / n) * 1.2);
    for (let x = 0; x < n; x++) {
      // the trough shows where the field is low, an arc at a time
      if (t.patch(x, y0 + lift) > 0.52) continue;
      set(x, yAt(x), ramp.dark);
      if (yAt(x + 1) < yAt(x)) set(x, yAt(x) - 1, ramp.light);
    }
  }
  t.settle();
  t.scatter(Math.max(1, Math.round(t.area / 40)), (x, y) => {
    if (t.get(x, y) === ramp.base) set(x, y, ramp.light);
  });
}

function water(t: TextureCanvas): void {
  // wavelets on a staggered grid (a short lit crest over a wider dark trough), a sparse dither of
  // deeper water, a glint here and there
  // (decision 0142: the wavelets stood on a staggered k × k grid and the deep dither on
  // `(x + y) % 4`: rows of dashes at a fixed step, a lattice once tiled) wavelets are darts thrown
  // with a minimum spacing, each its own length; the deep water a sparse grain placed by the hash
  const { n, ramp, set, layout } = t;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      if (
        t.patch(x, y) < 0.36 &&
        t.hash(x, y) < 0.08 &&
        t.get(x - 1, y) !== ramp.dark &&
        t.get(x, y - 1) !== ramp.dark
      )
        set(x, y, ramp.dark);
  const k = Math.max(2, Math.round(n / 7));
  const step = n / k;
  // (fewer than the lattice had: 25 short dashes to a 32 px tile were busy once scattered)
  const count = Math.max(2, Math.round(k * k * 0.6));
  const placed: Array<[number, number, number]> = [];
  const apart = (ax: number, ay: number, bx: number, by: number) => {
    const dx = Math.min(Math.abs(ax - bx), n - Math.abs(ax - bx));
    const dy = Math.min(Math.abs(ay - by), n - Math.abs(ay - by));
    return { dx, dy };
  };
  for (let tries = 0; tries < 60 * count && placed.length < count; tries++) {
    const len = layout.int(
      Math.max(3, Math.round(step * 0.7)),
      Math.max(4, Math.min(8, Math.round(step * 1.2))),
    );
    const x = layout.int(0, n - 1);
    const y = layout.int(0, n - 1);
    // clear of the others: two rows above or below, or a gap of two beside
    const clear = placed.every(([px, py, pl]) => {
      const { dy } = apart(x, y, px, py);
      if (dy >= Math.max(3, Math.round(step * 0.45))) return true;
      const { dx } = apart(x + len / 2, 0, px + pl / 2, 0);
      return dx >= (len + pl) / 2 + 2;
    });
    if (!clear) continue;
    placed.push([x, y, len]);
  }
  for (const [x, y, len] of placed)
    for (let d = 0; d < len; d++) {
      set(x + d, y + 1, ramp.dark);
      if (d > 0 && d < len - 1) set(x + d, y, t.foam);
    }
  t.settle();
  t.scatter(Math.max(1, Math.round(t.area / 128)), (x, y) => {
    if (t.get(x, y) === ramp.base) set(x, y, ramp.light);
  });
}

/**
 * The palette colour nearest `target` (in Oklab) among the warm ones — red at least blue — so lava
 * is never drawn in a palette's dark blue; another warm colour than `avoid` where one is close.
 */
function warm(t: TextureCanvas, target: Rgb, avoid: readonly Rgb[] = []): Rgb {
  const [L, a, b] = oklab(target);
  let best: Rgb | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const c of t.painter.palette) {
    if (c[2] > c[0]) continue;
    const [l2, a2, b2] = oklab(c);
    const penalty = avoid.some((x) => x[0] === c[0] && x[1] === c[1] && x[2] === c[2]) ? 4 : 1;
    const d = ((L - l2) ** 2 + (a - a2) ** 2 + (b - b2) ** 2) * penalty;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best ?? t.painter.choose(target, avoid);
}

/** Lava's five colours, darkest first: cooled crust, its ridges, the red glow, orange flow, yellow heat. */
function lavaColours(t: TextureCanvas) {
  const crust = warm(t, [74, 32, 30]);
  const ridge = warm(t, [106, 46, 36], [crust]);
  const red = warm(t, [150, 48, 32], [crust, ridge]);
  const orange = warm(t, [240, 124, 36], [red]);
  const yellow = warm(t, [255, 216, 96], [orange]);
  return { crust, ridge, red, orange, yellow };
}

/**
 * Lava below 16 px: the flow carrying small plates of crust (decisions 0087, 0104, 0112). The crust
 * plates split by cracks (0123) leave an 8 px tile two plates of dark crust and a crack, and every
 * blob47 set of lava and rock at 8 px failed its seam check (the joint scores 1.7-2.2 against
 * interiors that calm); at 8 px the flow's pools are a pixel or two, no leopard print.
 */
function smallLava(t: TextureCanvas): void {
  // molten rock (issue #39, decisions 0087, 0104: a dark crust cut by thin glowing seams read as
  // maroon carpet with glyph squiggles): a bright molten flow — orange, yellow-hot in the middle of
  // its wider channels — carrying plates of darker cooling crust of unequal size, each plate rimmed
  // by a red glow where it meets the flow, its top wrinkled, one plate in a few split by a bright
  // crack; one plate in four has melted away. No thin dotted lines, no marks on a grid.
  const { n, set, layout } = t;
  const { crust, ridge, red, orange, yellow } = lavaColours(t);
  const k = n >= 32 ? 3 : 2;
  // (decision 0112) the plates' places come from the drawing's own seed, not the layout's: a level's
  // other drawings of the full tile (which share the layout seed) get other plates
  const v = cells(t, k, 0.42, true, false, t.rng.fork('plates'));
  // each plate's size (a fraction of its cell's reach); one plate in four (at least one) has
  // melted away into a yellow-hot pool
  const size = Array.from({ length: v.count }, () => layout.range(0.6, 0.95));
  for (let m = 0; m < Math.max(1, Math.floor(v.count / 4)); m++) size[layout.int(0, v.count - 1)] = 0;
  const cellPx = n / k;
  // how far inside its plate a pixel is, in pixels (negative: out in the flow); plates keep a
  // channel of flow between them, and their edges wander
  const noise = Float64Array.from({ length: t.area }, (_, i) => t.patch(i % n, Math.floor(i / n)));
  const inside = Float64Array.from({ length: t.area }, (_, i) => {
    const wobble = (noise[i]! - 0.5) * 2;
    return Math.min(
      (size[v.id[i]!]! - v.reach[i]!) * cellPx + wobble,
      v.gap[i]! / 2 - 0.75 + (n >= 32 ? 1.5 : 0) * wobble,
    );
  });
  // the same share of crust and of yellow-hot flow at every size and seed: their cuts are quantiles
  const sorted = [...inside].sort((a, b) => a - b);
  const q = (f: number) => sorted[Math.min(t.area - 1, Math.floor(f * t.area))]!;
  const crustCut = Math.max(0.5, q(0.55));
  const hotCut = Math.min(-1.5, q(0.1));
  // the crust's wrinkled top: lighter ridges in a sparse dither (a phase that wraps with the tile)
  const paint = (d: number, p: number, x: number, y: number): Rgb =>
    d >= crustCut
      ? p > 0.58 && (x + 2 * y) % 4 === 0
        ? ridge
        : crust
      : d >= crustCut - 1
        ? red
        : d <= hotCut
          ? yellow
          : orange;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) set(x, y, paint(inside[y * n + x]!, noise[y * n + x]!, x, y));
  t.surface = { field: inside, noise, paint };
  // the joint settles where the flow runs on across it
  t.settle();
  // a bright crack across one plate in a few: a short orange split with a red glow beside it
  for (let c = 0; c < Math.max(1, Math.round(n / 16)); c++) {
    let x = t.rng.int(0, n - 1);
    let y = t.rng.int(0, n - 1);
    for (let i = 0; i < Math.round(n * 0.3); i++) {
      if (t.get(x, y) !== crust && t.get(x, y) !== ridge) break;
      set(x, y, orange);
      x++;
      if (t.rng.chance(0.5)) y += t.rng.chance(0.5) ? 1 : -1;
    }
  }
}

function lava(t: TextureCanvas): void {
  if (t.n < 16) {
    smallLava(t);
    return;
  }
  // molten rock (issue #39, decisions 0087, 0104: a dark crust cut by thin glowing seams read as
  // maroon carpet with glyph squiggles): a bright molten flow — orange, yellow-hot in the middle of
  // its wider channels — carrying plates of darker cooling crust of unequal size, each plate rimmed
  // by a red glow where it meets the flow, its top wrinkled, one plate in a few split by a bright
  // crack; one plate in four has melted away. No thin dotted lines, no marks on a grid.
  const { n, set, layout } = t;
  const { crust, ridge, red, orange, yellow } = lavaColours(t);
  // (decision 0123: a flow carrying small plates, one in four melted into a yellow pool ringed in
  // orange, was a 16 px leopard print) large plates of dark cooled crust filling most of the ground,
  // split by narrow cracks of molten rock — yellow-hot in the crack, orange at its lips — and the
  // crust glowing red, then lit, towards each crack: brightest at the cracks, dark between them
  const k = n >= 32 ? 3 : 2;
  // (decision 0112) the plates' places come from the drawing's own seed, not the layout's: a level's
  // other drawings of the full tile (which share the layout seed) get other plates
  const v = cells(t, k, 0.42, true, false, t.rng.fork('plates'));
  // each plate's size (a fraction of its cell's reach): large, so the cracks between are narrow
  const size = Array.from({ length: v.count }, () => layout.range(0.85, 1.1));
  const cellPx = n / k;
  // how far inside its plate a pixel is, in pixels (negative: out in the crack); the cracks wander
  const noise = Float64Array.from({ length: t.area }, (_, i) => t.patch(i % n, Math.floor(i / n)));
  const inside = Float64Array.from({ length: t.area }, (_, i) => {
    const wobble = (noise[i]! - 0.5) * 2;
    return Math.min(
      (size[v.id[i]!]! - v.reach[i]!) * cellPx + wobble,
      v.gap[i]! / 2 - 0.5 + (n >= 32 ? 1.2 : 0.8) * wobble,
    );
  });
  // the same share of crack and of yellow-hot rock at every size and seed: their cuts are quantiles
  const sorted = [...inside].sort((a, b) => a - b);
  const q = (f: number) => sorted[Math.min(t.area - 1, Math.floor(f * t.area))]!;
  const hotCut = q(0.1);
  const crackCut = q(0.28);
  const glowCut = q(0.4);
  // (a lit step from 32 px: at 16 a checker of it was noise over the plates)
  const litCut = n >= 32 ? q(0.5) : glowCut;
  // the crust: red where it meets a crack, lit (a checker of the lit crust) a step further in, its
  // top wrinkled with lighter ridges in a sparse dither (a phase that wraps with the tile)
  const paint = (d: number, p: number, x: number, y: number): Rgb =>
    d < hotCut
      ? yellow
      : d < crackCut
        ? orange
        : d < glowCut
          ? red
          : d < litCut
            ? checker(x, y)
              ? ridge
              : crust
            : p > 0.6 && (x + 2 * y) % 4 === 0
              ? ridge
              : crust;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) set(x, y, paint(inside[y * n + x]!, noise[y * n + x]!, x, y));
  t.surface = { field: inside, noise, paint };
  // the joint settles where the flow runs on across it
  t.settle();
  // a bright crack across one plate in a few: a short orange split with a red glow beside it
  for (let c = 0; c < Math.max(1, Math.round(n / 16)); c++) {
    let x = t.rng.int(0, n - 1);
    let y = t.rng.int(0, n - 1);
    for (let i = 0; i < Math.round(n * 0.3); i++) {
      if (t.get(x, y) !== crust && t.get(x, y) !== ridge) break;
      set(x, y, orange);
      x++;
      if (t.rng.chance(0.5)) y += t.rng.chance(0.5) ? 1 : -1;
    }
  }
}

function snow(t: TextureCanvas): void {
  // white snow with soft blue-grey drifts (issue #39, decisions 0082, 0087: the drift strokes on a
  // grid read as dashes, a chevron wallpaper): the palette's white (its coolest near-white when the
  // white is warm), shadowed in its hollows and on the lee side of low mounds in a soft blue-grey
  // (never a saturated cyan), a deeper blue-grey only in the deepest folds. No strokes, no grid.
  const { n, ramp, set, painter } = t;
  const white =
    painter.lightest[0] - painter.lightest[2] <= 32
      ? painter.lightest
      : coolest(t, [244, 248, 252], ramp.base);
  // a snow shadow is a soft blue-grey, never a saturated cyan (sweetie16's) that reads as ice or water
  const shade = coolest(t, [200, 212, 230], white, 0.06);
  const deep = coolest(t, [150, 164, 184], painter.choose([150, 164, 184], [white, shade]), 0.07);
  // (decision 0112: a dither of one pixel in four drew x and Y marks on a grid) the white, the
  // hollows in the palette's pale blue-grey with a checker rim of it, the deepest folds solid
  // blue-grey; where the palette has no pale blue-grey (the default), the hollows a checker of the
  // white and the blue-grey, a mid-tone at 1×; a glint on a crest where the palette has a brighter
  // white than the snow's
  const pale = same(shade, white) ? null : shade;
  const bright = coolest(t, [252, 254, 255], white, 0.05);
  const sparkle = lightness(bright) > lightness(white) + 0.02 ? bright : null;
  // the field's own quantiles: the same share of shadow at every size and seed
  // (decision 0129: the field's small round cells were one grey dither motif a tile, a wallpaper)
  // from 16 px the field is smoothed along a shallow slant a half-tile long, so the hollows are a few
  // long, low drift shadows that lie across the tile's edges (every offset is whole pixels: it wraps)
  const reach = n >= 32 ? n >> 2 : 0;
  const drift = (x: number, y: number) => {
    let s = 0;
    for (let d = -reach; d <= reach; d++) s += t.patch(x + d, y + Math.round(d / 2));
    return s / (2 * reach + 1);
  };
  const field = Array.from({ length: t.area }, (_, i) => drift(i % n, Math.floor(i / n)));
  const sorted = [...field].sort((a, b) => a - b);
  const q = (f: number) => sorted[Math.min(t.area - 1, Math.floor(f * t.area))]!;
  // (decision 0123: the same share of hollow in every drawing stamped one grey motif a tile) each
  // drawing its own share of drift shadow, from a few small hollows to twice as many
  const share = n >= 16 ? t.rng.fork('drift').range(0.4, 1.35) : 1;
  const [pit, fold, hollow, edge, crest] = [
    q(0.025 * share),
    q(0.06 * share),
    q(0.16 * share),
    q(0.26 * share),
    q(0.88),
  ];
  // (decision 0117: snow was 2 or 3 tones) a fourth step under the blue-grey where the palette has
  // one: the shaded face of the deepest folds, so a drift has white, a pale shade, a blue-grey and
  // its darkest lee
  const under = coolest(t, [100, 112, 142], deep, 0.08);
  // (not a far darker colour, not a green: the default's dark teal-green in a fold read as a slit)
  const deeper =
    same(under, deep) ||
    same(under, white) ||
    (pale && same(under, pale)) ||
    lightness(under) < lightness(deep) - 0.25 ||
    under[2] < under[1] - 8
      ? null
      : under;
  // the lee of a mound: the field falls away below it (light from above)
  const lee = (x: number, y: number) => drift(x, y) - drift(x, y + 2);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const p = field[y * n + x]!;
      const l = lee(x, y);
      if (pale) {
        // the deepest folds: solid, their shaded face a step deeper where the palette has one
        // (solid blue-grey in a checker of white read as pits; their rim a step deeper, as eyes)
        if (p < fold) set(x, y, deeper && (p < pit || l > 0.02) ? deeper : deep);
        // the hollows in the pale blue-grey, their soft rim a checker of it and the white
        else if (p < hollow || (p < edge && l > 0.02)) set(x, y, pale);
        else if (p < edge) set(x, y, checker(x, y) ? pale : white);
        else set(x, y, white);
      } else {
        // no pale blue-grey (the default): the hollows' shaded face solid blue-grey, their lit
        // face and rim a checker of it and the white (a mid-tone at 1×, never one pixel in four:
        // x and Y marks) — a lit face and a shaded face, not one flat checker
        // (and the shaded face of the deepest folds a step deeper where the palette has one)
        // (from 32 px: a 16 px tile's hollows are a few pixels, their solid face a tick mark that
        // every tile of a level repeats)
        if (deeper && n >= 32 && p < fold && l > 0.02) set(x, y, deeper);
        else if (n >= 32 && p < hollow && l > 0.015) set(x, y, deep);
        else if (p < hollow || (p < edge && l > 0.02)) set(x, y, checker(x, y) ? deep : white);
        else set(x, y, white);
      }
    }
  // (decision 0129) no lone pixel of shade in the white: a stray dot of a drift's rim
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      if (same(t.get(x, y), white)) continue;
      let lone = true;
      for (let dy = -1; dy <= 1 && lone; dy++)
        for (let dx = -1; dx <= 1; dx++)
          if ((dx || dy) && !same(t.get(x + dx, y + dy), white)) {
            lone = false;
            break;
          }
      if (lone && n >= 32) set(x, y, white);
    }
  t.settle();
  // a few glints on the crests' lit faces (off the shared edge band: each drawing its own)
  if (sparkle)
    t.scatter(Math.max(1, Math.round(t.area / 48)), (x, y) => {
      if (field[y * n + x]! > crest && t.get(x, y) === white) set(x, y, sparkle);
    });
}

const lightness = (c: Rgb) => oklab(c)[0];

/** The palette colour nearest `target` that is blue (blue at least red and green), not in `avoid`. */
function blueOf(t: TextureCanvas, target: Rgb, avoid: readonly Rgb[]): Rgb | null {
  const [L, a, b] = oklab(target);
  let best: Rgb | null = null;
  let bestD = 0.03;
  for (const c of t.painter.palette) {
    if (c[2] < c[0] || c[2] < c[1] || avoid.some((x) => same(x, c))) continue;
    const [l2, a2, b2] = oklab(c);
    const d = (L - l2) ** 2 + (a - a2) ** 2 + (b - b2) ** 2;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** The palette colour nearest `target` among the cool ones (blue at least red); `fallback` if none. */
function coolest(t: TextureCanvas, target: Rgb, fallback: Rgb, maxChroma = Number.POSITIVE_INFINITY): Rgb {
  const [L, a, b] = oklab(target);
  let best: Rgb | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const c of t.painter.palette) {
    if (c[2] < c[0] - 16) continue;
    const [l2, a2, b2] = oklab(c);
    if (Math.hypot(a2, b2) > maxChroma) continue;
    const d = (L - l2) ** 2 + (a - a2) ** 2 + (b - b2) ** 2;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best && bestD < 0.03 ? best : fallback;
}

function freshwater(t: TextureCanvas): void {
  // still fresh water (issue #39: an island's lake was the sea's tile): no wavelets, a few soft
  // rings of ripple, darker depths in patches and lily pads — round green leaves with a notch
  const { n, ramp, set, layout, painter } = t;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) if (t.patch(x, y) < 0.38 && checker(x, y)) set(x, y, ramp.dark);
  const leaf = painter.choose([84, 156, 64], [ramp.base, ramp.dark, ramp.light]);
  const leafDark = painter.choose([44, 100, 44], [leaf, ramp.base, ramp.dark]);
  const pads = Math.max(1, Math.round(n / 12));
  for (let k = 0; k < pads; k++) {
    const cx = layout.int(0, n - 1);
    const cy = layout.int(0, n - 1);
    const r = n >= 16 ? 2 : 1;
    for (let dy = -r; dy <= r; dy++)
      for (let dx = -r - 1; dx <= r + 1; dx++) {
        const d = (dx * dx) / ((r + 1) * (r + 1)) + (dy * dy) / (r * r);
        if (d > 1.05) continue;
        // the notch: a wedge cut from the middle to the rim on one side
        if (dy === 0 && dx > 0) continue;
        set(cx + dx, cy + dy, dy === r ? leafDark : leaf);
      }
  }
  // a ring of ripple or two: short lit arcs above, dark below
  const rings = Math.max(1, Math.round(n / 16));
  for (let k = 0; k < rings; k++) {
    const cx = layout.int(0, n - 1);
    const cy = layout.int(0, n - 1);
    const w = Math.max(2, Math.round(n / 8));
    for (let dx = -w; dx <= w; dx++) {
      if (Math.abs(dx) === w) {
        set(cx + dx, cy, ramp.light);
        continue;
      }
      set(cx + dx, cy - 1, ramp.light);
      set(cx + dx, cy + 1, ramp.dark);
    }
  }
  t.settle();
}

function ice(t: TextureCanvas): void {
  // sheet ice (issue #39, decisions 0082, 0117: a flat cyan with white sheen blobs read as still water,
  // its blobs the snow's white): a pale cyan-blue sheet, darker blue depth where the ice is clear
  // (solid in the middle, a checker at the rim), a thin crack or two (a dark line with a lit
  // edge), and the ice's own mark — long parallel diagonal glints, a long one with a shorter one
  // beside it, far enough apart that they are a gleam and never a hatch. No waves, no ripples.
  const { n, set, layout, painter, ramp } = t;
  const base = ramp.base;
  const sheen = coolest(t, [232, 246, 252], ramp.light);
  const glint = same(sheen, base) ? ramp.light : sheen;
  const depth = coolest(t, [92, 148, 206], painter.choose([92, 148, 206], [base, glint]));
  // (a blue or a blue-grey, never a green-teal: the default's ramp dark #3e6958 read as moss)
  const crackC =
    blueOf(t, [70, 104, 150], [base, glint, depth]) ?? painter.choose([70, 104, 150], [base, glint, depth]);
  // its rim where it meets a higher bank (a frozen lake's shore, see renderTerrainTiles): the deep blue
  t.foam = same(depth, base) ? crackC : depth;
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) set(x, y, base);
  // the clear, deep patches (one field, so they wrap) — a darker ice, never the water's wavelets
  // (from 32 px: on a 16 px tile they are a few small shapes that every tile of a level repeats,
  // a wallpaper of wavelets — the water the ice must not be; the 16 px sheet stays calm)
  // (solid, their rim a narrow checker: a wide checker is a diagonal hatch — the rippling water of
  // decision 0082)
  if (n >= 32) t.patches(0.26, 0.025, depth, false, false);
  const crack = (x0: number, y0: number, steps: number) => {
    let x = x0;
    let y = y0;
    const dx = layout.chance(0.5) ? 1 : -1;
    for (let i = 0; i < steps; i++) {
      set(x, y, crackC);
      if (!same(t.get(x, y - 1), crackC)) set(x, y - 1, glint);
      if (layout.chance(0.6)) x += dx;
      y += layout.chance(0.7) ? 1 : 0;
    }
    return [x, y] as const;
  };
  // a long crack that forks, from 32 px (on a 16 px tile a crack repeats on every cell of a fill: a
  // swirl wallpaper, decision 0104; a short one there was a dark tick on every tile of a level)
  if (n >= 32)
    for (let c = 0; c < Math.floor(n / 32); c++) {
      const [x, y] = crack(layout.int(0, n - 1), layout.int(0, n - 1), Math.round(n * 0.4));
      crack(x, y, Math.round(n * 0.2));
    }
  t.settle();
  // (drawn after the joint is settled: off the edge band, so every drawing has its own) the glints:
  // a long diagonal streak (up to the right) and a shorter one beside it, 3 px across
  const long = Math.max(4, Math.round(n * 0.28));
  for (let s = 0; s < Math.max(1, Math.round(n / 24)); s++) {
    // (clear of the crack and its lit edge: a glint along a crack's lip made a hatch)
    const short = Math.max(2, Math.round(long / 2));
    const clearAt = (x: number, y: number) => {
      for (let i = -1; i <= long; i++)
        for (const [px, py] of [
          [x + i, y - i],
          [x + 3 + i, y + 1 - i],
        ] as const)
          for (let d = -2; d <= 2; d++)
            if (same(t.get(px + d, py), glint) || same(t.get(px + d, py), crackC)) return false;
      return true;
    };
    let [cx, cy] = t.inside(2);
    for (let k = 0; k < 8 && !clearAt(cx - Math.floor(long / 2), cy + Math.floor(long / 2)); k++)
      [cx, cy] = t.inside(2);
    const x = cx - Math.floor(long / 2);
    const y = cy + Math.floor(long / 2);
    for (let i = 0; i < long; i++) set(x + i, y - i, glint);
    for (let i = 0; i < short; i++) set(x + 3 + i, y + 1 - i, glint);
  }
  // a bright point or two where the palette has a white above the glint
  if (lightness(painter.lightest) > lightness(glint) + 0.02)
    for (let g = 0; g < Math.max(1, Math.round(n / 32)); g++) {
      const [x, y] = t.inside(2);
      if (same(t.get(x, y), base)) set(x, y, painter.lightest);
    }
}

const same = (a: Rgb, b: Rgb) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

/** How each terrain marks its surface over the base tone; a terrain not named here stays plain. */
const TEXTURES: Partial<Record<string, (t: TextureCanvas) => void>> = {
  grass,
  water,
  freshwater,
  sand,
  dirt,
  mud,
  stone: flagstone,
  cobble,
  brick,
  rock,
  wall,
  wood: planks,
  metal,
  roof: shingles,
  lava,
  snow,
  ice,
};

/** Loose grounds whose marks stay off the edge band (see `keep` in {@link terrainTexture}). */
const LOOSE: ReadonlySet<string> = new Set(['dirt', 'mud', 'sand', 'grass', 'snow', 'ice']);

/** What a terrain's texture may keep from another drawing of it. */
export interface TerrainTextureOptions {
  /**
   * The seed of the pieces' layout (bricks, planks, stones, cracks); by default drawn from `rng`.
   * A level's other drawings of a full tile pass their plain tile's, so their pieces line up.
   */
  layoutSeed?: number;
  /**
   * Where the tile's joint goes (the plain drawing's `shift`), instead of the calmest place of this
   * drawing: a tileset's variants keep their plain tile's pieces where they are.
   */
  shift?: readonly [number, number];
  /**
   * How many pixel rings at the joint a loose ground keeps free of marks (3; a variant's 1 — not
   * ice's: its few glints placed nearer the edge could fall on the plain tile's, a variant that did
   * not differ).
   */
  ring?: number;
}

/** Draws the texture of `spec`; deterministic in `rng` (and `options.layoutSeed`). */
export function terrainTexture(
  spec: TerrainSpec,
  size: number,
  rng: Rng,
  painter: Painter,
  avoid: readonly Rgb[] = [],
  options: TerrainTextureOptions = {},
): TerrainTexture {
  const ramp = terrainRamp(painter, spec, avoid);
  const n = size;
  const px: Rgb[] = new Array(n * n).fill(ramp.base);
  // once the joint is settled, the pixel pairs that meet across it are kept: a mark drawn after it
  // never lands on them, so the joint stays as calm as it was chosen
  let shift: readonly [number, number] | null = null;
  // loose ground keeps its marks (stones, clods, tufts, glints) out of the whole edge band that
  // every drawing of a full tile shares: they differ from variant to variant instead of repeating on
  // the tile's period in a fill (decision 0104)
  // (decision 0123) another drawing's marks may come to the outer ring: the plain tile's calm band
  // in every drawing was a clean cross on the tile's period
  const keep = n >= 16 && LOOSE.has(spec.name) ? (options.ring ?? 3) : 1;
  const onJoint = (x: number, y: number) => {
    if (!shift || n < 8) return false;
    const u = wrap(x - shift[0], n);
    const v = wrap(y - shift[1], n);
    return u < keep || u >= n - keep || v < keep || v >= n - keep;
  };
  const set = (x: number, y: number, c: Rgb) => {
    if (onJoint(x, y)) return;
    px[wrap(y, n) * n + wrap(x, n)] = c;
  };
  const get = (x: number, y: number) => px[wrap(y, n) * n + wrap(x, n)]!;
  const layoutSeed = options.layoutSeed ?? Math.floor(rng.fork('layout').next() * 4294967296);
  const grainSeed = hash53('grain', layoutSeed) | 0;
  // lattice of 4 (or 2 on tiny tiles) cells per tile: patches wrap with the tile
  const cells = n >= 16 ? 4 : 2;
  const noise = new Noise2D(rng.fork('patches'), cells);
  const patch = (x: number, y: number) => noise.fbm((x / n) * cells, (y / n) * cells, 2, 0.5);
  const foam = spec.name === 'lava' ? painter.choose([255, 214, 80]) : painter.shade(ramp.light, 1, 0.6);
  const canvas: TextureCanvas = {
    n,
    area: n * n,
    ramp,
    foam,
    rng,
    painter,
    layout: new Rng(layoutSeed),
    set,
    get,
    patch,
    patches(lo, band, tone, above = false, soft = false) {
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          const v = patch(x, y);
          const inside = above ? v > lo : v < lo;
          const edge = above ? v > lo - band && v <= lo : v >= lo && v < lo + band;
          const mark = soft
            ? (inside && checker(x, y)) || (edge && (x + 2 * y) % 4 === 0)
            : inside || (edge && checker(x, y));
          if (mark) set(x, y, tone);
        }
      }
    },
    scatter(count, draw) {
      for (let i = 0; i < count; i++) draw(rng.int(0, n - 1), rng.int(0, n - 1));
    },
    hash(x, y) {
      let h = Math.imul(wrap(x, n) + 1, 0x27d4eb2d) ^ Math.imul(wrap(y, n) + 1, 0x165667b1) ^ grainSeed;
      h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
    },
    settle() {
      // (decision 0123) the joint between the calmest pair of columns (rows) that still differ and
      // are no busier than the mean, never an identical pair where there is another: an identical
      // pair is a flagstone's 2 px joint, doubled at every wrap; a field's (lava's: its calm is its
      // dark crust now) a little further from the calm end
      const typical = canvas.surface !== undefined ? 0.1 : 0;
      const twins = spec.name !== 'snow' || n < 16;
      shift ??= options.shift ?? [
        calmestShift(px, n, 'x', typical, twins),
        calmestShift(px, n, 'y', typical, twins),
      ];
    },
    inside(margin) {
      const [ox, oy] = shift ?? [0, 0];
      const lo = Math.min(keep + margin, n >> 1);
      const hi = Math.max(lo, n - 1 - keep - margin);
      return [wrap(ox + canvas.layout.int(lo, hi), n), wrap(oy + canvas.layout.int(lo, hi), n)];
    },
  };
  TEXTURES[spec.name]?.(canvas);
  // the tile's joint goes where the texture is calm: the periodic texture is shifted so that the
  // column and row pairs that meet at the tile edges differ no more than the texture does inside
  canvas.settle();
  const ox = shift?.[0] ?? 0;
  const oy = shift?.[1] ?? 0;
  const from = (i: number) => wrap(Math.floor(i / n) + oy, n) * n + wrap((i % n) + ox, n);
  const shifted = px.map((_, i) => px[from(i)]!);
  const drawn = canvas.surface;
  // the field in tile coordinates; the paint's dither phase too (every phase wraps with 4 or 8 px)
  const surface: Surface | undefined = drawn && {
    field: drawn.field.map((_, i) => drawn.field[from(i)]!),
    noise: drawn.noise.map((_, i) => drawn.noise[from(i)]!),
    paint: (f, p, x, y) => drawn.paint(f, p, x + ox, y + oy),
  };
  return {
    ...(surface ? { surface } : {}),
    size: n,
    pixels: shifted,
    ramp,
    foam: canvas.foam,
    at: (x, y) => shifted[wrap(y, n) * n + wrap(x, n)]!,
    layoutSeed,
    shift: [ox, oy],
    loose: LOOSE.has(spec.name),
  };
}

/**
 * Materials whose pieces run on across the edges of a full tile (courses, boards, plates, slabs,
 * stones): another drawing of them keeps the plain tile's pieces and joint and
 * differs in its marks, so nothing is cut where the inside meets the edge band.
 */
const LAID: ReadonlySet<string> = new Set(['brick', 'wall', 'wood', 'metal', 'roof', 'stone', 'cobble']);

/**
 * Another drawing of `base`'s terrain for a full tile's variant (issue #39, decision 0094): laid
 * materials keep its pieces, the others (grass, sand, snow, water…) are drawn afresh; the variant
 * then takes its inside from this and its edge band from `base` (`fullTileVariant`).
 */
export function variantTexture(
  spec: TerrainSpec,
  base: TerrainTexture,
  rng: Rng,
  painter: Painter,
  avoid: readonly Rgb[] = [],
): TerrainTexture {
  const keep = LAID.has(spec.name) && base.layoutSeed !== undefined;
  const drawn = terrainTexture(
    spec,
    base.size,
    rng,
    painter,
    avoid,
    keep
      ? { layoutSeed: base.layoutSeed!, ...(base.shift ? { shift: base.shift } : {}) }
      : base.loose && spec.name !== 'ice'
        ? { ring: 1 }
        : {},
  );
  return keep ? withCrack(drawn, spec.name, rng.fork('crack')) : drawn;
}

/**
 * A laid material's variant gets a mark of wear its plain tile has not, in its middle (where the
 * variant differs): a crack across a stone or a brick, a split along a board, a scratch on a plate —
 * a dark line with a lit lip, never across a joint.
 */
function withCrack(texture: TerrainTexture, name: string, rng: Rng): TerrainTexture {
  const n = texture.size;
  const { ramp } = texture;
  const px = texture.pixels.slice();
  const at = (x: number, y: number) => px[wrap(y, n) * n + wrap(x, n)]!;
  const joint = (c: Rgb) => same(c, ramp.outline) || same(c, ramp.shadow);
  const lo = Math.floor(n / 4);
  const hi = Math.ceil((3 * n) / 4) - 1;
  const along = name === 'wood';
  const scratch = name === 'metal';
  const steps = Math.max(3, Math.round(n * (along ? 0.45 : 0.35)));
  // lines from pieces' faces until they are `steps` long together (a short one where the pieces are
  // small: two cracks across two cobbles rather than one)
  const best: Array<[number, number]> = [];
  for (let tries = 0; tries < 16 && best.length < steps; tries++) {
    let x = rng.int(lo, Math.max(lo, hi - 2));
    let y = rng.int(lo, hi);
    // (decision 0112) a crack in a flagstone starts at a joint, never a dash floating on the face
    if (name === 'stone') {
      for (let k = 0; k < 32 && (joint(at(x, y)) || !joint(at(x - 1, y))); k++) {
        x = rng.int(lo, Math.max(lo, hi - 2));
        y = rng.int(lo, hi);
      }
      if (joint(at(x, y)) || !joint(at(x - 1, y))) continue;
    }
    const line: Array<[number, number]> = [];
    for (let i = 0; i < steps; i++) {
      if (x < lo || x > hi || y < lo || y > hi || joint(at(x, y))) break;
      line.push([x, y]);
      x += 1;
      if (along) {
        if (rng.chance(0.15)) y += rng.chance(0.5) ? 1 : -1;
      } else if (scratch || rng.chance(0.55)) y += scratch ? 1 : rng.chance(0.6) ? 1 : -1;
    }
    if (
      line.length >= 2 &&
      !line.some(([x, y]) => best.some(([bx, by]) => Math.abs(bx - x) + Math.abs(by - y) <= 1))
    )
      best.push(...line);
  }
  if (best.length < steps) {
    // pieces too small for a crack (cobbles): one piece in the middle a step darker, a wet stone
    const down = (c: Rgb) =>
      same(c, ramp.light) ? ramp.base : same(c, ramp.base) ? ramp.dark : same(c, ramp.dark) ? ramp.shadow : c;
    const seen = new Set<number>();
    const start: Array<[number, number]> = [];
    for (let tries = 0; tries < 16 && start.length < 2; tries++) {
      const x = rng.int(lo, hi);
      const y = rng.int(lo, hi);
      if (!joint(at(x, y))) start.push([x, y]);
    }
    while (start.length) {
      const [x, y] = start.pop()!;
      const k = y * n + x;
      if (seen.has(k) || x < lo || x > hi || y < lo || y > hi || joint(at(x, y))) continue;
      seen.add(k);
      start.push([x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]);
    }
    for (const k of seen) px[k] = down(px[k]!);
  }
  const on = new Set(best.map(([x, y]) => y * n + x));
  for (const [x, y] of best) {
    px[y * n + x] = scratch ? ramp.light : ramp.shadow;
    // the lip: lit below the crack, where the face is its plain tone
    if (!scratch && y + 1 <= hi && !on.has((y + 1) * n + x) && same(at(x, y + 1), ramp.base))
      px[(y + 1) * n + x] = ramp.light;
  }
  return { ...texture, pixels: px, at };
}

const diff = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/**
 * The shift that puts the tile edge between two neighbouring columns (rows) whose difference is the
 * texture's `typical` quantile of them (0 the calmest pair); never between two identical ones where
 * the texture has another pair.
 */
export function calmestShift(
  px: readonly Rgb[],
  n: number,
  axis: 'x' | 'y',
  typical = 0,
  twins = true,
): number {
  // the pair (k - 1, k) becomes the joint (n - 1, 0) after shifting by k
  const d = Array.from({ length: n }, (_, k) => {
    let s = 0;
    for (let j = 0; j < n; j++)
      s +=
        axis === 'x'
          ? diff(px[j * n + wrap(k - 1, n)]!, px[j * n + k]!)
          : diff(px[wrap(k - 1, n) * n + j]!, px[k * n + j]!);
    return s;
  });
  // (decision 0112) lava's calmest pair is a channel of flow, and every tile's edge the same
  // channel drew a grid of orange lines over the fill; (0123) any material's calmest pair is
  // two identical columns, a doubled line at every wrap
  // the pairs that differ and are no busier than the texture's mean pair (the joint must not read
  // as a seam); where none is, the calmest — an identical pair of plain columns, which no eye sees
  const mean = d.reduce((a, b) => a + b, 0) / n;
  const differing = d.filter((v) => v > 0 && v <= mean).sort((a, b) => a - b);
  // (decision 0129: snow's long drifts leave most rows plain white, every differing pair busier
  // than the mean; `twins` false takes the calmest differing pair then if it is no busier than twice
  // the mean — a doubled row is a lesser fault than a seam)
  const calmest = twins ? Math.min(...d) : Math.min(...d.map((v) => (v > 0 && v <= 2 * mean ? v : Infinity)));
  const pick = differing.length
    ? differing[Math.floor(typical * (differing.length - 1))]!
    : Number.isFinite(calmest)
      ? calmest
      : Math.min(...d);
  return Math.max(0, d.indexOf(pick));
}
