import type { Rgb } from '../palette.js';
import type { Painter, Ramp } from '../pixel/canvas.js';
import { Noise2D, type Rng } from '../pixel/random.js';
import type { TerrainSpec } from '../tileset/terrains.js';

/**
 * A terrain's surface: `size × size` palette colours that wrap on both axes (every feature is placed
 * modulo the tile), so the same terrain continues across any tile edge without a seam.
 */
export interface TerrainTexture {
  size: number;
  pixels: Rgb[];
  ramp: Ramp;
  /** Colour of the liquid's shore line (foam on water, glow on lava). */
  foam: Rgb;
  at(x: number, y: number): Rgb;
}

const wrap = (v: number, n: number) => ((v % n) + n) % n;
/** Checkerboard that keeps its phase across tiles of even size. */
export const checker = (x: number, y: number) => ((x + y) & 1) === 0;

function terrainRamp(painter: Painter, spec: TerrainSpec, avoid: readonly Rgb[] = []): Ramp {
  return painter.spriteRamp(spec.color, avoid);
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
  /** Large soft patches of `tone`, their edges dithered the way a pixel artist would. */
  patches(lo: number, band: number, tone: Rgb, above?: boolean): void;
  /** `count` marks at random places. */
  scatter(count: number, draw: (x: number, y: number) => void): void;
}

/** Low dunes or hollows as a sparse dither of the darker tone (one pixel in four). */
function sparseDither(t: TextureCanvas, below: number): void {
  for (let y = 0; y < t.n; y++)
    for (let x = 0; x < t.n; x++)
      if (t.patch(x, y) < below && (x + 2 * y) % 4 === 0) t.set(x, y, t.ramp.dark);
}

function dirt(t: TextureCanvas): void {
  const { ramp, area, set } = t;
  // small packed patches of the darker tone with a wide dithered fringe
  t.patches(0.27, 0.08, ramp.dark);
  // pebbles: a lit pixel with its shadow below-right
  t.scatter(Math.max(2, Math.round(area / 40)), (x, y) => {
    set(x, y, ramp.light);
    set(x + 1, y + 1, ramp.shadow);
  });
  t.scatter(Math.max(2, Math.round(area / 30)), (x, y) => set(x, y, ramp.dark));
}

/** Cobbles: a wrapped Voronoi of stones, mortar dark, each stone lit at its top-left. */
function cobbles(t: TextureCanvas): void {
  const { n, rng, ramp, set } = t;
  // stones on a jittered grid, so they come out even in size like laid cobbles
  const k = Math.max(2, Math.round(n / 6));
  const seeds: Array<readonly [number, number]> = [];
  for (let j = 0; j < k; j++)
    for (let i = 0; i < k; i++)
      seeds.push([
        ((i + 0.5 + rng.range(-0.25, 0.25) + (j % 2) * 0.5) * n) / k,
        ((j + 0.5 + rng.range(-0.2, 0.2)) * n) / k,
      ]);
  const nearest = (x: number, y: number) => {
    let d1 = Number.POSITIVE_INFINITY;
    let d2 = Number.POSITIVE_INFINITY;
    let id = 0;
    for (let i = 0; i < seeds.length; i++) {
      const [sx, sy] = seeds[i]!;
      let dx = Math.abs(x + 0.5 - sx);
      let dy = Math.abs(y + 0.5 - sy);
      dx = Math.min(dx, n - dx);
      dy = Math.min(dy, n - dy);
      const d = dx * dx + dy * dy;
      if (d < d1) {
        d2 = d1;
        d1 = d;
        id = i;
      } else if (d < d2) d2 = d;
    }
    return { id, gap: Math.sqrt(d2) - Math.sqrt(d1) };
  };
  const ids = new Int32Array(t.area);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const { id, gap } = nearest(x, y);
      ids[y * n + x] = gap < 0.9 ? -1 : id;
    }
  }
  const idAt = (x: number, y: number) => ids[wrap(y, n) * n + wrap(x, n)]!;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const id = idAt(x, y);
      if (id < 0) set(x, y, ramp.shadow);
      else if (idAt(x, y - 1) < 0 || idAt(x - 1, y) < 0) set(x, y, ramp.light);
      else if (idAt(x, y + 1) < 0 || idAt(x + 1, y) < 0) set(x, y, ramp.dark);
    }
  }
}

/** How each terrain marks its surface over the base tone; a terrain not named here stays plain. */
const TEXTURES: Partial<Record<string, (t: TextureCanvas) => void>> = {
  grass(t) {
    const { ramp, rng, set } = t;
    t.patches(0.3, 0.06, ramp.dark);
    // tufts: a lit blade over its own shadow, sometimes a pair
    t.scatter(Math.max(2, Math.round(t.area / 22)), (x, y) => {
      set(x, y, ramp.light);
      set(x, y + 1, ramp.dark);
      if (rng.chance(0.4)) {
        set(x + 2, y + 1, ramp.light);
        set(x + 2, y + 2, ramp.dark);
      }
    });
  },
  water(t) {
    const { ramp, rng, set, n } = t;
    // deeper water in soft dithered patches
    t.patches(0.33, 0.1, ramp.dark);
    // ripples: short lit dashes, a few darker troughs
    t.scatter(Math.max(2, Math.round(t.area / 40)), (x, y) => {
      const len = rng.int(2, Math.max(2, Math.min(4, Math.floor(n / 5))));
      for (let i = 0; i < len; i++) set(x + i, y, ramp.light);
    });
    t.scatter(Math.max(1, Math.round(t.area / 90)), (x, y) => {
      set(x, y, ramp.dark);
      set(x + 1, y, ramp.dark);
    });
  },
  sand(t) {
    // low dunes as a sparse dither of the darker tone, grains of light and dark
    sparseDither(t, 0.4);
    t.scatter(Math.max(2, Math.round(t.area / 36)), (x, y) => t.set(x, y, t.ramp.light));
    t.scatter(Math.max(1, Math.round(t.area / 80)), (x, y) => t.set(x, y, t.ramp.dark));
  },
  dirt,
  mud(t) {
    dirt(t);
    // wet shine
    t.scatter(Math.max(1, Math.round(t.area / 80)), (x, y) => {
      t.set(x, y, t.ramp.light);
      t.set(x + 1, y, t.ramp.light);
    });
  },
  stone: cobbles,
  rock(t) {
    const { ramp, rng, set, get, n } = t;
    t.patches(0.4, 0.05, ramp.dark);
    // cracks: short diagonal runs of shadow with a lit lip above
    t.scatter(Math.max(1, Math.round(t.area / 90)), (x, y) => {
      const len = rng.int(2, Math.max(2, Math.floor(n / 4)));
      const dir = rng.chance(0.5) ? 1 : -1;
      for (let i = 0; i < len; i++) {
        set(x + i * dir, y + i, ramp.shadow);
        if (get(x + i * dir, y + i - 1) === ramp.base) set(x + i * dir, y + i - 1, ramp.light);
      }
    });
    t.scatter(Math.max(1, Math.round(t.area / 60)), (x, y) => set(x, y, ramp.light));
  },
  wall(t) {
    // laid blocks: courses at least four pixels high, each block half a tile long (at least four),
    // every other course offset by half a block; each block's top row lit, dark mortar below and to
    // its right, a few chips. Two plain rows in every course give the tile's joint a calm place
    // (calmestShift), so a joint inside a wall is as smooth as the wall.
    const { ramp, rng, set, n } = t;
    const course = Math.max(4, Math.round(n / 4));
    const block = Math.max(4, Math.round(n / 2));
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++) {
        const row = Math.floor(y / course);
        const u = (x + (row % 2) * Math.round(block / 2)) % block;
        const v = y % course;
        if (v === course - 1 || u === block - 1) set(x, y, ramp.shadow);
        else if (v === 0) set(x, y, ramp.light);
        else if (v === course - 2 && course > 4) set(x, y, ramp.dark);
      }
    t.scatter(Math.max(1, Math.round(t.area / 80)), (x, y) => {
      const v = y % course;
      if (v > 0 && v < course - 2) set(x, y, rng.chance(0.5) ? ramp.dark : ramp.light);
    });
  },
  lava(t) {
    const { ramp, set, n } = t;
    // cooling crust plates (dark) over the molten base, bright cracks where it is hottest
    t.patches(0.42, 0.05, ramp.dark);
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const v = t.patch(x, y);
        if (v < 0.3) set(x, y, ramp.shadow);
        else if (v > 0.66) set(x, y, ramp.light);
        else if (v > 0.62 && checker(x, y)) set(x, y, ramp.light);
      }
    }
    t.scatter(Math.max(1, Math.round(t.area / 70)), (x, y) => set(x, y, t.foam));
  },
  snow(t) {
    const { ramp, set } = t;
    // soft blue-grey hollows as a sparse dither, a few small drifts (a lit crest over its shadow)
    sparseDither(t, 0.38);
    t.scatter(Math.max(1, Math.round(t.area / 96)), (x, y) => {
      set(x, y, ramp.light);
      set(x + 1, y, ramp.light);
      set(x + 1, y + 1, ramp.dark);
      set(x + 2, y + 1, ramp.dark);
    });
  },
  ice(t) {
    const { ramp, rng, set, n } = t;
    // diagonal sheen streaks and a few cracks
    t.scatter(Math.max(1, Math.round(t.area / 64)), (x, y) => {
      const len = rng.int(2, Math.max(2, Math.floor(n / 4)));
      for (let i = 0; i < len; i++) set(x + i, y - i, ramp.light);
    });
    t.scatter(Math.max(1, Math.round(t.area / 96)), (x, y) => {
      set(x, y, ramp.dark);
      set(x + 1, y, ramp.dark);
      set(x + 1, y + 1, ramp.dark);
    });
  },
};

/** Draws the texture of `spec`; deterministic in `rng`. */
export function terrainTexture(
  spec: TerrainSpec,
  size: number,
  rng: Rng,
  painter: Painter,
  avoid: readonly Rgb[] = [],
): TerrainTexture {
  const ramp = terrainRamp(painter, spec, avoid);
  const n = size;
  const px: Rgb[] = new Array(n * n).fill(ramp.base);
  const set = (x: number, y: number, c: Rgb) => {
    px[wrap(y, n) * n + wrap(x, n)] = c;
  };
  const get = (x: number, y: number) => px[wrap(y, n) * n + wrap(x, n)]!;
  // lattice of 4 (or 2 on tiny tiles) cells per tile: patches wrap with the tile
  const cells = n >= 16 ? 4 : 2;
  const noise = new Noise2D(rng.fork('patches'), cells);
  const patch = (x: number, y: number) => noise.fbm((x / n) * cells, (y / n) * cells, 2, 0.5);
  const foam = spec.name === 'lava' ? painter.shade(ramp.light, 1, 0.5) : painter.shade(ramp.light, 1, 0.6);
  const canvas: TextureCanvas = {
    n,
    area: n * n,
    ramp,
    foam,
    rng,
    set,
    get,
    patch,
    patches(lo, band, tone, above = false) {
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          const v = patch(x, y);
          const inside = above ? v > lo : v < lo;
          const edge = above ? v > lo - band && v <= lo : v >= lo && v < lo + band;
          if (inside || (edge && checker(x, y))) set(x, y, tone);
        }
      }
    },
    scatter(count, draw) {
      for (let i = 0; i < count; i++) draw(rng.int(0, n - 1), rng.int(0, n - 1));
    },
  };
  TEXTURES[spec.name]?.(canvas);
  // the tile's joint goes where the texture is calm: the periodic texture is shifted so that the
  // column and row pairs that meet at the tile edges differ no more than the texture does inside
  const ox = calmestShift(px, n, 'x');
  const oy = calmestShift(px, n, 'y');
  const shifted = px.map((_, i) => px[wrap(Math.floor(i / n) + oy, n) * n + wrap((i % n) + ox, n)]!);
  return {
    size: n,
    pixels: shifted,
    ramp,
    foam,
    at: (x, y) => shifted[wrap(y, n) * n + wrap(x, n)]!,
  };
}

const diff = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** The shift that puts the tile edge between the two most alike neighbouring columns (rows). */
export function calmestShift(px: readonly Rgb[], n: number, axis: 'x' | 'y'): number {
  let best = 0;
  let bestD = Number.POSITIVE_INFINITY;
  for (let k = 0; k < n; k++) {
    // the pair (k - 1, k) becomes the joint (n - 1, 0) after shifting by k
    let d = 0;
    for (let j = 0; j < n; j++) {
      d +=
        axis === 'x'
          ? diff(px[j * n + wrap(k - 1, n)]!, px[j * n + k]!)
          : diff(px[wrap(k - 1, n) * n + j]!, px[k * n + j]!);
    }
    if (d < bestD - 1e-9) {
      bestD = d;
      best = k;
    }
  }
  return best;
}
