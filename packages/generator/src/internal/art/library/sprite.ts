import type { Drawing, DrawingProvenance } from '@assetloom/drawings';
import type { Directions, RgbaImage } from '@assetloom/pipeline';
import type { ResolvedStyle, Rgb } from '@assetloom/pipeline/pixel';
import {
  bayer,
  DIRECTION_NAMES,
  fromOklab,
  gridFor,
  matchColourWord,
  oklab,
  type Painter,
  upscale,
} from '@assetloom/pipeline/pixel';
import { applyLook, type LookColours, type LookPass, lookOf } from '../../look/index.js';
import { mapColours } from '../../look/passes.js';
import { temper } from '../../look/ramps.js';
import {
  downsample,
  fillPinholes,
  hueTurned,
  paintParts,
  recolour,
  type Supersampled,
  thinParts,
} from './craft.js';
import { nativeFacing, quartersOf, quarterTurn } from './facing.js';
import { type LibraryMotion, type Pose, poseAt } from './motion.js';
import {
  beatWings,
  burstColour,
  FLAME_BODY,
  FLAME_CORE,
  FLAME_RIM,
  hasSpreadWings,
  rampFlame,
  removeSpecks,
  sailLayers,
  sailsOf,
  shapeFlame,
  shine,
  tint,
} from './parts.js';
import { COIN, coinSide, PROP_MOTIONS, type PropMotion, propFrame, roomAbove } from './props.js';
import { symmetrise, symmetryOf } from './symmetry.js';
import { turnedView } from './turn.js';

type DrawingsModule = typeof import('@assetloom/drawings');
let drawingsModule: Promise<DrawingsModule> | null = null;

/** The drawings package, loaded on first use (its catalog and sets stay out of bundles' first chunk). */
export function loadDrawings(): Promise<DrawingsModule> {
  if (!drawingsModule) {
    drawingsModule = import('@assetloom/drawings');
    drawingsModule.catch(() => {
      drawingsModule = null;
    });
  }
  return drawingsModule;
}

/** How each direction of the sheet shows a one-view drawing: the view itself, or it mirrored. */
type View = 'source' | 'mirror' | 'repeat' | 'turned' | 'rotated';
/**
 * A row's view while the sheet is drawn: also a drawing seen from above turned 1–3 quarter turns
 * clockwise on the pixel grid (reported as `rotated`: the finished frame of the `source` row turned,
 * so a sword's guard and a beetle's legs are the same pixels in every row, decision 0095).
 */
type RowView = View | 'quarter1' | 'quarter2' | 'quarter3';
const quarterOf = (view: RowView) => (view.startsWith('quarter') ? Number(view.slice(7)) : 0);

export interface LibraryJob {
  lib: DrawingsModule;
  drawing: Drawing;
  style: ResolvedStyle;
  /** The working palette and its painter (an enforced palette locks every pixel to it). */
  painter: Painter;
  enforced: boolean;
  /** The colour the prompt asks for the subject, or null. */
  asked: Rgb | null;
  /**
   * The asked colour is a metal's ("an iron hammer", "a steel pickaxe"): it colours the drawing's metal
   * (its steel-grey part), not its commonest colour (a hammer's wooden haft): decision 0122.
   */
  metal?: boolean;
  /** A silhouette's colour when none is asked (the subject's usual colour). */
  fill: Rgb;
  width: number;
  height: number;
  directions: Directions;
  framesPerDirection: number;
  motion: LibraryMotion;
  /** An animal or a costume face (a ghost): a front view's side and back rows turn its face. */
  turnsFace?: boolean;
  /** A thing, not a creature: a one-colour silhouette of it shows its thin long parts in a second material. */
  thing?: boolean;
  /**
   * Seed variation: a lean (degrees), a stretch, a lighter or darker ramp, and a turn of the drawing's
   * own colour family round the hue circle (degrees; 0 for a subject whose colour is its identity).
   */
  variation: { lean: number; sx: number; sy: number; tone: number; hue?: number };
}

export interface LibraryOutput {
  frames: RgbaImage[];
  views: Array<{ direction: string; view: View }>;
  bodyColor: Rgb;
  provenance: DrawingProvenance;
}

/** Renders of posed drawings at grid size, reused across tasks (a few MB at most). */
const cache = new Map<string, RgbaImage>();
const CACHE_MAX = 384;
function remember(key: string, img: RgbaImage): void {
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, img);
}

const FIRE_WORDS =
  /\b(fire|flame|campfire|bonfire|torch|candle|fireplace|brazier|burn|burning|lantern|flaming)\b/;
/** Things that burn on a wick. */
const CANDLES = /\b(candle|candles|candlestick|taper)\b/;
/** Drawings that are a flame (all of it may change shape), not a thing that holds one. */
const FLAMES = /\b(fire|flame|flames|fireball|blaze)\b/;

/**
 * Whether a drawing's flame can change shape: a colour drawing's flame is its fire-coloured pixels;
 * a one-colour silhouette has one only when it is a flame or a torch (a lantern's or a fireplace's
 * silhouette would have its frame bent instead).
 */
function flameMoves(d: Drawing): boolean {
  return !d.silhouette || /\b(fire|flame|flames|fireball|blaze|torch|campfire|bonfire)\b/.test(d.label);
}

/** Whether the drawing's flame burns in the flame ramp (a flame on a holder, not a flame alone). */
function fireRamped(job: LibraryJob): boolean {
  const d = job.drawing;
  const of = `${d.label} ${d.heads.join(' ')}`;
  return (
    (FIRE_WORDS.test(of) || job.motion === 'flicker') &&
    flameMoves(d) &&
    !d.silhouette &&
    !FLAMES.test(d.label) &&
    // a carved pumpkin's light is its orange rind's face, not a flame of its own
    !/\b(pumpkin|jack|o-lantern)\b/.test(`${d.id} ${of}`)
  );
}

/**
 * A flame's glow (decision 0141): the clear pixels 4-beside the flame (its ramp's colours as the look
 * holds them, and the outline drawn round them) above `below` (the flame's upper two thirds in every
 * frame, {@link flameGlowRow}) take the look's tone a step lighter than the flame's core — one pixel of
 * light round the flame's tongue, so a lit candle or torch reads lit.
 */
function flameHalo(frame: RgbaImage, colours: LookColours, below: number): void {
  const { width: w, height: h, data } = frame;
  const key = (c: Rgb) => (c[0] << 16) | (c[1] << 8) | c[2];
  // (the ramp's colours and their lit and shaded steps: in the flame's rows only, above `below`)
  const ramp = new Set(
    [FLAME_CORE, FLAME_BODY, FLAME_RIM].flatMap((c) => {
      const m = colours.map(c);
      return [key(m), key(colours.step(m, 1)), key(colours.step(m, -1))];
    }),
  );
  const flame = new Uint8Array(w * h);
  let bottom = -1;
  for (let y = 0; y <= Math.min(h - 1, below); y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      if (!data[i + 3] || !ramp.has((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!)) continue;
      flame[y * w + x] = 1;
      bottom = Math.max(bottom, y);
    }
  if (bottom < 0) return;
  // the light is round the flame's tongue, above `below` (its upper two thirds, found before the look)
  bottom = Math.min(bottom, below);
  // the flame's outline: opaque pixels beside it that are not of it
  const region = new Uint8Array(flame);
  for (let y = 0; y <= bottom; y++)
    for (let x = 0; x < w; x++) {
      if (flame[y * w + x] || !data[(y * w + x) * 4 + 3]) continue;
      for (const [dx, dy] of N8)
        if (x + dx >= 0 && y + dy >= 0 && x + dx < w && y + dy < h && flame[(y + dy) * w + x + dx]) {
          region[y * w + x] = 1;
          break;
        }
    }
  const glow = colours.step(colours.map(FLAME_CORE), 1);
  const halo: number[] = [];
  for (let y = 0; y < bottom; y++)
    for (let x = 0; x < w; x++) {
      if (data[(y * w + x) * 4 + 3]) continue;
      let by = false;
      for (const [dx, dy] of N4)
        if (x + dx >= 0 && y + dy >= 0 && x + dx < w && y + dy < h && region[(y + dy) * w + x + dx])
          by = true;
      if (by) halo.push(y * w + x);
    }
  for (const k of halo) data.set([glow[0], glow[1], glow[2], 255], k * 4);
}

/**
 * The row (of the finished grid, `k` render cells a row) above which a ramped flame glows: its upper
 * two thirds, from the render before the look, where the flame's pixels are exactly the ramp's
 * colours (after the look a candle's shaded wax can be the flame's orange); −1 when it has none.
 */
function flameGlowRow(frame: RgbaImage, k: number): number {
  // (the flicker brightens and dims the ramp's colours: a flame's pixel is one of its hue and chroma)
  const ramp = [FLAME_CORE, FLAME_BODY, FLAME_RIM].map((c) => oklab(c));
  const near = (c: Rgb) => {
    const [L, a, b] = oklab(c);
    return ramp.some(([L2, a2, b2]) => Math.abs(L - L2) < 0.12 && Math.hypot(a - a2, b - b2) < 0.03);
  };
  let top = -1;
  let bottom = -1;
  for (let y = 0; y < frame.height; y++)
    for (let x = 0; x < frame.width; x++) {
      const i = (y * frame.width + x) * 4;
      if (!frame.data[i + 3]) continue;
      if (!near([frame.data[i]!, frame.data[i + 1]!, frame.data[i + 2]!])) continue;
      if (top < 0) top = y;
      bottom = y;
    }
  return top < 0 ? -1 : Math.floor((top + (bottom - top) * 0.65) / k);
}

const N4 = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;
const N8 = [...N4, [1, 1], [1, -1], [-1, 1], [-1, -1]] as const;

/** Transparent holes inside a silhouette (its carved details) become a darker shade of its colour. */
function fillHoles(img: RgbaImage, colour: Rgb): void {
  const { width: w, height: h, data: d } = img;
  const outside = new Uint8Array(w * h);
  const stack: number[] = [];
  for (let x = 0; x < w; x++) stack.push(x, (h - 1) * w + x);
  for (let y = 0; y < h; y++) stack.push(y * w, y * w + w - 1);
  while (stack.length) {
    const p = stack.pop()!;
    if (outside[p] || d[p * 4 + 3] !== 0) continue;
    outside[p] = 1;
    const x = p % w;
    if (x > 0) stack.push(p - 1);
    if (x < w - 1) stack.push(p + 1);
    if (p >= w) stack.push(p - w);
    if (p < w * (h - 1)) stack.push(p + w);
  }
  for (let p = 0; p < w * h; p++) {
    if (outside[p] || d[p * 4 + 3] !== 0) continue;
    d[p * 4] = colour[0];
    d[p * 4 + 1] = colour[1];
    d[p * 4 + 2] = colour[2];
    d[p * 4 + 3] = 255;
  }
}

/** A step lighter or darker in OKLab, leaning warm in the light and cool in the shade (hue shifting). */
function stepOf(c: Rgb, dir: -1 | 1, tone: number): Rgb {
  const [L, a, b] = oklab(c);
  if (dir > 0) return fromOklab(Math.min(0.98, L + 0.085 + tone * 0.02), a * 0.92, b + 0.012);
  return fromOklab(Math.max(0.06, L - 0.1 + tone * 0.02), a * 1.02 + 0.004, b - 0.018);
}

/**
 * The share of the frame's side a sprite's subject fills along its larger dimension, outline
 * included (decision 0085): room round it on every side, one scale across a set.
 */
const FRAME_FILL = 0.8;
/**
 * A thing drawn along the cell's diagonal (a sword icon: decision 0110) leaves the box's corners
 * empty, so it fills more: its ends reach the margin, its length ≥ 80 % of the cell's diagonal.
 */
const DIAGONAL: ReadonlySet<string> = new Set(['x/sword']);
const fillOf = (id: string) => (DIAGONAL.has(id) ? 0.92 : FRAME_FILL);

/** The neutral a black subject's drawing takes for its own dark colour (OKLab L 0.3, no chroma). */
const BLACK: Rgb = [39, 39, 39];
/** A near-black neutral: the noun's own colour when it is black (WordNet's penguin #23232e, a crow's #000). */
const isBlack = (c: Rgb) => {
  const [L, a, b] = oklab(c);
  return L < 0.32 && Math.hypot(a, b) < 0.04;
};
/** A dark colour with a tint: how a drawing may draw black (a dark purple or navy). */
const isDarkTint = (c: Rgb) => {
  const [L, a, b] = oklab(c);
  return L < 0.5 && Math.hypot(a, b) > 0.04;
};

/** A brown, orange or tan colour (wood, leather): its second material is steel, not more wood. */
/** Cloth hung on a pole or a crossbar: its thin parts are a steel pole (decision 0093). */
const CLOTH_POLE = /\b(flag|banner|pennant|standard|ensign)\b/;

function isWoody(c: Rgb): boolean {
  const [, a, b] = oklab(c);
  const h = (Math.atan2(b, a) * 180) / Math.PI;
  return Math.hypot(a, b) > 0.03 && h > 20 && h < 100;
}

/** Where a drawing sits on its frames: the grid, its scale, its anchor and every frame's pose. */
interface Placement {
  gw: number;
  gh: number;
  /** Drawing units to grid cells. */
  s: number;
  baseline: number;
  /** The drawing's anchor in its own units (its feet, or its middle when it floats). */
  cx: number;
  cy: number;
  bh: number;
  poses: Pose[][];
}

const sideOf = (name: string) => (name.includes('left') ? -1 : name.includes('right') ? 1 : 0);
const depthOf = (name: string) => (name.startsWith('down') ? -1 : name.startsWith('up') ? 1 : 0);

/**
 * One scale for the sheet: every posed frame (and its mirror) fits inside the frame with a margin,
 * and the resting subject fills it; things that fly or float hang in the middle.
 */
function placeDrawing(
  job: LibraryJob,
  gw: number,
  gh: number,
  names: readonly string[],
  box: readonly [number, number, number, number],
  shrink = 1,
  pad = 0,
  topDown = false,
  k = 1,
): Placement {
  const { drawing: d, style } = job;
  const fpd = job.framesPerDirection;
  // a drawing seen from above turns on the grid: its box is the square about its middle (every
  // quarter turn of it fits), and it lies in the frame's middle, not on a baseline
  const half = Math.max(box[2] - box[0], box[3] - box[1]) / 2;
  const [mx, my] = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
  const [x0, y0, x1, y1] = topDown ? [mx - half, my - half, mx + half, my + half] : box;
  const bw = x1 - x0;
  const bh = y1 - y0;
  // (a wheel rolls about its hub: it hangs in the middle like a thing that flies)
  const grounded = !topDown && !['fly', 'float', 'burst', 'roll'].includes(job.motion);
  const cx = (x0 + x1) / 2;
  const cy = grounded ? y1 : (y0 + y1) / 2;
  const { lean, sx: vx, sy: vy } = job.variation;
  // (pad: room for what a motion draws round the drawing on its pixels: a halo, glints, a ripple)
  // (in cells of the finished grid: a grid drawn at k times its size keeps k times the margin, so
  // the outline the look adds after halving still stays off the frame's last row)
  const margin = k * (1 + Math.max(1, style.lineWeight)) + (gh >= 96 ? 1 : 0) + pad;
  const baseline = grounded ? gh - margin : gh / 2;
  const poses: Pose[][] = names.map((name) =>
    // (seen from above, every row is the drawing's own pose turned)
    Array.from({ length: fpd }, (_, f) =>
      poseAt(job.motion, f, fpd, topDown ? 0 : sideOf(name), topDown ? 0 : depthOf(name)),
    ),
  );
  const corners: Array<[number, number]> = [
    [x0 - cx, y0 - cy],
    [x1 - cx, y0 - cy],
    [x0 - cx, y1 - cy],
    [x1 - cx, y1 - cy],
  ];
  // the whole extent of the motion's moving parts: a flame stretches up, wings beat about the
  // shoulders (their tips sweep a circle), sails turn through their whole disc
  if (job.motion === 'flicker') corners.push([x0 - cx, y0 - cy - bh * 0.2], [x1 - cx, y0 - cy - bh * 0.2]);
  // a lid folds back above the box it opens, bubbles rise out of a cauldron
  const above = roomAbove(job.motion, `${d.label} ${d.heads.join(' ')}`, d.id);
  if (above) corners.push([x0 - cx, y0 - cy - bh * above], [x1 - cx, y0 - cy - bh * above]);
  // a floating thing's shadow lies below the bottom of its bob (a moving sheet's)
  if (job.motion === 'float' && fpd > 1) corners.push([0, y1 - cy + bh * 0.15]);
  if (job.motion === 'fly') {
    const r = Math.hypot(bw * 0.45, bh / 2);
    corners.push([-r, -r * 0.6], [r, -r * 0.6], [-r, r * 0.6], [r, r * 0.6]);
  }
  const sails = job.motion === 'sails' ? sailsOf(d) : undefined;
  if (sails) {
    const [hx, hy] = sails.hub;
    for (const [u, v] of [
      [-1, 0],
      [1, 0],
      [0, -1],
      [0, 1],
    ] as const)
      corners.push([hx - cx + u * sails.reach, hy - cy + v * sails.reach]);
  }
  const place = (pose: Pose, m: number, [u, v]: [number, number]): [number, number] => {
    const px = u * pose.sx * vx * m;
    const py = v * pose.sy * vy;
    const a = ((pose.rot + lean) * Math.PI) / 180;
    return [
      px * Math.cos(a) - py * Math.sin(a) + pose.dx * bh,
      px * Math.sin(a) + py * Math.cos(a) + pose.dy * bh,
    ];
  };
  // one framing rule for every drawing (decision 0085): its larger side, outline included, is
  // FRAME_FILL of the frame's, so a crown, a hat and a hydrant of one set sit at one scale; a motion
  // that needs room only makes it smaller
  // (a flying thing's wing sweep sets its scale, as before the rule: its beat stays wide)
  const outlined = 2 * k;
  let s =
    job.motion === 'fly'
      ? Math.min(
          ((d.group === 'icon' ? 0.86 : 0.84) * (gh - 2 * margin)) / bh,
          ((gw - 2 * margin) * 0.94) / bw,
        )
      : Math.min((fillOf(d.id) * gh - outlined) / bh, (fillOf(d.id) * gw - outlined) / bw);
  // (a grounded drawing that leans dips a bottom corner below its baseline: it stands that much higher
  // rather than shrinking to keep the dip in the last pixel row — a crown leaning 5° was drawn at half
  // its size, 30 px of a 64 px cell, and a hydrant at 24: decision 0095)
  let up = 0;
  let down = 0;
  for (const row of poses)
    for (const pose of row)
      for (const m of [1, -1])
        for (const corner of corners) {
          const [px, py] = place(pose, m, corner);
          if (px > 0) s = Math.min(s, (gw / 2 - margin) / px);
          if (px < 0) s = Math.min(s, (gw / 2 - margin) / -px);
          if (py < 0) s = Math.min(s, (baseline - margin) / -py);
          if (py > 0 && !grounded) s = Math.min(s, (gh - margin - baseline) / py);
          up = Math.max(up, -py);
          down = Math.max(down, py);
        }
  let ground = baseline;
  if (grounded && down > 0) {
    // the dip beyond the last row's pixel is taken from the room above: the drawing stands higher
    s = Math.min(s, (gh - 1 - margin) / Math.max(1e-6, up + down));
    ground = Math.min(baseline, gh - 1 - s * down);
  }
  return { gw, gh, s: s * shrink, baseline: ground, cx, cy, bh, poses };
}

/** The drawn extents of drawings, measured on a render (a composite's stated box can be short). */
const extents = new Map<string, readonly [number, number, number, number]>();

/**
 * The drawing's box: its catalog box, grown to what a render of it really covers (a campfire's logs
 * reach past its composite's stated box and were cut by the frame's edge).
 */
async function measuredBox(job: LibraryJob): Promise<readonly [number, number, number, number]> {
  const { drawing: d, lib } = job;
  const key = `${d.id}|${job.motion === 'fly'}`;
  const hit = extents.get(key);
  if (hit) return hit;
  const [w, h] = d.size;
  // a view a quarter wider than the drawing's own square on every side, at 2 px a unit or finer
  const px = 160;
  const view: [number, number, number, number] = [-w / 4, -h / 4, w * 1.5, h * 1.5];
  const r = await lib.renderDrawing(d, { width: px, height: px, viewBox: view });
  let bx0 = px;
  let by0 = px;
  let bx1 = -1;
  let by1 = -1;
  for (let y = 0; y < px; y++)
    for (let x = 0; x < px; x++)
      if (r.data[(y * px + x) * 4 + 3]! >= 32) {
        bx0 = Math.min(bx0, x);
        by0 = Math.min(by0, y);
        bx1 = Math.max(bx1, x + 1);
        by1 = Math.max(by1, y + 1);
      }
  const [x0, y0, x1, y1] = d.box;
  // grown where the render reaches more than a pixel of the measure past the stated box, and shrunk
  // where it stops more than a pixel short of it (a stated box with room round the drawing framed
  // it a third of the cell: decision 0085)
  const u = (v: number, size: number) => view[0] + (v / px) * size;
  const tol = (w * 1.5) / px;
  // (a flying thing's box is only grown, as before the rule: its wings' sweep is measured from it)
  const grows = job.motion === 'fly';
  const near = (stated: number, drawn: number, outward: boolean) =>
    grows
      ? outward && Math.abs(stated - drawn) > tol
        ? drawn + (drawn < stated ? tol : -tol)
        : stated
      : Math.abs(stated - drawn) > tol
        ? drawn
        : stated;
  const box =
    bx1 < 0
      ? d.box
      : ([
          near(x0, u(bx0, w * 1.5), u(bx0, w * 1.5) < x0),
          near(y0, view[1] + (by0 / px) * h * 1.5, view[1] + (by0 / px) * h * 1.5 < y0),
          near(x1, u(bx1, w * 1.5), u(bx1, w * 1.5) > x1),
          near(y1, view[1] + (by1 / px) * h * 1.5, view[1] + (by1 / px) * h * 1.5 > y1),
        ] as const);
  extents.set(key, box);
  return box;
}

const layerCache = new Map<string, { still: Supersampled; flame: Supersampled }>();

/** A composite's flame drawn as a layer of its own (its fire parts), and the rest without it. */
async function compositeLayers(
  job: LibraryJob,
  gw: number,
  gh: number,
  ss: number,
  transform: string,
): Promise<{ still: Supersampled; flame: Supersampled } | null> {
  const { drawing: d, lib } = job;
  if (!d.parts?.some((p) => p.id === 'f/fire')) return null;
  // every frame of a flicker has the same placement: the two layers are drawn once a sheet
  const key = `${d.id}|${gw}x${gh}|${ss}|${transform}`;
  const hit = layerCache.get(key);
  if (hit) return hit;
  const body = async (fire: boolean) => {
    let markup = '';
    for (const part of d.parts!) {
      if ((part.id === 'f/fire') !== fire) continue;
      if (part.svg) markup += part.svg;
      if (!part.id) continue;
      const p = lib.drawingById(part.id);
      if (!p) return '';
      markup += `<g transform="${part.transform ?? ''} scale(${32 / p.size[0]})">${await lib.drawingBody(p)}</g>`;
    }
    return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 ${gw} ${gh}" width="${gw * ss}" height="${gh * ss}" preserveAspectRatio="none"><g transform="${transform}">${markup}</g></svg>`;
  };
  const [still, flame] = await Promise.all([
    lib.renderSvg(await body(false), gw * ss, gh * ss),
    lib.renderSvg(await body(true), gw * ss, gh * ss),
  ]);
  if (layerCache.size >= 8) layerCache.delete(layerCache.keys().next().value!);
  layerCache.set(key, { still, flame });
  return { still, flame };
}

/** A windmill with its sails turned `deg` about the hub (its tower stays), or null if it has none. */
async function turnedSails(
  job: LibraryJob,
  gw: number,
  gh: number,
  ss: number,
  transform: string,
  deg: number,
  fill: string,
): Promise<Supersampled | null> {
  const { drawing: d, lib } = job;
  const sails = sailsOf(d);
  if (!sails) return null;
  const layers = sailLayers((await lib.drawingBody(d)).replace(/currentColor/g, fill), sails);
  if (!layers) return null;
  const [hx, hy] = sails.hub;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${gw} ${gh}" width="${gw * ss}" height="${gh * ss}" preserveAspectRatio="none"><g transform="${transform}">${layers.rest}<g transform="rotate(${deg.toFixed(2)} ${hx} ${hy})">${layers.sails}</g></g></svg>`;
  return lib.renderSvg(svg, gw * ss, gh * ss);
}

/** Renders one pose of the drawing on the grid (resvg at 1–4 × the grid, read back cell by cell). */
async function renderPose(
  job: LibraryJob,
  at: Placement,
  pose: Pose,
  view: RowView,
  cached = true,
): Promise<RgbaImage> {
  const q = quarterOf(view);
  if (q) {
    // seen from above: the drawing's own pose, turned on the grid (the same pixels every row)
    const own = await renderPose(job, at, pose, 'source', cached);
    return quarterTurn(own, q);
  }
  const { drawing: d, lib } = job;
  const { gw, gh, s, baseline, cx, cy, bh } = at;
  const { lean, sx: vx, sy: vy } = job.variation;
  const ss = gw <= 48 ? 4 : gw <= 96 ? 3 : gw <= 192 ? 2 : 1;
  const fire =
    (FIRE_WORDS.test(`${d.label} ${d.heads.join(' ')}`) || job.motion === 'flicker') && flameMoves(d);
  // a silhouette is rendered in the asked colour, else its own
  const fillHex = `#${[...(job.asked ?? job.fill)].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
  const m = view === 'mirror' ? -1 : 1;
  const tx = gw / 2 + pose.dx * bh * s;
  const ty = baseline + pose.dy * bh * s;
  const transform = `translate(${tx.toFixed(3)} ${ty.toFixed(3)}) rotate(${(pose.rot + lean).toFixed(2)}) scale(${(pose.sx * vx * m * s).toFixed(4)} ${(pose.sy * vy * s).toFixed(4)}) translate(${(-cx).toFixed(3)} ${(-cy).toFixed(3)})`;
  const fl = fire && pose.flicker ? pose.flicker : null;
  const parts = `${fl ? `${fl.amp},${fl.phase.toFixed(3)},${fl.bright.toFixed(3)}` : ''}|${pose.beat ?? ''}|${pose.turn ?? ''}|${pose.shine ?? ''}|${pose.burst ?? ''}`;
  const key = `${d.id}|${gw}x${gh}|${ss}|${transform}|${d.silhouette ? fillHex : ''}|${parts}`;
  const hit = cached ? cache.get(key) : undefined;
  if (hit) return { width: hit.width, height: hit.height, data: new Uint8Array(hit.data) };
  const layers = fl ? await compositeLayers(job, gw, gh, ss, transform) : null;
  const turned =
    pose.turn !== undefined ? await turnedSails(job, gw, gh, ss, transform, pose.turn, fillHex) : null;
  let raster: Supersampled = layers
    ? layers.still
    : turned
      ? turned
      : await lib.renderDrawing(d, {
          width: gw * ss,
          height: gh * ss,
          viewBox: [0, 0, gw, gh],
          transform,
          ...(d.silhouette ? { fill: fillHex } : {}),
          // a number or an emblem on a mirrored row still reads (decision 0145)
          ...(m * pose.sx * vx < 0 ? { mirrored: true } : {}),
        });
  const top = (ty - bh * s * pose.sy * vy) * ss;
  const share = FLAMES.test(d.label) ? 0.7 : d.silhouette ? 0.45 : 0.4;
  const limit = { top: 0, bottom: Math.round(top + (ty * ss - top) * share) };
  // a flame on a holder burns in the flame ramp, a candle's on a dark wick (decision 0141)
  const ramped = fireRamped(job);
  const wick = CANDLES.test(`${d.label} ${d.heads.join(' ')}`);
  let flameLayer = layers?.flame ?? null;
  if (ramped && flameLayer) flameLayer = rampFlame(flameLayer, ss, null, false, true);
  else if (ramped) raster = rampFlame(raster, ss, limit, wick);
  if (fl) {
    // the flame changes shape; the logs, the wax, the handle stay (a composite's flame is a layer of
    // its own; elsewhere the fire-coloured pixels, in a silhouette only its upper part)
    raster = shapeFlame(raster, flameLayer, fl.phase, fl.bright, limit);
  }
  if (pose.beat !== undefined && hasSpreadWings(d)) raster = beatWings(raster, pose.beat);
  if (pose.shine !== undefined) raster = shine(raster, pose.shine);
  if (pose.burst !== undefined) raster = tint(raster, burstColour(pose.burst));
  const img = downsample(raster, ss, gw, gh);
  if (cached) remember(key, { width: img.width, height: img.height, data: new Uint8Array(img.data) });
  return img;
}

/** A pose's key: frames with the same key are one picture (drawn once, placed wherever it appears). */
const poseKey = (pose: Pose, view: RowView) =>
  `${quarterOf(view)}|${pose.dx},${pose.dy},${pose.rot},${pose.sx * (view === 'mirror' ? -1 : 1)},${pose.sy},${pose.flash ?? 0},${pose.dissolve ?? 0},${pose.flicker?.phase ?? ''},${pose.beat ?? ''},${pose.turn ?? ''},${pose.shine ?? ''},${pose.burst ?? ''}`;

/** The effects a pose asks for that no affine pose gives: a light's pulse and a flash, inside the ramps. */
function poseEffect(pose: Pose, d: Drawing): LookPass['effect'] {
  // a lantern's or a fireplace's silhouette has no flame of its own to shape: its light pulses
  const pulse = pose.flicker && !flameMoves(d) ? pose.flicker.bright : 0;
  if (!pose.flash && !pulse) return undefined;
  return (frame, _i, colours) => {
    const { flash = 0 } = pose;
    if (pulse) {
      // a light pulses in its light only: the lit (light, warm) pixels brighten a step at its height
      // and dim a step at its low, the body keeps its colours (stepping every colour turned a
      // lantern's second frame dark brown). Both, because a palette may have no step above its
      // brightest yellow (pico-8's lantern held one picture in every frame: frames_distinct failed)
      const lit = (c: Rgb) => c[0] > 180 && c[0] >= c[2] && c[0] + c[1] > 330;
      if (pulse > 0.3) mapColours(frame, (c) => (lit(c) ? colours.step(c, 1) : c));
      else if (pulse < -0.3) mapColours(frame, (c) => (lit(c) ? colours.step(c, -1) : c));
    }
    if (flash)
      mapColours(frame, (c) =>
        flash >= 1 ? colours.step(colours.step(colours.step(c, 1), 1), 1) : colours.step(c, 1),
      );
  };
}

/**
 * A drawing's metal part when its main colour is not one (a hammer's head beside its wooden haft): the
 * commonest cool or neutral colour that is not dark (a steel's blue-grey: OKLab chroma under 0.08, not
 * warm), when such colours cover a tenth of the drawing at least; null when the drawing has none.
 */
function metalOf(frame: RgbaImage, main: Rgb): Rgb | null {
  const steely = (c: Rgb) => {
    const [L, a, b] = oklab(c);
    return L > 0.45 && Math.hypot(a, b) < 0.08 && (Math.hypot(a, b) < 0.03 || b < 0.01);
  };
  if (steely(main)) return null;
  const counts = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < frame.data.length; i += 4)
    if (frame.data[i + 3]) {
      total++;
      const k = (frame.data[i]! << 16) | (frame.data[i + 1]! << 8) | frame.data[i + 2]!;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  let best: Rgb | null = null;
  let bestN = 0;
  let all = 0;
  for (const [k, n] of counts) {
    const c: Rgb = [(k >> 16) & 255, (k >> 8) & 255, k & 255];
    if (!steely(c)) continue;
    all += n;
    if (n > bestN) {
      best = c;
      bestN = n;
    }
  }
  return best && all >= total * 0.1 ? best : null;
}

/**
 * Draws one drawing of the catalog as a sprite sheet: each direction the view or its mirror, each
 * frame the drawing posed by the motion, then the look every sprite shares (look/index.ts): the
 * project's palette or the drawing's own ramps, the style's light, one outline rule, clean edges.
 * The grid is the frame's own size up to the style's grid (256 cells, 24 for retro), so a larger
 * resolution has more detail; a small one (32 cells and under) is drawn at twice its grid and
 * simplified to it, so it keeps its silhouette.
 */
export async function drawLibrarySprite(job: LibraryJob): Promise<LibraryOutput> {
  const { drawing: d, style, lib } = job;
  const { gw, gh, factor } = gridFor(job.width, job.height, style.gridHint);
  const simplify = Math.max(gw, gh) <= 40;
  const k = simplify ? 2 : 1;
  const names = DIRECTION_NAMES[job.directions];
  const fpd = job.framesPerDirection;
  const box = await measuredBox(job);
  const prop = PROP_MOTIONS.has(job.motion) ? (job.motion as PropMotion) : null;
  // room (in grid cells) for a halo's rings, a glint's arms, a ripple
  // (a pulse swells by a sixth of its size at its height: a fourteenth of the frame each side)
  const pad =
    (job.motion === 'pulse'
      ? Math.max(2, Math.round(Math.min(gw, gh) * 0.07))
      : ['glow', 'sparkle', 'wave'].includes(job.motion)
        ? 2
        : 0) * k;
  // a drawing whose facing is recorded (library/facing.ts): a side view faces its side, a drawing seen
  // from above turns for every row (issue #39)
  const native = nativeFacing(d.id);
  const topDown = (native === 'up' || native === 'down') && !prop;
  let at = placeDrawing(job, gw * k, gh * k, names, box, 1, pad, topDown, k);

  // the distinct frames of the sheet (an idle cycle repeats in every direction that shows the same
  // view): each is rendered and finished once, then placed wherever it appears
  // which way the drawing faces, measured on its own first pose (the catalog's eye guess is a hint)
  // (rendered outside the cache: a measure must not change which renders later tasks reuse)
  const facing: Facing =
    native === 'left' || native === 'right'
      ? native
      : topDown
        ? 'front'
        : facingOf(await renderPose(job, at, at.poses[0]![0]!, 'source', false), d);
  const rows: Array<{ direction: string; view: RowView }> = names.map((name) => ({
    direction: name,
    view: topDown ? topDownView(native === 'up' ? 0 : 2, name) : viewOf(facing, name),
  }));
  const views: Array<{ direction: string; view: View }> = rows.map(({ direction, view }) => ({
    direction,
    view: quarterOf(view) ? 'rotated' : (view as View),
  }));
  const slots: number[] = [];
  // a row seen from above turned a quarter at a time is the finished source frame turned on the grid
  // (re-drawing it turned lost a sword's one-pixel guard to the simplify and the outline: issue #39)
  const quarters: number[] = [];
  const unique: Array<{ pose: Pose; view: RowView }> = [];
  const seen = new Map<string, number>();
  for (let di = 0; di < names.length; di++)
    for (let f = 0; f < fpd; f++) {
      const pose = at.poses[di]![f]!;
      const q = quarterOf(rows[di]!.view);
      const view: RowView = q ? 'source' : rows[di]!.view;
      const key = poseKey(pose, view);
      let i = seen.get(key);
      if (i === undefined) {
        i = unique.length;
        unique.push({ pose, view });
        seen.set(key, i);
      }
      slots.push(i);
      quarters.push(q);
    }
  let frames: RgbaImage[] = [];
  // a moving sheet keeps its outline off the edge too (the outline is a pixel out, twice that on a
  // grid drawn at twice the size and simplified); a still one keeps its pixels off the last ring
  const ring = prop || ['still', 'idle', 'breathe', 'bob'].includes(job.motion) ? 1 : 2 * k;
  // nothing is cut by the frame's edge: a sheet whose motion reaches the edge is drawn a little
  // smaller (the placement bounds the drawing's box; a part's motion can reach past it)
  for (let shrink = 1; ; shrink *= 0.9) {
    frames = [];
    for (const u of unique) frames.push(await renderPose(job, at, u.pose, u.view));
    if (shrink < 0.75 || !frames.some((f) => touchesEdge(f, ring, at.baseline < at.gh / 2 + 1))) break;
    at = placeDrawing(job, gw * k, gh * k, names, box, shrink * 0.9, pad, topDown, k);
  }

  // colour: silhouettes get their carved details back as a darker shade; the asked colour turns the
  // drawing's own colour family; a seed's lighter or darker tone; then the look
  // the asked colour as the look will hold it: the palette's colour for the word (as the quality
  // check reads it), else tempered into a ramp's middle
  const asked = job.asked
    ? job.enforced
      ? matchColourWord(job.painter.palette, job.asked)
      : temper(job.asked)
    : null;
  const fill = asked ?? job.fill;
  const tone = job.variation.tone;
  // a one-colour silhouette of a thing (not a creature) gets a second material for its thin long
  // parts: a flag's pole, a lantern's handle, a hammer's haft in wood (steel beside a wooden fill)
  // instead of the one colour all through (decision 0085)
  const parted = d.silhouette && job.thing === true && job.motion !== 'fly';
  // (a flag's or a banner's pole is steel beside any dyed cloth: decision 0093)
  const second: Rgb =
    (oklab(fill)[0] > 0.3 && isWoody(fill)) || CLOTH_POLE.test(`${d.label} ${d.heads.join(' ')}`)
      ? [150, 162, 178]
      : [128, 84, 52];
  // a black subject's drawing drawn in a dark purple (Fluent's penguin: #553366) is black: its dark
  // family takes the darkest neutral, not a plum the look then ramps (issue #39, decision 0127)
  const drawnBlack = !asked && !job.enforced && !d.silhouette && isBlack(job.fill) && isDarkTint(d.color);
  // where a ramped flame glows, read before any colour changes (decision 0141)
  const glowRows = fireRamped(job) ? frames.map((f) => flameGlowRow(f, k)).filter((r) => r >= 0) : null;
  for (const frame of frames) {
    const thin = parted ? thinParts(frame) : null;
    if (d.silhouette) fillHoles(frame, stepOf(stepOf(fill, -1, 0), -1, 0));
    if (thin) paintParts(frame, thin, fill, second);
    else if (asked) recolour(frame, (job.metal && metalOf(frame, d.color)) || d.color, asked);
    else if (drawnBlack) recolour(frame, d.color, BLACK);
    // (a seed's hue turn leaves a ramped flame alone: a pink flame is no fire)
    else if (job.variation.hue && !job.enforced && !fireRamped(job))
      recolour(frame, d.color, hueTurned(d.color, job.variation.hue));
    if (tone && !job.enforced) mapColours(frame, (c) => stepOf(c, tone > 0 ? 1 : -1, 0));
  }
  const look = lookOf(style, gw, gh);
  // what stays still while a part moves (a candle's wax, a torch's handle, a windmill's tower): the
  // pixels that are the same in every drawn frame of one placement, before the look (which fits its
  // shading to each frame and flecked a wax pixel or two a frame: decision 0132)
  const effects = unique.map((u) => poseEffect(u.pose, d));
  // (a frame the look changes by an effect of its own — a lantern's pulse of light, a flash — is
  // not held: its source is the same drawing, its change comes after)
  const holds = stillParts(frames, unique, effects);
  const done = applyLook(frames, look, {
    relight: gw <= 48 ? 1 : gw <= 128 ? 2 : 3,
    simplify,
    effect: (frame, i, colours) => effects[i]?.(frame, i, colours),
  });
  const moving = !prop && !['still', 'idle', 'breathe', 'bob'].includes(job.motion);
  // smoke thins in irregular clumps of 2 × 2 (a 1-pixel checker reads as a screen door, not smoke)
  const coarse = job.motion === 'burst' && gw >= 48;
  const crafted = done.frames.map((source, i) => {
    let frame = source;
    const dissolve = unique[i]!.pose.dissolve;
    const stage = unique[i]!.pose.burst;
    // an explosion's last frames are smoke: round grey puffs that rise and thin (not dither noise)
    if (job.motion === 'burst' && stage !== undefined && stage >= SMOKE_FROM)
      frame = smoke(frame, stage, done.colours);
    else if (dissolve)
      for (let y = 0; y < gh; y++)
        for (let x = 0; x < gw; x++)
          if ((coarse ? puff(x >> 1, y >> 1) : bayer(x, y)) < dissolve) frame.data[(y * gw + x) * 4 + 3] = 0;
    if (d.silhouette) fillPinholes(frame);
    if (moving) removeSpecks(frame);
    // a coin turned edge-on shows its side: a rim beside its narrowed face
    // (on the side it turns from: the left while it narrows, the right once past edge-on)
    const { sx, shine: turned = 0 } = unique[i]!.pose;
    if (job.motion === 'spin' && COIN.test(`${d.label} ${d.heads.join(' ')}`) && sx < 0.8)
      frame = coinSide(frame, sx, done.colours, turned < 0.5 ? -1 : 1);
    return frame;
  });
  // ... and after it (and the specks' clean-up), every frame of the placement shows the first one's
  // pixels there
  holdStill(crafted, holds);
  // a lit flame on a holder glows: a ring of light round it (decision 0141)
  // (the same rows in every frame: what lies below the flame is held still, decision 0132)
  if (glowRows?.length) {
    const below = Math.min(...glowRows);
    for (const frame of crafted) flameHalo(frame, done.colours, below);
  }
  // a front view of a living thing: its side rows turn its face that way, its back row has none
  // (rows where no face is found repeat the view and stay marked so)
  const turns = views.map(({ direction, view }) =>
    view === 'repeat' && facing === 'front' && !topDown && job.turnsFace && !prop
      ? direction.includes('left')
        ? -1
        : direction.includes('right')
          ? 1
          : direction === 'up'
            ? 0
            : null
      : null,
  );
  // a mammal's or a bird's face may be found by its spots or its beak too (turn.ts)
  const featured = /^animal-(mammal|bird)/.test(d.group);
  const turnedOf = new Map<string, RgbaImage | null>();
  const turnedFrame = (i: number, side: -1 | 0 | 1): RgbaImage | null => {
    const key = `${i}:${side}`;
    if (!turnedOf.has(key)) turnedOf.set(key, turnedView(crafted[i]!, side, featured));
    return turnedOf.get(key)!;
  };
  turns.forEach((side, di) => {
    if (side === null) return;
    const all = Array.from({ length: fpd }, (_, f) => turnedFrame(slots[di * fpd + f]!, side));
    if (all.every(Boolean)) views[di] = { direction: views[di]!.direction, view: 'turned' };
  });
  // a thing doing its verb: each frame drawn on the pixels of its one still frame (props.ts)
  const ctx = {
    colours: done.colours,
    enforced: job.enforced,
    id: d.id,
    of: `${d.label} ${d.heads.join(' ')}`,
  };
  // (a bob's shadow, in a moving sheet only: a still sprite of a floating thing has no ground)
  const shadow = job.motion === 'float' && fpd > 1 ? floatShadow(crafted, done.colours.colours) : null;
  const symmetric = symmetryOf(d.id);
  return {
    frames: slots.map((i, slot) => {
      const di = Math.floor(slot / fpd);
      const posed = prop
        ? propFrame(crafted[i]!, prop, slot % fpd, fpd, ctx)
        : views[di]!.view === 'turned' && turns[di] !== null
          ? turnedFrame(i, turns[di]!)!
          : quarters[slot]
            ? quarterTurn(crafted[i]!, quarters[slot]!)
            : crafted[i]!;
      // a heart or a gear keeps its exact symmetry on the grid in every frame (symmetry.ts)
      const even = symmetric ? symmetrise(posed, symmetric) : posed;
      const grid = shadow ? shadow(even) : even;
      const f = upscale(grid.data, gw, gh, factor, job.width, job.height);
      return { width: f.width, height: f.height, data: new Uint8Array(f.data) };
    }),
    views,
    bodyColor: done.colours.map(job.asked ?? (d.silhouette ? fill : ([...d.color] as Rgb))),
    provenance: lib.provenanceOf(d),
  };
}

/**
 * A floating thing's shadow: a flat ellipse in the look's darkest colour a little below the lowest
 * point of its bob, as wide as a third of it (two thirds of its width) at the bottom of the bob and a
 * third narrower at its top (it rises away from the ground). Returns the frame with it drawn.
 */
function floatShadow(
  frames: readonly RgbaImage[],
  colours: readonly Rgb[],
): ((f: RgbaImage) => RgbaImage) | null {
  const boxes = frames.map(opaqueBox).filter((b) => b !== null);
  if (!boxes.length) return null;
  const { width: w, height: h } = frames[0]!;
  const low = Math.max(...boxes.map((b) => b[3]));
  const high = Math.min(...boxes.map((b) => b[3]));
  const wide = Math.max(...boxes.map((b) => b[2] - b[0] + 1));
  // a clear row between the lowest point of the bob and the shadow's top
  const ry0 = Math.max(1, Math.round(wide * 0.27 * 0.22));
  const cy = Math.min(h - 2 - ry0, low + ry0 + 2);
  // a cool dark grey of the look's own colours (black would read as a hole)
  let dark: Rgb = [66, 62, 78];
  let l = Number.POSITIVE_INFINITY;
  for (const c of colours) {
    const v = (c[0] - 66) ** 2 + (c[1] - 62) ** 2 + (c[2] - 78) ** 2;
    if (v < l) {
      l = v;
      dark = c;
    }
  }
  return (frame) => {
    const b = opaqueBox(frame);
    if (!b || cy <= b[3] + 1) return frame;
    const lift = low > high ? (low - b[3]) / (low - high) : 0;
    const rx = Math.max(2, Math.round(wide * 0.27 * (1 - 0.35 * lift)));
    const ry = Math.max(1, Math.round(rx * 0.22));
    const mx = (b[0] + b[2] + 1) / 2;
    const out = { width: w, height: h, data: new Uint8Array(frame.data) };
    for (let y = cy - ry; y <= cy + ry; y++)
      for (let x = Math.floor(mx - rx); x <= Math.ceil(mx + rx); x++) {
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        if (((x + 0.5 - mx) / rx) ** 2 + ((y - cy) / (ry + 0.5)) ** 2 > 1) continue;
        const i = (y * w + x) * 4;
        if (out.data[i + 3]) continue;
        out.data.set([dark[0], dark[1], dark[2], 255], i);
      }
    return out;
  };
}

/** The box [x0, y0, x1, y1] of a frame's opaque pixels, or null. */
function opaqueBox(frame: RgbaImage): [number, number, number, number] | null {
  const { width: w, height: h, data } = frame;
  let [x0, y0, x1, y1] = [w, h, -1, -1];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (data[(y * w + x) * 4 + 3]) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  return x1 < 0 ? null : [x0, y0, x1, y1];
}

/** The stage (0 … 1) from which an explosion is smoke. */
const SMOKE_FROM = 0.7;

/**
 * An explosion turned to smoke at `stage`: five round puffs heaped in a cloud over the middle of the
 * blast's box, each shaded on a grey ramp (lit upper left, a darker rim below, the outline round the
 * cloud), rising by a fifth of the blast's height and thinning to two smaller puffs by the end.
 */
function smoke(frame: RgbaImage, stage: number, colours: { map(c: Rgb): Rgb }): RgbaImage {
  const b = opaqueBox(frame);
  const { width: w, height: h } = frame;
  const out = { width: w, height: h, data: new Uint8Array(frame.data.length) };
  if (!b) return out;
  const k = Math.min(1, Math.max(0, (stage - SMOKE_FROM) / (1 - SMOKE_FROM)));
  const bw = b[2] - b[0] + 1;
  const bh = b[3] - b[1] + 1;
  const mx = (b[0] + b[2] + 1) / 2;
  const my = (b[1] + b[3] + 1) / 2 + bh * 0.12;
  const [lit, mid, dark, line] = (
    [
      [206, 202, 210],
      [156, 152, 164],
      [110, 104, 118],
      [62, 58, 72],
    ] as Rgb[]
  ).map((c) => colours.map(c)) as [Rgb, Rgb, Rgb, Rgb];
  // the puffs: where they sit in the cloud (in shares of the box) and how big; the outer ones go first
  const puffs: Array<[number, number, number]> = [
    [0, -0.1, 0.2],
    [-0.17, 0.04, 0.16],
    [0.18, 0.05, 0.15],
    [-0.08, 0.15, 0.13],
    [0.1, 0.16, 0.12],
  ];
  const count = Math.max(2, Math.round(puffs.length - 3 * k));
  const rise = bh * (0.04 + 0.14 * k);
  const size = Math.min(bw, bh) * (1 - 0.3 * k);
  const cloud = puffs.slice(0, count).map(([u, v, r], j) => ({
    x: mx + u * bw * (1 + 0.3 * k),
    y: my + v * bh - rise * (1 + 0.25 * j),
    r: Math.max(1.5, r * size),
  }));
  const set = (x: number, y: number, c: Rgb) => {
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
    out.data.set([c[0], c[1], c[2], 255], (y * w + x) * 4);
  };
  const disc = (cx: number, cy: number, r: number, c: Rgb) => {
    for (let y = Math.floor(cy - r); y <= Math.ceil(cy + r); y++)
      for (let x = Math.floor(cx - r); x <= Math.ceil(cx + r); x++)
        if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) set(x, y, c);
  };
  for (const p of cloud) disc(p.x, p.y, p.r, dark);
  // the shade only at the cloud's underside: each puff's middle tone covers all but its lower right
  for (const p of cloud) disc(p.x - p.r * 0.1, p.y - p.r * 0.14, p.r * 0.9, mid);
  for (const p of cloud) disc(p.x - p.r * 0.28, p.y - p.r * 0.34, p.r * 0.55, lit);
  // the outline round the whole cloud
  const solid = new Uint8Array(out.data.filter((_, i) => i % 4 === 3));
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (solid[y * w + x]) continue;
      const near =
        (x > 0 && solid[y * w + x - 1]) ||
        (x < w - 1 && solid[y * w + x + 1]) ||
        (y > 0 && solid[(y - 1) * w + x]) ||
        (y < h - 1 && solid[(y + 1) * w + x]);
      if (near) out.data.set([line[0], line[1], line[2], 255], (y * w + x) * 4);
    }
  return out;
}

/** A fixed scatter of 0…1 over cells (where smoke thins first): a hash, not an ordered pattern. */
function puff(x: number, y: number): number {
  let h = Math.imul(x + 1, 73856093) ^ Math.imul(y + 1, 19349663);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/**
 * Whether a frame has an opaque pixel within `ring` pixels of its top or side edges, or its bottom
 * when `bottom` (a thing that stands has its feet on its baseline; a thing that floats does not).
 */
function touchesEdge(frame: RgbaImage, ring: number, bottom: boolean): boolean {
  const { width: w, height: h, data } = frame;
  const last = bottom ? h : h - ring;
  for (let y = 0; y < last; y++)
    for (let x = 0; x < w; x++) {
      const inside = x >= ring && x < w - ring && y >= ring && y < h - ring;
      if (!inside && data[(y * w + x) * 4 + 3]! >= 128) return true;
    }
  return false;
}

/**
 * How a one-view drawing facing `facing` shows the direction `name`: the view, or it mirrored; a row
 * the drawing has no view for ("up": no drawing shows its back; "left" and "right" of a front view)
 * repeats the view, and says so (issue #39).
 */
function viewOf(facing: Facing, name: string): View {
  // (a side view in the row facing the viewer repeats that side view: a racing car's "down" row was
  // said to be its own view, decision 0095)
  if (name === 'down') return facing === 'front' ? 'source' : 'repeat';
  if (name.includes('up') && !name.includes('left') && !name.includes('right')) return 'repeat';
  if (facing === 'front') return name.includes('down') ? 'source' : 'repeat';
  const wantsLeft = name.includes('left');
  return (facing === 'left') === wantsLeft ? 'source' : 'mirror';
}

type Facing = 'left' | 'right' | 'front';

/**
 * How a drawing seen from above shows the direction `name`, its head `own` quarter turns clockwise
 * from the top of the picture: as drawn for its own direction, else turned the quarters between
 * (a diagonal row has no exact quarter turn: it repeats the drawing and says so).
 */
function topDownView(own: number, name: string): RowView {
  const want = quartersOf(name);
  if (want === null) return 'repeat';
  const q = (want - own + 4) % 4;
  return q === 0 ? 'source' : (`quarter${q}` as RowView);
}

/**
 * Which way a one-view drawing faces: the catalog's guess from where its eyes are, checked on a render
 * of it against where its upper mass leans (the head and crest of an animal in profile). A guess the
 * lean contradicts by 8 % of the width, an insect's (its dark segments pass for eyes), and a drawing
 * with neither claim no side: its side rows repeat the one view and say so (issue #39). A living thing
 * with no eyes found faces where it leans strongly; a thing that is not alive keeps the catalog's guess
 * (a locomotive's tall cab is its back).
 */
function facingOf(frame: RgbaImage, d: Pick<Drawing, 'facing' | 'group'>): Facing {
  const guess: Facing = d.facing === 'left' || d.facing === 'right' ? d.facing : 'front';
  const living = /^(animal|person)/.test(d.group) || d.group === 'face-costume';
  if (!living) return guess;
  if (d.group === 'animal-bug') return 'front';
  const lean = upperLean(frame);
  const strong: Facing = lean <= -0.08 ? 'left' : lean >= 0.08 ? 'right' : 'front';
  if (guess === 'front') return strong;
  return strong === 'front' || strong === guess ? guess : 'front';
}

/** Where the upper 45 % of a frame's opaque mass sits against the whole mass, in widths (− left). */
export function upperLean(frame: RgbaImage): number {
  const { width: w, height: h, data } = frame;
  let y0 = h;
  let y1 = -1;
  let x0 = w;
  let x1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (data[(y * w + x) * 4 + 3]! > 0) {
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
      }
  if (y1 < 0) return 0;
  const cut = y0 + (y1 - y0 + 1) * 0.45;
  let all = 0;
  let allX = 0;
  let top = 0;
  let topX = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++)
      if (data[(y * w + x) * 4 + 3]! > 0) {
        all++;
        allX += x;
        if (y < cut) {
          top++;
          topX += x;
        }
      }
  if (!top) return 0;
  return (topX / top - allX / all) / (x1 - x0 + 1);
}

/** The frames (by index) drawn at one placement, and the cells (on the look's grid) that stay still in all of them. */
interface StillPart {
  members: number[];
  /** 1 where a source pixel differs between the frames, on the source grid `width` wide. */
  moved: Uint8Array;
  /** 1 where a source pixel is opaque in every frame. */
  solid: Uint8Array;
  width: number;
}

/**
 * Frames drawn at one placement (the same view, offset, turn and scale, no flash or dissolve: only a
 * part moves — a flame, sails) and the cells where every one of them is the same before the look,
 * a cell from the moving part away (the outline the look draws round a moving part is its own). The
 * source frames may be at twice the look's grid (a small sprite is simplified to it): a cell is still
 * when all its source pixels are.
 */
function stillParts(
  frames: readonly RgbaImage[],
  unique: ReadonlyArray<{ pose: Pose; view: RowView }>,
  effects: ReadonlyArray<LookPass['effect']>,
): StillPart[] {
  const groups = new Map<string, number[]>();
  unique.forEach((u, i) => {
    const { pose } = u;
    if (pose.flash || pose.dissolve || pose.burst !== undefined || pose.beat !== undefined || effects[i])
      return;
    const key = `${u.view}|${pose.dx},${pose.dy},${pose.rot},${pose.sx},${pose.sy}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const out: StillPart[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const first = frames[members[0]!]!;
    const { width: w, height: h } = first;
    const moved = new Uint8Array(w * h);
    for (const m of members.slice(1)) {
      const f = frames[m]!;
      for (let p = 0; p < w * h; p++) {
        const a = p * 4;
        if (first.data[a + 3] === 0 && f.data[a + 3] === 0) continue;
        if (
          first.data[a] !== f.data[a] ||
          first.data[a + 1] !== f.data[a + 1] ||
          first.data[a + 2] !== f.data[a + 2] ||
          first.data[a + 3] !== f.data[a + 3]
        )
          moved[p] = 1;
      }
    }
    // opaque in every frame (a cell there can take no outline drawn round the moving part)
    const solid = new Uint8Array(w * h);
    for (let p = 0; p < w * h; p++) solid[p] = members.every((m) => frames[m]!.data[p * 4 + 3]! > 0) ? 1 : 0;
    out.push({ members, moved, solid, width: w });
  }
  return out;
}

/** Every frame of a placement takes its first frame's pixels where nothing moves (see {@link stillParts}). */
function holdStill(frames: RgbaImage[], parts: readonly StillPart[]): void {
  for (const { members, moved, solid, width: srcW } of parts) {
    const first = frames[members[0]!]!;
    const { width: w, height: h } = first;
    // the source grid's size over the look's (1, or 2 for a small sprite simplified)
    const k = Math.max(1, Math.round(srcW / w));
    const sw = w * k;
    const any = (x: number, y: number, r: number, of: Uint8Array, want: number) => {
      for (let yy = (y - r) * k; yy < (y + 1 + r) * k; yy++)
        for (let xx = (x - r) * k; xx < (x + 1 + r) * k; xx++)
          if (xx >= 0 && yy >= 0 && xx < sw && yy < h * k && of[yy * sw + xx] === want) return true;
      return false;
    };
    // a cell is busy if a source pixel of it moved, or of a cell next to it where it may take the
    // outline drawn round the moving part (it is not solid in every frame)
    const busy = (x: number, y: number) =>
      any(x, y, 0, moved, 1) || (any(x, y, 1, moved, 1) && any(x, y, 0, solid, 0));
    const held = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) held[y * w + x] = busy(x, y) ? 0 : 1;
    // a held pixel beside the moving part whose colour no neighbour shares in some frame would be a
    // lone pixel of noise there (the look's clean-up removed its kind): it keeps each frame's own
    const lone = (f: RgbaImage, x: number, y: number) => {
      // its neighbours as they will be: the first frame's where held, this frame's elsewhere
      let opaque = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if ((!dx && !dy) || nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          const from = held[q] ? first : f;
          if (!from.data[q * 4 + 3]) continue;
          opaque++;
          const p = y * w + x;
          const c = first.data.subarray(p * 4, p * 4 + 4);
          if (c.every((v, i) => v === from.data[q * 4 + i])) return false;
        }
      return opaque >= 3;
    };
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const p = y * w + x;
        if (!held[p] || !first.data[p * 4 + 3]) continue;
        if (members.slice(1).some((m) => lone(frames[m]!, x, y))) held[p] = 0;
      }
    for (let p = 0; p < w * h; p++) {
      if (!held[p]) continue;
      const a = p * 4;
      for (const m of members.slice(1)) frames[m]!.data.set(first.data.subarray(a, a + 4), a);
    }
  }
}
