import type { PixelCanvas } from '@assetloom/pipeline/pixel';

/**
 * A tiny 3D rig for sprites: bodies and objects are built from balls, sticks (capsules) and flat
 * polygons in the subject's own frame (f forward, s to its right, u up, ground at u = 0), turned to
 * one of 8 facings and projected orthographically with a slight top-down tilt. Parts are painted
 * far to near, so the far legs hide behind the body and the eyes vanish when the subject turns away:
 * 8 directions are 8 different drawings with true diagonals.
 */
export type V3 = readonly [number, number, number]; // local: [forward, side (right), up]

export type Part =
  | { t: 'ball'; c: V3; r: number; m: number; ry?: number; bias?: number }
  | { t: 'stick'; a: V3; b: V3; r: number; m: number; bias?: number }
  | { t: 'poly'; p: readonly V3[]; m: number; bias?: number }
  /** A cone standing on a level disc of radius r at `a`, its tip at `b` (pointed hats, spikes). */
  /** `point`: its apex always drawn (a one-pixel spine to it), a spear's head (decision 0132). */
  | { t: 'cone'; a: V3; b: V3; r: number; m: number; bias?: number; point?: boolean };

/** Facing angle in degrees: 0 towards the viewer (down), 90 to the viewer's right, 180 away (up). */
export const FACING: Readonly<Record<string, number>> = {
  down: 0,
  down_right: 45,
  right: 90,
  up_right: 135,
  up: 180,
  up_left: 225,
  left: 270,
  down_left: 315,
};

export const TILT = 0.42; // radians: how much of the ground plane the camera sees

export interface Camera {
  /** Screen position of the local origin (the subject's feet). */
  ox: number;
  oy: number;
  /** Facing in degrees (see FACING). */
  facing: number;
  /** Hurt and death: rotation in the picture plane about the feet, in radians. */
  fall?: number;
}

interface Projected {
  depth: number;
  order: number;
  draw: (g: PixelCanvas) => void;
}

/** Projects local points: returns [screen x, screen y, depth (larger is nearer the viewer)]. */
export function projector(cam: Camera): (p: V3) => [number, number, number] {
  const th = (cam.facing * Math.PI) / 180;
  const fx = Math.sin(th);
  const fz = Math.cos(th);
  const sx = -Math.cos(th);
  const sz = Math.sin(th);
  const ce = Math.cos(TILT);
  const se = Math.sin(TILT);
  // falling (hurt, death) turns the figure in the picture plane about its feet, so it lies down
  // across the frame whichever way it faces
  const fall = cam.fall ?? 0;
  const cf = Math.cos(fall);
  const sf = Math.sin(fall);
  return ([f, s, u]) => {
    const X = f * fx + s * sx;
    const Z = f * fz + s * sz;
    const x = X;
    const y = -u * ce + Z * se;
    return [cam.ox + x * cf - y * sf, cam.oy + x * sf + y * cf, Z * ce + u * se];
  };
}

export function renderParts(grid: PixelCanvas, parts: readonly Part[], cam: Camera): void {
  const P = projector(cam);
  const list: Projected[] = parts.map((part, order) => {
    switch (part.t) {
      case 'ball': {
        const [x, y, d] = P(part.c);
        const ry = (part.ry ?? part.r) * Math.cos(TILT) + part.r * Math.sin(TILT) * 0.2;
        return { depth: d + (part.bias ?? 0), order, draw: (g) => g.ellipse(x, y, part.r, ry, part.m) };
      }
      case 'stick': {
        const [x0, y0, d0] = P(part.a);
        const [x1, y1, d1] = P(part.b);
        return {
          depth: (d0 + d1) / 2 + (part.bias ?? 0),
          order,
          draw: (g) => g.capsule(x0, y0, x1, y1, part.r, part.m),
        };
      }
      case 'cone': {
        const [x0, y0, d0] = P(part.a);
        const [x1, y1, d1] = P(part.b);
        const ry = Math.max(0.5, part.r * Math.sin(TILT));
        return {
          depth: (d0 + d1) / 2 + (part.bias ?? 0),
          order,
          draw: (g) => {
            g.ellipse(x0, y0, part.r, ry, part.m);
            g.polygon(
              [
                [x0 - part.r, y0],
                [x1, y1],
                [x0 + part.r, y0],
              ],
              part.m,
            );
          },
        };
      }
      default: {
        const pts = part.p.map(P);
        const depth = pts.reduce((a, p) => a + p[2], 0) / pts.length + (part.bias ?? 0);
        return {
          depth,
          order,
          draw: (g) =>
            g.polygon(
              pts.map(([x, y]) => [x, y] as const),
              part.m,
            ),
        };
      }
    }
  });
  list.sort((a, b) => a.depth - b.depth || a.order - b.order);
  for (const p of list) p.draw(grid);
}

/** The visible faces of an axis-aligned box in local coordinates (centre, half sizes), as polygons. */
export function box(c: V3, half: V3, m: number, top = m, facing = 0, bias = 0): Part[] {
  const [cf, cs, cu] = c;
  const [hf, hs, hu] = half;
  const corner = (a: number, b: number, d: number): V3 => [cf + a * hf, cs + b * hs, cu + d * hu];
  const th = (facing * Math.PI) / 180;
  // the camera looks along local -view: which of the ±f and ±s faces point towards it
  const viewF = Math.cos(th); // >0: the +f face is towards the viewer
  const viewS = Math.sin(th); // >0: the +s face is towards the viewer
  const faces: Part[] = [];
  const quad = (pts: V3[], mat: number, extra = 0): void => {
    faces.push({ t: 'poly', p: pts, m: mat, bias: bias + extra });
  };
  const fSign = viewF >= 0 ? 1 : -1;
  const sSign = viewS >= 0 ? 1 : -1;
  if (Math.abs(viewF) > 0.05)
    quad([corner(fSign, -1, -1), corner(fSign, 1, -1), corner(fSign, 1, 1), corner(fSign, -1, 1)], m, 0.01);
  if (Math.abs(viewS) > 0.05)
    quad([corner(-1, sSign, -1), corner(1, sSign, -1), corner(1, sSign, 1), corner(-1, sSign, 1)], m, 0.01);
  quad([corner(-1, -1, 1), corner(1, -1, 1), corner(1, 1, 1), corner(-1, 1, 1)], top, 0.02);
  return faces;
}
