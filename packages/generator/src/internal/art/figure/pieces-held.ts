/**
 * What a figure holds: a weapon or tool in the right hand along the pose's blade line, and a shield,
 * book or lantern in the left. Rows of a table; the motion library picks the attack by the weapon.
 */
import { TILT, type V3 } from '../rig.js';
import { add, type Figure, mul, norm, sub } from './build.js';
import type { Offhand, Weapon } from './identity.js';
import type { AttackStyle } from './motion.js';
import { HAND_SLOT } from './pieces-body.js';

/**
 * How much bigger than the body's own measures a named weapon is drawn: its kind's own factor (an axe's
 * or a gun's head is a hook or a stub of a pixel or two at the arm's scale) times a size word's ("a
 * great sword"), longer by the size and a little more than that thicker, so a big one reads as big.
 */
const KIND_SCALE: Readonly<Partial<Record<Weapon, [length: number, width: number]>>> = {
  axe: [1.1, 1.6],
  pickaxe: [1.05, 1.3],
  hammer: [1.05, 1.35],
  gun: [1.35, 1.45],
  dagger: [1.1, 1.2],
};
function propScale(weapon: Weapon | null, prop = 1): [length: number, width: number] {
  const [l, w] = (weapon && KIND_SCALE[weapon]) || [1, 1];
  return [l * prop, w * prop ** 1.6];
}
/** A point `k` arm-lengths along the blade from the right hand (the weapon's length scaled). */
const along = (fig: Figure, k: number): V3 =>
  add(fig.j.handR, mul(fig.s.blade, fig.p.arm * k * propScale(fig.o.weapon, fig.o.prop)[0]));
/** The weapon's thickness unit: the limb's radius, scaled. */
const limbOf = (fig: Figure): number => fig.p.limb * propScale(fig.o.weapon, fig.o.prop)[1];
/** The blade's side: across it, in the plane of the swing. */
const sideOf = (fig: Figure): V3 => {
  const b = fig.s.blade;
  const n = fig.right;
  return norm([b[1] * n[2] - b[2] * n[1], b[2] * n[0] - b[0] * n[2], b[0] * n[1] - b[1] * n[0]]);
};

const W = 'weapon';
/** Weapons lie just in front of the hand that holds them. */
const B = 0.75;

/** How a weapon is held at rest: its angle from the forearm and its lean outwards. */
export interface Hold {
  grip: number;
  splay: number;
  /** Held upright whatever the arm does (a staff, a spear at rest). */
  upright?: boolean;
  /** Something is held (holdOf says so: the hand's arm swings as a weapon arm). */
  held?: boolean;
  /** Carried, the hand at the belt and the butt off the ground (a spear), not leant on (a staff). */
  carry?: boolean;
  /** How far it reaches from the hand, forward and back, in arm lengths (kept above the ground). */
  reach?: number;
  butt?: number;
}
const LOW: Hold = { grip: 1.05, splay: 0.6 };
const UPRIGHT: Hold = { grip: 3.05, splay: 0.12, upright: true };

/** How far each weapon reaches from the hand, forward and back (arm lengths). */
const REACH: Readonly<Partial<Record<Weapon, [number, number]>>> = {
  sword: [0.98, 0.12],
  katana: [0.86, 0.17],
  cutlass: [0.72, 0.1],
  dagger: [0.5, 0.05],
  axe: [0.8, 0.12],
  hammer: [0.9, 0.12],
  pickaxe: [0.9, 0.12],
  club: [0.95, 0.12],
  spear: [1.86, 0.7],
  pitchfork: [0.95, 0.37],
  staff: [1.6, 0.52],
  wand: [0.6, 0.07],
  torch: [0.95, 0.12],
  ladle: [0.75, 0.07],
};

export const WEAPONS: Readonly<
  Record<Weapon, { attack: AttackStyle; hold?: Hold; draw: (fig: Figure) => void }>
> = {
  sword: {
    attack: 'swing',
    draw: (fig) => {
      const r = limbOf(fig);
      // a blade most of an arm long and a pixel or two wide: a sword that reads as one at 32 px; from
      // 64 px never under two pixels wide (it was a 1-px stick in a swing's side rows), its guard
      // never under a pixel and a half across the blade
      fig.stick(along(fig, 0.18), along(fig, 0.84), r * 0.5, 'metal', W, 'weapon', B, 1);
      fig.cone(along(fig, 0.84), along(fig, 0.98), r * 0.5, 'metal', W, 'weapon', B);
      const x = sideOf(fig);
      fig.stick(
        add(along(fig, 0.15), mul(x, r * 1.15)),
        add(along(fig, 0.15), mul(x, -r * 1.15)),
        r * 0.3,
        'gold',
        W,
        'weapon',
        B + 0.01,
        0.75,
      );
      fig.ball(along(fig, -0.1), r * 0.3, 'gold', W, 'weapon', undefined, B);
    },
  },
  katana: {
    attack: 'swing',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.stick(along(fig, -0.15), along(fig, 0.1), r * 0.3, 'cloth2', W, 'weapon', B);
      fig.ball(along(fig, 0.12), r * 0.38, 'gold', W, 'weapon', r * 0.2, B + 0.01);
      fig.stick(along(fig, 0.14), along(fig, 0.62), r * 0.26, 'metal', W, 'weapon', B);
      fig.stick(
        along(fig, 0.62),
        add(along(fig, 0.84), mul(sideOf(fig), r * 0.35)),
        r * 0.22,
        'metal',
        W,
        'weapon',
        B,
      );
    },
  },
  cutlass: {
    attack: 'swing',
    draw: (fig) => {
      const r = limbOf(fig);
      const x = sideOf(fig);
      fig.stick(along(fig, 0.15), along(fig, 0.5), r * 0.4, 'metal', W, 'weapon', B);
      fig.stick(along(fig, 0.5), add(along(fig, 0.7), mul(x, r * 0.5)), r * 0.34, 'metal', W, 'weapon', B);
      fig.ball(along(fig, 0.08), r * 0.5, 'gold', W, 'weapon', r * 0.35, B + 0.01);
    },
  },
  dagger: {
    attack: 'thrust',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.stick(along(fig, 0.14), along(fig, 0.48), r * 0.3, 'metal', W, 'weapon', B);
      const x = sideOf(fig);
      fig.stick(
        add(along(fig, 0.12), mul(x, r * 0.55)),
        add(along(fig, 0.12), mul(x, -r * 0.55)),
        r * 0.22,
        'leather',
        W,
        'weapon',
        B + 0.01,
      );
    },
  },
  axe: {
    attack: 'swing',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.stick(along(fig, -0.1), along(fig, 0.75), r * 0.3, 'wood', W, 'weapon', B);
      const x = sideOf(fig);
      const h = along(fig, 0.62);
      fig.poly(
        [
          add(h, mul(fig.s.blade, r * 0.6)),
          add(add(h, mul(x, r * 1.6)), mul(fig.s.blade, r * 1.1)),
          add(add(h, mul(x, r * 1.6)), mul(fig.s.blade, -r * 1.1)),
          add(h, mul(fig.s.blade, -r * 0.6)),
        ],
        'metal',
        W,
        'weapon',
        B + 0.01,
      );
    },
  },
  hammer: {
    attack: 'swing',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.stick(along(fig, -0.1), along(fig, 0.8), r * 0.3, 'wood', W, 'weapon', B);
      const x = sideOf(fig);
      const h = along(fig, 0.85);
      fig.stick(add(h, mul(x, -r * 0.9)), add(h, mul(x, r * 0.9)), r * 0.65, 'metal', W, 'weapon', B + 0.01);
    },
  },
  pickaxe: {
    attack: 'swing',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.stick(along(fig, -0.1), along(fig, 0.9), r * 0.3, 'wood', W, 'weapon', B);
      const x = sideOf(fig);
      const h = along(fig, 0.88);
      fig.stick(
        add(add(h, mul(x, -r * 1.6)), mul(fig.s.blade, -r * 0.5)),
        h,
        r * 0.3,
        'metal',
        W,
        'weapon',
        B + 0.01,
      );
      fig.stick(
        h,
        add(add(h, mul(x, r * 1.6)), mul(fig.s.blade, -r * 0.5)),
        r * 0.3,
        'metal',
        W,
        'weapon',
        B + 0.01,
      );
    },
  },
  club: {
    attack: 'swing',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.cone(along(fig, 0.85), along(fig, -0.1), r * 0.75, 'wood', W, 'weapon', B);
      fig.ball(along(fig, 0.85), r * 0.78, 'wood', W, 'weapon', undefined, B + 0.01);
    },
  },
  spear: {
    hold: { ...UPRIGHT, carry: true },
    attack: 'thrust',
    draw: (fig) => {
      const r = limbOf(fig);
      // a shaft longer than the figure is tall, its butt near the ground held upright, and a leaf
      // head above the helm with a socket ring under it: a spear, not a short stick
      fig.stick(along(fig, -0.7), along(fig, 1.5), r * 0.26, 'wood', W, 'weapon', B);
      fig.stick(along(fig, 1.46), along(fig, 1.54), r * 0.4, 'metal', W, 'weapon', B + 0.01);
      fig.cone(along(fig, 1.52), along(fig, 1.86), r * 0.56, 'metal', W, 'weapon', B + 0.02, true);
    },
  },
  pitchfork: {
    hold: UPRIGHT,
    attack: 'thrust',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.stick(along(fig, -0.35), along(fig, 0.75), r * 0.26, 'wood', W, 'weapon', B);
      const x = sideOf(fig);
      fig.stick(
        add(along(fig, 0.75), mul(x, -r * 0.7)),
        add(along(fig, 0.75), mul(x, r * 0.7)),
        r * 0.2,
        'metal',
        W,
        'weapon',
        B,
      );
      for (const k of [-0.7, 0, 0.7])
        fig.stick(
          add(along(fig, 0.75), mul(x, r * k)),
          add(along(fig, 0.95), mul(x, r * k)),
          r * 0.17,
          'metal',
          W,
          'weapon',
          B,
        );
    },
  },
  staff: {
    hold: UPRIGHT,
    attack: 'cast',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.stick(along(fig, -0.5), along(fig, 1.45), r * 0.3, 'wood', W, 'weapon', B);
      fig.ball(along(fig, 1.52), r * 0.62, 'glow', W, 'orb', undefined, B + 0.01);
      // the hand grips the shaft: its fingers over the wood, a little wider than the shaft (under
      // the shaft, the hand was a pixel beside it and the staff floated by the figure: decision 0111).
      // It sorts with the shaft, whose depth is its middle's, higher and so nearer the tilted camera:
      // where the shaft shows at the hand, so does the hand
      const d = sub(along(fig, 0.475), fig.j.handR);
      const lift = d[2] * Math.sin(TILT) + Math.hypot(d[0], d[1]) * Math.cos(TILT);
      fig.ball(
        fig.j.handR,
        Math.max(fig.p.limb * 0.62, r * 0.45),
        HAND_SLOT[fig.o.hands],
        W,
        'grip',
        undefined,
        B + 0.02 + Math.max(0, lift),
      );
    },
  },
  wand: {
    attack: 'cast',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.stick(along(fig, -0.05), along(fig, 0.5), r * 0.2, 'wood', W, 'weapon', B);
      fig.ball(along(fig, 0.55), r * 0.32, 'glow', W, 'orb', undefined, B + 0.01);
    },
  },
  torch: {
    hold: UPRIGHT,
    attack: 'swing',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.stick(along(fig, -0.1), along(fig, 0.55), r * 0.3, 'wood', W, 'weapon', B);
      fig.cone(along(fig, 0.55), along(fig, 0.9), r * 0.55, 'glow', W, 'flame', B + 0.01);
    },
  },
  ladle: {
    attack: 'swing',
    draw: (fig) => {
      const r = limbOf(fig);
      fig.stick(along(fig, -0.05), along(fig, 0.6), r * 0.2, 'metal', W, 'weapon', B);
      fig.ball(along(fig, 0.66), r * 0.5, 'metal', W, 'weapon', r * 0.35, B + 0.01);
    },
  },
  bow: {
    attack: 'shoot',
    draw: (fig) => {
      // a bow in the left hand, across the left forearm's line, its string to the right hand when drawn
      const r = limbOf(fig);
      const h = fig.j.handL;
      const up = norm([0, 0, 1]);
      const out = norm(fig.s.forearmL);
      // the limb bows forward and away from the body: a ")" beside the figure from the front and
      // the back, a bow's arc in profile (along the hanging forearm it lay edge-on, a stick)
      const belly = norm(add(mul(fig.fwd, 0.7), mul(fig.right, -0.7)));
      // held a little out from the body, so its arc clears the silhouette (hugging the hip, it read
      // as a sleeve: issue #39)
      // and long: a bow is most of an archer's height (≥ 60 %: at 0.6 of a chibi's short arm either side
      // of the grip it was a 40 % stick, decision 0111)
      const { legs, torso, neck, head } = fig.p;
      const span = Math.max(fig.p.arm * 0.6, (legs + torso + neck + head * 2) * 0.35);
      // (and a little ahead of the hand: a bow as tall as the figure, held in the far hand in profile,
      // lay over the face)
      const hOut = add(add(add(h, mul(fig.right, -r * 0.6)), mul(fig.fwd, r * 1.2)), mul(up, r * 1.2));
      const tipT = add(add(hOut, mul(up, span)), mul(belly, -r * 0.3));
      const tipB = add(add(hOut, mul(up, -span)), mul(belly, -r * 0.3));
      // the limb: a curve through the grip, thick at the grip and tapering to the tips, in the wood
      // ramp; two thin straight sticks read as a white stick at 64 px (issue #39)
      const N = 6;
      // (its belly grows with its length: a long bow bent as little as a short one was a straight stick)
      const bend = Math.max(0, span - fig.p.arm * 0.6) * 0.22;
      const at = (t: number) =>
        add(add(hOut, mul(up, span * t)), mul(belly, r * (0.7 - 1.0 * t * t) + bend * (1 - t * t)));
      for (let i = 0; i < N; i++) {
        const t0 = -1 + (2 * i) / N;
        const t1 = -1 + (2 * (i + 1)) / N;
        const thick = r * (0.62 - 0.22 * Math.abs(t0 + t1) * 0.5);
        fig.stick(at(t0), at(t1), thick, 'wood', 'hand_l', 'bow', B);
      }
      const drawn = sub(fig.j.handR, h);
      const pull =
        Math.hypot(drawn[0], drawn[1], drawn[2]) < fig.p.arm * 0.9 ? fig.j.handR : add(h, mul(out, -r * 0.4));
      fig.stick(tipT, pull, r * 0.1, 'white', 'hand_l', 'bowstring', B - 0.01);
      fig.stick(pull, tipB, r * 0.1, 'white', 'hand_l', 'bowstring', B - 0.01);
    },
  },
  gun: {
    attack: 'aim',
    draw: (fig) => {
      const r = limbOf(fig);
      const f = norm(fig.s.forearmR);
      fig.stick(
        fig.j.handR,
        add(fig.j.handR, mul(f, fig.p.arm * 0.45 * propScale('gun', fig.o.prop)[0])),
        r * 0.35,
        'metal',
        W,
        'weapon',
        B,
      );
      fig.stick(
        fig.j.handR,
        add(add(fig.j.handR, mul(f, -r * 0.3)), [0, 0, -r * 0.9]),
        r * 0.32,
        'wood',
        W,
        'weapon',
        B,
      );
    },
  },
};

/** A kite shield on the left forearm, its face out and forward. */
function kite(fig: Figure, round: boolean): void {
  const r = fig.p.limb;
  const h = fig.j.handL;
  const fore = fig.s.forearmL;
  // its face turns with the shoulders only by a third of their twist: turned with them whole, an
  // attack's wind-up showed it edge-on facing the viewer and the next frame face-on (issue #39)
  const o0 = norm(add(mul(fig.right, -1), mul(fig.fwd, 0.9)));
  const back = -0.65 * fig.s.pose.twist;
  const out: V3 = [
    o0[0] * Math.cos(back) - o0[1] * Math.sin(back),
    o0[0] * Math.sin(back) + o0[1] * Math.cos(back),
    o0[2],
  ];
  const c = add(add(sub(h, mul(fore, r * 0.9)), mul(out, r * 0.9)), [0, 0, r * 0.4]);
  // most of the torso's height: at 0.42 it was a 6 px blob on the forearm at 64 px
  const size = fig.p.torso * 0.55 * (fig.o.prop ?? 1);
  if (round) {
    fig.disc(c, out, size, 'wood', 'forearm_l', 'shield', 0.9);
    fig.disc(add(c, mul(out, 0.05)), out, size * 0.82, 'enamel', 'forearm_l', 'shield', 0.91);
    fig.ball(add(c, mul(out, 0.15)), size * 0.22, 'metal', 'forearm_l', 'shield', undefined, 0.95);
    return;
  }
  const across = norm([out[1], -out[0], 0]);
  const at = (a: number, u: number, o = 0): V3 =>
    add(add(add(c, mul(across, a * size)), [0, 0, u * size]), mul(out, o));
  fig.poly(
    [at(-0.85, 0.95), at(0.85, 0.95), at(0.8, -0.3), at(0, -1.25), at(-0.8, -0.3)],
    'metal',
    'forearm_l',
    'shield',
    0.9,
  );
  fig.poly(
    [
      at(-0.68, 0.8, 0.06),
      at(0.68, 0.8, 0.06),
      at(0.64, -0.25, 0.06),
      at(0, -1.02, 0.06),
      at(-0.64, -0.25, 0.06),
    ],
    'enamel',
    'forearm_l',
    'shield',
    0.91,
  );
  fig.poly(
    [at(-0.1, 0.7, 0.1), at(0.1, 0.7, 0.1), at(0.1, -0.9, 0.1), at(-0.1, -0.9, 0.1)],
    'gold',
    'forearm_l',
    'shield',
    0.92,
  );
  fig.poly(
    [at(-0.6, 0.3, 0.1), at(0.6, 0.3, 0.1), at(0.6, 0.12, 0.1), at(-0.6, 0.12, 0.1)],
    'gold',
    'forearm_l',
    'shield',
    0.92,
  );
}

export const OFFHANDS: Readonly<Record<Offhand, (fig: Figure) => void>> = {
  shield: (fig) => kite(fig, false),
  'round-shield': (fig) => kite(fig, true),
  book: (fig) => {
    const h = fig.j.handL;
    fig.stick(
      add(h, [0, 0, -fig.p.limb * 0.3]),
      add(h, [0, 0, fig.p.limb * 0.9]),
      fig.p.limb * 0.85,
      'enamel',
      'hand_l',
      'book',
      0.8,
    );
  },
  lantern: (fig) => {
    const h = fig.j.handL;
    fig.stick(h, add(h, [0, 0, -fig.p.limb * 0.8]), fig.p.limb * 0.15, 'metal', 'hand_l', 'lantern', 0.8);
    fig.ball(
      add(h, [0, 0, -fig.p.limb * 1.4]),
      fig.p.limb * 0.6,
      'glow',
      'hand_l',
      'lantern',
      undefined,
      0.8,
    );
  },
};

/** How a figure holds its weapon at rest, and how far it reaches. */
export function holdOf(weapon: Weapon | null, prop = 1): Hold {
  const hold = (weapon && WEAPONS[weapon].hold) || LOW;
  const [reach, butt] = (weapon && REACH[weapon]) || [0.8, 0.1];
  const [k, thick] = propScale(weapon, prop);
  // a heavy head stands out of the haft's line by its own half-width: kept above the ground too
  const head = weapon && /^(hammer|club|axe|pickaxe)$/.test(weapon) ? 0.12 * thick : 0;
  return { ...hold, held: weapon !== null, reach: reach * k + head, butt: butt * k };
}

/** The attack a figure makes with what it holds. */
export function attackOf(weapon: Weapon | null): AttackStyle {
  return weapon ? WEAPONS[weapon].attack : 'punch';
}
