import { type Build, eyes, M, Parts, type Pose, type V3, wing } from './common.js';

/** Which weapon a biped holds: the prompt's held item first, then the kind's own. */
function weaponOf(b: Build): string | null {
  const held = b.held;
  if (held) {
    if (/bow/.test(held)) return 'bow';
    if (/axe|ax$|hatchet/.test(held)) return 'axe';
    if (/hammer|mace|club/.test(held)) return 'club';
    if (/spear|lance|pike|trident/.test(held)) return 'spear';
    if (/staff|wand|rod|scepter/.test(held)) return 'staff';
    if (/dagger|knife/.test(held)) return 'dagger';
    if (/shield/.test(held)) return 'shield';
    if (/gun|rifle|pistol/.test(held)) return 'gun';
    return 'sword';
  }
  for (const f of b.features) if (f.startsWith('weapon:')) return f.slice(7);
  return null;
}

/** People, humanoid creatures and robots: legs, torso, arms, head, then hats, capes, wings and weapons. */
export function biped(b: Build, pose: Pose): Parts {
  const F = b.features;
  const p = new Parts(b.u * b.scale, b.aspect);
  const robot = b.spec.plan === 'biped' && F.has('armor') && b.spec.shiny && !F.has('hat:helmet');
  const heavy = F.has('heavy');
  const small = F.has('small');
  const sh = b.shape;
  const legL = 4.8 + b.vary[0] * 0.4 + sh[0]! * 1.3 - (small ? 0.8 : 0);
  const torsoH = 5 + b.vary[1] * 0.3 + sh[1]! * 1.1;
  const torsoR = (heavy ? 4.2 : 3.5) + b.vary[2] * 0.2 + sh[2]! * 0.8;
  const headR = (small ? 5.2 : 4.8) + b.vary[3] * 0.2 + sh[3]! * 0.7;
  const rise = pose.rise;
  const hipU = legL + rise + pose.bob * 0.5;
  const shoulderU = hipU + torsoH + pose.bob * 0.5;
  const lean = pose.lean * 4;
  const headC: V3 = [lean, 0, shoulderU + headR * 0.85];
  const skin = robot ? M.METAL : isCreatureSkin(b) ? M.BODY : M.SKIN;
  const cloth = M.BODY;
  const legM = robot ? M.METAL : M.DARK;
  const bodyM = cloth;
  const limbM = isCreatureSkin(b) ? M.BODY : robot ? M.METAL : cloth;

  // legs: hip to foot, the stride swings them along the facing
  for (const [side, sign, lift] of [
    [-1, 1, pose.liftL],
    [1, -1, pose.liftR],
  ] as const) {
    const hip: V3 = [0, side * 1.7, hipU];
    const fwd = sign * pose.stride;
    const foot: V3 = [fwd, side * 1.9, rise + lift + 0.9 + fwd * pose.ground + side * 1.9 * pose.groundS];
    p.stick(hip, foot, 1.5, isCreatureSkin(b) ? M.BODY : legM);
    p.stick(
      [foot[0] - 0.3, foot[1], foot[2] - 0.1],
      [foot[0] + 1.2, foot[1], foot[2] - 0.1],
      1.1,
      isCreatureSkin(b) ? M.BODY2 : M.WOOD,
      0.05,
    );
  }
  // tail
  if (F.has('tail')) {
    const sway = Math.sin(pose.phase * Math.PI * 2) * 1.2;
    p.stick([-torsoR * 0.7, 0, hipU + 0.5], [-torsoR - 3.5, sway, hipU + 2.5], 0.8, M.BODY);
  }
  // people whose kind states no outfit wear one of their own (stable per noun): a cape, a robe or a pack
  const outfit = /^person\./.test(b.kind) && !F.has('robe') && !F.has('cape') ? sh[4]! : 0;
  const cape = F.has('cape') || outfit > 0.45;
  const robe = F.has('robe') || outfit < -0.55;
  if (outfit > 0.1 && outfit <= 0.45)
    p.stick([-torsoR - 0.6, 0, hipU + torsoH * 0.3], [-torsoR - 0.8, 0, shoulderU - 0.8], 2.2, M.WOOD, -0.3);
  // cape behind the back
  if (cape) {
    const flow = pose.action === 'run' || pose.action === 'walk' ? 1.2 : 0.4;
    p.poly(
      [
        [-torsoR * 0.8, -torsoR * 0.9, shoulderU - 0.3],
        [-torsoR * 0.8, torsoR * 0.9, shoulderU - 0.3],
        [-torsoR - flow, torsoR * 1.25, rise + 1.2],
        [-torsoR - flow, -torsoR * 1.25, rise + 1.2],
      ],
      M.ACCENT,
      -0.5,
    );
  }
  if (F.has('wings')) {
    wing(p, [-torsoR * 0.8, -1, shoulderU - 1], -1, 9, pose.flap, M.BODY2);
    wing(p, [-torsoR * 0.8, 1, shoulderU - 1], 1, 9, pose.flap, M.BODY2);
  }
  // torso (a robe flares to the ground)
  if (robe) {
    p.stick([lean * 0.5, 0, shoulderU - 1], [0, 0, rise + 2.8], torsoR + 0.9, bodyM, 0.1);
    p.ball([0, 0, rise + 2.6], torsoR + 1.5, bodyM, 2.2, 0.1);
  } else {
    p.stick([lean * 0.6, 0, shoulderU - torsoR * 0.6], [0, 0, hipU + 0.4], torsoR, bodyM, 0.1);
    p.stick(
      [0, -torsoR * 0.8, hipU + 0.3],
      [0, torsoR * 0.8, hipU + 0.3],
      1.1,
      robot ? M.DARK : M.ACCENT,
      0.12,
    );
  }
  if (b.kind === 'creature.skeleton') {
    // ribs and a spine across the chest, dark eye sockets below
    for (let k = 0; k < 3; k++)
      p.stick(
        [lean + torsoR * 0.8, -torsoR * 0.7, shoulderU - 1.6 - k * 1.4],
        [lean + torsoR * 0.8, torsoR * 0.7, shoulderU - 1.6 - k * 1.4],
        0.35,
        M.DARK,
        0.16,
      );
  }
  if (F.has('armor') && !robot)
    p.ball([lean * 0.6 + 1, 0, shoulderU - 2.5], torsoR * 0.75, M.METAL, undefined, 0.15);

  // arms: the left swings with the gait, the right carries the weapon and strikes
  const shoulderW = torsoR + 0.6 + Math.max(0, sh[5]!) * 1.2;
  const weapon = weaponOf(b);
  const strike = pose.strike;
  const handL: V3 = [pose.swing + lean, -shoulderW - 0.5, shoulderU - 4.4];
  let handR: V3 = [-pose.swing + lean + (weapon ? 1.2 : 0), shoulderW + 0.5, shoulderU - 4.2];
  if (strike > 0) handR = [lean - 1.5 * strike, shoulderW + 0.4, shoulderU - 5 + 7 * strike];
  else if (strike < 0) handR = [lean + 5 * -strike, shoulderW + 0.2, shoulderU - 3.5];
  p.stick([lean, -shoulderW, shoulderU - 0.6], handL, 1.25, limbM, 0.2);
  p.ball(handL, 1.2, skin, undefined, 0.21);
  p.stick([lean, shoulderW, shoulderU - 0.6], handR, 1.25, limbM, 0.2);
  p.ball(handR, 1.2, skin, undefined, 0.21);
  if (weapon) held(p, weapon, handR, strike);

  // head
  p.ball(headC, headR, skin, undefined, 0.3);
  if (robot) {
    p.stick([headC[0], 0, headC[2] + headR * 0.8], [headC[0], 0, headC[2] + headR + 2], 0.45, M.METAL, 0.31);
    p.ball([headC[0], 0, headC[2] + headR + 2.4], 0.9, M.GLOW, undefined, 0.32);
  }
  // snout, ears, horns
  if (F.has('snout')) p.ball([headC[0] + headR * 0.9, 0, headC[2] - 0.8], 1.8, M.BODY2, undefined, 0.36);
  if (F.has('ears')) {
    for (const side of [-1, 1])
      p.stick(
        [headC[0] - 0.5, side * headR * 0.65, headC[2] + headR * 0.5],
        [headC[0] - 0.9, side * (headR * 0.95 + 1.2), headC[2] + headR + 1.6],
        0.8,
        isCreatureSkin(b) ? M.BODY : M.SKIN,
        0.25,
      );
  }
  if (F.has('round-ears')) {
    for (const side of [-1, 1])
      p.ball([headC[0] - 0.3, side * headR * 0.95, headC[2] + headR * 0.6], 1.4, M.BODY, undefined, 0.25);
  }
  if (F.has('horns')) {
    for (const side of [-1, 1])
      p.stick(
        [headC[0], side * headR * 0.45, headC[2] + headR * 0.75],
        [headC[0] - 0.8, side * (headR * 0.8), headC[2] + headR + 2.6],
        0.7,
        M.HORN,
        0.33,
      );
  }
  // hair (behind the face, on top) unless a hat covers it
  const hat = [...F].find((f) => f.startsWith('hat:'));
  if (!robot && !isCreatureSkin(b) && hat !== 'hat:helmet' && hat !== 'hat:hood' && hat !== 'hat:space') {
    // at the head's own height: a higher centre would sort it over the face in side views
    p.ball([headC[0] - 0.9, 0, headC[2]], headR * 1.02, M.DARK, headR * 1.12, 0.29);
    // a hair style of the noun's own: a top knot, spikes or long hair change the outline
    const style = sh[6]!;
    if (style > 0.5)
      p.ball([headC[0] - 1.2, 0, headC[2] + headR + 0.6], headR * 0.45, M.DARK, undefined, 0.28);
    else if (style < -0.5)
      for (const s of [-0.6, 0, 0.6])
        p.stick(
          [headC[0] - 0.5, s * headR, headC[2] + headR * 0.6],
          [headC[0] - 1.2, s * headR * 1.3, headC[2] + headR + 1.8],
          0.7,
          M.DARK,
          0.28,
        );
    if (F.has('long-hair') || (style > 0.1 && style <= 0.5))
      p.stick(
        [headC[0] - 1.6, 0, headC[2]],
        [headC[0] - 2, 0, headC[2] - headR - 2],
        headR * 0.8,
        M.DARK,
        0.05,
      );
  }
  eyes(p, headC, headR, robot ? 0.8 : 0.7);
  if (hat) hatOn(p, hat, headC, headR);
  if (F.has('halo')) p.ball([headC[0], 0, headC[2] + headR + 1.8], 2.6, M.GLOW, 0.7, 0.5);
  return p;
}

/** Creatures whose body is their own skin colour (zombies, goblins, demons) rather than clothes. */
function isCreatureSkin(b: Build): boolean {
  return /^creature\.|^animal\./.test(b.kind ?? '') && !b.features.has('armor');
}

function hatOn(p: Parts, hat: string, c: V3, r: number): void {
  const top = c[2] + r;
  switch (hat) {
    case 'hat:helmet':
      p.ball([c[0] - 0.3, 0, c[2] + 0.3], r * 1.08, M.METAL, undefined, 0.33);
      p.ball([c[0] + r * 0.7, 0, c[2] - 0.2], r * 0.55, M.SKIN, undefined, 0.34);
      p.stick([c[0] - 0.5, 0, top + 0.2], [c[0] - 2, 0, top + 2.2], 0.9, M.ACCENT, 0.35);
      for (const side of [-1, 1]) p.ball([c[0] + r * 0.98, side * r * 0.3, c[2]], 0.6, M.EYE, 0.8, 0.45);
      break;
    case 'hat:hood':
      p.ball([c[0] - 0.5, 0, c[2] + 0.4], r * 1.14, M.BODY2, undefined, 0.33);
      p.ball([c[0] + r * 0.62, 0, c[2] - 0.3], r * 0.62, M.SKIN, undefined, 0.34);
      for (const side of [-1, 1]) p.ball([c[0] + r * 0.95, side * r * 0.3, c[2]], 0.6, M.EYE, 0.8, 0.45);
      break;
    case 'hat:wizard':
      p.ball([c[0], 0, top - 1.2], r * 1.45, M.BODY, 0.6, 0.4);
      p.ball([c[0] - 0.2, 0, top], r * 0.8, M.BODY, 0.5, 0.41);
      p.ball([c[0] - 0.4, 0, top + 1.2], r * 0.62, M.BODY, undefined, 0.42);
      p.ball([c[0] - 0.9, 0, top + 2.8], r * 0.42, M.BODY, undefined, 0.43);
      p.ball([c[0] - 1.6, 0, top + 4], r * 0.26, M.BODY, undefined, 0.44);
      p.ball([c[0], 0, top - 0.4], r * 0.85, M.GOLD, 0.35, 0.415);
      break;
    case 'hat:crown':
      p.stick([c[0], -r * 0.75, top - 0.2], [c[0], r * 0.75, top - 0.2], 1.2, M.GOLD, 0.4);
      for (const s of [-0.6, 0, 0.6])
        p.stick([c[0] + 0.4, s * r, top], [c[0] + 0.4, s * r, top + 2], 0.6, M.GOLD, 0.41);
      break;
    case 'hat:straw':
      p.ball([c[0], 0, top - 1], r * 1.7, M.STRAW, 0.6, 0.4);
      p.ball([c[0] - 0.3, 0, top], r * 0.85, M.STRAW, 0.75, 0.41);
      break;
    case 'hat:tricorn':
      p.ball([c[0], 0, top - 0.8], r * 1.45, M.DARK, 0.8, 0.4);
      p.ball([c[0] - 0.3, 0, top + 0.2], r * 0.9, M.DARK, 0.8, 0.41);
      break;
    case 'hat:chef':
      p.stick([c[0] - 0.3, 0, top - 0.8], [c[0] - 0.3, 0, top + 2.5], r * 0.75, M.LIGHT, 0.4);
      p.ball([c[0] - 0.3, 0, top + 3], r * 0.95, M.LIGHT, undefined, 0.41);
      break;
    case 'hat:space':
      p.ball([c[0], 0, c[2]], r * 1.3, M.TOP, undefined, 0.33);
      p.ball([c[0] + r * 0.55, 0, c[2]], r * 0.8, M.SKIN, undefined, 0.34);
      for (const side of [-1, 1]) p.ball([c[0] + r * 1.15, side * r * 0.3, c[2]], 0.6, M.EYE, 0.8, 0.45);
      break;
  }
}

/** A weapon in the hand; its blade points up and forward, and swings down on a strike. */
function held(p: Parts, weapon: string, hand: V3, strike: number): void {
  // direction of the weapon: up-forward at rest, back over the shoulder winding up, forward striking
  const ang = strike > 0 ? -0.6 * strike : strike < 0 ? 1.3 : 0.35;
  const dir: V3 = [Math.sin(ang), 0, Math.cos(ang)];
  const at = (k: number): V3 => [hand[0] + dir[0] * k, hand[1], hand[2] + dir[2] * k];
  switch (weapon) {
    case 'bow':
      p.stick([hand[0] + 0.8, hand[1], hand[2] + 6], [hand[0] + 2, hand[1], hand[2]], 0.55, M.WOOD, 0.5);
      p.stick([hand[0] + 2, hand[1], hand[2]], [hand[0] + 0.8, hand[1], hand[2] - 6], 0.55, M.WOOD, 0.5);
      p.stick(
        [hand[0] + 0.7, hand[1], hand[2] + 6],
        [hand[0] + 0.7, hand[1], hand[2] - 6],
        0.3,
        M.LIGHT,
        0.49,
      );
      break;
    case 'staff':
      p.stick([hand[0], hand[1], hand[2] - 5], [hand[0], hand[1], hand[2] + 11], 0.6, M.WOOD, 0.5);
      p.ball([hand[0], hand[1], hand[2] + 12], 1.5, M.GLOW, undefined, 0.51);
      break;
    case 'spear':
      p.stick(at(-5), at(12), 0.5, M.WOOD, 0.5);
      p.stick(at(12), at(14.5), 0.9, M.METAL, 0.51);
      break;
    case 'axe':
      p.stick(at(-1), at(9), 0.6, M.WOOD, 0.5);
      p.ball(at(8), 2.2, M.METAL, 1.6, 0.51);
      break;
    case 'club':
      p.stick(at(-1), at(7), 0.8, M.WOOD, 0.5);
      p.ball(at(7.5), 2, M.WOOD, undefined, 0.51);
      break;
    case 'shield':
      p.ball([hand[0] + 1.2, hand[1] + 0.8, hand[2] + 1], 3.6, M.METAL, undefined, 0.5);
      p.ball([hand[0] + 1.6, hand[1] + 0.9, hand[2] + 1], 2.4, M.ACCENT, undefined, 0.51);
      break;
    case 'gun':
      p.stick(hand, [hand[0] + 4, hand[1], hand[2] + 0.5], 0.8, M.METAL, 0.5);
      break;
    case 'dagger':
      p.stick(at(0.5), at(4.5), 0.6, M.METAL, 0.5);
      p.stick(
        [hand[0] - 0.9, hand[1], hand[2] + 0.4],
        [hand[0] + 0.9, hand[1], hand[2] + 0.4],
        0.45,
        M.WOOD,
        0.51,
      );
      break;
    default:
      p.stick(at(1), at(10), 0.7, M.METAL, 0.5);
      p.stick(
        [hand[0] - 1.6, hand[1], hand[2] + 0.9],
        [hand[0] + 1.6, hand[1], hand[2] + 0.9],
        0.5,
        M.GOLD,
        0.51,
      );
  }
}
