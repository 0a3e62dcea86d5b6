/**
 * Draws a figure's parts into pixels. Parts are painted far to near (painter's order, as a pixel
 * artist overlaps shapes), each pixel keeping its material, a light tone from the part's surface
 * normal (balls and sticks are round, flat parts flat) and the piece it belongs to. The shading pass
 * then colours each tone from the material's ramp, draws a line where a piece overlaps another of
 * the same material (an arm over a tunic of the same cloth), a one-tone contact shadow under a piece
 * nearer the light, and the outline round the silhouette.
 *
 * The look is kept to this one small pass (tones → ramp colours → lines) so the project-wide look of
 * issue #39 can replace it.
 */
import type { Rgb } from '@assetloom/pipeline/pixel';
import { type Camera, type Part, projector, TILT } from '../rig.js';
import { SLOT } from './identity.js';

/** A truncated cone standing on a level disc of radius `ra` at `a`, narrowing to `rb` at `b` (a skirt). */
interface Frustum {
  t: 'frustum';
  a: readonly [number, number, number];
  b: readonly [number, number, number];
  ra: number;
  rb: number;
  m: number;
  bias?: number;
}

/** A part, the bone it moves with and the piece of the outfit it belongs to. */
/**
 * `minPx`: a stick's least radius in art pixels on a grid 56 px tall or more (a sword's blade stays
 * two pixels wide at 64 px whatever the figure's scale; on a smaller grid the half pixel of any stick).
 */
export type FigurePart = (Part | Frustum) & {
  bone?: string;
  piece: string;
  minPx?: number;
  /** A flat part's points to take its shading normal from, where it is not its own (a cape's strips). */
  shade?: readonly (readonly [number, number, number])[];
};

export interface Raster {
  w: number;
  h: number;
  /** Material slot (1-based; 0 empty). */
  mat: Uint8Array;
  /** Light tone 0 (deep shadow) … 3 (lit). */
  tone: Uint8Array;
  /** Index into `pieces` + 1 (0 empty). */
  piece: Uint8Array;
  /** Paint order of the part that drew the pixel (later is nearer). */
  order: Uint16Array;
  pieces: string[];
}

/** A material's colours, from deepest shadow to the outline. */
export interface FigureRamp {
  shadow: Rgb;
  dark: Rgb;
  base: Rgb;
  light: Rgb;
  outline: Rgb;
  /** Drawn in `base` only (eyes, glow). */
  flat?: boolean;
}

type N3 = [number, number, number];

function toneOf(n: N3, light: N3): number {
  const l = n[0] * light[0] + n[1] * light[1] + n[2] * light[2];
  return l > 0.74 ? 3 : l > 0.28 ? 2 : l > -0.12 ? 1 : 0;
}

/** Paints `parts` (in rig units × `unit`) seen by `cam`, lit from `lightXY` (screen, towards the light). */
export function rasterize(
  parts: readonly FigurePart[],
  cam: Camera,
  unit: number,
  w: number,
  h: number,
  lightXY: { x: number; y: number },
): Raster {
  const P0 = projector(cam);
  const P = (p: readonly [number, number, number]) => P0([p[0] * unit, p[1] * unit, p[2] * unit]);
  const lz = 0.85;
  const ln = Math.hypot(lightXY.x, lightXY.y, lz);
  const L: N3 = [lightXY.x / ln, lightXY.y / ln, lz / ln];
  const r: Raster = {
    w,
    h,
    mat: new Uint8Array(w * h),
    tone: new Uint8Array(w * h),
    piece: new Uint8Array(w * h),
    order: new Uint16Array(w * h),
    pieces: [],
  };
  const pieceIndex = new Map<string, number>();
  const pieceOf = (name: string) => {
    let i = pieceIndex.get(name);
    if (i === undefined) {
      r.pieces.push(name);
      i = r.pieces.length;
      pieceIndex.set(name, i);
    }
    return i;
  };
  // the fall turns the picture plane; normals turn with it
  const cf = Math.cos(cam.fall ?? 0);
  const sf = Math.sin(cam.fall ?? 0);
  type Job = { depth: number; i: number; draw: (put: Put) => void };
  type Put = (x: number, y: number, n: N3) => void;
  const jobs: Job[] = parts.map((part, i) => {
    const bias = part.bias ?? 0;
    switch (part.t) {
      case 'ball': {
        const [x, y, d] = P(part.c);
        const rx = part.r * unit;
        const ry = ((part.ry ?? part.r) * Math.cos(TILT) + part.r * Math.sin(TILT) * 0.2) * unit;
        return {
          depth: d + bias * unit,
          i,
          draw: (put) => {
            for (let py = Math.floor(y - ry - 1); py <= Math.ceil(y + ry + 1); py++)
              for (let px = Math.floor(x - rx - 1); px <= Math.ceil(x + rx + 1); px++) {
                const dx = (px + 0.5 - x) / rx;
                const dy = (py + 0.5 - y) / ry;
                const q = dx * dx + dy * dy;
                if (q <= 1) put(px, py, [dx, dy, Math.sqrt(1 - q)]);
              }
          },
        };
      }
      case 'stick': {
        const [x0, y0, d0] = P(part.a);
        const [x1, y1, d1] = P(part.b);
        const rr = Math.max(part.minPx && h >= 56 ? part.minPx : 0.5, part.r * unit);
        // a thin held shaft (a spear's, a staff's) is a line of one width: as a capsule a pixel or
        // two wide it came out one pixel on some rows and two on the next, a bead chain (0119); a
        // wooden shaft ten pixels long or more (a sword's grip and blade are no shaft)
        const shaft =
          part.bone === 'weapon' && part.m === SLOT.wood && rr < 1.25 && Math.hypot(x1 - x0, y1 - y0) >= 10;
        return {
          depth: (d0 + d1) / 2 + bias * unit,
          i,
          draw: (put) => (shaft ? line(put, x0, y0, x1, y1, rr) : capsule(put, x0, y0, x1, y1, rr)),
        };
      }
      case 'frustum': {
        // its outline seen from the camera: the discs' ends across the view, and the hem's ellipse
        const th = (cam.facing * Math.PI) / 180;
        const across = [Math.sin(th), -Math.cos(th), 0] as const;
        const at = (c: readonly [number, number, number], k: number) =>
          P([c[0] + across[0] * k, c[1] + across[1] * k, c[2]]);
        const [ax0, ay0, ad] = at(part.a, -part.ra);
        const [ax1, ay1] = at(part.a, part.ra);
        const [bx0, by0, bd] = at(part.b, -part.rb);
        const [bx1, by1] = at(part.b, part.rb);
        const [hx, hy] = P(part.a);
        const rr = part.ra * unit;
        const ry = Math.max(0.5, rr * Math.sin(TILT));
        const cx = (x: number, y: number) => {
          // the fraction across the outline at this height, for a round shading
          const t = Math.max(0, Math.min(1, (y - by0) / Math.max(1e-6, ay0 - by0)));
          const left = bx0 + (ax0 - bx0) * t;
          const right = bx1 + (ax1 - bx1) * t;
          return Math.max(-1, Math.min(1, ((x + 0.5 - left) / Math.max(1, right - left)) * 2 - 1));
        };
        return {
          depth: (ad + bd) / 2 + bias * unit,
          i,
          draw: (put) => {
            ellipse(put, hx, hy, rr, ry, (dx) => [dx, 0.35, Math.sqrt(Math.max(0, 1 - dx * dx))]);
            polygon(
              [
                [bx0, by0],
                [bx1, by1],
                [ax1, ay1],
                [ax0, ay0],
              ],
              (x, y) => {
                const a = cx(x, y);
                return [a, -0.1, Math.sqrt(Math.max(0, 1 - a * a))];
              },
              put,
            );
          },
        };
      }
      case 'cone': {
        const [x0, y0, d0] = P(part.a);
        const [x1, y1, d1] = P(part.b);
        const rr = part.r * unit;
        const ry = Math.max(0.5, rr * Math.sin(TILT));
        return {
          depth: (d0 + d1) / 2 + bias * unit,
          i,
          draw: (put) => {
            const across = (px: number) => Math.max(-1, Math.min(1, (px + 0.5 - x0) / Math.max(1, rr)));
            ellipse(put, x0, y0, rr, ry, (dx, dy) => [
              dx,
              dy * 0.5 + 0.3,
              Math.sqrt(Math.max(0, 1 - dx * dx)),
            ]);
            polygon(
              [
                [x0 - rr, y0],
                [x1, y1],
                [x0 + rr, y0],
              ],
              (px) => {
                const a = across(px);
                return [a, -0.25, Math.sqrt(Math.max(0, 1 - a * a))];
              },
              put,
            );
            // a point (a spear's head): a one-pixel spine from the base's middle to the apex, so its
            // last rows (narrower than a pixel) are drawn wherever the apex falls — the head came and
            // went by a row or two between the frames of a walk, the spear changing length (0132)
            if (part.point) line(put, x0, y0, x1, y1, 0.5);
          },
        };
      }
      default: {
        const pts = part.p.map(P);
        const depth = pts.reduce((a, p) => a + p[2], 0) / pts.length + bias * unit;
        // the plane's normal, towards the viewer
        let n: N3 = [0, 0, 1];
        const lit = part.shade?.map(P) ?? pts;
        if (lit.length >= 3) {
          const [a, b, c] = [lit[0]!, lit[1]!, lit[2]!];
          const u: N3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
          const v: N3 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
          const cr: N3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
          const l = Math.hypot(...cr) || 1;
          n = [cr[0] / l, cr[1] / l, cr[2] / l];
          if (n[2] < 0) n = [-n[0], -n[1], -n[2]];
        }
        return {
          depth,
          i,
          draw: (put) =>
            polygon(
              pts.map(([x, y]) => [x, y] as [number, number]),
              () => n,
              put,
            ),
        };
      }
    }
  });
  jobs.sort((a, b) => a.depth - b.depth || a.i - b.i);
  // limbs on the far side a tone darker, as a pixel artist shades the far arm and leg
  const s = Math.sin(((cam.facing ?? 0) * Math.PI) / 180);
  const far = s > 0.2 ? '_l' : s < -0.2 ? '_r' : null;
  jobs.forEach((job, order) => {
    const part = parts[job.i]!;
    const m = part.m;
    const pi = pieceOf(part.piece);
    // the far leg two tones darker: crossing the near one in a walk's passing pose a tone apart, the
    // two read as one tangle (a robot's or a knight's side rows: decision 0097)
    const dim = far && part.bone?.endsWith(far) ? (/^(thigh|shin|foot)_/.test(part.bone!) ? 2 : 1) : 0;
    job.draw((x, y, n) => {
      if (x < 0 || y < 0 || x >= w || y >= h) return;
      const k = y * w + x;
      const nn: N3 = [n[0] * cf - n[1] * sf, n[0] * sf + n[1] * cf, n[2]];
      r.mat[k] = m;
      r.tone[k] = Math.max(0, toneOf(nn, L) - dim);
      r.piece[k] = pi;
      r.order[k] = order + 1;
    });
  });
  return r;
}

function capsule(
  put: (x: number, y: number, n: N3) => void,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  rr: number,
) {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len2 = dx * dx + dy * dy || 1e-9;
  for (let y = Math.floor(Math.min(y0, y1) - rr - 1); y <= Math.ceil(Math.max(y0, y1) + rr + 1); y++)
    for (let x = Math.floor(Math.min(x0, x1) - rr - 1); x <= Math.ceil(Math.max(x0, x1) + rr + 1); x++) {
      const px = x + 0.5 - x0;
      const py = y + 0.5 - y0;
      const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
      const ex = (px - t * dx) / rr;
      const ey = (py - t * dy) / rr;
      const q = ex * ex + ey * ey;
      if (q <= 1) put(x, y, [ex, ey, Math.sqrt(1 - q)]);
    }
}

/**
 * A straight line `round(2 rr)` pixels wide (at least one) measured across its major axis, one pixel
 * per step along it (Bresenham's walk from its rounded ends): the same width on every row or column.
 * Its shading normal is the capsule's, across the line.
 */
function line(
  put: (x: number, y: number, n: N3) => void,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  rr: number,
) {
  const wide = Math.max(1, Math.round(rr * 2));
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len = Math.hypot(dx, dy) || 1e-9;
  const steep = Math.abs(dy) > Math.abs(dx);
  // the line's pixel centres: floor of each end, as a one-pixel capsule would centre them
  let ax = Math.floor(x0);
  let ay = Math.floor(y0);
  const bx = Math.floor(x1);
  const by = Math.floor(y1);
  const sx = Math.sign(bx - ax);
  const sy = Math.sign(by - ay);
  const ddx = Math.abs(bx - ax);
  const ddy = Math.abs(by - ay);
  let err = ddx - ddy;
  const lo = -Math.floor((wide - 1) / 2);
  for (let n = 0; n <= ddx + ddy; n++) {
    for (let k = lo; k < lo + wide; k++) {
      const px = steep ? ax + k : ax;
      const py = steep ? ay : ay + k;
      // across the line, −1 … 1, for a round shading
      const across = ((px + 0.5 - x0) * -dy + (py + 0.5 - y0) * dx) / len / Math.max(0.5, wide / 2);
      const a = Math.max(-1, Math.min(1, across));
      put(px, py, [(-dy / len) * a, (dx / len) * a, Math.sqrt(1 - a * a)]);
    }
    if (ax === bx && ay === by) break;
    const e2 = 2 * err;
    if (e2 >= -ddy) {
      err -= ddy;
      ax += sx;
    }
    if (e2 <= ddx) {
      err += ddx;
      ay += sy;
    }
  }
}

function ellipse(
  put: (x: number, y: number, n: N3) => void,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  normal: (dx: number, dy: number) => N3,
) {
  if (rx <= 0 || ry <= 0) return;
  for (let y = Math.floor(cy - ry - 1); y <= Math.ceil(cy + ry + 1); y++)
    for (let x = Math.floor(cx - rx - 1); x <= Math.ceil(cx + rx + 1); x++) {
      const dx = (x + 0.5 - cx) / rx;
      const dy = (y + 0.5 - cy) / ry;
      if (dx * dx + dy * dy <= 1) put(x, y, normal(dx, dy));
    }
}

function polygon(
  points: ReadonlyArray<readonly [number, number]>,
  normal: (x: number, y: number) => N3,
  put: (x: number, y: number, n: N3) => void,
) {
  if (points.length < 3) return;
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const [, y] of points) {
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  for (let y = Math.floor(minY); y <= Math.ceil(maxY); y++) {
    const sy = y + 0.5;
    const xs: number[] = [];
    for (let i = 0; i < points.length; i++) {
      const [ax, ay] = points[i]!;
      const [bx, by] = points[(i + 1) % points.length]!;
      if (ay <= sy !== by <= sy) xs.push(ax + ((sy - ay) / (by - ay)) * (bx - ax));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      for (let x = Math.ceil(xs[k]! - 0.5); x <= Math.floor(xs[k + 1]! - 0.5); x++) put(x, y, normal(x, y));
    }
  }
}

/**
 * Colours a raster: each pixel its material's tone; a line in the outline colour where a piece lies
 * over another of the same material; a tone darker under a nearer piece towards the light; the
 * outline (`lineWeight` pixels) round everything.
 */
export function shadeRaster(
  r: Raster,
  ramps: readonly FigureRamp[],
  opts: {
    light: { x: number; y: number };
    lineWeight: number;
    innerLines: boolean;
    flat?: boolean;
    /**
     * Pieces (1-based indices into `r.pieces`) traced by a line on whatever lies behind them, of any
     * material: a blade swung in front of the body is parted from it by a dark line, as a pixel
     * artist draws it (grey on grey plate, or over a tabard, it merged into the body: decision 0140).
     */
    traced?: ReadonlySet<number>;
  },
): Uint8Array {
  const { w, h, mat, tone, piece, order } = r;
  const out = new Uint8Array(w * h * 4);
  const sx = Math.abs(opts.light.x) > 0.3 ? Math.sign(opts.light.x) : 0;
  const sy = Math.abs(opts.light.y) > 0.3 ? Math.sign(opts.light.y) : 0;
  const put = (k: number, c: Rgb) => {
    out[k * 4] = c[0];
    out[k * 4 + 1] = c[1];
    out[k * 4 + 2] = c[2];
    out[k * 4 + 3] = 255;
  };
  const NB = [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ] as const;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const k = y * w + x;
      const m = mat[k]!;
      if (!m) continue;
      const ramp = ramps[m - 1];
      if (!ramp) continue;
      if (ramp.flat || opts.flat) {
        put(k, ramp.base);
        continue;
      }
      let t = tone[k]!;
      let line = false;
      for (const [dx, dy] of NB) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const q = ny * w + nx;
        if (!mat[q] || piece[q] === piece[k] || order[q]! <= order[k]!) continue;
        // a nearer piece next to this pixel: a line where it is the same material, a contact shadow
        // where it stands between this pixel and the light
        if ((opts.innerLines && mat[q] === m) || (opts.traced?.has(piece[q]!) && !opts.traced.has(piece[k]!)))
          line = true;
        else if ((dx === -sx && sx !== 0) || (dy === -sy && sy !== 0)) t = Math.max(0, t - 1);
      }
      put(
        k,
        line ? ramp.outline : t === 3 ? ramp.light : t === 2 ? ramp.base : t === 1 ? ramp.dark : ramp.shadow,
      );
    }
  // the outline: each pass grows it by a pixel, in the outline colour of the material it borders
  const src = mat.slice();
  for (let pass = 0; pass < opts.lineWeight; pass++) {
    const add: Array<[number, Rgb]> = [];
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const k = y * w + x;
        if (out[k * 4 + 3]) continue;
        let n = -1;
        if (x > 0 && out[(k - 1) * 4 + 3]) n = k - 1;
        else if (x < w - 1 && out[(k + 1) * 4 + 3]) n = k + 1;
        else if (y > 0 && out[(k - w) * 4 + 3]) n = k - w;
        else if (y < h - 1 && out[(k + w) * 4 + 3]) n = k + w;
        if (n < 0) continue;
        const m = src[n]!;
        const ramp = m ? ramps[m - 1] : undefined;
        add.push([k, ramp ? ramp.outline : [out[n * 4]!, out[n * 4 + 1]!, out[n * 4 + 2]!]]);
      }
    for (const [k, c] of add) {
      put(k, c);
      src[k] = 0;
    }
  }
  return out;
}
