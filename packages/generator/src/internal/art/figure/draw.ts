/**
 * Draws a figure identity's frames: for each direction and frame, the action's pose on the
 * skeleton, the outfit's pieces on it, painted, shaded and given its face. Every frame of every
 * direction and action shares one scale and one anchor — the point between the feet on the ground —
 * so sheets of one character line up in a game and the engine files can name the anchor.
 */
import type { RgbaImage } from '@assetloom/pipeline';
import { applyLook, type LookColours, lookOf } from '../../look/index.js';
import { cleanUp } from '../../look/passes.js';
import { type Camera, projector, TILT, type V3 } from '../rig.js';
import { Figure } from './build.js';
import { FACING_OF, gridFor, parseHex, type ResolvedStyle, type Rgb, upscale } from './deps.js';
import { drawFace } from './face.js';
import { type FigureIdentity, SLOTS } from './identity.js';
import {
  type AttackStyle,
  FIGURE_ACTIONS,
  type FigureAction,
  type MotionPose,
  motionPose,
  REST,
} from './motion.js';
import { arms, HAIRS, head, legs, TORSOS } from './pieces-body.js';
import { attackOf, holdOf, OFFHANDS, WEAPONS } from './pieces-held.js';
import { BACK, BEARDS, EXTRAS, facewear, HEADWEAR } from './pieces-wear.js';
import { type FigurePart, type FigureRamp, type Raster, rasterize, shadeRaster } from './raster.js';
import { skeleton, v3 } from './skeleton.js';

/**
 * A robot's forearms in a gait (radians forward of straight down): held level before it as it
 * marches, its upper arms swinging a little behind the body line.
 */
const ROBOT_FOREARM = 1.8;

/** The outfit's pieces on the skeleton of one pose, seen from `facing`. */
function figureOf(id: FigureIdentity, gait: MotionPose, facing: number, ground: [number, number]): Figure {
  // a robot's box chest and head are one rigid body: its gaits swing the limbs without the shoulders'
  // twist, which turned the box head from edge-on to three-quarter and back (16, 14, 16, 14 px wide
  // in a walk's side row at 64 px: the body seemed to shrink to a sliver passing, decision 0132)
  // and it marches with its forearms held out before it, bent at the elbow: hanging, the near forearm
  // lay over the near thigh as the legs passed (24 to 31 px of it at 64 px: limbs in a tangle,
  // decision 0147)
  const posed =
    id.outfit.look === 'robot' && gait.swing > 0.5
      ? {
          ...gait,
          twist: 0,
          arms: gait.arms.map((a) => {
            const pitch = 0.7 * a.pitch - 0.25;
            return { ...a, pitch, elbow: Math.max(a.elbow, ROBOT_FOREARM - pitch) };
          }) as MotionPose['arms'],
        }
      : gait;
  // a zombie shambles with its arms held out before it (its own swing kept on top), unless it falls
  const pose: MotionPose =
    id.outfit.reach && posed.fall < 0.2
      ? {
          ...posed,
          arms: posed.arms.map((a) => ({
            ...a,
            pitch: Math.max(a.pitch, 1.3 + 0.25 * a.pitch),
            elbow: 0.12,
          })) as [MotionPose['arms'][0], MotionPose['arms'][1]],
        }
      : posed;
  const fig = new Figure(
    skeleton(id.proportions, pose, ground, {
      ...holdOf(id.outfit.weapon, id.outfit.prop),
      shield: id.outfit.offhand === 'shield' || id.outfit.offhand === 'round-shield',
      ...(id.outfit.weapon === 'bow' ? { bowOut: Math.abs(Math.sin((facing * Math.PI) / 180)) } : {}),
    }),
    id.outfit,
    facing,
  );
  const o = id.outfit;
  legs(fig);
  TORSOS[o.torso](fig);
  arms(fig);
  head(fig);
  const hat = HEADWEAR[o.head];
  if (!hat.covers) HAIRS[o.hair](fig);
  hat.draw(fig);
  BEARDS[o.beard](fig);
  facewear(fig);
  for (const b of o.back) BACK[b](fig);
  for (const e of o.extras) EXTRAS[e](fig);
  if (o.weapon) WEAPONS[o.weapon].draw(fig);
  if (o.offhand) OFFHANDS[o.offhand](fig);
  if (pose.glow > 0.05) {
    // a spell's light at the hands (or the staff's head)
    const at: V3 =
      o.weapon === 'staff' || o.weapon === 'wand'
        ? v3.add(fig.j.handR, v3.mul(fig.s.blade, fig.p.arm * (o.weapon === 'staff' ? 1.52 : 0.55)))
        : [
            (fig.j.handL[0] + fig.j.handR[0]) / 2 + fig.p.limb,
            (fig.j.handL[1] + fig.j.handR[1]) / 2,
            (fig.j.handL[2] + fig.j.handR[2]) / 2,
          ];
    fig.ball(at, fig.p.limb * (0.45 + pose.glow * 1.1), 'glow', 'hand_r', 'spell', undefined, 1.2);
  }
  return fig;
}

/** The ramps of an identity's palette, in slot order. */
export function rampsOf(id: FigureIdentity): FigureRamp[] {
  return SLOTS.map((slot) => {
    const [outline, shadow, dark, base, light] = id.palette[slot].map(
      (h) => parseHex(h) ?? [0, 0, 0],
    ) as Rgb[];
    return {
      outline: outline!,
      shadow: shadow!,
      dark: dark!,
      base: base!,
      light: light!,
      ...(slot === 'eye' || slot === 'glow' ? { flat: true } : {}),
    };
  });
}

/** Raise per unit forward and sideways that keeps planted feet on one screen line (the tilted camera). */
function groundOf(facing: number): [number, number] {
  const th = (facing * Math.PI) / 180;
  return [Math.cos(th) * Math.tan(TILT), Math.sin(th) * Math.tan(TILT)];
}

/** The box the parts cover on screen at unit 1, with the raster's own extents (flattened balls, hems). */
function boundsOf(parts: readonly FigurePart[], cam: Camera): [number, number, number, number] {
  const P = projector(cam);
  const bb: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const grow = (x: number, y: number, rx: number, ry: number) => {
    bb[0] = Math.min(bb[0], x - rx);
    bb[1] = Math.min(bb[1], y - ry);
    bb[2] = Math.max(bb[2], x + rx);
    bb[3] = Math.max(bb[3], y + ry);
  };
  const flat = Math.sin(TILT);
  for (const part of parts) {
    switch (part.t) {
      case 'ball': {
        const [x, y] = P(part.c);
        grow(x, y, part.r, (part.ry ?? part.r) * Math.cos(TILT) + part.r * flat * 0.2);
        break;
      }
      case 'stick': {
        for (const q of [part.a, part.b]) {
          const [x, y] = P(q);
          grow(x, y, part.r, part.r);
        }
        break;
      }
      case 'cone': {
        const [x, y] = P(part.a);
        grow(x, y, part.r, part.r * flat);
        const [tx, ty] = P(part.b);
        grow(tx, ty, 0, 0);
        break;
      }
      case 'frustum': {
        const [x, y] = P(part.a);
        grow(x, y, part.ra, part.ra * flat);
        const [tx, ty] = P(part.b);
        grow(tx, ty, part.rb, 0);
        break;
      }
      default:
        for (const q of part.p) {
          const [x, y] = P(q);
          grow(x, y, 0, 0);
        }
    }
  }
  return bb;
}

export interface FigureJob {
  identity: FigureIdentity;
  action: FigureAction;
  /** Direction names (DIRECTION_NAMES order). */
  directions: readonly string[];
  frames: number;
  width: number;
  height: number;
  style: ResolvedStyle;
  /**
   * Whether a side row is the other side's mirror (the default, decision 0119) or drawn facing its
   * own way: a kept character's sheet, whose rig (export.ts) draws each direction's part images
   * from its own camera and must match it.
   */
  sides?: 'mirror' | 'drawn';
}

export interface FigureFrames {
  /** Direction-major frames. */
  frames: RgbaImage[];
  /** The feet's point in every frame, in the frame's pixels (x to the right, y down). */
  anchor: { x: number; y: number };
  /** Rig units per art pixel and the art grid's factor to the frame's pixels. */
  unit: number;
  factor: number;
  /** Each frame's pose (direction-major), for the rig exports. */
  poses: MotionPose[];
  /** Each frame's smear pixels (indices on the art grid; empty where it has none). */
  smear: number[][];
  /**
   * How each direction's row was made: drawn facing its way (`source`), or the opposite side's row
   * mirrored about the anchor (`mirror`): a figure's left and right rows are one design (0119).
   */
  views: Array<{ direction: string; view: 'source' | 'mirror' }>;
}

/**
 * The facing a direction's row is drawn from, and whether it is that row mirrored. Of a figure's
 * two sides one is drawn and the other mirrors it, as a sprite artist flips a side row: drawn apart,
 * the far hand's bow lay over the face and the torso squashed on one side only (a goblin archer's
 * right row, the blind review after 1130e). The drawn side is the one whose hand holds what names
 * the role: the weapon hand's side (a sword, a staff, a spear in the right hand, facing right), the
 * bow hand's side for an archer (the bow in the left hand, facing left).
 */
export function sideOf(id: FigureIdentity, facing: number): { facing: number; mirror: boolean } {
  const s = Math.sin((facing * Math.PI) / 180);
  const drawn = id.outfit.weapon === 'bow' ? -1 : 1;
  if (Math.abs(s) < 0.2 || Math.sign(s) === drawn) return { facing, mirror: false };
  return { facing: (360 - facing) % 360, mirror: true };
}

/** A frame mirrored about the anchor's column `ox` (the feet stay where they were). */
function mirrorAbout(rgba: Uint8Array, w: number, h: number, ox: number): Uint8Array {
  const out = new Uint8Array(rgba.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const m = 2 * ox - x;
      if (m < 0 || m >= w) continue;
      const s = (y * w + x) * 4;
      out.set(rgba.subarray(s, s + 4), (y * w + m) * 4);
    }
  return out;
}

const fits = new Map<string, { unit: number; oy: number }>();

/** Actions in which a held weapon never reaches the cell's edge (decision 0145). */
const CALM = new Set<string>(['idle', 'walk', 'run']);

/** Pieces held in a hand that size the figure like its weapon, not its body. */
const HELD_PIECES = new Set(['shield', 'bow', 'bowstring', 'lantern']);

/** A figure's body without what it holds (a held thing sizes it like its weapon). */
const bodyOf = (parts: readonly FigurePart[]) =>
  parts.filter((p) => p.bone !== 'weapon' && !HELD_PIECES.has(p.piece));

/**
 * Actions whose rows slide sideways to stay in the cell rather than shrink the figure (decision
 * 0147): recoiling from a hit and dying, a goblin's head bows forward in the diagonal directions
 * and its long ears reached 14.8 rig units to one side (its standing half-width is 6): fitted on the
 * anchor, that one pose drew every sheet of a goblin at 66 % of the cell.
 */
const SLID = new Set<string>(['hurt', 'death']);

/**
 * The scale every frame of an identity shares, whatever the action and direction: the standing
 * figure fills about 80 % of the frame's height unless a frame of one of its actions (a sword at the
 * end of a lunge, a jump's top, lying dead) would then leave the frame with the feet on the anchor.
 * A character's sheets of all actions therefore match.
 */
export function fitOf(
  id: FigureIdentity,
  job: Pick<FigureJob, 'width' | 'height' | 'style'>,
): { unit: number; gw: number; gh: number; factor: number; ox: number; oy: number } {
  const { gw, gh, factor } = gridFor(job.width, job.height, job.style.gridHint);
  const margin = 1 + Math.max(1, job.style.lineWeight);
  // sideways only the outline's room: a sword's tip at the end of a lunge may reach the frame's edge
  const side = Math.max(1, job.style.lineWeight);
  const baseline = gh - Math.max(margin, Math.round(gh * 0.07));
  const ox = Math.floor(gw / 2);
  const key = `${gw}x${gh}:${baseline}:${margin}:${side}:${JSON.stringify([id.proportions, id.outfit])}`;
  let fit = fits.get(key);
  if (!fit) {
    const attack = attackOf(id.outfit.weapon);
    const idle = figureOf(id, motionPose('idle', 0, 1, attack), 0, groundOf(0));
    const [, top, , bottom] = boundsOf(idle.parts, { ox: 0, oy: 0, facing: 0 });
    // a small grid loses a pixel or two of thin tips (a hat's point, a plume) to the clean-up
    // a size word ("a tiny imp", a goblin) changes the body's proportions (its chibi body says it is
    // small), never how much of the cell it fills: at 64 px a goblin at 45 % of the cell's height had
    // a face of 3 px (decision 0145)
    const tall = (gh * (gh <= 40 ? 0.84 : 0.8)) / (bottom - top);
    // a shield counts with the held weapon: at its readable size it would shrink every shield-bearer;
    // so does a bow (held in the off hand, its lower limb dips below the feet in a jump and side
    // rows: it drew a skeleton archer 23 px tall in a 64 px cell, at seed 3499460039834679)
    const body = bodyOf;
    const poses = FIGURE_ACTIONS.flatMap((action) =>
      [0, 45, 90, 135, 180, 225, 270, 315].flatMap((facing) =>
        Array.from({ length: 8 }, (_, f) => {
          const pose = motionPose(action, f, 8, attack, facing);
          const fig = figureOf(id, pose, facing, groundOf(facing));
          const fall = fallOf(pose, facing);
          return ([body(fig.parts), fig.parts] as const).map((parts) => {
            const [x0, fy0, x1, fy1] = boundsOf(parts, { ox: 0, oy: 0, facing, fall });
            // fallen, the body rests on the ground: raised by what of it went below the feet
            const up = fall ? Math.max(0, fy1) : 0;
            return {
              calm: CALM.has(action),
              slid: SLID.has(action),
              row: `${action}:${facing}`,
              x0,
              x1,
              y0: fy0 - up,
              y1: fy1 - up,
              shift: fallShift(pose, facing, x0, x1),
            };
          });
        }),
      ),
    );
    // below the ground line only what fits above the frame's last row and the outline; standing,
    // walking or running, a held thing keeps a clear pixel more than the body from every edge: a
    // bow's or a spear's tip on the cell's edge reads as cut (decision 0145)
    // a sliding row (hurt, death) needs only its width over its frames to fit between the sides
    // (its drawing slides it whole pixels to a clear pixel off the cell's edges: slideOf)
    const rows = new Map<string, [number, number]>();
    for (const [bare, held] of poses)
      if (bare!.slid)
        for (const [k, b] of [bare!, held!].entries()) {
          const r = rows.get(`${k}:${b.row}`) ?? [Infinity, -Infinity];
          rows.set(`${k}:${b.row}`, [Math.min(r[0], b.x0 + b.shift), Math.max(r[1], b.x1 + b.shift)]);
        }
    const widthOf = (b: { row: string }, k: number) => {
      const r = rows.get(`${k}:${b.row}`)!;
      return r[1] - r[0];
    };
    const fitsAt = (
      b: { x0: number; x1: number; y0: number; y1: number; shift: number; slid: boolean; row: string },
      at: number,
      clear: number,
      under = true,
      k = 0,
    ) =>
      Math.min(
        b.slid ? (gw - 2 * side - 2 * edge - 2) / Math.max(1e-6, widthOf(b, k)) : Number.POSITIVE_INFINITY,
        b.slid ? Number.POSITIVE_INFINITY : (ox - side - clear + 0.5) / Math.max(1e-6, -(b.x0 + b.shift)),
        b.slid ? Number.POSITIVE_INFINITY : (gw - ox - side - clear - 0.5) / Math.max(1e-6, b.x1 + b.shift),
        (at - margin) / Math.max(1e-6, -b.y0),
        under && b.y1 > 0.3
          ? (gh - at - job.style.lineWeight - clear + 0.3) / b.y1
          : Number.POSITIVE_INFINITY,
      );
    // (at 32 px the rule is off: a hammer clear of the edge standing drew a paladin 2 px shorter and
    // its swing's smear too small to read from behind)
    const clear = gh > 40 ? 1 : 0;
    const edge = clear;
    const fitAt = (at: number, under: boolean) => {
      let unit = tall;
      // what a held weapon's swing needs may shrink the figure only a little: past that its tip
      // leaves the frame for a frame or two rather than every character being drawn at a different
      // size; standing, walking and running, what it holds stays clear of the cell's edges
      let reach = Number.POSITIVE_INFINITY;
      let calm = Number.POSITIVE_INFINITY;
      let dip = 0;
      for (const [bare, held] of poses) {
        unit = Math.min(unit, fitsAt(bare!, at, 0));
        reach = Math.min(reach, fitsAt(held!, at, 0, true, 1));
        if (held!.calm) {
          if (clear) calm = Math.min(calm, fitsAt(held!, at, clear, under));
          dip = Math.max(dip, held!.y1);
        }
      }
      return { unit: Math.min(unit, calm, Math.max(reach, tall * 0.9)), dip };
    };
    // a bow's lower limb hanging below the feet lifts the ground line rather than shrinking the
    // figure to a third of the cell (a goblin archer)
    const first = fitAt(baseline, false);
    const room = gh - job.style.lineWeight - clear + 0.3 - first.dip * first.unit;
    const oy = room < baseline ? Math.floor(room) : baseline;
    fit = { unit: oy < baseline ? fitAt(oy, true).unit : fitAt(baseline, true).unit, oy };
    if (fits.size > 64) fits.delete(fits.keys().next().value as string);
    fits.set(key, fit);
  }
  return { unit: fit.unit, gw, gh, factor, ox, oy: fit.oy };
}

/**
 * Whole pixels a hurt or death row slides sideways so that every frame of it keeps a clear pixel
 * off the cell's edges (decision 0147): the least slide that does, the same for the row's frames
 * (the body does not jitter between them); the body first, and what it holds too where it can.
 */
function slideOf(
  id: FigureIdentity,
  job: Pick<FigureJob, 'action' | 'frames' | 'style'>,
  fit: ReturnType<typeof fitOf>,
  facing: number,
): number {
  if (!SLID.has(job.action)) return 0;
  const { gw, gh, ox, unit } = fit;
  const edge = Math.max(1, job.style.lineWeight) + (gh > 40 ? 1 : 0);
  const attack = attackOf(id.outfit.weapon);
  const span = [Infinity, -Infinity, Infinity, -Infinity];
  for (let f = 0; f < job.frames; f++) {
    const pose = motionPose(job.action, f, job.frames, attack, facing);
    const { fig, shift, fall } = placedFigure(id, pose, facing);
    const [b0, , b1] = boundsOf(bodyOf(fig.parts), { ox: 0, oy: 0, facing, fall });
    const [h0, , h1] = boundsOf(fig.parts, { ox: 0, oy: 0, facing, fall });
    span[0] = Math.min(span[0]!, (b0 + shift) * unit);
    span[1] = Math.max(span[1]!, (b1 + shift) * unit);
    span[2] = Math.min(span[2]!, (h0 + shift) * unit);
    span[3] = Math.max(span[3]!, (h1 + shift) * unit);
  }
  // the slides that keep [lo, hi] (pixels from the anchor's column) in the cell
  const range = (lo: number, hi: number): [number, number] => [
    Math.ceil(edge - ox - 0.5 - lo),
    Math.floor(gw - edge - ox - 0.5 - hi),
  ];
  const [bL, bR] = range(span[0]!, span[1]!);
  const [hL, hR] = range(span[2]!, span[3]!);
  const [l, r] = Math.max(bL, hL) <= Math.min(bR, hR) ? [Math.max(bL, hL), Math.min(bR, hR)] : [bL, bR];
  if (l > r) return Math.round((l + r) / 2);
  return l > 0 ? l : Math.min(r, 0);
}

/** Falling, the figure slides back over its anchor, so lying down it lies across the frame's middle. */
function fallShift(pose: MotionPose, facing: number, x0: number, x1: number): number {
  return -((x0 + x1) / 2) * Math.abs(Math.sin(fallOf(pose, facing)));
}

/** A fall turns the figure backwards: to the left of the picture when it faces right, and so on. */
function fallOf(pose: MotionPose, facing: number): number {
  const s = Math.sin((facing * Math.PI) / 180);
  return pose.fall * (s > 0.2 ? -1 : s < -0.2 ? 1 : -1);
}

/**
 * The figure of one pose seen from `facing`, placed on the anchor: `shift` sideways and `up` in rig
 * units (a fallen body slides back over the anchor and rests on the ground), `fall` the camera's roll.
 */
export function placedFigure(
  id: FigureIdentity,
  pose: MotionPose,
  facing: number,
): { fig: Figure; shift: number; up: number; fall: number } {
  const fig = figureOf(id, pose, facing, groundOf(facing));
  const fall = fallOf(pose, facing);
  const [x0, , x1, y1] = fall ? boundsOf(fig.parts, { ox: 0, oy: 0, facing, fall }) : [0, 0, 0, 0];
  return { fig, shift: fall ? fallShift(pose, facing, x0, x1) : 0, up: fall ? Math.max(0, y1) : 0, fall };
}

/** Where a part lies in depth, as the painter sorts it (its centre; larger is nearer), in rig units. */
function depthOf(part: FigurePart, P: (p: V3) => [number, number, number]): number {
  switch (part.t) {
    case 'ball':
      return P(part.c)[2];
    case 'poly':
      return part.p.reduce((a, q) => a + P(q)[2], 0) / Math.max(1, part.p.length);
    default:
      return (P(part.a)[2] + P(part.b)[2]) / 2;
  }
}

/**
 * Bones whose pieces are painted in the layer order they have standing, each with the joint that
 * carries them: the head, and the pelvis with what hangs from it (a robe, its hem's trim, a belt).
 */
const LAYERED_BONES: ReadonlyMap<string, 'head' | 'pelvis'> = new Map([
  ['head', 'head'],
  ['pelvis', 'pelvis'],
]);

/**
 * The parts of a posed figure with the pieces of each layered bone kept in the layer order they have
 * in the rest pose seen from the same side: a hat, helm, crown or mask stays over the hair and face it
 * covers however the pose tilts the head (a death's recoil, a nod), where sorting the tilted parts by
 * their own centres slid the helm under the face; a robe's pale hem trim stays under the robe when a
 * run, a jump's crouch or a fall moves the hem (it was painted over it as a disc). The bone as a whole
 * still moves in depth with its joint, so a head still goes behind a raised arm.
 */
function keptLayers(
  id: FigureIdentity,
  fig: Figure,
  facing: number,
  held: HeldDepth = 'posed',
): FigurePart[] {
  const rest = figureOf(id, REST, facing, groundOf(facing));
  const P = projector({ ox: 0, oy: 0, facing });
  const kept = new Map<FigurePart, number>();
  const bones: Array<[string, 'head' | 'pelvis' | 'handR', boolean]> = [
    ...[...LAYERED_BONES].map(([b, j]) => [b, j, false] as [string, 'head' | 'pelvis', boolean]),
  ];
  // a held weapon while standing, walking or running stays at the depth it has standing (a spear
  // carried on the near side stays in front of the body, on the far side behind it, every frame)
  if (held === 'rest') bones.push(['weapon', 'handR', true]);
  for (const [bone, joint, atRest] of bones) {
    const delta = atRest ? 0 : P(fig.j[joint])[2] - P(rest.j[joint])[2];
    const posed = fig.parts.filter((p) => p.bone === bone);
    const still = rest.parts.filter((p) => p.bone === bone);
    if (
      posed.length !== still.length ||
      posed.some((p, i) => p.piece !== still[i]!.piece || p.t !== still[i]!.t)
    )
      continue;
    posed.forEach((p, i) => {
      const r = still[i]!;
      kept.set(p, depthOf(r, P) + (r.bias ?? 0) + delta - depthOf(p, P));
    });
  }
  // a swing is drawn in front of the body and the shield in every view but the back one: a pixel
  // artist shows the weapon's whole path rather than the body hiding it for half the strike
  // (raised above the neck in the wind-up it keeps its posed depth facing the viewer: drawn over the
  // head it hid the face; seen from the side it is in front, over the back of the head and the
  // shoulders — posed, the body hid a wind-up in the far hand whole: decision 0097)
  const th = (facing * Math.PI) / 180;
  const front =
    held === 'front' && Math.cos(th) > -0.6 && (fig.j.tip[2] < fig.j.neck[2] || Math.abs(Math.sin(th)) > 0.9);
  // in an attack the hand that holds the weapon is painted just under it, its fist round the grip,
  // wherever the weapon lies: left at its own depth, the body or the cape hid the hand and the sword
  // floated before the chest with no hand on it ("the sword's grip moves off the hand": the blind
  // review after 1130b). Under, not over: over it the fist hid most of a foreshortened blade
  const farthest = Math.min(
    ...fig.parts.filter((p) => p.bone === 'weapon').map((p) => depthOf(p, P) + (p.bias ?? 0)),
  );
  const grip =
    held === 'front' && Number.isFinite(farthest) ? farthest + (front ? FRONT_BIAS : 0) - 0.01 : null;
  return fig.parts.map((p) =>
    front && p.bone === 'weapon'
      ? { ...p, bias: (p.bias ?? 0) + FRONT_BIAS }
      : grip !== null && p.bone === 'hand_r'
        ? { ...p, bias: grip - depthOf(p, P) }
        : kept.has(p)
          ? { ...p, bias: kept.get(p)! }
          : p,
  );
}

/**
 * Where a held weapon lies in depth: as posed, at its standing depth (the gaits: it never pops in
 * front of and behind the body between frames), or in front of the body (an attack).
 */
type HeldDepth = 'posed' | 'rest' | 'front';

/** Rig units a weapon in front is moved towards the viewer: more than any body is deep. */
const FRONT_BIAS = 40;

/** How an action's weapon lies in depth (a cast, a shot or a punch keeps its posed depth). */
const heldDepthOf = (action: FigureAction, attack: AttackStyle): HeldDepth =>
  action === 'attack'
    ? attack === 'swing' || attack === 'thrust'
      ? 'front'
      : 'posed'
    : action === 'idle' || action === 'walk' || action === 'run'
      ? 'rest'
      : 'posed';

/** The painted pixels of one pose seen from `facing` (materials, tones and the piece of each pixel). */
export function posedRaster(
  id: FigureIdentity,
  pose: MotionPose,
  facing: number,
  fit: ReturnType<typeof fitOf>,
  style: ResolvedStyle,
  held: HeldDepth = 'posed',
  slide = 0,
): { fig: Figure; cam: Camera; raster: Raster } {
  const { gw, gh, ox, oy, unit } = fit;
  const { fig, shift, up, fall } = placedFigure(id, pose, facing);
  const cam: Camera = { ox: ox + 0.5 + shift * unit + slide, oy: oy - up * unit, facing, fall };
  return { fig, cam, raster: rasterize(keptLayers(id, fig, facing, held), cam, unit, gw, gh, style.light) };
}

/** One frame shaded in the identity's ramps, before the look (no outline: the look draws it). */
function shadedFrame(
  id: FigureIdentity,
  pose: MotionPose,
  facing: number,
  fit: ReturnType<typeof fitOf>,
  style: ResolvedStyle,
  ramps: readonly FigureRamp[],
  held: HeldDepth = 'posed',
  slide = 0,
): { image: RgbaImage; raster: Raster; weapon: Set<number> } {
  const { gw, gh, unit } = fit;
  const { fig, cam, raster } = posedRaster(id, pose, facing, fit, style, held, slide);
  const names = new Set(fig.parts.filter((p) => p.bone === 'weapon').map((p) => p.piece));
  const weapon = new Set(raster.pieces.flatMap((n, i) => (names.has(n) ? [i + 1] : [])));
  const rgba = shadeRaster(raster, ramps, {
    light: style.light,
    lineWeight: 0,
    innerLines: unit * id.proportions.head >= 4,
    flat: style.mood === 'flat',
    // a weapon swung in front of the body is parted from it by a line (decision 0140)
    ...(held === 'front' ? { traced: weapon } : {}),
  });
  drawFace(rgba, raster, fig, cam, unit, ramps);
  if (style.mood === 'night') dim(rgba);
  return { image: { width: gw, height: gh, data: rgba }, raster, weapon };
}

const looks = new Map<string, LookColours>();

/**
 * A character's look: the colours of the project's look pass fitted once to its reference views (idle
 * in the 8 directions), so every task of the character — any action, any directions — maps its
 * pixels to the same palette.
 */
export function figureLook(
  id: FigureIdentity,
  style: ResolvedStyle,
  fit: ReturnType<typeof fitOf>,
): LookColours {
  const key = JSON.stringify([id, fit.gw, fit.gh, fit.unit, style]);
  let colours = looks.get(key);
  if (!colours) {
    const ramps = rampsOf(id);
    const rest = motionPose('idle', 0, 1, attackOf(id.outfit.weapon));
    const views = [0, 45, 90, 135, 180, 225, 270, 315].map(
      (facing) => shadedFrame(id, rest, facing, fit, style, ramps, 'rest').image,
    );
    colours = applyLook(views, lookOf(style, fit.gw, fit.gh), { relight: 0 }).colours;
    if (looks.size > 32) looks.delete(looks.keys().next().value as string);
    looks.set(key, colours);
  }
  return colours;
}

/** Draws every frame of the job (direction-major), through the project's look. */
export function drawFigure(job: FigureJob): FigureFrames {
  const id = job.identity;
  const fit = fitOf(id, job);
  const { gw, gh, factor, ox, oy, unit } = fit;
  const ramps = rampsOf(id);
  const attack = attackOf(id.outfit.weapon);
  const shaded: RgbaImage[] = [];
  const poses: MotionPose[] = [];
  const held = heldDepthOf(job.action, attack);
  const smears: Array<Smear | null> = [];
  const mirrored: boolean[] = [];
  for (const name of job.directions) {
    const { facing, mirror } =
      job.sides === 'drawn' ? { facing: FACING_OF(name), mirror: false } : sideOf(id, FACING_OF(name));
    const slide = slideOf(id, job, fit, facing);
    for (let f = 0; f < job.frames; f++) {
      mirrored.push(mirror);
      const pose = motionPose(job.action, f, job.frames, attack, facing);
      poses.push(pose);
      const one = shadedFrame(id, pose, facing, fit, job.style, ramps, held, slide);
      shaded.push(one.image);
      smears.push(
        job.action === 'attack' && id.outfit.weapon && (attack === 'swing' || attack === 'thrust')
          ? smearOf(id, job, fit, facing, f, attack, one)
          : null,
      );
    }
  }
  // the look every sprite shares (look/index.ts), with the character's own colours
  const done = applyLook(shaded, lookOf(job.style, gw, gh), {
    relight: 0,
    colours: figureLook(id, job.style, fit),
    // a hit's flash: every colour a step lighter in its ramp
    effect: (frame, i, colours) => {
      if (poses[i]!.flash > 0.6) flash(frame.data, colours);
    },
  });
  const smear = done.frames.map((f, i) => {
    const s = smears[i];
    const px = s ? paintSmear(f.data, gw, gh, s, done.colours) : [];
    if (!mirrored[i]) return px;
    return px.flatMap((k) => {
      const x = 2 * ox - (k % gw);
      return x >= 0 && x < gw ? [k - (k % gw) + x] : [];
    });
  });
  const frames = done.frames.map((f, i) => {
    if (!mirrored[i]) return upscale(f.data, gw, gh, factor, job.width, job.height);
    // the clean-up again: where two colours tie round a pixel it keeps the one it met first, so the
    // mirror of a clean frame can hold an orphan its source did not (a knight's left row, 1 pixel)
    const flipped = { width: gw, height: gh, data: mirrorAbout(f.data, gw, gh, ox) };
    cleanUp(flipped, false);
    return upscale(flipped.data, gw, gh, factor, job.width, job.height);
  });
  const offX = Math.floor((job.width - gw * factor) / 2);
  const offY = Math.floor((job.height - gh * factor) / 2);
  return {
    frames,
    anchor: { x: offX + (ox + 0.5) * factor, y: offY + oy * factor },
    unit,
    factor,
    poses,
    smear,
    views: job.directions.map((direction, d) => ({
      direction,
      view: mirrored[d * job.frames] ? 'mirror' : 'source',
    })),
  };
}

/** A hit's flash: every colour a step lighter along its ramp. */
function flash(rgba: Uint8Array, colours: LookColours): void {
  for (let i = 0; i < rgba.length; i += 4) {
    if (!rgba[i + 3]) continue;
    const c = colours.step([rgba[i]!, rgba[i + 1]!, rgba[i + 2]!], 1);
    rgba[i] = c[0];
    rgba[i + 1] = c[1];
    rgba[i + 2] = c[2];
  }
}

/** Night: every colour a little darker and bluer. */
function dim(rgba: Uint8Array): void {
  for (let i = 0; i < rgba.length; i += 4) {
    if (!rgba[i + 3]) continue;
    rgba[i] = Math.round(rgba[i]! * 0.72);
    rgba[i + 1] = Math.round(rgba[i + 1]! * 0.76);
    rgba[i + 2] = Math.round(rgba[i + 2]! * 0.9);
  }
}

/** A strike's smear: the path of the weapon's outer part since the frame before, in grid pixels. */
interface Smear {
  /** Samples along the path, oldest first: the inner point's and the tip's x and y. */
  path: Array<[number, number, number, number]>;
  /** The frame's pixels of the weapon (the smear takes its lightest colour a step lighter). */
  weapon: number[];
}

/**
 * The smear of a frame of an attack, or null: where the weapon's tip travelled down (a strike, not
 * the wind-up or the recovery) by at least a fifth of the grid's height since the frame before, the
 * outer half of the weapon's length swept along the way (its last three quarters from 48 px),
 * sampled at eighths of the frame's time.
 */
function smearOf(
  id: FigureIdentity,
  job: FigureJob,
  fit: ReturnType<typeof fitOf>,
  facing: number,
  f: number,
  attack: ReturnType<typeof attackOf>,
  one: { raster: Raster; weapon: Set<number> },
): Smear | null {
  if (job.frames < 3) return null;
  const { ox, oy, unit, gh } = fit;
  const hold = holdOf(id.outfit.weapon, id.outfit.prop);
  const reach = hold.reach ?? 0.8;
  const path: Smear['path'] = [];
  const K = 8;
  for (let k = 0; k <= K; k++) {
    const at = f - 1 + k / K;
    const pose = motionPose(job.action, at < 0 ? at + job.frames : at, job.frames, attack, facing);
    const { fig, shift, up, fall } = placedFigure(id, pose, facing);
    const P0 = projector({ ox: ox + 0.5 + shift * unit, oy: oy - up * unit, facing, fall });
    const P = (q: V3) => P0([q[0] * unit, q[1] * unit, q[2] * unit]);
    const at3 = (r: number) => P(v3.add(fig.j.handR, v3.mul(fig.s.blade, fig.p.arm * reach * r)));
    const [ix, iy] = at3(0.5);
    const [tx, ty] = at3(1);
    path.push([ix, iy, tx, ty]);
  }
  const first = path[0]!;
  const last = path[K]!;
  if (last[3] - first[3] < 1 || Math.hypot(last[2] - first[2], last[3] - first[3]) < gh * 0.2) return null;
  const weapon: number[] = [];
  one.raster.piece.forEach((p, i) => {
    if (one.weapon.has(p)) weapon.push(i);
  });
  // from 48 px the trail of the frame's last three quarters, behind the blade (the whole sweep, a
  // wind-up over the head and down, was a band of up to 500 px at 64 px); on a smaller grid the whole
  // sweep, where three quarters of it is a few pixels
  return weapon.length ? { path: path.slice(gh < 48 ? 0 : K / 4), weapon } : null;
}

/**
 * Paints a smear on a finished frame, never over the weapon: the swept band in the weapon's lightest
 * colour a step lighter on empty pixels, its outer fifth (the tip's path) a step lighter again and over
 * the body too, the oldest quarter of the path dithered so the smear fades behind the weapon; only
 * what joins the drawn weapon is kept. Returns the pixels it painted.
 */
function paintSmear(rgba: Uint8Array, w: number, h: number, s: Smear, colours: LookColours): number[] {
  let light: Rgb | null = null;
  let best = -1;
  for (const i of s.weapon) {
    if (!rgba[i * 4 + 3]) continue;
    const c: Rgb = [rgba[i * 4]!, rgba[i * 4 + 1]!, rgba[i * 4 + 2]!];
    const l = 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2];
    if (l > best) {
      best = l;
      light = c;
    }
  }
  if (!light) return [];
  // a smear is pale whatever the weapon is made of (a brown haft's path would read as a stick): the
  // look's palest near-grey colour at the tip's path, a step darker inside — or, on a small palette,
  // the weapon's lightest colour a step lighter when that is paler
  const lum = (c: Rgb) => 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2];
  const pale = (c: Rgb) => lum(c) - 0.5 * (Math.max(...c) - Math.min(...c));
  let edge = colours.step(light, 1);
  for (const c of colours.colours) if (pale(c) > pale(edge)) edge = c;
  const darker = colours.step(edge, -1);
  const band = lum(darker) > best ? darker : edge;
  const n = s.path.length - 1;
  // each step of the path a quad between the inner points and the tips, split at four fifths out
  const quads: Array<{ q: Array<[number, number]>; outer: boolean; old: boolean }> = [];
  for (let k = 0; k < n; k++) {
    const [ax, ay, bx, by] = s.path[k]!;
    const [cx, cy, dx, dy] = s.path[k + 1]!;
    const mid = (p: number, q: number) => p + (q - p) * 0.8;
    const old = k < n / 4;
    quads.push({
      q: [
        [ax, ay],
        [mid(ax, bx), mid(ay, by)],
        [mid(cx, dx), mid(cy, dy)],
        [cx, cy],
      ],
      outer: false,
      old,
    });
    quads.push({
      q: [
        [mid(ax, bx), mid(ay, by)],
        [bx, by],
        [dx, dy],
        [mid(cx, dx), mid(cy, dy)],
      ],
      outer: true,
      old,
    });
  }
  const paint = new Uint8Array(w * h);
  for (const { q, outer, old } of quads) {
    const xs = q.map((p) => p[0]);
    const ys = q.map((p) => p[1]);
    const x0 = Math.max(0, Math.floor(Math.min(...xs)));
    const x1 = Math.min(w - 1, Math.ceil(Math.max(...xs)));
    const y0 = Math.max(0, Math.floor(Math.min(...ys)));
    const y1 = Math.min(h - 1, Math.ceil(Math.max(...ys)));
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        if (!inQuad(q, x + 0.5, y + 0.5)) continue;
        if (old && (x + y) % 2) continue;
        const i = y * w + x;
        paint[i] = Math.max(paint[i]!, outer ? 2 : 1);
      }
  }
  // the band where it is empty, the tip's path over the body too (a slash in front of the figure),
  // never over the weapon; then only what joins the drawn weapon: where the body covered the sweep's
  // last stretch, the rest floated free of the blade as a detached band (the blind review after 1130b)
  const weapon = new Set(s.weapon);
  const open = (i: number) => paint[i]! > 0 && !weapon.has(i) && (paint[i] === 2 || !rgba[i * 4 + 3]);
  const kept = new Uint8Array(w * h);
  const stack: number[] = [];
  for (const i of s.weapon) stack.push(i);
  while (stack.length) {
    const i = stack.pop()!;
    const x = i % w;
    const y = (i - x) / w;
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const q = ny * w + nx;
        if (kept[q] || !open(q)) continue;
        kept[q] = 1;
        stack.push(q);
      }
  }
  const painted: number[] = [];
  for (let i = 0; i < w * h; i++) {
    if (!kept[i]) continue;
    const c = paint[i] === 2 ? edge : band;
    rgba.set([c[0], c[1], c[2], 255], i * 4);
    painted.push(i);
  }
  return painted;
}

/** Whether a point is inside a quad (either winding; a folded one counts its halves). */
function inQuad(q: ReadonlyArray<readonly [number, number]>, x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = q.length - 1; i < q.length; j = i++) {
    const [xi, yi] = q[i]!;
    const [xj, yj] = q[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
