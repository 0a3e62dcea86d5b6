import type { Drawing, DrawingProvenance } from '@assetloom/drawings';
import type { Directions, RgbaImage } from '@assetloom/pipeline';
import type { ResolvedStyle, Rgb } from '@assetloom/pipeline/pixel';
import {
  bayer,
  DIRECTION_NAMES,
  fromOklab,
  gridFor,
  oklab,
  type Painter,
  quantizeAdaptive,
  upscale,
} from '@assetloom/pipeline/pixel';
import { cleanUp, downsample, lightRamp, mapColours, outline, recolour, type Supersampled } from './craft.js';
import { type LibraryMotion, type Pose, poseAt } from './motion.js';

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
type View = 'source' | 'mirror';

export interface LibraryJob {
  lib: DrawingsModule;
  drawing: Drawing;
  style: ResolvedStyle;
  /** The working palette and its painter (an enforced palette locks every pixel to it). */
  painter: Painter;
  enforced: boolean;
  /** The colour the prompt asks for the subject, or null. */
  asked: Rgb | null;
  /** A silhouette's colour when none is asked (the subject's usual colour). */
  fill: Rgb;
  width: number;
  height: number;
  directions: Directions;
  framesPerDirection: number;
  motion: LibraryMotion;
  /** Seed variation: a lean (degrees), a stretch, a lighter or darker ramp. */
  variation: { lean: number; sx: number; sy: number; tone: number };
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
// a flame's colours: red, orange and yellow, bright and saturated (not the tan of a cut log)
const isFirePixel = (r: number, g: number, b: number) => r > 200 && r >= g && g >= b && r - b > 120;

/** Sideways waver of the fire-coloured pixels, more towards the top; brighter or darker with `bright`. */
function flicker(
  src: Supersampled,
  top: number,
  bottom: number,
  amp: number,
  phase: number,
  bright: number,
): Supersampled {
  const { width: w, height: h, data } = src;
  const out = new Uint8ClampedArray(data);
  for (let y = 0; y < h; y++) {
    // flames rise: nothing moves in the bottom third (logs, wax, a handle), more towards the top
    const rise = bottom > top ? Math.max(0, Math.min(1, (bottom - y) / (bottom - top) / 0.67 - 0.5)) : 0;
    if (rise === 0) continue;
    const shift = Math.round(amp * w * rise * Math.sin(phase + (y / h) * 9));
    if (shift === 0 && !bright) continue;
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      if (data[i + 3]! < 128 || !isFirePixel(data[i]!, data[i + 1]!, data[i + 2]!)) continue;
      out[i + 3] = 0;
    }
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      if (data[i + 3]! < 128 || !isFirePixel(data[i]!, data[i + 1]!, data[i + 2]!)) continue;
      const nx = x + shift;
      if (nx < 0 || nx >= w) continue;
      const o = (y * w + nx) * 4;
      const k = 1 + 0.12 * bright * rise;
      out[o] = data[i]! * k;
      out[o + 1] = data[i + 1]! * k;
      out[o + 2] = data[i + 2]! * Math.max(k, 1);
      out[o + 3] = 255;
    }
  }
  return { width: w, height: h, data: out };
}

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
const outlineOf = (c: Rgb): Rgb => {
  const [L, a, b] = oklab(c);
  return fromOklab(Math.min(L * 0.45, Math.max(0.08, L - 0.32)), a * 0.7, b * 0.7 - 0.02);
};

/**
 * Draws one drawing of the catalog as a sprite sheet: each direction the view or its mirror, each
 * frame the drawing posed by the motion (rendered at 2–4 × the grid by resvg and read back one
 * cell at a time), then the craft passes: the asked colour, the palette lock, clean-up, a light
 * ramp from the style's light, a selective outline, clean-up again. The grid is the frame's own
 * size up to the style's grid (256 cells, 24 for retro), so a larger resolution has more detail.
 */
export async function drawLibrarySprite(job: LibraryJob): Promise<LibraryOutput> {
  const { drawing: d, style, lib } = job;
  const { gw, gh, factor } = gridFor(job.width, job.height, style.gridHint);
  const names = DIRECTION_NAMES[job.directions];
  const fpd = job.framesPerDirection;
  const facing = d.facing;
  const viewOf = (name: string): View => {
    const rightish = name.includes('right');
    const leftish = name.includes('left');
    if (facing === 'left' && rightish) return 'mirror';
    if (facing === 'right' && leftish) return 'mirror';
    return 'source';
  };
  const sideOf = (name: string) => (name.includes('left') ? -1 : name.includes('right') ? 1 : 0);
  const depthOf = (name: string) => (name.startsWith('down') ? -1 : name.startsWith('up') ? 1 : 0);

  // the subject's box and anchor, in the drawing's own units; floating things hang in the middle
  const [x0, y0, x1, y1] = d.box;
  const bw = x1 - x0;
  const bh = y1 - y0;
  const grounded = !(job.motion === 'fly' || job.motion === 'float');
  const cx = (x0 + x1) / 2;
  const cy = grounded ? y1 : (y0 + y1) / 2;
  const lean = job.variation.lean;
  const vx = job.variation.sx;
  const vy = job.variation.sy;

  // one scale for the sheet: every posed frame fits, and the resting subject fills the frame
  const margin = 1 + Math.max(1, style.lineWeight) + (gh >= 96 ? 1 : 0);
  const baseline = grounded ? gh - margin : gh / 2;
  const poses: Pose[][] = names.map((name) =>
    Array.from({ length: fpd }, (_, f) => poseAt(job.motion, f, fpd, sideOf(name), depthOf(name))),
  );
  const corners: Array<[number, number]> = [
    [x0 - cx, y0 - cy],
    [x1 - cx, y0 - cy],
    [x0 - cx, y1 - cy],
    [x1 - cx, y1 - cy],
  ];
  const place = (pose: Pose, m: number, [u, v]: [number, number], s: number): [number, number] => {
    const px = u * pose.sx * vx * m;
    const py = v * pose.sy * vy;
    const a = ((pose.rot + lean) * Math.PI) / 180;
    return [
      (px * Math.cos(a) - py * Math.sin(a)) * s + pose.dx * bh * s,
      (px * Math.sin(a) + py * Math.cos(a)) * s + pose.dy * bh * s,
    ];
  };
  const fillH = d.group === 'icon' ? 0.86 : 0.84;
  let s = Math.min(
    (fillH * (grounded ? baseline - margin : gh - 2 * margin)) / bh,
    ((gw - 2 * margin) * 0.94) / bw,
  );
  for (const row of poses)
    for (const pose of row)
      for (const m of [1, -1])
        for (const corner of corners) {
          const [px, py] = place(pose, m, corner, 1);
          if (px > 0) s = Math.min(s, (gw / 2 - margin) / px);
          if (px < 0) s = Math.min(s, (gw / 2 - margin) / -px);
          if (py < 0) s = Math.min(s, (baseline - margin) / -py);
          if (py > 0 && !grounded) s = Math.min(s, (gh - margin - baseline) / py);
        }

  const ss = gw <= 48 ? 4 : gw <= 96 ? 3 : gw <= 192 ? 2 : 1;
  const fire = FIRE_WORDS.test(`${d.label} ${d.heads.join(' ')}`) || job.motion === 'flicker';
  // a silhouette is rendered in the asked colour, else its own
  const fillHex = `#${[...(job.asked ?? job.fill)].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
  const keyOf = (pose: Pose, view: View) => {
    const m = view === 'mirror' ? -1 : 1;
    return `${pose.dx},${pose.dy},${pose.rot},${pose.sx * m},${pose.sy},${pose.flash ?? 0},${pose.glow ?? 0},${pose.dissolve ?? 0},${pose.flicker?.phase ?? ''}`;
  };
  const frameOf = async (pose: Pose, view: View): Promise<RgbaImage> => {
    const m = view === 'mirror' ? -1 : 1;
    const tx = gw / 2 + pose.dx * bh * s;
    const ty = baseline + pose.dy * bh * s;
    const transform = `translate(${tx.toFixed(3)} ${ty.toFixed(3)}) rotate(${(pose.rot + lean).toFixed(2)}) scale(${(pose.sx * vx * m * s).toFixed(4)} ${(pose.sy * vy * s).toFixed(4)}) translate(${(-cx).toFixed(3)} ${(-cy).toFixed(3)})`;
    const fl = fire && pose.flicker ? pose.flicker : null;
    const key = `${d.id}|${gw}x${gh}|${ss}|${transform}|${d.silhouette ? fillHex : ''}|${fl ? `${fl.amp},${fl.phase.toFixed(3)},${fl.bright.toFixed(3)}` : ''}`;
    const hit = cache.get(key);
    if (hit) return { width: hit.width, height: hit.height, data: new Uint8Array(hit.data) };
    let raster: Supersampled = await lib.renderDrawing(d, {
      width: gw * ss,
      height: gh * ss,
      viewBox: [0, 0, gw, gh],
      transform,
      ...(d.silhouette ? { fill: fillHex } : {}),
    });
    if (fl) {
      const top = (ty - bh * s * pose.sy * vy) * ss;
      raster = flicker(raster, top, ty * ss, fl.amp, fl.phase, fl.bright);
    }
    const img = downsample(raster, ss, gw, gh);
    remember(key, { width: img.width, height: img.height, data: new Uint8Array(img.data) });
    return img;
  };

  // the distinct frames of the sheet (an idle cycle repeats in every direction that shows the same
  // view): each is rendered and crafted once, then placed wherever it appears
  const views = names.map((name) => ({ direction: name, view: viewOf(name) }));
  const slots: number[] = [];
  const unique: Array<{ pose: Pose; view: View }> = [];
  const seen = new Map<string, number>();
  for (let di = 0; di < names.length; di++)
    for (let f = 0; f < fpd; f++) {
      const pose = poses[di]![f]!;
      const k = keyOf(pose, views[di]!.view);
      let at = seen.get(k);
      if (at === undefined) {
        at = unique.length;
        unique.push({ pose, view: views[di]!.view });
        seen.set(k, at);
      }
      slots.push(at);
    }
  const frames: RgbaImage[] = [];
  for (const u of unique) frames.push(await frameOf(u.pose, u.view));

  // colour: silhouettes get their carved details back as a darker shade; the asked colour turns
  // the drawing's own colour family; then the palette lock
  const fill = job.asked ?? job.fill;
  for (const frame of frames) {
    if (d.silhouette) fillHoles(frame, stepOf(stepOf(fill, -1, 0), -1, 0));
    else if (job.asked) recolour(frame, d.color, job.asked);
  }
  const tone = job.variation.tone;
  let pick: (c: Rgb) => Rgb;
  let shade: (c: Rgb, dir: -1 | 1) => Rgb;
  let dark: (c: Rgb) => Rgb;
  if (job.enforced) {
    const painter = job.painter;
    pick = (c) => painter.chooseLab(c);
    shade = (c, dir) => painter.shade(c, dir, 0.45);
    dark =
      style.lineWeight >= 2
        ? () => painter.darkest
        : (c) => painter.shade(painter.shade(c, -1, 0.5), -1, 0.5);
  } else {
    // an adaptive palette of the drawing's own colours (at most 16 for the sheet), with its ramps
    const all = new Uint8Array(frames.reduce((n, f) => n + f.data.length, 0));
    let at = 0;
    for (const f of frames) {
      all.set(f.data, at);
      at += f.data.length;
    }
    const palette = quantizeAdaptive({ width: all.length / 4, height: 1, data: all }, 16);
    // a seed's lighter or darker ramp: each colour found in the drawing's own palette, then stepped
    const toned = palette.map((c) => (tone === 0 ? c : stepOf(c, tone > 0 ? 1 : -1, 0)));
    const labs = palette.map((c) => oklab(c));
    const memo = new Map<number, Rgb>();
    pick = (c) => {
      const [L, a, b] = oklab(c);
      let best = 0;
      let bestD = Number.POSITIVE_INFINITY;
      for (let i = 0; i < labs.length; i++) {
        const [l2, a2, b2] = labs[i]!;
        const dd = (L - l2) ** 2 + 2 * ((a - a2) ** 2 + (b - b2) ** 2);
        if (dd < bestD) {
          bestD = dd;
          best = i;
        }
      }
      return toned[best]!;
    };
    shade = (c, dir) => {
      const k = ((c[0] << 16) | (c[1] << 8) | c[2]) * 2 + (dir > 0 ? 1 : 0);
      let v = memo.get(k);
      if (!v) {
        v = stepOf(c, dir, 0);
        memo.set(k, v);
      }
      return v;
    };
    dark = style.lineWeight >= 2 ? () => [20, 16, 28] : outlineOf;
  }
  const depth = gw <= 48 ? 1 : gw <= 128 ? 2 : 3;
  const crafted: RgbaImage[] = [];
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]!;
    const pose = unique[i]!.pose;
    mapColours(frame, pick);
    cleanUp(frame);
    if (style.mood !== 'flat') lightRamp(frame, style.light, shade, depth);
    cleanUp(frame, false);
    if (pose.glow)
      mapColours(frame, (c) => (pose.glow! > 0.3 ? shade(c, 1) : pose.glow! < -0.3 ? shade(c, -1) : c));
    if (pose.flash)
      mapColours(frame, (c) => (pose.flash! >= 1 ? shade(shade(shade(c, 1), 1), 1) : shade(c, 1)));
    if (style.lineWeight > 0) outline(frame, dark);
    cleanUp(frame);
    if (pose.dissolve) {
      const fd = frame.data;
      for (let y = 0; y < gh; y++)
        for (let x = 0; x < gw; x++) if (bayer(x, y) < pose.dissolve) fd[(y * gw + x) * 4 + 3] = 0;
    }
    crafted.push(upscale(frame.data, gw, gh, factor, job.width, job.height));
  }
  const out = slots.map((i) => {
    const f = crafted[i]!;
    return { width: f.width, height: f.height, data: new Uint8Array(f.data) };
  });
  return {
    frames: out,
    views,
    bodyColor: pick(job.asked ?? (d.silhouette ? fill : ([...d.color] as Rgb))),
    provenance: lib.provenanceOf(d),
  };
}
