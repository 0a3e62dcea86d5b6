/**
 * The motion library of the figure rig: each action is data — key poses on a timeline (attack, cast,
 * jump, hurt, death) or a gait (idle, walk, run) sampled at any frame count — so a new action is a
 * row, not a branch. Poses are in body-independent terms (fractions of the leg length, radians), so
 * one walk fits a chibi and a tall figure alike.
 *
 * Walk: contact (heel down, legs apart) → down (the stance knee takes the weight, the body at its
 * lowest) → passing (the swing foot lifted past the stance leg) → up (the body at its highest) →
 * the other contact; arms swing against the legs and the shoulders counter-turn. Attacks and jumps
 * have anticipation (a wind-up, a crouch) and follow-through (the blade past the target, a landing).
 */

export type FigureAction = 'idle' | 'walk' | 'run' | 'jump' | 'attack' | 'cast' | 'hurt' | 'death';
export const FIGURE_ACTIONS: readonly FigureAction[] = [
  'idle',
  'walk',
  'run',
  'jump',
  'attack',
  'cast',
  'hurt',
  'death',
];

/** Where a foot is, relative to the point under its hip, in fractions of the leg length. */
interface FootPose {
  f: number;
  /** Height of the ankle above its resting height (0: planted). */
  u: number;
  /** Sideways, outwards. */
  s: number;
  /** The foot's pitch, toe down (radians). */
  toe: number;
}

/** An arm's angles: 0 hangs down; pitch π/2 points forward, π straight up. */
interface ArmPose {
  pitch: number;
  /** Away from the body, sideways. */
  roll: number;
  /** The elbow's bend, forward. */
  elbow: number;
}

export interface MotionPose {
  /** The pelvis forward of the feet's centre (fraction of the leg length). */
  pelvisF: number;
  /** The pelvis lowered by bent knees (fraction of the leg length). */
  drop: number;
  /** The whole figure off the ground (fraction of the leg length). */
  rise: number;
  /** The upper body's forward lean, the shoulders' turn to the figure's right, the head's nod (radians). */
  lean: number;
  twist: number;
  nod: number;
  feet: [FootPose, FootPose];
  arms: [ArmPose, ArmPose];
  /** A held weapon's angle from the forearm, forward (radians), and its lean outwards (0…1). */
  grip: number;
  splay: number;
  /** 1: the weapon is held its own resting way (a staff upright); 0: as `grip` and `splay` say. */
  hold: number;
  /** Turn of the whole figure about its feet in the picture plane, to lie down (radians, unsigned). */
  fall: number;
  /** 1: a gait's step swings the arms (walk, run): a weapon arm then swings forward, hardly back. */
  swing: number;
  /** Wings' beat (−1…1), a cape's flare backwards (0…1), a spell's light (0…1), a hit's flash (0…1). */
  flap: number;
  cape: number;
  glow: number;
  flash: number;
}

/** How an attack is made, from what is held. */
export type AttackStyle = 'swing' | 'thrust' | 'shoot' | 'aim' | 'punch' | 'cast';

const foot = (f = 0, u = 0, s = 0, toe = 0): FootPose => ({ f, u, s, toe });
const arm = (pitch = 0.08, roll = 0.16, elbow = 0.2): ArmPose => ({ pitch, roll, elbow });

export const REST: MotionPose = {
  pelvisF: 0,
  drop: 0.015,
  rise: 0,
  lean: 0,
  twist: 0,
  nod: 0,
  feet: [foot(0, 0, 0.03), foot(0, 0, 0.03)],
  arms: [arm(), arm()],
  grip: 0.75,
  splay: 0.6,
  hold: 1,
  fall: 0,
  swing: 0,
  flap: 0,
  cape: 0.1,
  glow: 0,
  flash: 0,
};

type Key = { at: number } & Partial<Omit<MotionPose, 'feet' | 'arms'>> & {
    feet?: [Partial<FootPose>, Partial<FootPose>];
    arms?: [Partial<ArmPose>, Partial<ArmPose>];
  };

/** A fighting stance: feet apart front and back, weapon up. */
const READY: Key = {
  at: 0,
  hold: 0,
  lean: 0.04,
  drop: 0.06,
  feet: [
    { f: 0.14, s: 0.05 },
    { f: -0.14, s: 0.05 },
  ],
  arms: [
    { pitch: 0.45, roll: 0.25, elbow: 0.9 },
    { pitch: 0.35, roll: 0.22, elbow: 1.05 },
  ],
  grip: 1.35,
};

/** A swing's strike, follow-through and recovery: the same seen from every side. */
const SWING_AFTER: readonly Key[] = [
  // the strike: a lunge, the arm and blade in one line
  {
    at: 0.48,
    hold: 0,
    twist: 0.4,
    lean: 0.28,
    pelvisF: 0.1,
    drop: 0.14,
    feet: [
      { f: 0.3, s: 0.06 },
      { f: -0.2, s: 0.05, toe: 0.3 },
    ],
    arms: [
      { pitch: -0.3, roll: 0.3, elbow: 0.5 },
      { pitch: 1.05, roll: 0.15, elbow: 0.05 },
    ],
    grip: 0.05,
    splay: 0.1,
  },
  // follow-through: the blade carried past, low
  {
    at: 0.62,
    hold: 0,
    twist: 0.55,
    lean: 0.32,
    pelvisF: 0.1,
    drop: 0.16,
    feet: [
      { f: 0.3, s: 0.06 },
      { f: -0.2, s: 0.05, toe: 0.3 },
    ],
    arms: [
      { pitch: -0.4, roll: 0.3, elbow: 0.5 },
      { pitch: 0.45, roll: 0.1, elbow: 0.05 },
    ],
    grip: 0.15,
    splay: 0.15,
  },
  {
    at: 0.8,
    hold: 0,
    twist: 0.2,
    lean: 0.15,
    drop: 0.1,
    feet: [
      { f: 0.22, s: 0.05 },
      { f: -0.16, s: 0.05 },
    ],
    arms: [
      { pitch: 0.1, roll: 0.25, elbow: 0.6 },
      { pitch: 0.5, roll: 0.2, elbow: 0.6 },
    ],
    grip: 0.9,
  },
];

/** Key poses of the actions that are not gaits; `loop` actions return to their first pose. */
const TIMELINES: Readonly<Record<string, { loop: boolean; keys: readonly Key[] }>> = {
  'attack:swing': {
    loop: true,
    keys: [
      READY,
      // anticipation: the blade drawn back over the shoulder, the body turned away and leaning back
      {
        at: 0.2,
        hold: 0,
        twist: -0.45,
        lean: -0.12,
        drop: 0.05,
        feet: [
          { f: 0.1, s: 0.05 },
          { f: -0.16, s: 0.05 },
        ],
        arms: [
          { pitch: 1.0, roll: 0.2, elbow: 0.4 },
          { pitch: 2.7, roll: 0.3, elbow: 1.3 },
        ],
        grip: 1.1,
      },
      {
        at: 0.34,
        hold: 0,
        twist: -0.5,
        lean: -0.15,
        drop: 0.06,
        feet: [
          { f: 0.1, s: 0.05 },
          { f: -0.16, s: 0.05 },
        ],
        arms: [
          { pitch: 1.05, roll: 0.2, elbow: 0.4 },
          { pitch: 2.95, roll: 0.3, elbow: 1.4 },
        ],
        grip: 1.0,
      },
      ...SWING_AFTER,
    ],
  },
  // a swing seen in profile (decision 0140): the keys a pixel artist draws from the side, each with the
  // weapon clear of the body's silhouette — ready, the blade low and forward under the shield (held
  // up before the chest it lay over the shield and the face: 3 of 23 blade pixels clear at 64 px);
  // the wind-up with the blade up and back behind the head (the forearm folded back and the blade
  // pointing down the back lay over the head and the cape: 0–1 of 29 clear); strike and
  // follow-through as from the front
  'attack:swing:side': {
    loop: true,
    keys: [
      {
        ...READY,
        arms: [READY.arms![0], { pitch: 0.55, roll: 0.22, elbow: 0.55 }],
        grip: 0.75,
      },
      {
        at: 0.2,
        hold: 0,
        twist: -0.2,
        lean: -0.12,
        drop: 0.05,
        feet: [
          { f: 0.12, s: 0.05 },
          { f: -0.16, s: 0.05 },
        ],
        arms: [
          { pitch: 1.0, roll: 0.2, elbow: 0.4 },
          { pitch: 3.2, roll: 0.3, elbow: 0.6 },
        ],
        grip: 0.6,
      },
      {
        at: 0.34,
        hold: 0,
        twist: -0.2,
        lean: -0.15,
        drop: 0.06,
        feet: [
          { f: 0.12, s: 0.05 },
          { f: -0.16, s: 0.05 },
        ],
        arms: [
          { pitch: 1.05, roll: 0.2, elbow: 0.4 },
          { pitch: 3.5, roll: 0.3, elbow: 0.6 },
        ],
        grip: 0.6,
      },
      ...SWING_AFTER,
    ],
  },
  'attack:thrust': {
    loop: true,
    keys: [
      READY,
      {
        at: 0.22,
        hold: 0,
        twist: -0.35,
        lean: -0.1,
        pelvisF: -0.06,
        feet: [
          { f: 0.12, s: 0.05 },
          { f: -0.2, s: 0.05 },
        ],
        arms: [
          { pitch: 0.7, roll: 0.2, elbow: 0.8 },
          { pitch: 0.5, roll: 0.25, elbow: 1.9 },
        ],
        grip: 1.55,
      },
      {
        at: 0.34,
        hold: 0,
        twist: -0.4,
        lean: -0.12,
        pelvisF: -0.08,
        feet: [
          { f: 0.12, s: 0.05 },
          { f: -0.2, s: 0.05 },
        ],
        arms: [
          { pitch: 0.7, roll: 0.2, elbow: 0.8 },
          { pitch: 0.45, roll: 0.25, elbow: 2.1 },
        ],
        grip: 1.6,
      },
      {
        at: 0.5,
        hold: 0,
        twist: 0.35,
        lean: 0.3,
        pelvisF: 0.12,
        drop: 0.14,
        feet: [
          { f: 0.4, s: 0.06 },
          { f: -0.22, s: 0.05, toe: 0.3 },
        ],
        arms: [
          { pitch: -0.3, roll: 0.3, elbow: 0.4 },
          { pitch: 1.35, roll: 0.1, elbow: 0.25 },
        ],
        grip: 1.55,
      },
      {
        at: 0.64,
        hold: 0,
        twist: 0.4,
        lean: 0.32,
        pelvisF: 0.12,
        drop: 0.15,
        feet: [
          { f: 0.4, s: 0.06 },
          { f: -0.22, s: 0.05, toe: 0.3 },
        ],
        arms: [
          { pitch: -0.3, roll: 0.3, elbow: 0.4 },
          { pitch: 1.45, roll: 0.1, elbow: 0.05 },
        ],
        grip: 1.55,
      },
      {
        at: 0.82,
        hold: 0,
        twist: 0.1,
        lean: 0.12,
        drop: 0.09,
        feet: [
          { f: 0.22, s: 0.05 },
          { f: -0.16, s: 0.05 },
        ],
        arms: [
          { pitch: 0.3, roll: 0.22, elbow: 0.7 },
          { pitch: 0.6, roll: 0.2, elbow: 1.0 },
        ],
        grip: 1.45,
      },
    ],
  },
  'attack:shoot': {
    loop: true,
    keys: [
      { ...READY, twist: 0.3 },
      // the bow raised and the string drawn back to the cheek
      {
        at: 0.22,
        hold: 0,
        twist: 0.6,
        lean: -0.04,
        feet: [
          { f: 0.16, s: 0.06 },
          { f: -0.16, s: 0.06 },
        ],
        arms: [
          { pitch: 1.5, roll: 0.05, elbow: 0.05 },
          { pitch: 1.3, roll: 0.3, elbow: 2.2 },
        ],
      },
      {
        at: 0.45,
        hold: 0,
        twist: 0.65,
        lean: -0.06,
        feet: [
          { f: 0.16, s: 0.06 },
          { f: -0.16, s: 0.06 },
        ],
        arms: [
          { pitch: 1.55, roll: 0.05, elbow: 0.02 },
          { pitch: 1.35, roll: 0.45, elbow: 2.6 },
        ],
      },
      // release: the drawing hand flies back, the body recoils
      {
        at: 0.56,
        hold: 0,
        twist: 0.7,
        lean: -0.1,
        feet: [
          { f: 0.16, s: 0.06 },
          { f: -0.16, s: 0.06 },
        ],
        arms: [
          { pitch: 1.6, roll: 0.05, elbow: 0.02 },
          { pitch: 1.0, roll: 0.7, elbow: 1.2 },
        ],
      },
      {
        at: 0.78,
        hold: 0,
        twist: 0.45,
        lean: -0.02,
        feet: [
          { f: 0.15, s: 0.05 },
          { f: -0.15, s: 0.05 },
        ],
        arms: [
          { pitch: 1.1, roll: 0.15, elbow: 0.3 },
          { pitch: 0.5, roll: 0.35, elbow: 0.7 },
        ],
      },
    ],
  },
  // a gun: the right shoulder turns forward, the gun arm comes up straight to aim, the shot kicks the
  // hand up and the body back, then the arm settles (a bow's shot raises the other arm)
  'attack:aim': {
    loop: true,
    keys: [
      { ...READY, twist: -0.25 },
      {
        at: 0.25,
        hold: 0,
        twist: -0.55,
        lean: 0,
        feet: [
          { f: 0.16, s: 0.06 },
          { f: -0.16, s: 0.06 },
        ],
        arms: [
          { pitch: 0.35, roll: 0.3, elbow: 0.9 },
          { pitch: 1.5, roll: 0.02, elbow: 0.02 },
        ],
      },
      {
        at: 0.45,
        hold: 0,
        twist: -0.6,
        lean: -0.02,
        feet: [
          { f: 0.16, s: 0.06 },
          { f: -0.16, s: 0.06 },
        ],
        arms: [
          { pitch: 0.35, roll: 0.3, elbow: 0.9 },
          { pitch: 1.55, roll: 0.02, elbow: 0.02 },
        ],
      },
      // the shot: the hand kicks up, the body rocks back
      {
        at: 0.56,
        hold: 0,
        twist: -0.5,
        lean: -0.14,
        feet: [
          { f: 0.16, s: 0.06 },
          { f: -0.16, s: 0.06 },
        ],
        arms: [
          { pitch: 0.4, roll: 0.35, elbow: 0.9 },
          { pitch: 2.05, roll: 0.05, elbow: 0.35 },
        ],
      },
      {
        at: 0.78,
        hold: 0,
        twist: -0.4,
        lean: -0.02,
        feet: [
          { f: 0.15, s: 0.05 },
          { f: -0.15, s: 0.05 },
        ],
        arms: [
          { pitch: 0.4, roll: 0.3, elbow: 0.9 },
          { pitch: 1.2, roll: 0.1, elbow: 0.3 },
        ],
      },
    ],
  },
  'attack:punch': {
    loop: true,
    keys: [
      {
        ...READY,
        arms: [
          { pitch: 0.7, roll: 0.25, elbow: 1.9 },
          { pitch: 0.6, roll: 0.25, elbow: 2.0 },
        ],
      },
      {
        at: 0.25,
        hold: 0,
        twist: -0.45,
        lean: -0.05,
        arms: [
          { pitch: 0.8, roll: 0.25, elbow: 1.7 },
          { pitch: 0.3, roll: 0.3, elbow: 2.3 },
        ],
        feet: [
          { f: 0.14, s: 0.05 },
          { f: -0.16, s: 0.05 },
        ],
      },
      {
        at: 0.45,
        hold: 0,
        twist: 0.5,
        lean: 0.2,
        pelvisF: 0.08,
        drop: 0.1,
        arms: [
          { pitch: 0.5, roll: 0.25, elbow: 2.1 },
          { pitch: 1.55, roll: 0.1, elbow: 0.05 },
        ],
        feet: [
          { f: 0.3, s: 0.05 },
          { f: -0.2, s: 0.05, toe: 0.3 },
        ],
      },
      {
        at: 0.6,
        hold: 0,
        twist: 0.5,
        lean: 0.22,
        pelvisF: 0.08,
        drop: 0.1,
        arms: [
          { pitch: 0.5, roll: 0.25, elbow: 2.1 },
          { pitch: 1.5, roll: 0.1, elbow: 0.1 },
        ],
        feet: [
          { f: 0.3, s: 0.05 },
          { f: -0.2, s: 0.05, toe: 0.3 },
        ],
      },
      {
        at: 0.8,
        hold: 0,
        twist: 0.1,
        lean: 0.08,
        arms: [
          { pitch: 0.7, roll: 0.25, elbow: 1.9 },
          { pitch: 0.8, roll: 0.25, elbow: 1.6 },
        ],
      },
    ],
  },
  cast: {
    loop: true,
    keys: [
      { at: 0, arms: [arm(0.3, 0.2, 0.5), arm(0.35, 0.2, 0.7)], grip: 1.45 },
      // gathering: the hands together before the chest
      {
        at: 0.2,
        lean: -0.04,
        drop: 0.05,
        arms: [
          { pitch: 0.9, roll: -0.15, elbow: 1.7 },
          { pitch: 0.9, roll: -0.1, elbow: 1.6 },
        ],
        grip: 1.6,
        glow: 0.35,
      },
      // raised: the staff or the open hand high, the head back
      {
        at: 0.4,
        lean: -0.12,
        nod: -0.15,
        drop: 0.02,
        arms: [
          { pitch: 1.3, roll: 0.4, elbow: 0.2 },
          { pitch: 2.2, roll: 0.2, elbow: 0.15 },
        ],
        grip: 1.5,
        glow: 0.75,
      },
      // release: both arms thrust forward, a step into it
      {
        at: 0.56,
        lean: 0.2,
        pelvisF: 0.06,
        drop: 0.08,
        feet: [
          { f: 0.2, s: 0.05 },
          { f: -0.12, s: 0.04 },
        ],
        arms: [
          { pitch: 1.5, roll: 0.1, elbow: 0.05 },
          { pitch: 1.45, roll: 0.05, elbow: 0.05 },
        ],
        grip: 1.5,
        glow: 1,
      },
      {
        at: 0.74,
        lean: 0.16,
        pelvisF: 0.04,
        drop: 0.07,
        feet: [
          { f: 0.2, s: 0.05 },
          { f: -0.12, s: 0.04 },
        ],
        arms: [
          { pitch: 1.3, roll: 0.12, elbow: 0.15 },
          { pitch: 1.3, roll: 0.08, elbow: 0.15 },
        ],
        grip: 1.5,
        glow: 0.45,
      },
    ],
  },
  jump: {
    loop: true,
    keys: [
      // anticipation: the crouch, arms back
      {
        at: 0,
        drop: 0.3,
        lean: 0.32,
        nod: 0.1,
        feet: [
          { f: 0.05, s: 0.05 },
          { f: -0.03, s: 0.05 },
        ],
        arms: [
          { pitch: -0.8, roll: 0.2, elbow: 0.3 },
          { pitch: -0.8, roll: 0.2, elbow: 0.3 },
        ],
        cape: 0.2,
      },
      // take-off: stretched, arms thrown up, toes pointed
      {
        at: 0.17,
        drop: -0.02,
        rise: 0.1,
        lean: 0.05,
        feet: [
          { u: 0.04, toe: 0.7 },
          { u: 0.02, toe: 0.7 },
        ],
        arms: [
          { pitch: 2.6, roll: 0.2, elbow: 0.2 },
          { pitch: 2.6, roll: 0.2, elbow: 0.2 },
        ],
        cape: 0.1,
        flap: 1,
      },
      {
        at: 0.34,
        rise: 0.24,
        drop: 0.08,
        feet: [
          { f: 0.05, u: 0.22, toe: 0.3 },
          { f: -0.08, u: 0.12, toe: 0.4 },
        ],
        arms: [
          { pitch: 2.2, roll: 0.35, elbow: 0.4 },
          { pitch: 2.2, roll: 0.35, elbow: 0.4 },
        ],
        cape: 0.4,
        flap: 0,
      },
      // the top: tucked
      {
        at: 0.5,
        rise: 0.3,
        drop: 0.1,
        lean: 0.08,
        feet: [
          { f: 0.1, u: 0.3, toe: 0.2 },
          { f: -0.02, u: 0.24, toe: 0.3 },
        ],
        arms: [
          { pitch: 1.7, roll: 0.55, elbow: 0.5 },
          { pitch: 1.7, roll: 0.55, elbow: 0.5 },
        ],
        cape: 0.7,
        flap: -1,
      },
      // falling: legs reaching down, arms up for balance
      {
        at: 0.67,
        rise: 0.14,
        feet: [
          { f: 0.06, u: 0.04, toe: 0.2 },
          { f: -0.04, u: 0.02, toe: 0.2 },
        ],
        arms: [
          { pitch: 2.2, roll: 0.6, elbow: 0.3 },
          { pitch: 2.2, roll: 0.6, elbow: 0.3 },
        ],
        cape: 0.9,
        flap: 0,
      },
      // landing: the crouch takes the weight
      {
        at: 0.83,
        drop: 0.28,
        lean: 0.28,
        feet: [
          { f: 0.06, s: 0.06 },
          { f: -0.04, s: 0.06 },
        ],
        arms: [
          { pitch: 0.7, roll: 0.55, elbow: 0.4 },
          { pitch: 0.7, roll: 0.55, elbow: 0.4 },
        ],
        cape: 0.5,
        flap: 1,
      },
    ],
  },
  hurt: {
    loop: true,
    keys: [
      // the blow: knocked back, head snapped back, arms flung out, a flash
      {
        at: 0,
        lean: -0.22,
        nod: -0.1,
        pelvisF: -0.12,
        drop: 0.08,
        feet: [{ f: 0.1 }, { f: -0.12 }],
        arms: [
          { pitch: 0.6, roll: 0.75, elbow: 0.6 },
          { pitch: 0.5, roll: 0.7, elbow: 0.6 },
        ],
        flash: 1,
        cape: 0.6,
      },
      {
        at: 0.22,
        lean: -0.28,
        nod: -0.12,
        pelvisF: -0.16,
        drop: 0.12,
        feet: [{ f: 0.14 }, { f: -0.22, toe: 0.2 }],
        arms: [
          { pitch: 0.7, roll: 0.8, elbow: 0.7 },
          { pitch: 0.6, roll: 0.75, elbow: 0.7 },
        ],
        flash: 0.5,
        cape: 0.8,
      },
      {
        at: 0.55,
        lean: -0.15,
        nod: -0.1,
        pelvisF: -0.06,
        drop: 0.1,
        feet: [{ f: 0.1 }, { f: -0.14 }],
        arms: [
          { pitch: 0.3, roll: 0.4, elbow: 0.5 },
          { pitch: 0.3, roll: 0.4, elbow: 0.5 },
        ],
        cape: 0.3,
      },
    ],
  },
  death: {
    loop: false,
    keys: [
      {
        at: 0,
        lean: -0.32,
        nod: -0.3,
        pelvisF: -0.1,
        drop: 0.08,
        arms: [
          { pitch: 0.6, roll: 0.75, elbow: 0.6 },
          { pitch: 0.5, roll: 0.7, elbow: 0.6 },
        ],
      },
      // the knees give
      {
        at: 0.25,
        lean: -0.2,
        nod: -0.2,
        drop: 0.3,
        feet: [
          { f: 0.14, s: 0.06 },
          { f: -0.04, s: 0.06 },
        ],
        arms: [
          { pitch: 0.4, roll: 0.5, elbow: 0.4 },
          { pitch: 0.35, roll: 0.5, elbow: 0.4 },
        ],
        fall: 0.15,
      },
      {
        at: 0.5,
        lean: -0.1,
        drop: 0.4,
        feet: [
          { f: 0.18, s: 0.06 },
          { f: 0, s: 0.06 },
        ],
        arms: [
          { pitch: 0.8, roll: 0.6, elbow: 0.3 },
          { pitch: 0.7, roll: 0.6, elbow: 0.3 },
        ],
        fall: 0.75,
      },
      // down, a small bounce, then still
      {
        at: 0.72,
        drop: 0.35,
        feet: [
          { f: 0.18, s: 0.06 },
          { f: 0.02, s: 0.06 },
        ],
        arms: [
          { pitch: 1.2, roll: 0.5, elbow: 0.2 },
          { pitch: 1.1, roll: 0.5, elbow: 0.2 },
        ],
        fall: 1.57,
      },
      {
        at: 0.86,
        drop: 0.32,
        feet: [
          { f: 0.18, s: 0.06 },
          { f: 0.02, s: 0.06 },
        ],
        arms: [
          { pitch: 1.3, roll: 0.45, elbow: 0.2 },
          { pitch: 1.2, roll: 0.45, elbow: 0.2 },
        ],
        fall: 1.45,
      },
      {
        at: 1,
        drop: 0.34,
        feet: [
          { f: 0.18, s: 0.06 },
          { f: 0.02, s: 0.06 },
        ],
        arms: [
          { pitch: 1.3, roll: 0.4, elbow: 0.1 },
          { pitch: 1.25, roll: 0.4, elbow: 0.1 },
        ],
        fall: 1.57,
      },
    ],
  },
};

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
/** Ease in and out: poses hold a little at their keys (a pixel artist's spacing). */
const ease = (t: number) => t * t * (3 - 2 * t);

function fill(key: Key): MotionPose {
  const [fl, fr] = key.feet ?? [{}, {}];
  const [al, ar] = key.arms ?? [{}, {}];
  return {
    ...REST,
    ...key,
    feet: [
      { ...REST.feet[0], ...fl },
      { ...REST.feet[1], ...fr },
    ],
    arms: [
      { ...REST.arms[0], ...al },
      { ...REST.arms[1], ...ar },
    ],
  };
}

function mixPose(a: MotionPose, b: MotionPose, t: number): MotionPose {
  const out = { ...a } as Record<string, unknown>;
  for (const k of Object.keys(a) as Array<keyof MotionPose>) {
    const va = a[k];
    const vb = b[k];
    if (typeof va === 'number' && typeof vb === 'number') out[k] = lerp(va, vb, t);
  }
  const mixAll = <T extends object>(x: T, y: T): T => {
    const o = {} as Record<string, number>;
    for (const k of Object.keys(x)) o[k] = lerp((x as never)[k], (y as never)[k], t);
    return o as T;
  };
  out.feet = [mixAll(a.feet[0], b.feet[0]), mixAll(a.feet[1], b.feet[1])];
  out.arms = [mixAll(a.arms[0], b.arms[0]), mixAll(a.arms[1], b.arms[1])];
  return out as unknown as MotionPose;
}

function sampleTimeline(line: { loop: boolean; keys: readonly Key[] }, t: number): MotionPose {
  const keys = line.keys.map((k) => ({ at: k.at, pose: fill(k) }));
  if (line.loop) keys.push({ at: 1, pose: keys[0]!.pose });
  for (let i = 0; i + 1 < keys.length; i++) {
    const a = keys[i]!;
    const b = keys[i + 1]!;
    if (t >= a.at && t <= b.at)
      return mixPose(a.pose, b.pose, ease((t - a.at) / Math.max(1e-6, b.at - a.at)));
  }
  return keys[keys.length - 1]!.pose;
}

/**
 * A step of a gait for one leg at `p` (0–1: stance from 0 to `stance`, then swing). The swing foot
 * passes the stance leg as a pixel artist draws it: at the passing pose (`PASS` of the swing) it is
 * already `ahead` forward of the hip and at its highest, the knee forward and the shin hanging near
 * its vertical in front of the stance leg, then it reaches on to the next contact.
 */
function gaitFoot(
  p: number,
  stride: number,
  lift: number,
  stance: number,
  ahead: number,
  /** How fast the foot comes forward out of the push-off: its ease-out's power (1: evenly). */
  out: number,
): FootPose {
  const q = ((p % 1) + 1) % 1;
  if (q < stance) {
    const t = q / stance;
    // the planted foot slides back under the body; the heel lifts as it pushes off
    return foot(
      stride - 2 * stride * t,
      t > 0.75 ? (t - 0.75) * 0.12 : 0,
      0.02,
      t > 0.7 ? (t - 0.7) * 1.6 : 0,
    );
  }
  const t = (q - stance) / (1 - stance);
  // the swing foot comes forward fast and low (easing out of the push-off: a walk's swing is as long
  // as its stance, so its foot must be past the stance leg early) and is past the stance
  // leg by the passing pose; lifted behind the body with its knee already forward (decision 0097's
  // swing), the shin sloped back across the stance one: side rows' legs crossed in an X (0118)
  const a = Math.min(1, t / PASS);
  const b = Math.max(0, (t - PASS) / (1 - PASS));
  const f = t < PASS ? -stride + (ahead + stride) * (1 - (1 - a) ** out) : ahead + (stride - ahead) * ease(b);
  const up = t < PASS ? Math.sin((Math.PI / 2) * a) : Math.cos((Math.PI / 2) * b ** 1.3);
  return foot(f, lift * up, 0.02, 0.5 * up * (1 - t));
}

/** Where in its swing a foot passes the stance leg (and is highest). */
const PASS = 0.5;

const TAU = Math.PI * 2;

/**
 * How high a walking foot lifts (fraction of the leg length). Facing the viewer a step shows only as
 * the lifted foot: at 0.2 a robot's short legs moved by a pixel in its down row (decision 0092).
 */
const WALK_LIFT = 0.36;
/**
 * How far forward of the hip a walking foot is as it passes the stance leg (fraction of the leg): a
 * shin's width and more at 64 px, so the swing shin hangs in front of the stance one (decision 0118).
 */
const WALK_AHEAD = 0.2;
/** A run's knee higher and its foot further ahead passing (a walk's 0.36 and 0.2). */
const RUN_LIFT = 0.42;
const RUN_AHEAD = 0.24;

/** The pelvis lowered at a walk's contact and at its passing pose (fractions of the leg length). */
const WALK_DROP: readonly [number, number] = [0.065, 0.005];

/** A gait (idle, walk, run) at phase `p` in [0, 1). */
function gait(action: 'idle' | 'walk' | 'run', p: number): MotionPose {
  const c = Math.cos(TAU * p);
  const s = Math.sin(TAU * p);
  if (action === 'idle') {
    // breathing: the chest and head sink a pixel and rise, the arms sway a little
    const breath = (1 - c) / 2;
    return {
      ...REST,
      drop: 0.015 + 0.04 * breath,
      nod: 0.03 * breath,
      feet: [foot(0.02, 0, 0.05), foot(-0.02, 0, 0.05)],
      arms: [
        arm(0.06 + 0.05 * s, 0.17 + 0.03 * breath, 0.2),
        arm(0.06 - 0.05 * s, 0.17 + 0.03 * breath, 0.2),
      ],
      cape: 0.1 + 0.05 * breath,
      flap: 0.3 * s,
    };
  }
  if (action === 'walk') {
    const stride = 0.3;
    return {
      ...REST,
      // lowest at the contacts (p = 0, 1/2: legs apart and straight), highest passing (p = 1/4, 3/4:
      // the stance leg straight under the hip) — a bob of a pixel at 64 px that 4 frames sample (it
      // peaked at 1/8 and 5/8, between a 4-frame walk's frames: every frame was at one height)
      drop: WALK_DROP[0] + ((WALK_DROP[1] - WALK_DROP[0]) * (1 - Math.cos(2 * TAU * p))) / 2,
      lean: 0.06,
      twist: 0.14 * c,
      nod: 0.02,
      feet: [
        gaitFoot(p, stride, WALK_LIFT, 0.5, WALK_AHEAD, 3),
        gaitFoot(p + 0.5, stride, WALK_LIFT, 0.5, WALK_AHEAD, 3),
      ],
      arms: [
        arm(-0.5 * c, 0.14, 0.2 + 0.35 * Math.max(0, -c)),
        arm(0.5 * c, 0.14, 0.2 + 0.35 * Math.max(0, c)),
      ],
      swing: 1,
      cape: 0.45 + 0.1 * Math.abs(s),
      flap: s,
    };
  }
  // run: shorter stance, a flight between the steps, arms pumping bent, leaning in
  // a longer stride than 0.42 and the swing foot evenly forward (a run's swing is four times its
  // stance: eased out like a walk's it was ahead by the other foot's contact, both shins on one line)
  const stride = 0.48;
  const q = (p * 2) % 1;
  const stance = 0.38;
  const flight = q >= stance ? Math.sin((Math.PI * (q - stance)) / (1 - stance)) : 0;
  return {
    ...REST,
    // the knees bend a little at the push (they bent 0.16 of the leg with a 0.24 lean: side rows read
    // as a figure crawling on its knees, decision 0097)
    drop: 0.07 + 0.04 * Math.cos(TAU * (q - stance / 2)),
    rise: 0.1 * flight,
    lean: 0.17,
    twist: 0.2 * c,
    nod: -0.08,
    feet: [
      gaitFoot(p, stride, RUN_LIFT, stance / 2, RUN_AHEAD, 1),
      gaitFoot(p + 0.5, stride, RUN_LIFT, stance / 2, RUN_AHEAD, 1),
    ],
    arms: [arm(-0.85 * c + 0.2, 0.12, 1.5), arm(0.85 * c + 0.2, 0.12, 1.5)],
    swing: 1,
    cape: 1,
    flap: s,
  };
}

/** Whether an action's frames loop (the sheet plays them round), or end on a held pose (death). */
export function loops(action: FigureAction): boolean {
  return action !== 'death';
}

/**
 * The pose of frame `frame` of `frames` of an action. Looping actions sample [0, 1) evenly, so the
 * frame after the last is the first; death samples [0, 1] and ends lying still.
 */
export function motionPose(
  action: FigureAction,
  frame: number,
  frames: number,
  attack: AttackStyle,
  /** The facing (degrees) the frame is seen from: a swing seen in profile has keys of its own. */
  facing?: number,
): MotionPose {
  const side = facing !== undefined && Math.abs(Math.sin((facing * Math.PI) / 180)) > 0.9;
  if (frames <= 1) {
    // a single frame: the action's most telling pose
    const key = { idle: 0, walk: 0, run: 0.1, jump: 0.5, attack: 0.48, cast: 0.56, hurt: 0.22, death: 1 }[
      action
    ];
    return poseAt(action, key, attack, side);
  }
  const t = loops(action) ? frame / frames : frame / (frames - 1);
  return poseAt(action, t, attack, side);
}

function poseAt(action: FigureAction, t: number, attack: AttackStyle, side = false): MotionPose {
  switch (action) {
    case 'idle':
    case 'walk':
    case 'run':
      return gait(action, t);
    case 'attack':
      return sampleTimeline(
        TIMELINES[
          attack === 'cast' ? 'cast' : side && attack === 'swing' ? 'attack:swing:side' : `attack:${attack}`
        ]!,
        t,
      );
    default:
      return sampleTimeline(TIMELINES[action]!, t);
  }
}
