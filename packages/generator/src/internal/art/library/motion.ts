import type { PropMotion } from './props.js';

/**
 * Motions for a drawing that has one view: each frame is the drawing moved, turned or squashed (an
 * affine pose around its anchor) and the motion of its parts (parts.ts): flames that change shape
 * over still logs, wings that beat, sails that turn, a coin's shine, an explosion's colours, a flash
 * or a dissolve.
 */

export type LibraryMotion =
  | 'still'
  | 'idle'
  | 'breathe'
  | 'bob'
  | 'walk'
  | 'run'
  | 'jump'
  | 'attack'
  | 'hurt'
  | 'death'
  | 'spin'
  | 'flicker'
  | 'fly'
  | 'float'
  // motions of parts (parts.ts): a windmill's sails turn, a wheel rolls, an explosion bursts
  | 'sails'
  | 'roll'
  | 'burst'
  // motions of things drawn on one still frame's pixels (props.ts): a still prop's idle, glints, a
  // lid or a door opening, a flag waving, bubbles rising, a halo's glow or pulse, a ball's bounce
  | PropMotion;

/** One frame's pose, in units of the subject's own height (dx, dy) and degrees (rot). */
export interface Pose {
  dx: number;
  dy: number;
  rot: number;
  sx: number;
  sy: number;
  /** Flames: sideways waver of the fire-coloured pixels (fraction of height) and its phase. */
  flicker?: { amp: number; phase: number; bright: number };
  /** 1: a white flash (hurt); 0.5: half-way. */
  flash?: number;
  /** 0–1: the share of pixels dissolved away (the end of a death). */
  dissolve?: number;
  /** Wings: the angle (degrees) both wings turn up (−) or down (+) about the shoulders. */
  beat?: number;
  /** Sails: how far (degrees) they have turned about the hub. */
  turn?: number;
  /** A coin's shine: where the light band crosses its face (0 left … 1 right). */
  shine?: number;
  /** An explosion: its stage 0 … 1 (white-yellow, orange, smoke). */
  burst?: number;
}

const TAU = Math.PI * 2;
/** How far a floating thing rises from the bottom of its bob to the top, in its own heights. */
const FLOAT_RISE = 0.085;
const still = (): Pose => ({ dx: 0, dy: 0, rot: 0, sx: 1, sy: 1 });

/**
 * The pose of frame `f` of `n` for a motion, for a subject facing `side` (−1 left, 1 right, 0 towards
 * or away from the viewer: a lunge then goes down or up the screen, `depth` −1 towards, 1 away).
 * Every cyclic motion returns to its first frame after `n`; frames of a motion differ.
 */
export function poseAt(motion: LibraryMotion, f: number, n: number, side: number, depth: number): Pose {
  // an eighth of a frame on: a two-frame cycle's frames are then opposite poses, never the two
  // zero crossings of the same sine (which would be one picture twice)
  const p = n > 0 ? (f + 0.125) / n : 0;
  const s = Math.sin(TAU * p);
  const c = Math.cos(TAU * p);
  const pose = still();
  const forward = side === 0 ? 0 : side;
  switch (motion) {
    case 'still':
      return pose;
    case 'idle':
    case 'breathe':
      // breathing: a little taller and narrower, then back (anchored at the feet)
      pose.sy = 1 + 0.04 * s;
      pose.sx = 1 - 0.025 * s;
      return pose;
    case 'bob':
      pose.dy = -0.03 * (1 - c);
      pose.sy = 1 + 0.015 * s;
      return pose;
    case 'walk':
      pose.rot = 6 * s * (forward || 1);
      pose.dy = -0.035 * Math.abs(s);
      pose.dx = 0.02 * s * (side === 0 ? 1 : 0);
      return pose;
    case 'run':
      pose.rot = 8 * forward + 7 * s;
      pose.dy = -0.07 * Math.abs(s);
      pose.sy = 1 - 0.05 * Math.abs(c);
      return pose;
    case 'jump': {
      // anticipation (a squash on the ground), take-off (stretched, rising), the air, a landing squash
      if (f === 0) {
        pose.sy = 0.82;
        pose.sx = 1.12;
        return pose;
      }
      if (n > 2 && f === n - 1) {
        pose.sy = 0.88;
        pose.sx = 1.08;
        return pose;
      }
      const air = n > 2 ? n - 2 : 1;
      const q = (f - 1 + 0.5) / air;
      const lift = Math.sin(Math.PI * q);
      const rising = Math.cos(Math.PI * q);
      pose.dy = -0.3 * lift;
      pose.sy = 1 + 0.12 * Math.max(0, rising) + 0.04 * Math.max(0, -rising);
      pose.sx = 1 - 0.08 * Math.max(0, rising);
      return pose;
    }
    case 'attack': {
      // wind up (back), strike (forward, past the start), recover
      const k = p < 0.25 ? -p / 0.25 : p < 0.5 ? -1 + ((p - 0.25) / 0.25) * 2.2 : 1.2 * (1 - (p - 0.5) / 0.5);
      if (side !== 0) {
        pose.dx = 0.12 * k * forward;
        pose.rot = 12 * k * forward;
      } else {
        pose.dy = 0.08 * k * (depth || -1) * -1;
        pose.sx = 1 + 0.1 * k * (depth < 0 ? 1 : -1);
        pose.sy = pose.sx;
      }
      return pose;
    }
    case 'hurt': {
      const k = 1 - p;
      pose.dx = -0.08 * k * (forward || 1);
      pose.rot = -8 * k * (forward || 1);
      pose.flash = f === 0 ? 1 : f === 1 && n > 2 ? 0.5 : 0;
      return pose;
    }
    case 'death': {
      const k = Math.min(1, (p + 1 / Math.max(2, n)) * 1.15);
      pose.rot = -90 * Math.min(1, k * 1.25) * (forward || 1);
      pose.sy = 1 - 0.1 * k;
      pose.dissolve = n > 2 && f === n - 1 ? 0.5 : 0;
      return pose;
    }
    case 'spin': {
      // a turn about the vertical axis, half a turn a cycle (a coin's two faces look alike): its
      // width runs through |cos| sampled off the symmetric points, so every frame has its own width
      // (8 frames: 8 widths) down to the rim's thickness, and the shine crosses the face as it turns
      // (a single frame, a sprite, shows the face)
      const a = n > 1 ? (Math.PI * (f + 0.3)) / n : 0;
      pose.sx = Math.max(0.12, Math.abs(Math.cos(a)));
      pose.dy = -0.015 * Math.sin(a);
      pose.shine = (f + 0.5) / Math.max(1, n);
      return pose;
    }
    case 'roll':
      // a wheel turns in its own plane, a whole turn a cycle
      // (two frames half a turn apart would be one picture for a wheel of even spokes)
      pose.rot = (360 * (f / Math.max(1, n)) + (n <= 2 ? 22.5 * f : 0)) * (forward || 1);
      return pose;
    case 'sails':
      pose.turn = 360 * (f / Math.max(1, n));
      return pose;
    case 'burst': {
      // grows fast from a small white-yellow flash, turns orange, then smoke that fades
      const t = n > 1 ? f / (n - 1) : 0;
      const grow = 0.35 + 0.7 * (1 - (1 - Math.min(1, t / 0.6)) ** 2);
      pose.sx = grow;
      pose.sy = grow;
      pose.burst = t;
      pose.dissolve = t > 0.7 ? 0.25 + 0.25 * Math.min(1, (t - 0.7) / 0.3) : 0;
      return pose;
    }
    case 'flicker':
      // only the flames move (the fire-coloured pixels waver and brighten); the logs, the candle's
      // wax, the torch's handle stay where they are
      pose.flicker = { amp: 0.07, phase: TAU * p, bright: s };
      return pose;
    case 'fly':
      // the wings beat (parts.ts turns them about the shoulders); the body rises on the down-stroke
      pose.beat = 32 * c;
      pose.dy = -0.06 + 0.03 * c;
      return pose;
    case 'float':
      // a bob you can see: a twelfth of its height from the bottom of the cycle to the top, eased
      // (4–5 px at 64 px), a little sway; sprite.ts draws its shadow below, smaller as it rises
      pose.dy = FLOAT_RISE * (-(1 - c) / 2) - 0.02;
      pose.rot = 3 * s;
      return pose;
    case 'glow':
    case 'pulse':
    case 'settle':
    case 'sparkle':
    case 'open':
    case 'close':
    case 'wave':
    case 'bubble':
    case 'bounce':
      // one still frame; props.ts draws the motion on its pixels (a resampled pose jitters)
      return pose;
  }
}
