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
  const area = n * n;
  const foam = spec.name === 'lava' ? painter.shade(ramp.light, 1, 0.5) : painter.shade(ramp.light, 1, 0.6);

  // large soft patches of the darker tone, their edges dithered the way a pixel artist would
  const patches = (lo: number, band: number, tone: Rgb, above = false) => {
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const v = patch(x, y);
        const inside = above ? v > lo : v < lo;
        const edge = above ? v > lo - band && v <= lo : v >= lo && v < lo + band;
        if (inside || (edge && checker(x, y))) set(x, y, tone);
      }
    }
  };
  const scatter = (count: number, draw: (x: number, y: number) => void) => {
    for (let i = 0; i < count; i++) draw(rng.int(0, n - 1), rng.int(0, n - 1));
  };

  switch (spec.name) {
    case 'grass': {
      patches(0.3, 0.06, ramp.dark);
      // tufts: a lit blade over its own shadow, sometimes a pair
      scatter(Math.max(2, Math.round(area / 22)), (x, y) => {
        set(x, y, ramp.light);
        set(x, y + 1, ramp.dark);
        if (rng.chance(0.4)) {
          set(x + 2, y + 1, ramp.light);
          set(x + 2, y + 2, ramp.dark);
        }
      });
      break;
    }
    case 'water': {
      // deeper water in soft dithered patches
      patches(0.33, 0.1, ramp.dark);
      // ripples: short lit dashes, a few darker troughs
      scatter(Math.max(2, Math.round(area / 40)), (x, y) => {
        const len = rng.int(2, Math.max(2, Math.min(4, Math.floor(n / 5))));
        for (let i = 0; i < len; i++) set(x + i, y, ramp.light);
      });
      scatter(Math.max(1, Math.round(area / 90)), (x, y) => {
        set(x, y, ramp.dark);
        set(x + 1, y, ramp.dark);
      });
      break;
    }
    case 'sand': {
      // low dunes as a sparse dither of the darker tone (one pixel in four), grains of light and dark
      for (let y = 0; y < n; y++)
        for (let x = 0; x < n; x++) if (patch(x, y) < 0.4 && (x + 2 * y) % 4 === 0) set(x, y, ramp.dark);
      scatter(Math.max(2, Math.round(area / 36)), (x, y) => set(x, y, ramp.light));
      scatter(Math.max(1, Math.round(area / 80)), (x, y) => set(x, y, ramp.dark));
      break;
    }
    case 'dirt':
    case 'mud': {
      // small packed patches of the darker tone with a wide dithered fringe
      patches(0.27, 0.08, ramp.dark);
      // pebbles: a lit pixel with its shadow below-right
      scatter(Math.max(2, Math.round(area / 40)), (x, y) => {
        set(x, y, ramp.light);
        set(x + 1, y + 1, ramp.shadow);
      });
      scatter(Math.max(2, Math.round(area / 30)), (x, y) => set(x, y, ramp.dark));
      if (spec.name === 'mud') {
        // wet shine
        scatter(Math.max(1, Math.round(area / 80)), (x, y) => {
          set(x, y, ramp.light);
          set(x + 1, y, ramp.light);
        });
      }
      break;
    }
    case 'stone': {
      // cobbles: a wrapped Voronoi of stones, mortar dark, each stone lit at its top-left
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
      const ids = new Int32Array(area);
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
      break;
    }
    case 'rock': {
      patches(0.4, 0.05, ramp.dark);
      // cracks: short diagonal runs of shadow with a lit lip above
      scatter(Math.max(1, Math.round(area / 90)), (x, y) => {
        const len = rng.int(2, Math.max(2, Math.floor(n / 4)));
        const dir = rng.chance(0.5) ? 1 : -1;
        for (let i = 0; i < len; i++) {
          set(x + i * dir, y + i, ramp.shadow);
          if (get(x + i * dir, y + i - 1) === ramp.base) set(x + i * dir, y + i - 1, ramp.light);
        }
      });
      scatter(Math.max(1, Math.round(area / 60)), (x, y) => set(x, y, ramp.light));
      break;
    }
    case 'lava': {
      // cooling crust plates (dark) over the molten base, bright cracks where it is hottest
      patches(0.42, 0.05, ramp.dark);
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          const v = patch(x, y);
          if (v < 0.3) set(x, y, ramp.shadow);
          else if (v > 0.66) set(x, y, ramp.light);
          else if (v > 0.62 && checker(x, y)) set(x, y, ramp.light);
        }
      }
      scatter(Math.max(1, Math.round(area / 70)), (x, y) => set(x, y, foam));
      break;
    }
    case 'snow': {
      // soft blue-grey hollows as a sparse dither, a few small drifts (a lit crest over its shadow)
      for (let y = 0; y < n; y++)
        for (let x = 0; x < n; x++) if (patch(x, y) < 0.38 && (x + 2 * y) % 4 === 0) set(x, y, ramp.dark);
      scatter(Math.max(1, Math.round(area / 96)), (x, y) => {
        set(x, y, ramp.light);
        set(x + 1, y, ramp.light);
        set(x + 1, y + 1, ramp.dark);
        set(x + 2, y + 1, ramp.dark);
      });
      break;
    }
    case 'ice': {
      // diagonal sheen streaks and a few cracks
      scatter(Math.max(1, Math.round(area / 64)), (x, y) => {
        const len = rng.int(2, Math.max(2, Math.floor(n / 4)));
        for (let i = 0; i < len; i++) set(x + i, y - i, ramp.light);
      });
      scatter(Math.max(1, Math.round(area / 96)), (x, y) => {
        set(x, y, ramp.dark);
        set(x + 1, y, ramp.dark);
        set(x + 1, y + 1, ramp.dark);
      });
      break;
    }
  }
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
