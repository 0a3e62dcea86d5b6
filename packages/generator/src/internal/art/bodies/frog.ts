import { type Build, FAR, farSide, M, Parts, type Pose, type V3 } from './common.js';

/**
 * A frog or a toad (issue #39, decision 0116): a wide squat body, the head and body one low mass, big
 * eyes on top, the hind legs folded at its sides (a haunch, a shin back, a long foot forward), short
 * front legs. It moves by hops: crouched on the ground, then up with its hind legs stretched out
 * behind, then down again ("a frog hopping" hopped as a face; the part-list quadruped was a green
 * box on four stubs).
 */
export function frog(b: Build, pose: Pose): Parts {
  const p = new Parts(b.u * b.scale, b.aspect);
  const toad = b.lemma === 'toad';
  // how far through a hop: a jump's own rise (crouch, rise, fall, land), or a hop per step of a walk
  const t = pose.phase * Math.PI * 2;
  const moving = pose.action === 'walk' || pose.action === 'run';
  const hop = moving ? Math.max(0, Math.sin(t)) : pose.action === 'jump' ? Math.min(1, pose.rise / 4.5) : 0;
  const rise = moving ? hop * (pose.action === 'run' ? 4 : 3) : pose.rise;
  // crouched before and after the leap: the body a little lower and longer
  const crouch = hop === 0 && (moving || pose.action === 'jump') ? 0.35 : Math.max(0, -pose.bob) * 0.3;
  const R = rise - crouch + pose.bob * 0.2;
  const far = farSide(pose.facing);
  const ground = (f: number, s: number) => f * pose.ground + s * pose.groundS;
  const lerp = (a: V3, e: V3, k: number): V3 => [
    a[0] + (e[0] - a[0]) * k,
    a[1] + (e[1] - a[1]) * k,
    a[2] + (e[2] - a[2]) * k,
  ];
  const wide = toad ? 1.08 : 1;
  // seen from the front the tilted camera draws the head end, nearest the viewer, low over the feet:
  // it is raised, so the frog sits up facing the viewer and the front row is as tall as the side's
  // (it was 28 px to the side's 36 at 64 px; raised by 2.5 units × the tilt it was still 28)
  const up = Math.max(0, 6 * pose.ground);

  // the hind legs: a haunch at the side, the shin folded back under it, the long foot forward; in the
  // air the leg stretches out behind and down
  for (const s of [-1, 1]) {
    const shade = s === far ? FAR : 0;
    const deep = s === far ? -0.3 : 0;
    const knee = lerp([0.9, s * 3.7 * wide, 1.3], [-3.6, s * 3.0, 0.6], hop);
    const ankle = lerp([-2.4, s * 3.5 * wide, 0.55], [-6.2, s * 2.8, -0.9], hop);
    const toe = lerp([1.0, s * 4.3 * wide, 0.35], [-8.2, s * 3.0, -1.1], hop);
    const lift = (q: V3): V3 => [q[0], q[1], q[2] + R + (hop === 0 ? ground(q[0], q[1]) : 0)];
    // the haunch: a bulge at the body's side (a darker rim drew grey and black blots on an asked
    // colour's ramp)
    const thigh: V3 = [-1.3 - hop * 0.6, s * 2.9 * wide, R + 2.2];
    p.ball(thigh, 2.0, M.BODY + shade, 1.55, 0.13 + deep);
    p.stick(thigh, lift(knee), 1.1, M.BODY + shade, 0.12 + deep);
    p.stick(lift(knee), lift(ankle), 0.9, M.BODY + shade, 0.121 + deep);
    // the long webbed foot, its toes spread at the tip
    p.stick(lift(ankle), lift(toe), 0.75, M.BODY + shade, 0.132 + deep);
    p.ball(lift(toe), 0.95, M.BODY + shade, 0.6, 0.133 + deep);
  }
  // the front legs: short, straight down from the chest (reaching forward in the air)
  for (const s of [-1, 1]) {
    const shade = s === far ? FAR : 0;
    const hand = lerp([3.4, s * 2.7 * wide, 0.3], [4.6, s * 2.4, 0.9], hop);
    const at: V3 = [hand[0], hand[1], hand[2] + R + (hop === 0 ? ground(hand[0], hand[1]) : 0)];
    p.stick([2.5, s * 2.1 * wide, R + 2.3 + up], at, 0.65, M.BODY + shade, s === far ? -0.2 : 0.14);
    p.ball(at, 0.8, M.BODY + shade, 0.5, s === far ? -0.19 : 0.141);
  }
  // the body and head: one low mass, wider than tall, the head end a little higher; a pale belly
  const lean = hop * 0.9;
  p.ball([-0.9, 0, R + 2.5 - lean * 0.4], 3.9, M.BODY, 2.5, 0.1);
  p.ball([1.6, 0, R + 2.0 + up], 3.0 * wide, M.LIGHT, 1.5, 0.105);
  p.ball([2.1, 0, R + 3.2 + up + lean * 0.3], 3.1 * wide, M.BODY, 2.2, 0.11);
  if (toad)
    // a toad's warts: darker bumps over its back
    for (const [f, s, u] of [
      [-2.2, -1.6, 4.4],
      [-0.4, 1.4, 4.7],
      [-2.6, 1.5, 4.1],
      [0.8, -1.2, 4.9],
      [-1.2, 0, 4.9],
    ] as const)
      p.ball([f, s, R + u - lean * 0.3], 0.6, M.BODY + FAR, 0.45, 0.2);
  // a wide mouth: a dark line from the snout back round each side of the head
  for (const s of [-1, 1])
    p.stick(
      [4.5, 0, R + 2.85 + up + lean * 0.3],
      [2.6, s * 2.5 * wide, R + 3.0 + up + lean * 0.3],
      0.3,
      M.BODY + FAR,
      0.3,
    );
  // big eyes on top of the head: a bulge, a golden eye, a black pupil looking forward and out
  for (const s of [-1, 1]) {
    const u = R + 5.0 + up + lean * 0.3;
    p.ball([2.5, s * 1.75 * wide, u], 1.45, M.BODY, 1.3, 0.31);
    p.ball([2.85, s * 1.95 * wide, u + 0.25], 1.05, M.GOLD, 1.0, 0.35);
    p.ball([3.35, s * 2.15 * wide, u + 0.3], 0.62, M.EYE, 0.75, 0.4);
  }
  return p;
}
