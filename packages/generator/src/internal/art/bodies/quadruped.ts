import { type Build, eyes, FAR, farSide, M, Parts, type Pose, type V3, wing } from './common.js';

/** Four-legged animals and beasts: body along the facing, legs in diagonal pairs, neck and head forward. */
export function quadruped(b: Build, pose: Pose): Parts {
  const F = b.features;
  const p = new Parts(b.u * b.scale, b.aspect);
  const low = F.has('low');
  const tall = F.has('tall');
  const heavy = F.has('heavy');
  const sh = b.shape;
  const legH = (low ? 2.6 : tall ? 7 : 5) + b.vary[0] * 0.4 + sh[0]! * 1.5;
  const half = (tall ? 4.4 : 4.6) + b.vary[1] * 0.4 + sh[1]! * 1.2;
  const bodyR = (heavy ? 4.2 : low ? 3 : 3.4) + b.vary[2] * 0.2 + sh[2]! * 0.6;
  const rise = pose.rise;
  const bodyU = legH + bodyR * 0.7 + rise + pose.bob * 0.5;
  const neck = (F.has('long-neck') ? 4.5 : 2.2) + sh[4]! * 1.4;
  const headR = (heavy ? 3.4 : 3.1) + b.vary[3] * 0.2 + sh[3]! * 0.5;
  const headF = half + 1.6 + (F.has('long-neck') ? 1.2 : 0.6);
  // seen from the front the tilted camera would draw the head, nearest the viewer, low over the chest:
  // it is raised by what the tilt lowers it, so it sits on top of the body as a sprite artist draws it
  const headC: V3 = [headF, 0, bodyU + neck + (low ? 0 : 1) + Math.max(0, headF * pose.ground) * 0.8];
  // legs: front-left with back-right (a trot)
  const legs: Array<[number, number, number]> = [
    [half - 1, -1, 1],
    [half - 1, 1, -1],
    [-half + 1, -1, -1],
    [-half + 1, 1, 1],
  ];
  const canine = b.kind === 'animal.canine';
  const far = farSide(pose.facing);
  // legs set wide under a wide body, so a front or back view shows four legs, not a pillar
  const legS = bodyR * 0.95;
  for (const [f, side, sign] of legs) {
    const lift = sign > 0 ? pose.liftL : pose.liftR;
    const hip: V3 = [f, side * legS * 0.9, bodyU - bodyR * 0.3];
    const fwd = sign * pose.stride * 0.8;
    const foot: V3 = [
      f + fwd,
      side * legS,
      rise + lift + 0.7 + (f + fwd) * pose.ground + side * legS * pose.groundS,
    ];
    const shade = side === far ? FAR : 0;
    p.stick(hip, foot, heavy ? 1.4 : 1.05, M.BODY + shade, side === far ? -0.3 : 0);
    // dark socks (a fox's black legs) or plain hooves and paws
    if (canine)
      p.stick(
        [foot[0], foot[1], foot[2] + 2.2],
        foot,
        heavy ? 1.35 : 1,
        M.DARK + shade,
        side === far ? -0.29 : 0.01,
      );
    p.ball(foot, heavy ? 1.3 : 0.95, M.DARK + shade, 0.8, side === far ? -0.28 : 0.02);
  }
  // tail
  if (F.has('tail') || F.has('bushy-tail')) {
    const sway = Math.sin(pose.phase * Math.PI * 2) * 1.3;
    const bushy = F.has('bushy-tail');
    if (bushy) {
      // a big brush with a white tip
      p.stick([-half - 0.5, 0, bodyU + 0.3], [-half - 3.2, sway * 0.6, bodyU + 0.9], 1.8, M.BODY);
      p.stick([-half - 3.2, sway * 0.6, bodyU + 0.9], [-half - 5.4, sway, bodyU + 0.2], 2, M.BODY, 0.01);
      p.ball([-half - 6.4, sway, bodyU - 0.1], 1.6, M.LIGHT, undefined, 0.05);
    } else p.stick([-half - 0.5, 0, bodyU + 0.5], [-half - 4.5, sway, bodyU + 1.6], 0.7, M.BODY);
  }
  if (F.has('wings')) {
    wing(p, [half * 0.2, -bodyR * 0.6, bodyU + bodyR * 0.6], -1, 10, pose.flap, M.BODY2);
    wing(p, [half * 0.2, bodyR * 0.6, bodyU + bodyR * 0.6], 1, 10, pose.flap, M.BODY2);
  }
  // two bodies side by side: wider than tall seen end-on, a rump and a chest seen from behind and before
  for (const side of [-1, 1])
    p.stick([-half, side * bodyR * 0.3, bodyU], [half, side * bodyR * 0.3, bodyU], bodyR, M.BODY, 0.1);
  // a white chest and belly
  if (canine) p.ball([half * 0.85, 0, bodyU - bodyR * 0.25], bodyR * 0.8, M.LIGHT, bodyR * 0.85, 0.15);
  if (F.has('fluffy' as never) && b.kind !== 'animal.feline')
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
  if (F.has('hump' as never)) p.ball([0, 0, bodyU + bodyR * 0.9], bodyR * 0.8, M.BODY, undefined, 0.11);
  if (F.has('shell')) p.ball([0, 0, bodyU + bodyR * 0.5], half + 1, M.BODY2, bodyR * 1.1, 0.15);
  // coat patterns the gloss names: stripes over the back and flanks (tiger, zebra), spots (leopard,
  // giraffe; a cow's patches)
  const coat = F.has('stripes' as never)
    ? 'stripes'
    : F.has('spots' as never) || b.lemma === 'cow'
      ? 'spots'
      : null;
  if (coat === 'stripes')
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
  if (coat === 'spots') {
    const big = b.lemma === 'cow';
    for (let k = 0; k < (big ? 4 : 7); k++) {
      const f = ((k * 0.618 + (b.shape[7] ?? 0) * 0.2) % 1) * 2 * half * 0.8 - half * 0.8;
      const side = k % 2 ? 1 : -1;
      const up = ((k * 0.37) % 1) * 0.9;
      p.ball([f, side * bodyR * 1.05, bodyU + bodyR * up], big ? 1.8 : 0.8, M.DARK, big ? 1.5 : 0.7, 0.4);
    }
  }
  // neck and head; a darker rim round the head so it reads over the body from the front
  const neckR = heavy ? 2.6 : 1.7;
  const neckA: V3 = [half - 0.5, 0, bodyU + 0.5];
  const neckB: V3 = [headC[0] - 0.5, 0, headC[2] - 0.5];
  p.stick(neckA, neckB, neckR, M.BODY, 0.2);
  if (F.has('mane')) {
    if (b.kind === 'animal.feline')
      // a lion's mane: a great ruff round the face
      p.ball([headC[0] - 0.6, 0, headC[2] - 0.2], headR * 1.6, M.WOOD, headR * 1.55, 0.27);
    else p.stick([half, 0, bodyU + bodyR], [headC[0] - 0.8, 0, headC[2] + headR * 0.6], 1.3, M.DARK, 0.21);
  }
  p.ball(headC, headR + 0.45, M.BODY + FAR, undefined, 0.29);
  // a sheep's face and a horse's long head
  const face = F.has('fluffy' as never) && b.kind === 'animal.bovid' ? M.DARK : M.BODY;
  p.ball(headC, headR, face, undefined, 0.3);
  if (b.kind === 'animal.equine' || b.kind === 'creature.unicorn') {
    p.stick(
      headC,
      [headC[0] + headR + 1.8, 0, headC[2] - headR * 1.1],
      headR * 0.58 + 0.45,
      M.BODY + FAR,
      0.305,
    );
    p.stick(headC, [headC[0] + headR + 1.8, 0, headC[2] - headR * 1.1], headR * 0.58, face, 0.31);
  }
  if (F.has('snout') && canine) {
    // a long pointed muzzle, white below, a black nose
    p.cone(
      [headC[0] + headR * 0.3, 0, headC[2] - headR * 0.3],
      [headC[0] + headR + 2.8, 0, headC[2] - headR * 0.4],
      headR * 0.62,
      M.BODY,
      0.33,
    );
    p.ball([headC[0] + headR * 0.7, 0, headC[2] - headR * 0.6], headR * 0.55, M.LIGHT, headR * 0.4, 0.34);
    p.ball([headC[0] + headR + 2.5, 0, headC[2] - headR * 0.4], 0.75, M.EYE, undefined, 0.36);
  } else if (F.has('snout')) {
    p.ball([headC[0] + headR * 0.95, 0, headC[2] - headR * 0.35], headR * 0.6, M.BODY2, undefined, 0.33);
    p.ball([headC[0] + headR * 1.5, 0, headC[2] - headR * 0.25], 0.6, M.EYE, undefined, 0.36);
  }
  if (F.has('beak'))
    p.stick(
      [headC[0] + headR * 0.7, 0, headC[2] - 0.3],
      [headC[0] + headR + 2, 0, headC[2] - 1],
      0.9,
      M.GOLD,
      0.34,
    );
  if (F.has('trunk'))
    p.stick(
      [headC[0] + headR * 0.8, 0, headC[2] - 0.5],
      [headC[0] + headR + 1.5, 0, rise + 2],
      1,
      M.BODY,
      0.34,
    );
  eyes(p, [headC[0] - headR * 0.1, 0, headC[2] + 0.4], headR, 0.75, 0.5);
  if (F.has('ears'))
    // pointed ears: cones
    for (const side of [-1, 1])
      p.cone(
        [headC[0] - 0.4, side * headR * 0.55, headC[2] + headR * 0.55],
        [headC[0] - 0.7, side * headR * 0.8, headC[2] + headR + 2.6],
        1.3,
        M.BODY,
        0.25,
      );
  if (F.has('trunk'))
    for (const side of [-1, 1])
      p.ball([headC[0] - 1.2, side * (headR + 0.6), headC[2] + 0.3], 2.8, M.BODY, 3.2, 0.295);
  if (F.has('round-ears') && !F.has('trunk'))
    for (const side of [-1, 1])
      p.ball(
        [headC[0] - 0.6, side * headR * 0.8, headC[2] + headR * 0.6],
        heavy ? 1.5 : 1.1,
        M.BODY,
        undefined,
        0.25,
      );
  if (F.has('long-ears'))
    for (const side of [-1, 1])
      p.stick(
        [headC[0] - 0.6, side * headR * 0.35, headC[2] + headR * 0.6],
        [headC[0] - 1.6, side * headR * 0.45, headC[2] + headR + 4.2],
        0.9,
        M.BODY,
        0.25,
      );
  if (F.has('horns'))
    for (const side of [-1, 1])
      p.stick(
        [headC[0] - 0.2, side * headR * 0.4, headC[2] + headR * 0.7],
        [headC[0] - 1.8, side * headR * 0.75, headC[2] + headR + 2.4],
        0.65,
        M.HORN,
        0.35,
      );
  if (F.has('antlers'))
    for (const side of [-1, 1]) {
      const base: V3 = [headC[0] - 0.5, side * headR * 0.4, headC[2] + headR * 0.7];
      const tip: V3 = [headC[0] - 1.5, side * headR * 1.3, headC[2] + headR + 4];
      p.stick(base, tip, 0.5, M.HORN, 0.35);
      p.stick(
        [base[0] - 0.5, base[1] * 1.6, base[2] + 2],
        [base[0] + 1, base[1] * 2, base[2] + 3.5],
        0.45,
        M.HORN,
        0.35,
      );
    }
  return p;
}
