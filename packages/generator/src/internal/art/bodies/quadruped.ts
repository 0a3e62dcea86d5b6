import { type Build, eyes, FAR, farSide, M, Parts, type Pose, type V3, wing } from './common.js';
import { frog } from './frog.js';

/** What every piece of a four-legged body is drawn from: the build, the pose and the proportions. */
interface Quad {
  p: Parts;
  b: Build;
  pose: Pose;
  F: Build['features'];
  heavy: boolean;
  /** A fox's, a wolf's: dark socks, a white chest, a long pointed muzzle. */
  canine: boolean;
  /** A fox's own: big dark-backed ears, white cheeks, a brush as long as its body (decision 0111). */
  fox: boolean;
  /** A bear's own: a shoulder hump, short thick legs, a low head with a short pale muzzle (0116). */
  bear: boolean;
  /** A lion's or a lioness's: long legs, a lean body, a tufted tail, a lion's dark mane (0116). */
  bigCat: boolean;
  /** Half the body's length, its radius and the height of its axis. */
  half: number;
  bodyR: number;
  bodyU: number;
  headR: number;
  headC: V3;
  /** How much wider the body is drawn sideways in this view: 1 in profile, BREADTH seen end-on. */
  broad: number;
}

/**
 * Seen from the front or from behind, a four-legged body is drawn broader than it is (its legs
 * further apart, its chest and rump wider), as a sprite artist draws a turnaround: at its true
 * breadth the fox's front row was a pillar 20 px wide beside a 57-px profile (0.35 of it), its back
 * an orange rectangle (decision 0133). Profile rows are unchanged (the factor grows with |cos facing|).
 */
const BREADTH = 1.35;

/** How far a brush tail curls out to one side at its tip, in body radii (decision 0120). */
const CURL = 1.5;

/** The canines drawn as a fox: big ears, white cheeks, a long brush with a white tip. */
const FOXES = new Set(['fox', 'vixen']);
/** The felines drawn as a lion: a lean tawny body, a tufted tail (and a mane on a lion). */
const BIG_CATS = new Set(['lion', 'lioness']);

/**
 * Seen from behind, the body's line is drawn nearly level: the tilted camera drew the far chest high
 * on the screen, over the head, and the near rump low over its legs, so a back view was a bun with
 * ears and no hind legs (decision 0133). Nothing changes in profile or from the front.
 */
const level = (pose: Pose, f: number): number => f * Math.min(0, pose.ground) * 0.8;

/** The proportions of a four-legged body in this pose (its features and the seed vary them). */
function proportions(b: Build, pose: Pose): Quad {
  const F = b.features;
  const low = F.has('low');
  const tall = F.has('tall');
  const heavy = F.has('heavy');
  const sh = b.shape;
  const bear = b.kind === 'animal.bear';
  const bigCat = b.kind === 'animal.feline' && BIG_CATS.has(b.lemma ?? '');
  // a bear stands on short thick legs under a long heavy body; a lion on long legs under a lean one
  // (the part-list's heavy quadruped was a ball on stubs beside its emoji head, decision 0116)
  const legH = bear
    ? 4.6 + b.vary[0] * 0.3
    : bigCat
      ? 5.6 + b.vary[0] * 0.3
      : (low ? 2.6 : tall ? 7 : 5) + b.vary[0] * 0.4 + sh[0]! * 1.5;
  const half = bear || bigCat ? 5.2 + b.vary[1] * 0.3 : (tall ? 4.4 : 4.6) + b.vary[1] * 0.4 + sh[1]! * 1.2;
  const bodyR = bear
    ? 3.5 + b.vary[2] * 0.15
    : bigCat
      ? 2.9 + b.vary[2] * 0.15
      : (heavy ? 4.2 : low ? 3 : 3.4) + b.vary[2] * 0.2 + sh[2]! * 0.6;
  const bodyU = legH + bodyR * 0.7 + pose.rise + pose.bob * 0.5;
  const neck = bear ? 0.7 : bigCat ? 1.8 : (F.has('long-neck') ? 4.5 : 2.2) + sh[4]! * 1.4;
  const headR = bear
    ? 3.3
    : bigCat
      ? 2.8
      : ((heavy ? 3.4 : 3.1) + b.vary[3] * 0.2 + sh[3]! * 0.5) *
        (b.kind === 'animal.canine' && FOXES.has(b.lemma ?? '') ? 1.12 : 1);
  const headF = half + (bear ? 2.1 : 1.6 + (F.has('long-neck') ? 1.2 : 0.6));
  // seen from the front the tilted camera would draw the head, nearest the viewer, low over the chest:
  // it is raised by what the tilt lowers it, so it sits on top of the body as a sprite artist draws it
  // (a canine's head a little higher still, so its white chest shows below it between the front
  // legs: it hid the chest, a face on two legs — decision 0103)
  const canine = b.kind === 'animal.canine';
  // (a bear's and a lion's head is lowered from behind by what the tilt raises it, so the back row
  // keeps the side's height: decision 0116)
  // (every head from behind is lowered so, not only a bear's and a lion's: a mule's back row was 7 px
  // taller than its profile, a fox's 2 — decision 0133; from the front it is raised by at least what
  // the tilt lowers it, so the front row is as tall as the profile, ±1 px)
  const tilt = headF * pose.ground;
  const headC: V3 = [
    headF,
    0,
    bodyU +
      neck +
      (low || bear ? 0 : 1) +
      Math.max(0, tilt) * (canine ? 1.25 : 1) +
      Math.min(0, tilt) * (bear || bigCat ? 1 : F.has('long-neck') ? 0.8 : 0.5),
  ];
  const broad = 1 + (BREADTH - 1) * Math.abs(Math.cos((pose.facing * Math.PI) / 180));
  return {
    p: new Parts(b.u * b.scale, b.aspect),
    b,
    pose,
    F,
    heavy,
    canine,
    fox: canine && FOXES.has(b.lemma ?? ''),
    bear,
    bigCat,
    half,
    bodyR,
    bodyU,
    headR,
    headC,
    broad,
  };
}

/** Four-legged animals and beasts: body along the facing, legs in diagonal pairs, neck and head forward. */
export function quadruped(b: Build, pose: Pose): Parts {
  if (b.kind === 'animal.frog') return frog(b, pose);
  const q = proportions(b, pose);
  legs(q);
  tailAndWings(q);
  torso(q);
  coatPattern(q);
  head(q);
  for (const piece of HEAD_PIECES) if (piece.when(q)) piece.draw(q);
  return q.p;
}

/** Legs in diagonal pairs, front-left with back-right (a trot), set wide under a wide body. */
function legs({ p, pose, heavy, canine, fox, bear, bigCat, half, bodyR, bodyU, broad }: Quad): void {
  const pairs: Array<[number, number, number]> = [
    [half - 1, -1, 1],
    [half - 1, 1, -1],
    [-half + 1, -1, -1],
    [-half + 1, 1, 1],
  ];
  const far = farSide(pose.facing);
  // legs set wide under a wide body, so a front or back view shows four legs, not a pillar: the front
  // pair under the chest, the hind pair wider on its haunches, so a front view shows the chest between
  // two front legs and the hind legs beside them (decision 0103: "a face on two legs")
  for (const [f0, side, sign] of pairs) {
    const hind = f0 < 0;
    // (a canine's forelegs a little wider, at its chest's edges: from the front it was a pillar a
    // quarter of its side view's length, decision 0120)
    const legS = bodyR * (hind ? 1.05 : canine ? 0.8 : 0.62) * broad;
    // the far legs a step ahead of the near ones, so a side view at rest shows four legs, not two
    const f = f0 + (side === far ? 0.9 : 0);
    const lift = sign > 0 ? pose.liftL : pose.liftR;
    const hip: V3 = [f, side * legS * 0.9, bodyU - bodyR * 0.3 + level(pose, f)];
    const fwd = sign * pose.stride * 0.8;
    const foot: V3 = [
      f + fwd,
      side * legS,
      pose.rise + lift + 0.7 + (f + fwd) * pose.ground + side * legS * pose.groundS,
    ];
    const shade = side === far ? FAR : 0;
    p.stick(
      hip,
      foot,
      bear ? 1.75 : bigCat ? 1.2 : heavy ? 1.4 : 1.05,
      M.BODY + shade,
      side === far ? -0.3 : 0,
    );
    // a haunch: the hind leg's thigh, round over the hip
    if (hind)
      p.ball(
        [f + 0.3, side * legS * 0.85, bodyU - bodyR * 0.15 + level(pose, f + 0.3)],
        bodyR * 0.62,
        M.BODY + shade,
        undefined,
        side === far ? -0.29 : 0.09,
      );
    // dark socks (a fox's black legs) or plain hooves and paws
    if (canine)
      p.stick(
        [foot[0], foot[1], foot[2] + 2.2],
        foot,
        heavy ? 1.35 : 1,
        fox ? M.EYE : M.DARK + shade,
        // (over the leg: lower, it sorted under the leg's own stick and never showed, decision 0111)
        side === far ? 1.4 : 2,
      );
    // (a bear's paws its fur a shade darker: 0116)
    p.ball(
      foot,
      bear ? 1.7 : heavy ? 1.3 : 0.95,
      bear ? M.BODY + FAR : M.DARK + shade,
      0.8,
      side === far ? -0.28 : 0.02,
    );
  }
}

/** A tail (a plain one or a big brush with a white tip) and wings, behind the body. */
function tailAndWings({ p, pose, F, fox, bigCat, half, bodyR, bodyU }: Quad): void {
  if (F.has('tail') || F.has('bushy-tail')) {
    const sway = Math.sin(pose.phase * Math.PI * 2) * 1.3;
    // a brush's curl to one side, seen from the front and behind only: in profile it is depth, which
    // the tilted camera draws as height (the left and right rows' tails differed, decision 0120)
    // (from the front less: only its tip peeps out beside the legs)
    const toward = Math.cos((pose.facing * Math.PI) / 180);
    const curl = CURL * bodyR * Math.abs(toward) * (toward > 0 ? 0.6 : 1);
    if (bigCat) {
      // a lion's tail: thin, hanging down from the rump and curling up to a dark tuft (0116)
      const up = (f: number) => Math.max(0, f * pose.ground);
      const a: V3 = [-half - 0.2, 0, bodyU + 0.6 + up(-half)];
      const m: V3 = [-half - 2.4, sway * 0.5, bodyU - 1.6 + up(-half - 2.4)];
      const e: V3 = [-half - 4.2, sway, bodyU - 0.6 + up(-half - 4.2)];
      p.stick(a, m, 0.55, M.BODY, 0.01);
      p.stick(m, e, 0.5, M.BODY, 0.02);
      p.ball([e[0] - 0.4, e[1], e[2] + 0.3], 1.15, M.WOOD, 1.0, 0.03);
    } else if (fox) {
      // a fox's brush: as long as its body, thick in the middle, out behind and down in a curve to a
      // white tip that stays above the feet (its 5 units were a stub under the rump: decision 0111)
      // (seen from behind the tilted camera draws it lower, nearer the viewer: it is raised by what
      // the tilt lowers it, as a canine's head is from the front, so the back row keeps the side's height)
      // (it curls out to one side along its length, so from behind it is a brush beside the rump and
      // from the front one beside the chest — straight back it was a white ball on the rump, a
      // rabbit's cottontail, decision 0120)
      const L = half * 2;
      const at = (k: number, s: number, du: number): V3 => {
        const f = -half - L * k;
        return [f, sway * s + curl * k * k, bodyU + du + Math.max(0, f * pose.ground)];
      };
      const pts = [at(0.02, 0, 0.5), at(0.3, 0.3, 0.5), at(0.6, 0.6, -0.4), at(0.82, 0.85, -1.6)];
      const rs = [1.3, 2.1, 2.3, 1.9];
      for (let i = 0; i < pts.length - 1; i++) p.stick(pts[i]!, pts[i + 1]!, rs[i + 1]!, M.BODY, 0.01 * i);
      p.stick(at(0.84, 0.88, -1.7), at(1, 1, -2.4), 1.6, M.LIGHT, 0.5);
    } else if (F.has('bushy-tail')) {
      // a big brush with a white tip, out behind and down in a curve (level with the back it merged
      // into the body's line: decision 0103)
      // (raised from behind as a fox's is: its tip hung below the feet in the back row, decision 0111)
      // (curling out to one side as a fox's does: its white tip was a cottontail from behind, 0120)
      const up = (f: number) => Math.max(0, f * pose.ground);
      const c = curl;
      p.stick(
        [-half - 0.3, 0, bodyU + 0.6 + up(-half - 0.3)],
        [-half - 3, sway * 0.6 + c * 0.3, bodyU + 0.4 + up(-half - 3)],
        1.5,
        M.BODY,
      );
      p.stick(
        [-half - 3, sway * 0.6 + c * 0.3, bodyU + 0.4 + up(-half - 3)],
        [-half - 5, sway + c * 0.8, bodyU - 1.6 + up(-half - 5)],
        2,
        M.BODY,
        0.01,
      );
      p.ball([-half - 5.6, sway + c, bodyU - 3 + up(-half - 5.6)], 1.5, M.LIGHT, undefined, 0.05);
    } else p.stick([-half - 0.5, 0, bodyU + 0.5], [-half - 4.5, sway, bodyU + 1.6], 0.7, M.BODY);
  }
  if (F.has('wings')) {
    wing(p, [half * 0.2, -bodyR * 0.6, bodyU + bodyR * 0.6], -1, 10, pose.flap, M.BODY2);
    wing(p, [half * 0.2, bodyR * 0.6, bodyU + bodyR * 0.6], 1, 10, pose.flap, M.BODY2);
  }
}

/** The body: two sticks side by side, then what lies on it (a white chest, wool, a hump, a shell). */
function torso({ p, b, pose, F, canine, bear, half, bodyR, bodyU, broad }: Quad): void {
  // two bodies side by side: wider than tall seen end-on, a rump and a chest seen from behind and before
  for (const side of [-1, 1])
    p.stick(
      [-half, side * bodyR * 0.3 * broad, bodyU + level(pose, -half)],
      [half, side * bodyR * 0.3 * broad, bodyU + level(pose, half)],
      bodyR,
      M.BODY,
      0.1,
    );
  // a white chest and belly
  if (canine) p.ball([half * 0.9, 0, bodyU - bodyR * 0.3], bodyR * 0.72, M.LIGHT, bodyR * 0.9, 0.15);
  if (F.has('fluffy' as never) && b.kind !== 'animal.feline' && !bear)
    // a woolly or shaggy coat: a lumpy back
    for (const f of [-half * 0.7, 0, half * 0.7])
      for (const side of [-1, 1])
        p.ball(
          [f + side * 0.6, side * bodyR * 0.45, bodyU + bodyR * 0.6],
          bodyR * 0.85,
          M.BODY,
          undefined,
          0.11,
        );
  // a bear's shoulder hump: the highest point of its back, over the front legs (0116)
  if (bear) {
    p.ball([half * 0.4, 0, bodyU + bodyR * 0.62], bodyR * 0.8, M.BODY, bodyR * 0.75, 0.11);
    // its rump a little lower and rounder than the hump
    p.ball([-half * 0.6, 0, bodyU + bodyR * 0.1], bodyR * 0.95, M.BODY, bodyR * 0.85, 0.105);
  }
  if (F.has('hump' as never)) p.ball([0, 0, bodyU + bodyR * 0.9], bodyR * 0.8, M.BODY, undefined, 0.11);
  if (F.has('shell')) p.ball([0, 0, bodyU + bodyR * 0.5], half + 1, M.BODY2, bodyR * 1.1, 0.15);
}

/**
 * Coat patterns the gloss names: stripes over the back and flanks (tiger, zebra), spots (leopard,
 * giraffe; a cow's patches).
 */
function coatPattern({ p, b, F, half, bodyR, bodyU }: Quad): void {
  if (F.has('stripes' as never))
    for (let k = -2; k <= 2; k++) {
      const f = (k / 2.5) * half;
      for (const side of [-1, 1])
        p.stick(
          [f, side * bodyR * 1.22, bodyU - bodyR * 0.2],
          [f + 0.6, side * bodyR * 0.5, bodyU + bodyR * 0.95],
          0.45,
          M.DARK,
          0.4,
        );
    }
  else if (F.has('spots' as never) || b.lemma === 'cow') {
    const big = b.lemma === 'cow';
    for (let k = 0; k < (big ? 4 : 7); k++) {
      const f = ((k * 0.618 + (b.shape[7] ?? 0) * 0.2) % 1) * 2 * half * 0.8 - half * 0.8;
      const side = k % 2 ? 1 : -1;
      const up = ((k * 0.37) % 1) * 0.9;
      p.ball([f, side * bodyR * 1.05, bodyU + bodyR * up], big ? 1.8 : 0.8, M.DARK, big ? 1.5 : 0.7, 0.4);
    }
  }
}

/** Neck, mane and head (a darker rim round it so it reads over the body from the front), long or short. */
function head({
  p,
  b,
  pose,
  F,
  heavy,
  canine,
  fox,
  bear,
  bigCat,
  half,
  bodyR,
  bodyU,
  headR,
  headC,
  broad,
}: Quad): void {
  const neckA: V3 = [half - 0.5, 0, bodyU + 0.5];
  const neckB: V3 = [headC[0] - 0.5, 0, headC[2] - 0.5];
  p.stick(neckA, neckB, bear ? 2.5 : heavy ? 2.6 : 1.7, M.BODY, 0.2);
  if (bigCat && b.lemma === 'lion') {
    // a lion's dark mane: a great ruff framing the face, down over the neck and the chest (0116)
    p.ball([headC[0] - 0.9, 0, headC[2] - 0.3], headR * 1.6, M.WOOD, headR * 1.7, 0.27);
    p.ball([half + 0.3, 0, bodyU + 0.6], bodyR * 1.05, M.WOOD, bodyR * 1.1, 0.21);
  } else if (F.has('mane')) {
    if (b.kind === 'animal.feline')
      // a lion's mane: a great ruff round the face
      p.ball([headC[0] - 0.6, 0, headC[2] - 0.2], headR * 1.6, M.WOOD, headR * 1.55, 0.27);
    else p.stick([half, 0, bodyU + bodyR], [headC[0] - 0.8, 0, headC[2] + headR * 0.6], 1.3, M.DARK, 0.21);
  }
  // (a fox's head has no dark ring: it drew a ball round its face in the side rows, decision 0111)
  // (nor a bear's or a lion's: a ring round a head in profile reads as a ball, 0116)
  // (nor a wolf's or a dog's: it drew dark sockets round the eyes from the front, 0120)
  // (seen end-on, every head has one: the head over a chest of its own colour was one mass with it, a
  // bun with ears — decision 0133; it lies behind the head, so it is a rim round its lower edge)
  if ((!canine && !bear && !bigCat) || broad > 1.15)
    p.ball(headC, headR + 0.45, M.BODY + FAR, undefined, 0.29);
  // a sheep's face and a horse's long head
  const face = F.has('fluffy' as never) && b.kind === 'animal.bovid' ? M.DARK : M.BODY;
  p.ball(headC, headR, face, undefined, 0.3);
  // a fox's white cheeks: its face wider than its skull from the front, a pale jaw line from the side
  // (from the front lower and further out, below the eyes: round them they were white goggles, the
  // eyes read as crosses, decision 0120)
  const front = Math.max(0, Math.cos((pose.facing * Math.PI) / 180));
  if (fox)
    for (const side of [-1, 1])
      p.ball(
        [
          headC[0] + headR * 0.4,
          side * headR * (0.6 + 0.15 * front),
          headC[2] - headR * (0.62 + 0.3 * front),
        ],
        headR * 0.5,
        M.LIGHT,
        headR * 0.34,
        0.305,
      );
  // a bear's short muzzle and a lion's broad one: paler, a black nose on the tip (0116)
  if (bear || bigCat) {
    const r = headR;
    const tip: V3 = [headC[0] + r + (bear ? 0.9 : 0.4), 0, headC[2] - r * (bear ? 0.4 : 0.45)];
    p.stick([headC[0] + r * 0.2, 0, headC[2] - r * 0.35], tip, r * 0.55, M.BODY2, 0.33);
    p.ball([tip[0] + 0.35, 0, tip[2] + 0.35], bear ? 0.8 : 0.7, M.EYE, 0.6, 0.36);
  }
  if (b.kind === 'animal.equine' || b.kind === 'creature.unicorn') {
    const muzzle: V3 = [headC[0] + headR + 1.8, 0, headC[2] - headR * 1.1];
    p.stick(headC, muzzle, headR * 0.58 + 0.45, M.BODY + FAR, 0.305);
    p.stick(headC, muzzle, headR * 0.58, face, 0.31);
  }
}

/** What a quadruped's head wears, in drawing order: each piece and the features it needs. */
const HEAD_PIECES: ReadonlyArray<{ when: (q: Quad) => boolean; draw: (q: Quad) => void }> = [
  {
    // a long pointed muzzle, white below, a black nose
    when: (q) => q.F.has('snout') && q.canine,
    // (a cone stands on a level disc: laid forward it was a flat line from the side, decision 0103 —
    // the muzzle is a tapering stick, its tip jutting past the head with a black nose on it)
    // (a fox's a little longer and narrower: decision 0111)
    draw: ({ p, fox, headR: r, headC: c }) => {
      const tip: V3 = [c[0] + r + (fox ? 3 : 2.4), 0, c[2] - r * 0.45];
      const w = fox ? 0.85 : 1;
      p.stick(
        [c[0] + r * 0.3, 0, c[2] - r * 0.3],
        [c[0] + r + 1, 0, c[2] - r * 0.4],
        r * 0.48 * w,
        M.BODY,
        0.33,
      );
      p.stick([c[0] + r + 1, 0, c[2] - r * 0.4], tip, r * 0.34 * w, M.BODY, 0.331);
      p.stick([c[0] + r * 0.5, 0, c[2] - r * 0.72], [tip[0] - 0.6, 0, tip[2] - 0.35], r * 0.3, M.LIGHT, 0.34);
      p.ball([tip[0] + 0.2, 0, tip[2] + 0.15], 0.75, M.EYE, undefined, 0.36);
    },
  },
  {
    when: (q) => q.F.has('snout') && !q.canine,
    draw: ({ p, headR: r, headC: c }) => {
      p.ball([c[0] + r * 0.95, 0, c[2] - r * 0.35], r * 0.6, M.BODY2, undefined, 0.33);
      p.ball([c[0] + r * 1.5, 0, c[2] - r * 0.25], 0.6, M.EYE, undefined, 0.36);
    },
  },
  {
    when: (q) => q.F.has('beak'),
    draw: ({ p, headR: r, headC: c }) =>
      p.stick([c[0] + r * 0.7, 0, c[2] - 0.3], [c[0] + r + 2, 0, c[2] - 1], 0.9, M.GOLD, 0.34),
  },
  {
    when: (q) => q.F.has('trunk'),
    draw: ({ p, pose, headR: r, headC: c }) =>
      p.stick([c[0] + r * 0.8, 0, c[2] - 0.5], [c[0] + r + 1.5, 0, pose.rise + 2], 1, M.BODY, 0.34),
  },
  {
    when: () => true,
    // (a bear's and a lion's small: a lioness's were a black band across her face, 0116)
    // (a canine's too: a wolf's were dark sockets from the front, a blot on its head in profile, 0120)
    draw: ({ p, bear, bigCat, canine, headR: r, headC: c }) =>
      eyes(p, [c[0] - r * 0.1, 0, c[2] + 0.4], r, bear || bigCat ? 0.55 : canine ? 0.5 : 0.75, 0.5),
  },
  {
    // pointed ears: cones (a fox's big, their backs dark: decision 0111)
    when: (q) => q.F.has('ears') && !q.bigCat,
    draw: ({ p, fox, headR: r, headC: c }) => {
      for (const side of [-1, 1]) {
        const base: V3 = [c[0] - 0.4, side * r * (fox ? 0.6 : 0.55), c[2] + r * 0.55];
        const tip: V3 = [c[0] - 0.7, side * r * (fox ? 0.95 : 0.8), c[2] + r + (fox ? 3.6 : 2.6)];
        p.cone(base, tip, fox ? 1.7 : 1.3, M.BODY, 0.25);
        // the ear's back: a dark cone just behind it, seen from behind and at the side's edge
        if (fox)
          p.cone([base[0] - 0.45, base[1], base[2] + 0.3], [tip[0] - 0.3, tip[1], tip[2]], 1.6, M.DARK, 0.25);
      }
    },
  },
  {
    // an elephant's great flat ears
    when: (q) => q.F.has('trunk'),
    draw: ({ p, headR: r, headC: c }) => {
      for (const side of [-1, 1]) p.ball([c[0] - 1.2, side * (r + 0.6), c[2] + 0.3], 2.8, M.BODY, 3.2, 0.295);
    },
  },
  {
    when: (q) => (q.F.has('round-ears') || q.bigCat) && !q.F.has('trunk'),
    draw: ({ p, heavy, bear, headR: r, headC: c }) => {
      // (a bear's small and round, high on its head, dark inside: 0116)
      for (const side of [-1, 1])
        if (bear) {
          p.ball([c[0] - 0.7, side * r * 0.72, c[2] + r * 0.8], 1.1, M.BODY, undefined, 0.25);
          p.ball([c[0] - 0.45, side * r * 0.72, c[2] + r * 0.8], 0.55, M.BODY + FAR, undefined, 0.251);
        } else
          p.ball([c[0] - 0.6, side * r * 0.8, c[2] + r * 0.6], heavy ? 1.5 : 1.1, M.BODY, undefined, 0.25);
    },
  },
  {
    when: (q) => q.F.has('long-ears'),
    draw: ({ p, headR: r, headC: c }) => {
      for (const side of [-1, 1])
        p.stick(
          [c[0] - 0.6, side * r * 0.35, c[2] + r * 0.6],
          [c[0] - 1.6, side * r * 0.45, c[2] + r + 4.2],
          0.9,
          M.BODY,
          0.25,
        );
    },
  },
  {
    when: (q) => q.F.has('horns'),
    draw: ({ p, headR: r, headC: c }) => {
      for (const side of [-1, 1])
        p.stick(
          [c[0] - 0.2, side * r * 0.4, c[2] + r * 0.7],
          [c[0] - 1.8, side * r * 0.75, c[2] + r + 2.4],
          0.65,
          M.HORN,
          0.35,
        );
    },
  },
  {
    when: (q) => q.F.has('antlers'),
    draw: ({ p, headR: r, headC: c }) => {
      for (const side of [-1, 1]) {
        const base: V3 = [c[0] - 0.5, side * r * 0.4, c[2] + r * 0.7];
        p.stick(base, [c[0] - 1.5, side * r * 1.3, c[2] + r + 4], 0.5, M.HORN, 0.35);
        p.stick(
          [base[0] - 0.5, base[1] * 1.6, base[2] + 2],
          [base[0] + 1, base[1] * 2, base[2] + 3.5],
          0.45,
          M.HORN,
          0.35,
        );
      }
    },
  },
];
