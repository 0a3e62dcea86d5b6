/**
 * A figure's skeleton for game engines: Spine 4.2 JSON with its atlas, and DragonBones 5.5 JSON with
 * its texture atlas, both over one PNG of body-part images.
 *
 * Each bone of the figure's skeleton (root at the feet, the anchor of every sheet frame) gets one
 * slot; each slot has one region per direction — the bone's pieces drawn alone as that direction sees
 * them at rest, so a back view has a back and a side view a side, never a turned front. An animation
 * per action and direction (`walk_down_right`) switches every slot to that direction's images at its
 * first frame, then keys each bone's rotation and position per frame (stepped, as pixel art plays)
 * from the same poses the sheets are drawn from, and the draw order per frame (an arm passes in
 * front of the body and behind it). Positions are in the sheet's pixels, y up (Spine) or down
 * (DragonBones), with the origin on the anchor.
 */
import { encodePng } from '@assetloom/pipeline';
import type { Camera, V3 } from '../rig.js';
import { projector } from '../rig.js';
import { FACING_OF, type ResolvedStyle } from './deps.js';
import { figureLook, fitOf, placedFigure, rampsOf } from './draw.js';
import { drawFace } from './face.js';
import type { FigureIdentity } from './identity.js';
import { type FigureAction, loops, motionPose, REST } from './motion.js';
import { attackOf } from './pieces-held.js';
import { rasterize, shadeRaster } from './raster.js';
import { BONES, type BoneName } from './skeleton.js';

export interface RigExportJob {
  identity: FigureIdentity;
  actions: readonly FigureAction[];
  /** Direction names (DIRECTION_NAMES order). */
  directions: readonly string[];
  framesPerDirection: number;
  /** Frames per second the animations play at. */
  fps: number;
  /** The sheet's frame size in pixels. */
  width: number;
  height: number;
  style: ResolvedStyle;
  /** File stem: `<name>.png`, `<name>.atlas` … */
  name: string;
}

export interface RigExport {
  /** The body-part images, one region per bone and direction. */
  png: Uint8Array;
  spineJson: string;
  spineAtlas: string;
  dragonBonesJson: string;
  dragonBonesAtlas: string;
  /** Every animation's name (`<action>_<direction>`), in order. */
  animations: string[];
  bones: string[];
}

interface Xform {
  x: number;
  y: number;
  /** Degrees, counter-clockwise with y up. */
  rot: number;
}

interface Region {
  name: string;
  w: number;
  h: number;
  data: Uint8Array;
  x: number;
  y: number;
  /** The image's centre from the anchor, y up, in pixels. */
  cx: number;
  cy: number;
}

const r2 = (v: number) => Math.round(v * 100) / 100;
/** A key's time in seconds (to the tenth of a millisecond: a frame of 1/8 s is 0.125, not 0.13). */
const r4 = (v: number) => Math.round(v * 1e4) / 1e4;
/** An angle in (-180, 180]. */
const wrap = (a: number) => {
  let v = ((a + 180) % 360) - 180;
  if (v <= -180) v += 360;
  return v;
};

/** Every bone's world transform in one pose and direction (pixels from the anchor, y up). */
function worldOf(
  id: FigureIdentity,
  pose: typeof REST,
  facing: number,
  unit: number,
  factor: number,
): { world: Map<BoneName, Xform>; depth: Map<BoneName, number>; fig: ReturnType<typeof placedFigure> } {
  const placed = placedFigure(id, pose, facing);
  const { fig, shift, up, fall } = placed;
  const P0 = projector({ ox: shift * unit, oy: -up * unit, facing, fall });
  const P = (p: V3) => {
    const [x, y, z] = P0([p[0] * unit, p[1] * unit, p[2] * unit]);
    return [x * factor, -y * factor, z] as const;
  };
  const world = new Map<BoneName, Xform>();
  for (const b of BONES) {
    if (b.name === 'root') {
      world.set('root', { x: 0, y: 0, rot: 0 });
      continue;
    }
    const [x, y] = P(fig.j[b.from]);
    const [tx, ty] = P(fig.j[b.to]);
    const long = Math.hypot(tx - x, ty - y) > 1e-3;
    // a bone seen end-on keeps its parent's angle
    const rot = long ? (Math.atan2(ty - y, tx - x) * 180) / Math.PI : (world.get(b.parent!)?.rot ?? -90);
    world.set(b.name, { x, y, rot });
  }
  const depth = new Map<BoneName, number>();
  const sums = new Map<string, [number, number]>();
  for (const part of fig.parts) {
    const pts = part.t === 'ball' ? [part.c] : part.t === 'poly' ? part.p : [part.a, part.b];
    const bone = part.bone ?? 'torso';
    const s = sums.get(bone) ?? [0, 0];
    for (const q of pts) {
      s[0] += P(q as V3)[2] + (part.bias ?? 0) * unit;
      s[1]++;
    }
    sums.set(bone, s);
  }
  for (const [bone, [sum, n]] of sums) depth.set(bone as BoneName, sum / n);
  return { world, depth, fig: placed };
}

/** A bone's transform in its parent's frame. */
function localOf(world: Map<BoneName, Xform>, bone: BoneName, parent: BoneName | null): Xform {
  const w = world.get(bone)!;
  if (!parent) return { ...w };
  const p = world.get(parent)!;
  const a = (-p.rot * Math.PI) / 180;
  const dx = w.x - p.x;
  const dy = w.y - p.y;
  return {
    x: dx * Math.cos(a) - dy * Math.sin(a),
    y: dx * Math.sin(a) + dy * Math.cos(a),
    rot: wrap(w.rot - p.rot),
  };
}

/** Packs regions on shelves into one power-of-two page (2 px apart). */
function pack(regions: Region[]): { w: number; h: number; data: Uint8Array } {
  const sorted = [...regions].sort((a, b) => b.h - a.h || a.name.localeCompare(b.name));
  const area = regions.reduce((s, r) => s + (r.w + 2) * (r.h + 2), 0);
  let W = 64;
  while (W * W < area * 1.3) W *= 2;
  W = Math.max(W, ...regions.map((r) => r.w + 2));
  let x = 0;
  let y = 0;
  let shelf = 0;
  for (const r of sorted) {
    if (x + r.w + 2 > W) {
      x = 0;
      y += shelf;
      shelf = 0;
    }
    r.x = x + 1;
    r.y = y + 1;
    x += r.w + 2;
    shelf = Math.max(shelf, r.h + 2);
  }
  let H = 64;
  while (H < y + shelf) H *= 2;
  const data = new Uint8Array(W * H * 4);
  for (const r of regions)
    for (let yy = 0; yy < r.h; yy++)
      data.set(r.data.subarray(yy * r.w * 4, (yy + 1) * r.w * 4), ((r.y + yy) * W + r.x) * 4);
  return { w: W, h: H, data };
}

type Fit = ReturnType<typeof fitOf>;

/** A direction's rest pose: every bone's world transform and depth. */
interface RestPose {
  world: Map<BoneName, Xform>;
  depth: Map<BoneName, number>;
}

/** The smallest box around a picture's opaque pixels, scaled by `factor`, as a region. */
function regionOf(rgba: Uint8Array, name: string, fit: Fit): Region | null {
  const { gw, gh, factor, ox, oy } = fit;
  let x0 = gw;
  let y0 = gh;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < gh; y++)
    for (let x = 0; x < gw; x++)
      if (rgba[(y * gw + x) * 4 + 3]) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  if (x1 < 0) return null;
  const w = (x1 - x0 + 1) * factor;
  const h = (y1 - y0 + 1) * factor;
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const s = ((y0 + Math.floor(y / factor)) * gw + x0 + Math.floor(x / factor)) * 4;
      data.set(rgba.subarray(s, s + 4), (y * w + x) * 4);
    }
  return {
    name,
    w,
    h,
    data,
    x: 0,
    y: 0,
    cx: ((x0 + x1 + 1) / 2 - (ox + 0.5)) * factor,
    cy: -((y0 + y1 + 1) / 2 - oy) * factor,
  };
}

/** The part images: each bone's pieces alone, at rest, per direction, in the sheets' colours. */
function partRegions(job: RigExportJob, fit: Fit): { regions: Region[]; rest: Map<string, RestPose> } {
  const id = job.identity;
  const { unit, gw, gh, factor, ox, oy } = fit;
  const look = figureLook(id, job.style, fit);
  const ramps = rampsOf(id);
  const style = job.style;
  const regions: Region[] = [];
  const rest = new Map<string, RestPose>();
  for (const dir of job.directions) {
    const facing = FACING_OF(dir);
    const { world, depth, fig } = worldOf(id, REST, facing, unit, factor);
    rest.set(dir, { world, depth });
    const cam: Camera = { ox: ox + 0.5 + fig.shift * unit, oy: oy - fig.up * unit, facing, fall: fig.fall };
    for (const b of BONES) {
      const parts = fig.fig.parts.filter((p) => (p.bone ?? 'torso') === b.name);
      if (!parts.length) continue;
      const raster = rasterize(parts, cam, unit, gw, gh, style.light);
      const rgba = shadeRaster(raster, ramps, {
        light: style.light,
        lineWeight: style.lineWeight,
        innerLines: unit * id.proportions.head >= 4,
        flat: style.mood === 'flat',
      });
      if (b.name === 'head') drawFace(rgba, raster, fig.fig, cam, unit, ramps);
      for (let i = 0; i < rgba.length; i += 4) {
        if (!rgba[i + 3]) continue;
        rgba.set(look.map([rgba[i]!, rgba[i + 1]!, rgba[i + 2]!]), i);
      }
      const region = regionOf(rgba, `${b.name}/${dir}`, fit);
      if (region) regions.push(region);
    }
  }
  return { regions, rest };
}

interface Attachment {
  x: number;
  y: number;
  rotation: number;
  width: number;
  height: number;
}

/** The setup pose both formats share: slots, their order, and each region's offset from its bone. */
interface RigSetup {
  byName: Map<string, Region>;
  setupDir: string;
  setupLocal: Map<BoneName, Xform>;
  setupOrder: BoneName[];
  slotIndex: Map<BoneName, number>;
  orderOf: (depth: Map<BoneName, number>) => BoneName[];
  attachment: (bone: BoneName, dir: string) => Attachment;
}

function rigSetup(job: RigExportJob, regions: Region[], rest: Map<string, RestPose>): RigSetup {
  const byName = new Map(regions.map((r) => [r.name, r]));
  const slotBones = BONES.filter((b) => job.directions.some((d) => byName.has(`${b.name}/${d}`)));
  const setupDir = job.directions[0]!;
  const setupWorld = rest.get(setupDir)!.world;
  const setupLocal = new Map(BONES.map((b) => [b.name, localOf(setupWorld, b.name, b.parent)]));
  const orderOf = (depth: Map<BoneName, number>) =>
    [...slotBones]
      .map((b, i) => ({ name: b.name, i, d: depth.get(b.name) ?? 0 }))
      .sort((a, b) => a.d - b.d || a.i - b.i)
      .map((s) => s.name);
  const setupOrder = orderOf(rest.get(setupDir)!.depth);
  const slotIndex = new Map(setupOrder.map((n, i) => [n, i]));
  // each region's offset from its bone at rest in its own direction
  const attachment = (bone: BoneName, dir: string): Attachment => {
    const r = byName.get(`${bone}/${dir}`)!;
    const w = rest.get(dir)!.world.get(bone)!;
    const a = (-w.rot * Math.PI) / 180;
    const dx = r.cx - w.x;
    const dy = r.cy - w.y;
    return {
      x: r2(dx * Math.cos(a) - dy * Math.sin(a)),
      y: r2(dx * Math.sin(a) + dy * Math.cos(a)),
      rotation: r2(wrap(-w.rot)),
      width: r.w,
      height: r.h,
    };
  };
  return { byName, setupDir, setupLocal, setupOrder, slotIndex, orderOf, attachment };
}

/** One frame of an animation: every bone's local transform and the draw order. */
interface Key {
  local: Map<BoneName, Xform>;
  order: BoneName[];
}

interface RigAnimation {
  name: string;
  dir: string;
  keys: Key[];
}

/** Per action and direction, per frame every bone's local transform and the order. */
function rigAnimations(job: RigExportJob, fit: Fit, setup: RigSetup): RigAnimation[] {
  const id = job.identity;
  const attack = attackOf(id.outfit.weapon);
  const anims: RigAnimation[] = [];
  for (const action of job.actions)
    for (const dir of job.directions) {
      const facing = FACING_OF(dir);
      const keys: Key[] = [];
      for (let f = 0; f < job.framesPerDirection; f++) {
        const pose = motionPose(action, f, job.framesPerDirection, attack, facing);
        const { world, depth } = worldOf(id, pose, facing, fit.unit, fit.factor);
        keys.push({
          local: new Map(BONES.map((b) => [b.name, localOf(world, b.name, b.parent)])),
          order: setup.orderOf(depth),
        });
      }
      anims.push({ name: `${action}_${dir}`, dir, keys });
    }
  return anims;
}

/** One Spine animation: bone timelines, the slots' direction images, and the draw order per frame. */
function spineAnimation(anim: RigAnimation, setup: RigSetup, dt: number) {
  const { name, dir, keys } = anim;
  const { byName, setupLocal, setupOrder, slotIndex } = setup;
  const bones: Record<string, unknown> = {};
  for (const b of BONES) {
    if (!b.parent) continue;
    const s = setupLocal.get(b.name)!;
    const rotate = keys.map((k, i) => ({
      time: r4(i * dt),
      value: r2(wrap(k.local.get(b.name)!.rot - s.rot)),
      curve: 'stepped',
    }));
    const translate = keys.map((k, i) => ({
      time: r4(i * dt),
      x: r2(k.local.get(b.name)!.x - s.x),
      y: r2(k.local.get(b.name)!.y - s.y),
      curve: 'stepped',
    }));
    // a bone that stays on its setup pose needs no timeline
    const still = (v: number) => Math.abs(v) < 0.01;
    bones[b.name] = {
      ...(rotate.every((k) => still(k.value)) ? {} : { rotate }),
      ...(translate.every((k) => still(k.x) && still(k.y)) ? {} : { translate }),
    };
  }
  // the last frame shows for a frame's time too: a key at the end sets the animation's duration
  const shown = (slot: BoneName) => (byName.has(`${slot}/${dir}`) ? dir : null);
  const slots = Object.fromEntries(
    setupOrder.map((slot) => [
      slot,
      {
        attachment: [
          { time: 0, name: shown(slot) },
          { time: r4(keys.length * dt), name: shown(slot) },
        ],
      },
    ]),
  );
  const drawOrder = keys.map((k, i) => ({
    time: r4(i * dt),
    // Spine reads the offsets in the slots' setup order
    offsets: k.order
      .map((slot, at) => ({ slot, offset: at - slotIndex.get(slot)!, from: slotIndex.get(slot)! }))
      .filter((o) => o.offset !== 0)
      .sort((a, b) => a.from - b.from)
      .map(({ slot, offset }) => ({ slot, offset })),
  }));
  return [name, { slots, bones, drawOrder }] as const;
}

/** Spine 4.2 JSON. */
function spineJson(job: RigExportJob, fit: Fit, setup: RigSetup, anims: RigAnimation[]) {
  const { byName, setupDir, setupLocal, setupOrder, attachment } = setup;
  const dt = 1 / job.fps;
  return {
    skeleton: {
      hash: '',
      spine: '4.2.43',
      x: r2(-job.width / 2),
      y: r2(-(job.height - fit.oy * fit.factor)),
      width: job.width,
      height: job.height,
      images: './',
      audio: '',
    },
    bones: BONES.map((b) => {
      const l = setupLocal.get(b.name)!;
      return b.parent
        ? { name: b.name, parent: b.parent, x: r2(l.x), y: r2(l.y), rotation: r2(l.rot) }
        : { name: b.name };
    }),
    slots: setupOrder.map((name) => ({
      name,
      bone: name,
      ...(byName.has(`${name}/${setupDir}`) ? { attachment: setupDir } : {}),
    })),
    skins: [
      {
        name: 'default',
        attachments: Object.fromEntries(
          setupOrder.map((bone) => [
            bone,
            Object.fromEntries(
              job.directions
                .filter((d) => byName.has(`${bone}/${d}`))
                .map((d) => [d, { path: `${bone}/${d}`, ...attachment(bone as BoneName, d) }]),
            ),
          ]),
        ),
      },
    ],
    animations: Object.fromEntries(anims.map((a) => spineAnimation(a, setup, dt))),
  };
}

/** One DragonBones animation: frames relative to each bone's setup, y down, angles clockwise. */
function dragonBonesAnimation(job: RigExportJob, anim: RigAnimation, setup: RigSetup) {
  const { name, dir, keys } = anim;
  const { byName, setupLocal, setupOrder, slotIndex } = setup;
  return {
    name,
    duration: keys.length,
    playTimes: loops(name.split('_')[0] as FigureAction) ? 0 : 1,
    bone: BONES.filter((b) => b.parent).map((b) => {
      const s = setupLocal.get(b.name)!;
      return {
        name: b.name,
        translateFrame: keys.map((k) => ({
          duration: 1,
          x: r2(k.local.get(b.name)!.x - s.x),
          y: r2(-(k.local.get(b.name)!.y - s.y)),
        })),
        rotateFrame: keys.map((k) => ({
          duration: 1,
          rotate: r2(-wrap(k.local.get(b.name)!.rot - s.rot)),
        })),
      };
    }),
    slot: setupOrder.map((slot) => ({
      name: slot,
      displayFrame: [
        {
          duration: keys.length,
          value: byName.has(`${slot}/${dir}`) ? job.directions.indexOf(dir) : -1,
        },
      ],
    })),
    zOrder: {
      frame: keys.map((k) => ({
        duration: 1,
        zOrder: k.order
          .map((slot, at) => [slotIndex.get(slot)!, at - slotIndex.get(slot)!] as const)
          .filter(([, offset]) => offset !== 0)
          .sort((a, b) => a[0] - b[0])
          .flat(),
      })),
    },
  };
}

/** DragonBones 5.5 JSON: y down, angles clockwise, animation frames relative to the bone's setup. */
function dragonBonesJson(job: RigExportJob, fit: Fit, setup: RigSetup, anims: RigAnimation[]) {
  const { byName, setupDir, setupLocal, setupOrder, attachment } = setup;
  return {
    frameRate: job.fps,
    name: job.name,
    version: '5.5',
    compatibleVersion: '5.5',
    armature: [
      {
        type: 'Armature',
        frameRate: job.fps,
        name: job.name,
        aabb: { x: -job.width / 2, y: -fit.oy * fit.factor, width: job.width, height: job.height },
        bone: BONES.map((b) => {
          const l = setupLocal.get(b.name)!;
          return b.parent
            ? {
                name: b.name,
                parent: b.parent,
                transform: { x: r2(l.x), y: r2(-l.y), skX: r2(-l.rot), skY: r2(-l.rot) },
              }
            : { name: b.name };
        }),
        slot: setupOrder.map((name) => ({
          name,
          parent: name,
          displayIndex: job.directions.indexOf(setupDir),
        })),
        skin: [
          {
            slot: setupOrder.map((bone) => ({
              name: bone,
              display: job.directions.map((d) => {
                if (!byName.has(`${bone}/${d}`)) return { type: 'image', name: `${bone}/${d}`, path: '' };
                const a = attachment(bone as BoneName, d);
                return {
                  name: `${bone}/${d}`,
                  transform: { x: a.x, y: r2(-a.y), skX: r2(-a.rotation), skY: r2(-a.rotation) },
                };
              }),
            })),
          },
        ],
        animation: anims.map((a) => dragonBonesAnimation(job, a, setup)),
        defaultActions: [{ gotoAndPlay: anims[0]?.name ?? '' }],
      },
    ],
  };
}

/** The skeleton, its part images and its animations for Spine and DragonBones. */
export function exportRig(job: RigExportJob): RigExport {
  const fit = fitOf(job.identity, job);
  const { regions, rest } = partRegions(job, fit);
  const page = pack(regions);
  const setup = rigSetup(job, regions, rest);
  const anims = rigAnimations(job, fit, setup);
  const spine = spineJson(job, fit, setup, anims);
  const atlasLines = [`${job.name}.png`, `size:${page.w},${page.h}`, 'filter:Nearest,Nearest', 'pma:false'];
  for (const r of regions) atlasLines.push(r.name, `bounds:${r.x},${r.y},${r.w},${r.h}`);
  const db = dragonBonesJson(job, fit, setup, anims);
  const dbAtlas = {
    name: job.name,
    imagePath: `${job.name}.png`,
    width: page.w,
    height: page.h,
    SubTexture: regions.map((r) => ({ name: r.name, x: r.x, y: r.y, width: r.w, height: r.h })),
  };
  return {
    png: encodePng(page.data, page.w, page.h),
    spineJson: `${JSON.stringify(spine)}\n`,
    spineAtlas: `${atlasLines.join('\n')}\n`,
    dragonBonesJson: `${JSON.stringify(db)}\n`,
    dragonBonesAtlas: `${JSON.stringify(dbAtlas, null, 1)}\n`,
    animations: anims.map((a) => a.name),
    bones: BONES.map((b) => b.name),
  };
}
