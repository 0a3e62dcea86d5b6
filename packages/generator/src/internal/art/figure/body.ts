/**
 * Body types of the figure rig: the proportions of a chibi, a normal and a tall figure in rig units
 * (the figure is scaled to its frame afterwards, so only ratios matter), and the builds a kind or a
 * word gives (heavy, slight). A character keeps the proportions it was made with (its identity);
 * a seed moves each within a few per cent.
 */

export type BodyType = 'chibi' | 'normal' | 'tall';
export const BODY_TYPES: readonly BodyType[] = ['chibi', 'normal', 'tall'];

/** Lengths and radii in rig units. */
export interface Proportions {
  /** Head radius. */
  head: number;
  neck: number;
  /** Pelvis to the base of the neck. */
  torso: number;
  /** Half the torso's width at the chest, and its half depth (front to back). */
  chestW: number;
  chestD: number;
  /** Half the width at the waist. */
  waistW: number;
  /** Hip joints apart from the centre line. */
  hipW: number;
  /** Pelvis height standing (hip joint to the ground). */
  legs: number;
  /** Shoulder joints apart from the centre line. */
  shoulder: number;
  /** Shoulder to wrist. */
  arm: number;
  /** Radius of an upper arm and a thigh (the forearm and shin are a little thinner). */
  limb: number;
  /** Heel to toe. */
  foot: number;
}

type Table = Readonly<Record<BodyType, Proportions>>;

/** About 2.2, 3.3 and 4.3 heads tall. */
const BODY_PROPORTIONS: Table = {
  chibi: {
    head: 4.7,
    neck: 0.2,
    torso: 5.4,
    chestW: 2.7,
    chestD: 2.0,
    waistW: 2.3,
    hipW: 1.35,
    legs: 5.2,
    shoulder: 3.2,
    arm: 5.4,
    limb: 1.2,
    foot: 2.1,
  },
  normal: {
    head: 3.4,
    neck: 0.6,
    torso: 7.0,
    chestW: 2.6,
    chestD: 1.75,
    waistW: 2.1,
    hipW: 1.4,
    legs: 8.4,
    shoulder: 3.5,
    arm: 7.9,
    limb: 1.0,
    foot: 2.2,
  },
  tall: {
    head: 2.9,
    neck: 0.9,
    torso: 8.0,
    chestW: 2.7,
    chestD: 1.75,
    waistW: 2.0,
    hipW: 1.4,
    legs: 10.8,
    shoulder: 3.6,
    arm: 9.6,
    limb: 0.98,
    foot: 2.3,
  },
};

/** How a build changes the proportions, as factors. */
export type Build = 'plain' | 'heavy' | 'slight' | 'female';
const BUILDS: Readonly<Record<Build, Partial<Record<keyof Proportions, number>>>> = {
  plain: {},
  heavy: { chestW: 1.3, chestD: 1.3, waistW: 1.35, limb: 1.3, shoulder: 1.22, hipW: 1.15, neck: 0.6 },
  slight: { chestW: 0.85, chestD: 0.85, waistW: 0.82, limb: 0.8, shoulder: 0.88 },
  female: { chestW: 0.9, waistW: 0.85, shoulder: 0.9, limb: 0.88, hipW: 1.05 },
};

/**
 * The proportions of a body type and builds, each length moved by the seed's `vary` (values in
 * [-1, 1], one per field in a fixed order) by up to ±7 %.
 */
export function proportionsOf(
  type: BodyType,
  builds: readonly Build[],
  vary: readonly number[],
): Proportions {
  const base: Proportions = { ...BODY_PROPORTIONS[type] };
  for (const b of builds)
    for (const [k, f] of Object.entries(BUILDS[b])) base[k as keyof Proportions] *= f as number;
  const keys = Object.keys(base) as Array<keyof Proportions>;
  keys.forEach((k, i) => {
    base[k] = round3(base[k] * (1 + 0.07 * (vary[i % Math.max(1, vary.length)] ?? 0)));
  });
  return base;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;
