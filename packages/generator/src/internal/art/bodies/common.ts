import type { Action, Feature, KindSpec } from '@assetloom/pipeline/interpret';
import type { Rng } from '@assetloom/pipeline/pixel';
import { box, type Part, type V3 } from '../rig.js';

export type { V3 } from '../rig.js';

/** Material slots shared by every body plan and object (1-based indices into the material list). */
export const M = {
  BODY: 1,
  BODY2: 2,
  DARK: 3,
  EYE: 4,
  SKIN: 5,
  METAL: 6,
  WOOD: 7,
  ACCENT: 8,
  LIGHT: 9,
  GLOW: 10,
  TOP: 11,
  HORN: 12,
  GOLD: 13,
  STRAW: 14,
  /** A knight's armour: steel, enamelled in the asked colour when the prompt names one ("a blue knight"). */
  ARMOR: 15,
} as const;

/**
 * Added to a material slot: the same material one shade darker. Limbs on the far side of a body in
 * side and diagonal views use it, as a pixel artist shades the far arm and leg, so the legs of a
 * walk read as two legs swapping places rather than one blob.
 */
export const FAR = 16;

/** Which side (−1 left, 1 right, 0 none) of a subject turned to `facing` degrees is away from the viewer. */
export function farSide(facing: number): number {
  const s = Math.sin((facing * Math.PI) / 180);
  return s > 0.2 ? -1 : s < -0.2 ? 1 : 0;
}

/** Proportions a seed varies, drawn once per asset (all frames and directions share them). */
export interface Build {
  u: number;
  rng: Rng;
  spec: KindSpec;
  /** The lexicon kind, e.g. `creature.goblin`. */
  kind: string;
  /** The noun drawn (its lemma), for the few touches a kind does not give (a cow's patches). */
  lemma?: string;
  features: ReadonlySet<Feature>;
  /** Overall scale from size words and the kind (small, big). */
  scale: number;
  /** Seed-chosen proportions in [-1, 1]. */
  vary: [number, number, number, number];
  /** The noun's own proportions in [-1, 1], stable for a noun whatever the seed (its identity). */
  shape: readonly number[];
  /** The noun's own stretch along forward, side and up. */
  aspect: V3;
  held?: string;
  /** The prompt named the main colour ("a blue knight"): heraldry (a knight's shield) wears it. */
  coloured?: boolean;
}

/** One frame's pose. Feet stay on the ground line (u = 0) unless the action lifts them. */
export interface Pose {
  action: Action;
  /** 0–1 through the cycle. */
  phase: number;
  /** Forward stride of the left limb set, in units (right set is the opposite). */
  stride: number;
  /** Foot lift of the left / right limb set. */
  liftL: number;
  liftR: number;
  /** Whole-body vertical offset (jump), units. */
  rise: number;
  /** Torso bob (breathing, gait), units; never moves the head sideways. */
  bob: number;
  /** Forward lean of the upper body (radians-ish, small). */
  lean: number;
  /** Arm swing (forward of the left arm), units. */
  swing: number;
  /** Attack: 0 rest, rising to 1 at the wind-up, -1 at the strike. */
  strike: number;
  /** Fall angle for hurt (small) and death (to ~90°). */
  fall: number;
  /** Wing beat −1…1. */
  flap: number;
  /**
   * Raise of a ground contact per unit it steps forward, so a planted foot stays on the baseline in
   * every view (the tilted camera would otherwise draw a foot stepping towards the viewer lower).
   */
  ground: number;
  /** The same for a sideways offset (feet left and right of the centre line stay on one line too). */
  groundS: number;
  /** The facing in degrees (see rig FACING), for far-side shading. */
  facing: number;
}

/** The pose of `action` at `phase` (0–1) of a cycle of `fpd` frames. */
export function poseOf(action: Action, phase: number, fpd: number): Pose {
  const t = phase * Math.PI * 2;
  const s = Math.sin(t);
  const c = Math.cos(t);
  const base: Pose = {
    action,
    phase,
    stride: 0,
    liftL: 0,
    liftR: 0,
    rise: 0,
    bob: 0,
    lean: 0,
    swing: 0,
    strike: 0,
    fall: 0,
    flap: s,
    ground: 0,
    groundS: 0,
    facing: 0,
  };
  switch (action) {
    // contact (phase 0: left foot forward) → passing (right foot lifted past) → contact (right foot
    // forward) → passing (left foot lifted); the arms swing against the legs
    case 'walk':
      return {
        ...base,
        stride: c * 2.4,
        liftL: Math.max(0, -s) * 1.5,
        liftR: Math.max(0, s) * 1.5,
        swing: -c * 2.2,
        // a two-frame cycle bounces between its frames: its two poses mirror each other, which a
        // front or back view cannot tell apart
        bob: fpd === 2 ? (phase >= 0.5 ? 1 : 0) : Math.abs(c) > 0.7 ? 0 : 0.5,
      };
    case 'run':
      return {
        ...base,
        stride: c * 3.4,
        liftL: Math.max(0, -s) * 2.6,
        liftR: Math.max(0, s) * 2.6,
        swing: -c * 3,
        bob: fpd === 2 ? (phase >= 0.5 ? 1.5 : 0) : Math.abs(c) > 0.7 ? 0 : 1,
        lean: 0.18,
      };
    case 'attack': {
      // wind-up over the first 40 %, strike at 50–60 %, recover
      const strike = phase < 0.4 ? phase / 0.4 : phase < 0.65 ? -1 : -1 + (phase - 0.65) / 0.35;
      return { ...base, strike, lean: strike < 0 ? 0.15 : -0.05, stride: strike < 0 ? 1.2 : 0 };
    }
    case 'jump': {
      // crouch, rise, fall, land
      const h = Math.max(0, Math.sin(phase * Math.PI * 2 - Math.PI / 2) * 0.5 + 0.5);
      return {
        ...base,
        rise: h * 4.5,
        bob: phase < 0.15 || phase > 0.9 ? -1 : 0,
        liftL: h * 1.2,
        liftR: h * 1.2,
        swing: h * 2,
      };
    }
    case 'hurt':
      return { ...base, fall: -0.18 - 0.12 * Math.abs(s), lean: -0.2, swing: 1.5 };
    case 'death': {
      const k = fpd > 1 ? Math.min(1, phase * 1.25) : 1;
      return { ...base, fall: -k * (Math.PI / 2) * 0.95, flap: 0 };
    }
    default:
      // idle: breathing, one unit down on the second half of the cycle
      return { ...base, bob: fpd > 1 && phase >= 0.5 ? -0.6 : 0, flap: s * 0.4 };
  }
}

/** A part list with helpers in units of `u × scale`. */
export class Parts {
  readonly list: Part[] = [];
  private readonly a: V3;
  constructor(
    readonly k: number,
    aspect: V3 = [1, 1, 1],
  ) {
    this.a = [k * aspect[0], k * aspect[1], k * aspect[2]];
  }
  private at(p: V3): V3 {
    return [p[0] * this.a[0], p[1] * this.a[1], p[2] * this.a[2]];
  }
  ball(c: V3, r: number, m: number, ry?: number, bias = 0): void {
    this.list.push({
      t: 'ball',
      c: this.at(c),
      r: r * this.k,
      m,
      bias,
      ...(ry ? { ry: ry * this.k } : {}),
    });
  }
  stick(a: V3, b: V3, r: number, m: number, bias = 0): void {
    this.list.push({
      t: 'stick',
      a: this.at(a),
      b: this.at(b),
      r: Math.max(0.5, r * this.k),
      m,
      bias,
    });
  }
  poly(p: V3[], m: number, bias = 0): void {
    this.list.push({ t: 'poly', p: p.map((q) => this.at(q)), m, bias });
  }
  /** An axis-aligned box seen from `facing` (only the faces towards the viewer). */
  box(c: V3, half: V3, m: number, top: number, facing: number, bias = 0): void {
    this.list.push(...box(this.at(c), this.at(half), m, top, facing, bias));
  }
  /** A cone on a level disc of radius r at `a`, pointing to `b`. */
  cone(a: V3, b: V3, r: number, m: number, bias = 0): void {
    this.list.push({ t: 'cone', a: this.at(a), b: this.at(b), r: r * this.k, m, bias });
  }
  raw(parts: Part[]): void {
    this.list.push(...parts);
  }
}

/** Two eyes on a head of radius r centred at `c`, looking forward. */
export function eyes(p: Parts, c: V3, r: number, size = 0.75, spread = 0.42): void {
  for (const side of [-1, 1]) {
    p.ball([c[0] + r * 0.82, c[1] + side * r * spread, c[2] + r * 0.1], size, M.EYE, size * 1.3, 0.4);
  }
}

/** A wing as a flat polygon from the back, spreading to one side; `flap` −1…1 raises it. */
export function wing(p: Parts, root: V3, side: number, span: number, flap: number, m: number): void {
  const lift = flap * span * 0.35;
  p.poly(
    [
      root,
      [root[0] - 1.5, root[1] + side * span * 0.55, root[2] + span * 0.45 + lift],
      [root[0] - 2.5, root[1] + side * span, root[2] + span * 0.2 + lift * 1.4],
      [root[0] - 2, root[1] + side * span * 0.6, root[2] - span * 0.25 + lift * 0.6],
      [root[0] - 0.5, root[1] + side * 0.5, root[2] - span * 0.2],
    ],
    m,
    -0.6,
  );
}
