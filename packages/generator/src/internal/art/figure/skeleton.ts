/**
 * The figure's skeleton for one pose: joints in the figure's own frame (f forward, s to its right,
 * u up, feet on u = 0) from its proportions and a motion pose. Legs reach their foot targets by
 * two-bone inverse kinematics (the knee bends forward), so planted feet stay planted while the body
 * bobs over them; arms, spine and head follow the pose's angles forward.
 */
import type { V3 } from '../rig.js';
import type { Proportions } from './body.js';
import type { MotionPose } from './motion.js';

/** The bones a part hangs on (and a Spine or DragonBones skeleton exports). */
export type BoneName =
  | 'root'
  | 'pelvis'
  | 'torso'
  | 'head'
  | 'upper_arm_l'
  | 'forearm_l'
  | 'hand_l'
  | 'upper_arm_r'
  | 'forearm_r'
  | 'hand_r'
  | 'thigh_l'
  | 'shin_l'
  | 'foot_l'
  | 'thigh_r'
  | 'shin_r'
  | 'foot_r'
  | 'weapon'
  | 'cape';

/** Each bone's parent and the joints it runs between (its start and the point it aims at). */
export const BONES: ReadonlyArray<{
  name: BoneName;
  parent: BoneName | null;
  from: JointName;
  to: JointName;
}> = [
  { name: 'root', parent: null, from: 'ground', to: 'pelvis' },
  { name: 'pelvis', parent: 'root', from: 'pelvis', to: 'chest' },
  { name: 'torso', parent: 'pelvis', from: 'pelvis', to: 'chest' },
  { name: 'head', parent: 'torso', from: 'neck', to: 'crown' },
  { name: 'cape', parent: 'torso', from: 'chest', to: 'hem' },
  { name: 'upper_arm_l', parent: 'torso', from: 'shoulderL', to: 'elbowL' },
  { name: 'forearm_l', parent: 'upper_arm_l', from: 'elbowL', to: 'handL' },
  { name: 'hand_l', parent: 'forearm_l', from: 'handL', to: 'fingersL' },
  { name: 'upper_arm_r', parent: 'torso', from: 'shoulderR', to: 'elbowR' },
  { name: 'forearm_r', parent: 'upper_arm_r', from: 'elbowR', to: 'handR' },
  { name: 'hand_r', parent: 'forearm_r', from: 'handR', to: 'fingersR' },
  { name: 'weapon', parent: 'hand_r', from: 'handR', to: 'tip' },
  { name: 'thigh_l', parent: 'pelvis', from: 'hipL', to: 'kneeL' },
  { name: 'shin_l', parent: 'thigh_l', from: 'kneeL', to: 'ankleL' },
  { name: 'foot_l', parent: 'shin_l', from: 'ankleL', to: 'toeL' },
  { name: 'thigh_r', parent: 'pelvis', from: 'hipR', to: 'kneeR' },
  { name: 'shin_r', parent: 'thigh_r', from: 'kneeR', to: 'ankleR' },
  { name: 'foot_r', parent: 'shin_r', from: 'ankleR', to: 'toeR' },
];

export type JointName =
  | 'ground'
  | 'pelvis'
  | 'chest'
  | 'neck'
  | 'head'
  | 'crown'
  | 'hem'
  | 'shoulderL'
  | 'elbowL'
  | 'handL'
  | 'fingersL'
  | 'shoulderR'
  | 'elbowR'
  | 'handR'
  | 'fingersR'
  | 'tip'
  | 'hipL'
  | 'kneeL'
  | 'ankleL'
  | 'toeL'
  | 'hipR'
  | 'kneeR'
  | 'ankleR'
  | 'toeR';

export type Joints = Record<JointName, V3>;

/** A pose's joints and the directions the outfit needs (spine up, a forearm's and a weapon's line). */
export interface Skeleton {
  j: Joints;
  /** Unit vectors: the spine (pelvis → chest), the shoulders' line (left → right), each forearm. */
  up: V3;
  across: V3;
  forearmL: V3;
  forearmR: V3;
  /** A held weapon's direction. */
  blade: V3;
  pose: MotionPose;
  p: Proportions;
}

const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const mul = (a: V3, k: number): V3 => [a[0] * k, a[1] * k, a[2] * k];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: V3) => Math.hypot(a[0], a[1], a[2]);
const norm = (a: V3): V3 => mul(a, 1 / (len(a) || 1));
export const v3 = { add, sub, mul, dot, len, norm };

/** Turns a point about the vertical axis through `c` by `a` radians (+: the right side forward). */
function yaw(p: V3, c: V3, a: number): V3 {
  const d = sub(p, c);
  const co = Math.cos(a);
  const si = Math.sin(a);
  return [c[0] + d[0] * co - d[1] * si, c[1] + d[0] * si + d[1] * co, p[2]];
}

/** Two-bone IK: the knee of a leg from hip to ankle, bending towards `bend`. */
function knee(hip: V3, ankle: V3, l1: number, l2: number, bend: V3): V3 {
  const d = sub(ankle, hip);
  const dist = Math.min(len(d), l1 + l2 - 1e-4);
  const dir = norm(d);
  const a = (l1 * l1 - l2 * l2 + dist * dist) / (2 * dist);
  const h = Math.sqrt(Math.max(0, l1 * l1 - a * a));
  const k = norm(sub(bend, mul(dir, dot(bend, dir))));
  return add(add(hip, mul(dir, a)), mul(k, h));
}

/** The joints of a figure of proportions `p` in pose `pose`. */
export function skeleton(
  p: Proportions,
  pose: MotionPose,
  ground: readonly [number, number] = [0, 0],
  hold: {
    grip: number;
    splay: number;
    upright?: boolean;
    held?: boolean;
    carry?: boolean;
    shield?: boolean;
    reach?: number;
    butt?: number;
    /** A bow in the left hand held out before the body, 0–1 (its side rows: decision 0102). */
    bowOut?: number;
  } = {
    grip: pose.grip,
    splay: pose.splay,
  },
): Skeleton {
  const legs = p.legs;
  // the ankle as high as a foot is thick: the sole's flat bottom is the lowest thing
  const ankleU = p.limb * 0.82;
  // thigh and shin together as long as the hip joint is high over the ankle standing (the pelvis
  // not lowered): a leg is straight standing and at a step's contact, and bends only as far as a pose
  // lowers the pelvis. They were 1.02 × (legs − ankle) from a hip 0.4 limb lower, so every knee bent
  // forward by ~1.7 units standing: side rows of a walk read as a crouch or a kneel (decision 0097)
  const chain = legs - ankleU - p.limb * 0.4;
  const thigh = chain * 0.505;
  const shin = chain * 0.495;
  const rise = pose.rise * legs;
  const pelvis: V3 = [pose.pelvisF * legs, 0, legs * (1 - pose.drop) + rise];
  const j = {} as Joints;
  j.ground = [0, 0, 0];
  j.pelvis = pelvis;
  // the spine leans forward from the pelvis; the shoulders turn about it
  const lean = pose.lean;
  const up: V3 = [Math.sin(lean), 0, Math.cos(lean)];
  j.chest = add(pelvis, mul(up, p.torso));
  j.neck = add(j.chest, mul(up, p.neck * 0.5));
  const headUp: V3 = [Math.sin(lean + pose.nod), 0, Math.cos(lean + pose.nod)];
  j.head = add(j.neck, mul(headUp, p.neck * 0.5 + p.head * 0.92));
  j.crown = add(j.head, mul(headUp, p.head));
  const shoulderAt = add(pelvis, mul(up, p.torso - p.limb * 0.7));
  j.shoulderL = yaw(add(shoulderAt, [0, -p.shoulder, 0]), shoulderAt, pose.twist);
  j.shoulderR = yaw(add(shoulderAt, [0, p.shoulder, 0]), shoulderAt, pose.twist);
  const across = norm(sub(j.shoulderR, j.shoulderL));
  // arms: pitch about the shoulders' line, roll outwards, the elbow bending forward
  const fwd = norm([across[1], -across[0], 0]);
  const upper = p.arm * 0.5;
  const lower = p.arm * 0.5;
  const armDir = (pitch: number, roll: number, side: number): V3 => {
    const out = mul(across, side);
    const swing: V3 = add(mul(fwd, Math.sin(pitch)), [0, 0, -Math.cos(pitch)]);
    return norm(add(mul(swing, Math.cos(roll)), mul(out, Math.sin(roll))));
  };
  const forearms: V3[] = [];
  for (const [i, side] of [
    [0, -1],
    [1, 1],
  ] as const) {
    const raw = pose.arms[i];
    // a staff or a spear held upright is not thrown up with the arm (a jump, a shrug): the arm stays
    // low, and swings a quarter of what the other arm does, its elbow kept (walking, the shaft moves a
    // little with the hand, never across the body nor tilting in and out of the picture)
    const a =
      i === 1 && hold.upright && pose.hold > 0.5
        ? {
            ...raw,
            pitch: 0.35 + 0.25 * (Math.min(raw.pitch, 0.45) - 0.08),
            roll: Math.min(raw.roll, 0.25),
            // a spear is carried, its hand at the belt and its butt off the ground: held at the
            // thigh with its butt on the ground it was a walking staff (decision 0097)
            elbow: hold.carry ? 1.2 : 0.45,
          }
        : i === 1 && hold.held && pose.swing > 0.5 && raw.pitch < 0.6
          ? // a weapon held low swings forward with the step and never behind the hip: swung back
            // the blade lay behind the legs, and facing away from its hand the body hid it
            // whole for a frame (a knight walking left lost his sword: decision 0097)
            { ...raw, pitch: 0.6 - (0.6 - raw.pitch) * 0.4 }
          : i === 0 && hold.shield && pose.swing > 0.5 && raw.pitch > 0.1 && raw.pitch < 1
            ? // a shield is carried steady at the side: swung forward with the step it covered the
              // body's front, and the sword in the far hand behind it, facing the shield's side
              { ...raw, pitch: 0.1 + (raw.pitch - 0.1) * 0.25 }
            : i === 0 && hold.shield && pose.hold < 0.5 && pose.fall < 0.2
              ? // an attack's shield is held up in guard on the off arm, before the body: flung back
                // with the strike it went behind the body and the cape, and came back a frame later
                // (a knight's swing: "the shield appears and disappears", the blind review after 1130b)
                {
                  pitch: Math.min(1, Math.max(0.45, raw.pitch)),
                  roll: Math.max(0.2, raw.roll),
                  elbow: Math.max(0.7, raw.elbow),
                }
              : i === 0 && (hold.bowOut ?? 0) > 0 && raw.pitch < 1
                ? // a bow is held out before the body in profile: hanging at the hip it lay along the
                  // leg, a brown line no one reads as a bow (decision 0102)
                  {
                    ...raw,
                    pitch: raw.pitch + (1 - raw.pitch) * hold.bowOut!,
                    elbow: raw.elbow + (0.2 - raw.elbow) * hold.bowOut!,
                  }
                : raw;
    const sh = i === 0 ? j.shoulderL : j.shoulderR;
    const elbow = add(sh, mul(armDir(a.pitch, a.roll, side), upper));
    const fore = armDir(a.pitch + a.elbow, a.roll * 0.8, side);
    const hand = add(elbow, mul(fore, lower));
    forearms.push(fore);
    if (i === 0) {
      j.elbowL = elbow;
      j.handL = hand;
      j.fingersL = add(hand, mul(fore, p.limb));
    } else {
      j.elbowR = elbow;
      j.handR = hand;
      j.fingersR = add(hand, mul(fore, p.limb));
    }
  }
  // a held weapon: turned from the right forearm by the grip, in the plane of the swing
  const fr = forearms[1]!;
  const side = norm(sub(fr, mul(fwd, dot(fr, fwd))));
  const g = pose.grip + (hold.grip - pose.grip) * pose.hold;
  const splay = pose.splay + (hold.splay - pose.splay) * pose.hold;
  const bladeRaw = add(mul(fr, Math.cos(g)), mul(norm(cross(across, fr)), -Math.sin(g)));
  const relative = len(bladeRaw) > 1e-6 ? norm(bladeRaw) : side;
  // a staff or a spear at rest stands upright whatever the arm does
  const blade0 = hold.upright
    ? norm(add(mul(relative, 1 - pose.hold), mul([0.12, 0, 1], pose.hold)))
    : relative;
  // held out from the body a little, so it shows from the front too
  const blade = keepAboveGround(norm(add(blade0, mul(across, splay))), j.handR, p.arm, hold, ground);
  j.tip = add(j.handR, mul(blade, p.arm));
  // legs: each foot at its target beside the point under its hip; the knee by IK
  for (const [i, s] of [
    [0, -1],
    [1, 1],
  ] as const) {
    const f = pose.feet[i];
    // the hip raised with its foot: the tilted camera's sideways lift of a foot (below) was the near
    // leg's only, which bent its knee by ~50° in every side row (a crouch: decision 0097)
    const hip: V3 = add(pelvis, [0, s * p.hipW, -p.limb * 0.4 + s * p.hipW * ground[1]]);
    const fs = s * (p.hipW + f.s * legs);
    // on the tilted camera a foot forward would be drawn lower: raised to keep the feet on one line
    const lift = f.f * legs * ground[0] + fs * ground[1];
    const ankle: V3 = [f.f * legs, fs, rise + ankleU + f.u * legs + lift];
    const k = knee(hip, ankle, thigh, shin, [1, 0, 0.15]);
    const toeDir: V3 = [Math.cos(f.toe), 0, -Math.sin(f.toe)];
    const toe0 = add(ankle, mul(toeDir, p.foot * 0.75));
    // the toe, forward of the ankle, is kept on the same screen line too
    const toe: V3 = [toe0[0], toe0[1], toe0[2] + (toe0[0] - ankle[0]) * ground[0]];
    if (i === 0) {
      j.hipL = hip;
      j.kneeL = k;
      j.ankleL = ankle;
      j.toeL = toe;
    } else {
      j.hipR = hip;
      j.kneeR = k;
      j.ankleR = ankle;
      j.toeR = toe;
    }
  }
  j.hem = [pelvis[0] - p.chestD - pose.cape * 2.2, 0, rise + p.limb * 1.2];
  return {
    j,
    up,
    across,
    forearmL: forearms[0]!,
    forearmR: fr,
    blade,
    pose,
    p,
  };
}

function cross(a: V3, b: V3): V3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/**
 * A held weapon never reaches below the ground line (it would strike the floor, and poke out under
 * the feet on the sheet): its direction is turned up (or, for a staff's butt, down less) just enough.
 * The ground line is the screen line of the feet, so on the tilted camera it is lower for points
 * nearer the viewer (`ground` as in the feet's compensation).
 */
function keepAboveGround(
  d: V3,
  hand: V3,
  arm: number,
  hold: { reach?: number; butt?: number },
  ground: readonly [number, number],
): V3 {
  const reach = (hold.reach ?? 0.8) * arm;
  const butt = (hold.butt ?? 0.1) * arm;
  const floorAt = (p: V3) => 0.6 + p[0] * ground[0] + p[1] * ground[1];
  const tip = add(hand, mul(d, reach));
  const end = add(hand, mul(d, -butt));
  let u = d[2];
  if (tip[2] < floorAt(tip)) u = Math.max(u, (floorAt(tip) - hand[2]) / reach);
  if (end[2] < floorAt(end)) u = Math.min(u, (hand[2] - floorAt(end)) / butt);
  u = Math.max(-1, Math.min(1, u));
  if (u === d[2]) return d;
  const h = Math.hypot(d[0], d[1]) || 1;
  const k = Math.sqrt(Math.max(0, 1 - u * u)) / h;
  return [d[0] * k, d[1] * k, u];
}
