import { type Build, eyes, FAR, M, Parts, type Pose, type V3, wing } from './common.js';

/** Birds and bats: round body, wings that beat, thin legs (birds) or none (bats fly). */
export function bird(b: Build, pose: Pose): Parts {
  const F = b.features;
  const p = new Parts(b.u * b.scale, b.aspect);
  const bat = !F.has('beak');
  // flightless birds stand upright on short legs (penguins), others perch leaning forward
  const upright = F.has('flightless' as never) || F.has('upright' as never);
  // an owl: the upright bird with a pale facial disc, big round eyes, a small hooked beak and ear tufts
  const owl = b.lemma === 'owl';
  const hop =
    pose.action === 'walk' || pose.action === 'run'
      ? Math.max(0, Math.sin(pose.phase * Math.PI * 2)) * 1.5
      : 0;
  const baseU = (bat ? 9 : 5.5) + pose.rise + hop + (bat ? Math.sin(pose.phase * Math.PI * 2) : 0);
  const bodyR = 3.6 + b.vary[0] * 0.4;
  const headC: V3 = [2.6, 0, baseU + bodyR + 1.4];
  if (!bat && !upright) {
    for (const side of [-1, 1]) {
      p.stick(
        [0, side * 1.2, baseU - bodyR * 0.6],
        [side * pose.stride * 0.3, side * 1.3, pose.rise + hop + 0.5],
        0.45,
        M.GOLD,
      );
    }
    p.poly(
      [
        [-bodyR + 0.5, -1.2, baseU + 0.5],
        [-bodyR + 0.5, 1.2, baseU + 0.5],
        [-bodyR - 3.5, 1.6, baseU + 2.5],
        [-bodyR - 3.5, -1.6, baseU + 2.5],
      ],
      M.BODY2,
      -0.2,
    );
  }
  const span = bat ? 9 : 7;
  const flap = bat || pose.action !== 'idle' ? pose.flap : pose.flap * 0.3;
  if (!upright) {
    wing(p, [0, -bodyR * 0.7, baseU + 1], -1, span, flap, bat ? M.BODY2 : M.BODY);
    wing(p, [0, bodyR * 0.7, baseU + 1], 1, span, flap, bat ? M.BODY2 : M.BODY);
  }
  if (upright) {
    // a tall egg of a body, the head right on top, flippers hanging at its sides (issue #39, decision
    // 0127: the belly was a disc inside the body, so a side view was a dark capsule)
    const r0 = pose.rise + hop + pose.bob;
    p.stick([0, 0, r0 + bodyR * 0.8], [0, 0, r0 + bodyR * 2.6], bodyR, M.BODY, 0.1);
    // the white front bulges past the body's front: from the front it is the belly, in profile a
    // crescent on the facing side (under the body's own pixels, bias below the body's), from behind
    // hidden by the back; it runs up to the throat
    // (an owl's a buff breast, not white: 0133)
    // (a penguin's bulges less: past the body's front by 0.63 body radii it was a white smear across
    // half the profile; by 0.44 it is the front edge, decision 0145)
    if (owl) p.ball([bodyR * 0.78, 0, r0 + bodyR * 1.45], bodyR * 0.85, M.BODY2, bodyR * 1.15, 0.05);
    else {
      p.ball([bodyR * 0.62, 0, r0 + bodyR * 1.4], bodyR * 0.82, M.LIGHT, bodyR * 1.12, 0.05);
      p.ball([bodyR * 0.5, 0, r0 + bodyR * 2.4], bodyR * 0.58, M.LIGHT, bodyR * 0.6, 0.04);
    }
    // from behind a black bird is its own outline: the flippers a shade lighter than the back and a
    // sheen on the back of the head and down the back, so head, flippers and body read apart
    const behind = Math.cos((pose.facing * Math.PI) / 180) < -0.3;
    // flippers hang down along the sides, a little back and out, tips swinging with the gait
    // (a shade darker than the body, so the near one reads in profile against the body it lies on)
    for (const side of [-1, 1])
      p.stick(
        [-bodyR * 0.1, side * bodyR * 0.9, r0 + bodyR * 2.3],
        [-bodyR * 0.2 - pose.swing * 0.2 * side, side * bodyR * 1.15, r0 + bodyR * 1.1 + pose.flap],
        0.8,
        behind && !owl ? M.TOP : M.BODY + FAR,
        0.13,
      );
    // a short stiff tail at the back's foot
    p.stick([-bodyR * 0.75, 0, r0 + bodyR * 0.55], [-bodyR * 1.2, 0, r0 + 0.4], 0.6, M.BODY, 0.08);
    const head: V3 = [owl ? 0.2 : 0.5, 0, r0 + bodyR * (owl ? 2.75 : 3.25)];
    p.ball(head, owl ? bodyR * 0.95 : 2.3, M.BODY, owl ? bodyR * 0.8 : undefined, 0.3);
    if (behind && !owl) {
      p.ball([head[0] - 1.2, -0.5, head[2] + 0.6], 1.1, M.TOP, 0.9, 0.31);
      p.stick(
        [-bodyR * 0.75, -bodyR * 0.3, r0 + bodyR * 2.2],
        [-bodyR * 0.8, -bodyR * 0.35, r0 + bodyR * 1.1],
        0.55,
        M.TOP,
        0.11,
      );
    }
    if (owl) {
      const hr = bodyR * 0.95;
      // a pale facial disc on the front of the head (a crescent on the facing side in profile, none
      // from behind), two big round eyes on it, a small dark hooked beak between them pointing the
      // way it faces, and two ear tufts (decision 0133)
      p.ball([head[0] + hr * 0.45, 0, head[2] - 0.2], hr * 0.78, M.BODY2, hr * 0.68, 0.31);
      for (const side of [-1, 1]) {
        const e: V3 = [head[0] + hr * 0.8, side * hr * 0.4, head[2] + 0.1];
        p.ball(e, 1.05, M.GOLD, undefined, 0.38);
        p.ball([e[0] + 0.35, e[1] * 1.05, e[2]], 0.55, M.EYE, undefined, 0.39);
        p.cone(
          [head[0] - 0.2, side * hr * 0.55, head[2] + hr * 0.55],
          [head[0] - 0.4, side * hr * 0.8, head[2] + hr * 1.1],
          0.9,
          M.BODY,
          0.29,
        );
      }
      p.stick(
        [head[0] + hr * 0.95, 0, head[2] - 0.4],
        [head[0] + hr + 0.4, 0, head[2] - 1.3],
        0.45,
        M.DARK,
        0.4,
      );
      for (const side of [-1, 1]) {
        const step = (side < 0 ? pose.stride : -pose.stride) * 0.25;
        p.ball([1.1 + step, side * 1.2, r0 + 0.35], 0.9, M.GOLD, 0.5, 0.12);
      }
      return p;
    }
    // a short beak in line with the face, pointing the way it faces
    p.stick([head[0] + 2, 0, head[2] - 0.4], [head[0] + 3.3, 0, head[2] - 0.7], 0.5, M.GOLD, 0.36);
    // white eyes with dark pupils on a black head (the rig's "black animal" yellow eyes merged with
    // the beak); one shows in profile, the far one behind the head
    for (const side of [-1, 1]) {
      const e: V3 = [head[0] + 1.5, side * 1.05, head[2] + 0.45];
      p.ball(e, 0.6, M.LIGHT, undefined, 0.38);
      p.ball([e[0] + 0.2, e[1] * 1.08, e[2]], 0.36, M.BODY, undefined, 0.39);
    }
    // feet: flat orange paddles under the body, stepping with the gait
    for (const side of [-1, 1]) {
      const step = (side < 0 ? pose.stride : -pose.stride) * 0.25;
      const lift = (side < 0 ? pose.liftL : pose.liftR) * 0.4;
      p.ball([1.3 + step, side * 1.3, r0 + 0.35 + lift], 1.2, M.GOLD, 0.5, 0.12);
    }
    return p;
  }
  p.ball([0, 0, baseU], bodyR, M.BODY, undefined, 0.1);
  p.ball([0.8, 0, baseU - 0.5], bodyR * 0.7, M.BODY2, undefined, 0.12);
  p.ball(headC, 2.5, M.BODY, undefined, 0.3);
  if (!bat)
    p.stick([headC[0] + 2, 0, headC[2] - 0.2], [headC[0] + 3.8, 0, headC[2] - 0.8], 0.8, M.GOLD, 0.36);
  if (F.has('ears'))
    for (const side of [-1, 1])
      p.stick(
        [headC[0], side * 1.3, headC[2] + 1.5],
        [headC[0] - 0.4, side * 1.9, headC[2] + 4],
        0.7,
        M.BODY,
        0.25,
      );
  eyes(p, headC, 2.5, 0.6, 0.5);
  return p;
}

/** Fish and whales: a body of balls along the facing that sways, a tail fin that beats. */
export function fish(b: Build, pose: Pose): Parts {
  const p = new Parts(b.u * b.scale, b.aspect);
  const t = pose.phase * Math.PI * 2;
  const u0 = 8 + Math.sin(t) * 0.6 + pose.rise;
  const sway = (k: number) => Math.sin(t + k * 0.5) * (pose.action === 'idle' ? 0.5 : 1.1) * (1 - k * 0.15);
  const rs = [2.2, 3.4, 3.8, 3.2, 2] as const;
  const fs = [-5, -2.2, 0.6, 3.2, 5.4] as const;
  p.poly(
    [
      [-6, sway(0), u0],
      [-9.5, sway(0) * 2, u0 + 3.4],
      [-9.5, sway(0) * 2, u0 - 3.4],
    ],
    M.BODY2,
    -0.1,
  );
  p.poly(
    [
      [-1, 0, u0 + 3],
      [2.5, 0, u0 + 3.2],
      [-2.5, 0, u0 + 6],
    ],
    M.BODY2,
    -0.05,
  );
  fs.forEach((f, i) => {
    p.ball([f, sway(4 - i) * 0.6, u0], rs[i]! * (1 + b.vary[0] * 0.08), M.BODY, rs[i]! * 0.9, 0.1 + i * 0.01);
  });
  p.ball([1.5, 0, u0 - 1.4], 2.6, M.LIGHT, 1.4, 0.12);
  for (const side of [-1, 1])
    p.poly(
      [
        [1, side * 3, u0 - 1],
        [-1.5, side * 4.5, u0 - 3],
        [-2, side * 3, u0 - 0.5],
      ],
      M.BODY2,
      0.2,
    );
  eyes(p, [4.4, 0, u0 + 0.6], 2.2, 0.6, 0.75);
  return p;
}

/** Snakes and worms: segments along a wave on the ground, the head raised. */
export function serpent(b: Build, pose: Pose): Parts {
  const F = b.features;
  const p = new Parts(b.u * b.scale, b.aspect);
  const t = pose.phase * Math.PI * 2;
  const n = 9;
  const amp = pose.action === 'idle' ? 1.4 : 2.4;
  let head: V3 = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const f = -9 + i * 1.8;
    const s = Math.sin(t + i * 0.9) * amp * (1 - i / (n + 3));
    const u = i >= n - 2 ? 2 + (i - (n - 3)) * 2.2 + pose.rise : 1.6 + pose.rise;
    const r = 1.5 + Math.min(i, n - 1 - i) * 0.18 + b.vary[0] * 0.15;
    p.ball([f, s, u], r, i % 2 ? M.BODY : M.BODY, r * 0.9, i * 0.001);
    head = [f + 1.2, s, u + 1.4];
  }
  p.ball(head, 2.3, M.BODY, 1.9, 0.2);
  if (F.has('long-hair')) p.ball([head[0] - 1.2, head[1], head[2] + 0.8], 2.5, M.DARK, undefined, 0.15);
  eyes(p, head, 2.2, 0.55, 0.5);
  return p;
}

/** Insects, spiders and crabs: segmented body low on the ground, jointed legs that step. */
export function manyLegged(b: Build, pose: Pose): Parts {
  const F = b.features;
  const p = new Parts(b.u * b.scale, b.aspect);
  const pairs = F.has('eight-legs') ? 4 : 3;
  const crab = F.has('claws');
  const u0 = 4.2 + pose.rise + pose.bob * 0.4;
  const t = pose.phase * Math.PI * 2;
  for (let i = 0; i < pairs; i++) {
    const f = (crab ? 1.5 : 2.2) - i * (crab ? 1.6 : 1.6);
    for (const side of [-1, 1]) {
      const step = Math.sin(t + i * 1.6 + (side > 0 ? Math.PI : 0)) * (pose.action === 'idle' ? 0.2 : 1.4);
      const lift =
        Math.max(0, Math.cos(t + i * 1.6 + (side > 0 ? Math.PI : 0))) * (pose.action === 'idle' ? 0 : 1.2);
      const hip: V3 = [f, side * (crab ? 3 : 1.8), u0];
      const knee: V3 = [f + step * 0.5 + (i - pairs / 2) * 0.4, side * (crab ? 6.5 : 5), u0 + 3 + lift];
      const foot: V3 = [
        f + step + (i - pairs / 2) * 1,
        side * (crab ? 8.5 : 7.5),
        pose.rise + lift * 0.7 + 0.4,
      ];
      p.stick(hip, knee, 0.55, M.DARK);
      p.stick(knee, foot, 0.5, M.DARK);
    }
  }
  if (F.has('wings')) {
    wing(p, [-0.5, -1, u0 + 2], -1, 7, pose.flap, M.LIGHT);
    wing(p, [-0.5, 1, u0 + 2], 1, 7, pose.flap, M.LIGHT);
  }
  if (crab) {
    p.ball([0, 0, u0 + 0.8], 5, M.BODY, 3, 0.1);
    for (const side of [-1, 1]) {
      const open = pose.strike < 0 ? 1.5 : 0;
      p.stick([3, side * 3.2, u0 + 1], [5.5, side * 5.2, u0 + 3.5], 0.8, M.BODY);
      p.ball([7, side * 5.5, u0 + 4 + open * 0.3], 1.9, M.BODY, 1.5, 0.3);
    }
    eyes(p, [3.5, 0, u0 + 2.4], 1.8, 0.6, 0.8);
    for (const side of [-1, 1])
      p.stick([3.2, side * 1.2, u0 + 2], [4.2, side * 1.4, u0 + 4.3], 0.35, M.DARK, 0.2);
    return p;
  }
  const spider = pairs === 4;
  p.ball([-3.4, 0, u0 + 1.2], spider ? 4.2 : 3.2, M.BODY, spider ? 3.6 : 2.6, 0.1);
  if (!spider) p.ball([0.3, 0, u0 + 0.8], 2.2, M.BODY2, undefined, 0.12);
  p.ball([spider ? 1.4 : 2.7, 0, u0 + 0.8], spider ? 2.4 : 1.9, spider ? M.BODY : M.DARK, undefined, 0.14);
  eyes(p, [spider ? 1.4 : 2.7, 0, u0 + 1.2], spider ? 2.4 : 1.9, 0.55, 0.45);
  if (!spider)
    for (const side of [-1, 1])
      p.stick([3.6, side * 0.8, u0 + 2], [5.4, side * 2, u0 + 4.4], 0.35, M.DARK, 0.2);
  return p;
}

/** Slimes, octopuses and snails: a soft body that squashes and stretches. */
export function blob(b: Build, pose: Pose): Parts {
  const F = b.features;
  const p = new Parts(b.u * b.scale, b.aspect);
  const t = pose.phase * Math.PI * 2;
  const squash = pose.action === 'idle' ? Math.sin(t) * 0.06 : Math.sin(t) * 0.16;
  const hop = pose.action === 'idle' ? 0 : Math.max(0, -Math.sin(t)) * 3;
  const rise = pose.rise + hop;
  if (F.has('tentacles')) {
    const u0 = 9 + rise;
    for (let i = 0; i < 6; i++) {
      const a = (i / 6) * Math.PI * 2;
      const wave = Math.sin(t + i) * 1.2;
      p.stick(
        [Math.cos(a) * 2, Math.sin(a) * 2, u0 - 2],
        [Math.cos(a) * 5.5 + wave, Math.sin(a) * 5.5, rise + 0.6],
        0.9,
        M.BODY,
      );
    }
    p.ball([0, 0, u0 + 1.5], 5 * (1 + squash), M.BODY, 5.4 * (1 - squash), 0.2);
    eyes(p, [0, 0, u0 + 0.5], 4.8, 0.8, 0.45);
    return p;
  }
  if (F.has('shell')) {
    const crawl = pose.action === 'idle' ? 0 : Math.sin(t) * 0.8;
    p.stick([-4, 0, rise + 1.2], [4 + crawl, 0, rise + 1.2], 1.4, M.BODY2);
    p.stick([4 + crawl, 0, rise + 1.5], [5 + crawl, 0, rise + 4], 1.2, M.BODY2, 0.1);
    p.ball([-0.8, 0, rise + 5], 4.2, M.BODY, undefined, 0.2);
    p.ball([-0.4, 0, rise + 5.2], 2.4, M.BODY2, undefined, 0.21);
    eyes(p, [5 + crawl, 0, rise + 4.2], 1.2, 0.5, 0.6);
    return p;
  }
  if (pose.action === 'jump') return blobHop(b, pose, p);
  const rx = (7 + b.vary[0] * 0.6) * (1 + squash);
  const ry = (5.5 + b.vary[1] * 0.5) * (1 - squash);
  p.ball([0, 0, rise + ry * 0.75], rx, M.BODY, ry * 0.8, 0.1);
  p.ball([0, 0, rise + ry * 1.1], rx * 0.8, M.BODY, ry, 0.11);
  p.ball([-1, -rx * 0.35, rise + ry * 1.65], 1.2, M.LIGHT, 1, 0.12);
  eyes(p, [0, 0, rise + ry * 1.05], rx * 0.85, 0.9, 0.35);
  return p;
}

/** The share of a hop's cycle spent crouched before it and squashed after it, on the ground. */
const CROUCH = 0.15;
const LAND = 0.8;
/** How high a slime hops, in units (its body is about 11 tall): a clear gap over its shadow. */
const HOP = 7;

/**
 * A slime hopping (issue #39, decision 0120): it squashes on the ground first (anticipation), leaves
 * it stretched tall and narrow, is round at the top of its arc and stretched again as it falls, then
 * lands squashed; its shadow stays on the ground and shrinks as it rises (its squash in place never
 * left the ground). The phase's thirds are shares of the cycle, so 2, 4, 6 or 8 frames each crouch,
 * fly and land.
 */
function blobHop(b: Build, pose: Pose, p: Parts): Parts {
  const ph = pose.phase % 1;
  const rx0 = 7 + b.vary[0] * 0.6;
  const ry0 = 5.5 + b.vary[1] * 0.5;
  let lift = 0;
  let sx = 1;
  let sy = 1;
  if (ph < CROUCH || ph >= LAND) {
    // crouched before the leap, a little lower on landing
    sx = ph < CROUCH ? 1.24 : 1.2;
    sy = ph < CROUCH ? 0.74 : 0.8;
  } else {
    // in the air: never at the ground line between the crouch and the landing
    const q = 0.2 + 0.6 * ((ph - CROUCH) / (LAND - CROUCH));
    lift = Math.sin(Math.PI * q);
    const speed = Math.abs(Math.cos(Math.PI * q));
    sy = 1 + 0.22 * speed;
    sx = 1 / (1 + 0.16 * speed);
  }
  const rise = lift * HOP;
  const rx = rx0 * sx;
  const ry = ry0 * sy;
  // its shadow on the ground, smaller the higher it is (drawn first: under the body when it sits)
  // (as tall on the screen in every frame, so it sits on the ground line as it narrows: rig.ts draws
  // a ball's height as ry·cos(tilt) + r·sin(tilt)·0.2)
  const shadow = rx0 * 0.8 * (1 - 0.4 * lift);
  p.ball([0, 0, 0.2], shadow, M.DARK, (rx0 * 0.8 * 0.19 - shadow * 0.082) / 0.91, -20);
  p.ball([0, 0, rise + ry * 0.75], rx, M.BODY, ry * 0.8, 0.1);
  p.ball([0, 0, rise + ry * 1.1], rx * 0.8, M.BODY, ry, 0.11);
  p.ball([-1, -rx * 0.35, rise + ry * 1.65], 1.2, M.LIGHT, 1, 0.12);
  // (eyes a little lower than a squash in place has them, and none from behind: crouched, they
  // peeped over its back; raised as it widens, which the tilt draws lower, so they stay mid-body)
  if (Math.cos((pose.facing * Math.PI) / 180) > -0.5)
    eyes(p, [0, 0, rise + ry * 0.95 + (rx - rx0) * 0.6], rx * 0.85, 0.9, 0.35);
  return p;
}

/** Ghosts and spirits: a head and a tapering, rippling body that floats above the ground. */
export function floating(b: Build, pose: Pose): Parts {
  const p = new Parts(b.u * b.scale, b.aspect);
  const t = pose.phase * Math.PI * 2;
  const lift = 4 + (pose.action === 'idle' ? 0.6 : 1.4) * (Math.sin(t) + 1) + pose.rise;
  const headC: V3 = [0, 0, lift + 11];
  for (let i = 0; i < 4; i++) {
    const u = lift + 8 - i * 2.6;
    p.ball([-i * 0.6, Math.sin(t + i) * 0.6 * i * 0.4, u], 4.6 - i * 0.7, M.BODY, undefined, 0.05 - i * 0.01);
  }
  for (const side of [-1, 1])
    p.stick(
      [0.5, side * 4, lift + 8.5],
      [2.5 + pose.swing * 0.3, side * 5.5, lift + 6 - pose.strike * 2],
      0.9,
      M.BODY,
      0.1,
    );
  p.ball(headC, 4.6 + b.vary[0] * 0.3, M.BODY, undefined, 0.2);
  eyes(p, headC, 4.6, 0.9, 0.4);
  p.ball([headC[0] + 4.2, 0, headC[2] - 2], 0.8, M.EYE, 1.1, 0.45);
  return p;
}
