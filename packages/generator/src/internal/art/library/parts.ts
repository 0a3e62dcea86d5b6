/**
 * Motion of parts (issue #39): the parts of a one-view drawing that move while the rest stays — a
 * flame that changes shape over still logs, wings that beat about the shoulders, windmill sails that
 * turn about their hub, a coin's shine — and the choices that go with them: which drawing a flying
 * subject is drawn from (one with its wings spread), which way a thing spins (a coin flips through its
 * widths, a wheel rolls, sails turn), an explosion's colours. Everything here works on the
 * supersampled render of one pose (see sprite.ts), before the look.
 */
import type { Drawing, DrawingMatch } from '@assetloom/drawings';
import type { RgbaImage } from '@assetloom/pipeline';
import { gridFor, type Painter, type Rgb } from '@assetloom/pipeline/pixel';
import type { Supersampled } from './craft.js';
import type { LibraryMotion } from './motion.js';

/** Drawings that show their wings spread (a flying bird, a bat, a butterfly): they can beat them. */
const SPREAD_WINGS = new Set([
  'g/dove',
  // (the bat emojis are seen from the side, one wing behind the body: the silhouette's are spread)
  'g/bat',
  'g/evil-bat',
  'g/swamp-bat',
  'f/phoenix-bird',
  'n/phoenix',
  'f/butterfly',
  'n/butterfly',
  'g/butterfly',
]);

/**
 * The spread-wing drawings of a flying subject, best first, by the subject's word: a bird flying is
 * drawn from a bird with its wings out, never the standing bird. Only the subject's own kind: an
 * eagle is not drawn as a dove.
 */
const FLYING_DRAWINGS: Readonly<Record<string, readonly string[]>> = {
  bird: ['g/dove'],
  dove: ['g/dove'],
  pigeon: ['g/dove'],
  bat: ['g/bat'],
  phoenix: ['f/phoenix-bird', 'n/phoenix'],
  butterfly: ['f/butterfly', 'n/butterfly', 'g/butterfly'],
};

/** The words that ask for flight (the interpreter's `fly` action), to report when no wings beat. */
export const FLY_WORDS = /^(fly|flying|flies|flapping|soaring|gliding|飞|飞翔|飞行|在飞|飞舞)$/;

/**
 * The drawing a flying subject is drawn from: the picked one when its wings are spread, else a
 * spread-wing drawing of the same subject (its matches first, then the table by its word), else
 * null (then it hovers, and the task says its wings do not beat).
 */
export function spreadWingDrawing(
  lib: { drawingById(id: string): Drawing | undefined },
  picked: Drawing,
  matches: readonly DrawingMatch[],
  words: readonly string[],
): Drawing | null {
  if (SPREAD_WINGS.has(picked.id)) return picked;
  const matched = matches.find((m) => SPREAD_WINGS.has(m.drawing.id));
  if (matched) return matched.drawing;
  for (const w of words)
    for (const id of FLYING_DRAWINGS[w] ?? []) {
      const d = lib.drawingById(id);
      if (d) return d;
    }
  return null;
}

/** Windmills: the hub their sails turn about (drawing units) and which subpaths of its path are sails. */
interface Sails {
  hub: [number, number];
  reach: number;
  /** Indices of the drawing's subpaths (split at `z`) that are the sails; the rest stays. */
  sails: readonly number[];
}
const SAILS: Readonly<Record<string, Sails>> = {
  // game-icons' windmill: four sails and a top vane round a hub, a cap's sides, the tower
  'g/windmill': { hub: [256, 193.5], reach: 236, sails: [0, 1, 2, 8, 9] },
};

/**
 * A silhouette's path split into its subpaths, each starting with an absolute move (a relative
 * `m` after `z` starts from the previous subpath's start); null when the body is not one path.
 */
function subpaths(body: string): { before: string; after: string; parts: string[] } | null {
  const m = /^([\s\S]*?<path[^>]*\sd=")([^"]*)("[\s\S]*)$/.exec(body);
  if (!m || body.indexOf('<path', m[1]!.length) >= 0) return null;
  const pieces = m[2]!.split(/(?<=[zZ])/).filter((p) => p.trim());
  let start: [number, number] = [0, 0];
  const parts: string[] = [];
  for (const piece of pieces) {
    const head = /^\s*([mM])\s*(-?[\d.]+(?:e-?\d+)?)[\s,]*(-?[\d.]+(?:e-?\d+)?)/.exec(piece);
    if (!head) return null;
    const x = Number(head[2]);
    const y = Number(head[3]);
    start = head[1] === 'm' ? [start[0] + x, start[1] + y] : [x, y];
    parts.push(`M${start[0]} ${start[1]}${piece.slice(head[0].length)}`);
  }
  return { before: m[1]!, after: m[3]!, parts };
}

/** A windmill's body as two layers: the sails alone, and everything else. */
export function sailLayers(body: string, sails: Sails): { sails: string; rest: string } | null {
  const split = subpaths(body);
  if (!split) return null;
  const pick = (keep: boolean) =>
    `${split.before}${split.parts.filter((_, i) => sails.sails.includes(i) === keep).join('')}${split.after}`;
  return { sails: pick(true), rest: pick(false) };
}

// "collision" is the name of the 💥 drawing that explosions, blasts and booms are drawn with (#39)
export const EXPLOSION =
  /\b(explosion|explode|exploding|blast|burst|boom|detonation|kaboom|bang|collision)\b/;
const ROLLERS =
  /\b(wheel|pinwheel|paper windmill|saw|gear|cog|shuriken|propeller|fan|vortex|spiral|tire|tyre)\b/;

/**
 * The motion a drawing makes of the one the words ask for: a spinning wheel rolls, a windmill's sails
 * turn (also when nothing is asked), an explosion bursts, a flying thing without spread wings hovers.
 */
export function partMotion(motion: LibraryMotion, d: Drawing, animation: boolean): LibraryMotion {
  const words = `${d.label} ${d.heads.join(' ')}`;
  const free =
    motion === 'float' ||
    motion === 'bob' ||
    motion === 'flicker' ||
    motion === 'glow' ||
    motion === 'pulse' ||
    motion === 'settle';
  if (EXPLOSION.test(words) && (free || motion === 'spin') && animation) return 'burst';
  if (SAILS[d.id] && (motion === 'spin' || (animation && free))) return 'sails';
  if (ROLLERS.test(words) && motion === 'spin') return 'roll';
  // a living thing with no spread wings hovers (a rocket or a ship flies on: it has no wings to beat)
  const living = /^animal/.test(d.group) || d.group === 'face-costume' || d.person;
  if (motion === 'fly' && !SPREAD_WINGS.has(d.id) && living) return 'float';
  return motion;
}

/** Whether a drawing's wings are spread (its wings can beat). */
export const hasSpreadWings = (d: Drawing) => SPREAD_WINGS.has(d.id);

/** The animation's name in atlas files for a part motion (sails and a roll are a spin). */
export function motionName(motion: LibraryMotion): string {
  if (motion === 'sails' || motion === 'roll') return 'spin';
  if (motion === 'breathe' || motion === 'bob' || motion === 'settle' || motion === 'still') return 'idle';
  return motion;
}

/** The sails of a drawing that has them (see {@link sailLayers}). */
export function sailsOf(d: Drawing): Sails | undefined {
  return SAILS[d.id];
}

/** The opaque box of a raster: x0, y0, x1, y1 (inclusive), or null when it is empty. */
function opaqueBox(
  src: Supersampled,
  keep?: (i: number) => boolean,
): [number, number, number, number] | null {
  const { width: w, height: h, data } = src;
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (data[i * 4 + 3]! < 128 || (keep && !keep(i))) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  return x1 < 0 ? null : [x0, y0, x1, y1];
}

/**
 * Beats the wings: the pixels beyond the body's middle fifth on each side turn about that side's
 * shoulder (the body's middle, at the height of the opaque box's centre) by ±`deg`, both up or both
 * down; the body stays.
 */
export function beatWings(src: Supersampled, deg: number): Supersampled {
  const box = opaqueBox(src);
  if (!box) return src;
  const { width: w, height: h, data } = src;
  const [bx0, by0, bx1, by1] = box;
  const cx = (bx0 + bx1 + 1) / 2;
  const cy = (by0 + by1 + 1) / 2;
  const core = (bx1 - bx0 + 1) * 0.1;
  const cosA = Math.cos((deg * Math.PI) / 180);
  const sinA = Math.sin((deg * Math.PI) / 180);
  const out = new Uint8ClampedArray(data.length);
  const copy = (o: number, i: number) => {
    out[o] = data[i]!;
    out[o + 1] = data[i + 1]!;
    out[o + 2] = data[i + 2]!;
    out[o + 3] = data[i + 3]!;
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      const px = x + 0.5;
      const py = y + 0.5;
      if (Math.abs(px - cx) <= core) {
        copy(o, o);
        continue;
      }
      const side = px > cx ? 1 : -1;
      const sx0 = cx + side * core;
      // the right wing turns up with a negative angle on screen, the left with a positive one
      const sin = side * sinA;
      const dx = px - sx0;
      const dy = py - cy;
      const ux = sx0 + dx * cosA - dy * sin;
      const uy = cy + dx * sin + dy * cosA;
      if ((ux - cx) * side <= core) continue;
      const sx = Math.floor(ux);
      const sy = Math.floor(uy);
      if (sx < 0 || sy < 0 || sx >= w || sy >= h) continue;
      copy(o, (sy * w + sx) * 4);
    }
  return { width: w, height: h, data: out };
}

// a flame's colours: red, orange and yellow, bright and saturated (not the tan of a cut log)
const isFirePixel = (r: number, g: number, b: number) => r > 200 && r >= g && g >= b && r - b > 120;

/**
 * A flame that changes shape: the flame's pixels (`flame`, a layer of its own, or the fire-coloured
 * pixels of `base` in the rows `top`…`bottom`) stretch taller or shorter from their base and a wave
 * runs up them, more at the tips; the rest of the drawing (logs, wax, a handle) does not move.
 */
/**
 * The row where a flame lifted by its colour ends (exclusive): a flame narrows to its base at the
 * wick, and a fire-coloured row much wider below that neck is the body it burns on — a candle's
 * yellow wax, whose top rows were lifted with the flame and moved with it: the wax grew and shrank
 * by a row a frame (decision 0132).
 */
function flameBase(base: Supersampled, limit?: { top: number; bottom: number }): number {
  const { width: w, height: h, data } = base;
  const y0 = Math.max(0, limit?.top ?? 0);
  const y1 = Math.min(h - 1, limit?.bottom ?? h - 1);
  let widest = 0;
  let neck = Number.POSITIVE_INFINITY;
  for (let y = y0; y <= y1; y++) {
    let n = 0;
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      if (data[i + 3]! >= 128 && isFirePixel(data[i]!, data[i + 1]!, data[i + 2]!)) n++;
    }
    if (!n) {
      if (widest) neck = 0;
      continue;
    }
    widest = Math.max(widest, n);
    // past the flame's widest row it narrows; a row half as wide again as the narrowest since is the body
    if (n < widest) neck = Math.min(neck, n);
    if (neck < widest * 0.7 && n > neck * 1.5 + 2 && n > widest * 0.9) return y;
  }
  return h;
}

export function shapeFlame(
  base: Supersampled,
  flame: Supersampled | null,
  phase: number,
  bright: number,
  limit?: { top: number; bottom: number },
): Supersampled {
  const { width: w, height: h } = base;
  const out = new Uint8ClampedArray(base.data);
  let layer: Uint8ClampedArray;
  if (flame) layer = flame.data;
  else {
    // the flame is the fire-coloured pixels (in a silhouette, only its upper part): lift them off
    layer = new Uint8ClampedArray(base.data.length);
    const bottom = flameBase(base, limit);
    for (let y = 0; y < h; y++) {
      if (limit && (y < limit.top || y > limit.bottom)) continue;
      if (y >= bottom) break;
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        const d = base.data;
        if (d[i + 3]! < 128 || !isFirePixel(d[i]!, d[i + 1]!, d[i + 2]!)) continue;
        layer.set([d[i]!, d[i + 1]!, d[i + 2]!, d[i + 3]!], i);
        out[i + 3] = 0;
      }
    }
  }
  const box = opaqueBox({ width: w, height: h, data: layer });
  if (!box) return { width: w, height: h, data: out };
  const [x0, y0, x1, y1] = box;
  const fh = y1 - y0 + 1;
  const fw = x1 - x0 + 1;
  const stretch = 1 + 0.16 * Math.sin(phase);
  const lean = 0.12 * Math.sin(phase * 2 + 1);
  const k = 1 + 0.14 * bright;
  const top = Math.max(0, Math.floor(y1 - fh * 1.2));
  for (let y = top; y <= y1; y++) {
    // height up the flame, 0 at its base; where that row was before the stretch
    const up = (y1 + 1 - (y + 0.5)) / fh;
    const sy = Math.floor(y1 + 1 - (up * fh) / stretch);
    if (sy < y0 || sy > y1) continue;
    const t = Math.min(1, up);
    const wave = fw * (lean * t * t + 0.06 * t * Math.sin(phase * 3 + t * 7));
    for (let x = 0; x < w; x++) {
      const sx = Math.floor(x + 0.5 - wave);
      if (sx < x0 || sx > x1) continue;
      const i = (sy * w + sx) * 4;
      if (layer[i + 3]! < 128) continue;
      // the tips thin out as they rise: the outer pixels of a row above 70 % of the height go
      if (t > 0.7) {
        const edge = Math.min(sx - x0, x1 - sx) / fw;
        if (edge < (t - 0.7) * 0.5 * (1 + 0.6 * Math.sin(phase + sx * 0.9))) continue;
      }
      const o = (y * w + x) * 4;
      out[o] = layer[i]! * k;
      out[o + 1] = layer[i + 1]! * k;
      out[o + 2] = layer[i + 2]! * Math.max(1, k);
      out[o + 3] = 255;
    }
  }
  return { width: w, height: h, data: out };
}

/** A flame's ramp (decision 0141): its core, its body and its rim, hot to cool (yellow, orange, red). */
export const FLAME_CORE: Rgb = [255, 232, 120];
export const FLAME_BODY: Rgb = [255, 146, 36];
export const FLAME_RIM: Rgb = [226, 62, 28];
/** A candle's wick: a warm near-black, darker than any wax. */
const WICK: Rgb = [58, 42, 38];

/**
 * A flame drawn in the flame ramp (issue #39, decision 0141): a candle's flame had its wax's hue (a
 * beige wax, a pale orange tip: "a bottle or a stub", not lit). The flame's pixels (`layer`'s, else
 * every opaque one when `layer`, it is a composite's flame drawn alone; else the fire-coloured ones
 * above the body it burns on, within `limit`) take yellow where they lie deep
 * inside it and low (the hot core above the wick), red along its rim and tip, orange between; a
 * candle (`wick`) gets a dark wick a grid pixel wide from the flame's base into the wax. Works on a
 * supersampled render (`ss` samples a grid pixel); the result's flame is still fire-coloured, so the
 * flicker finds and reshapes it as before.
 */
export function rampFlame(
  base: Supersampled,
  ss: number,
  limit: { top: number; bottom: number } | null,
  wick: boolean,
  layer = false,
): Supersampled {
  const { width: w, height: h } = base;
  const src = base;
  const mask = new Uint8Array(w * h);
  const bottom = layer ? h : flameBase(base, limit ?? undefined);
  let n = 0;
  for (let y = 0; y < h; y++) {
    if (limit && !layer && (y < limit.top || y > limit.bottom)) continue;
    if (y >= bottom) break;
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      const d = src.data;
      if (d[i + 3]! < 128) continue;
      if (!layer && !isFirePixel(d[i]!, d[i + 1]!, d[i + 2]!)) continue;
      mask[y * w + x] = 1;
      n++;
    }
  }
  if (n < ss * ss * 2) return base;
  // distance of each flame sample to the nearest sample outside it (a chamfer pass each way)
  const big = 1e9;
  const dist = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) dist[i] = mask[i] ? big : 0;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? 0 : dist[y * w + x]!);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!mask[i]) continue;
      dist[i] = Math.min(
        dist[i]!,
        at(x - 1, y) + 1,
        at(x, y - 1) + 1,
        at(x - 1, y - 1) + 1.41,
        at(x + 1, y - 1) + 1.41,
      );
    }
  for (let y = h - 1; y >= 0; y--)
    for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      if (!mask[i]) continue;
      dist[i] = Math.min(
        dist[i]!,
        at(x + 1, y) + 1,
        at(x, y + 1) + 1,
        at(x + 1, y + 1) + 1.41,
        at(x - 1, y + 1) + 1.41,
      );
    }
  let x0 = w;
  let x1 = -1;
  let y0 = h;
  let y1 = -1;
  let deepest = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (mask[y * w + x]) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
        deepest = Math.max(deepest, dist[y * w + x]!);
      }
  const fh = y1 - y0 + 1;
  const out = new Uint8ClampedArray(base.data);
  const paint = out;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const k = y * w + x;
      if (!mask[k]) continue;
      // depth in grid pixels, and height up the flame (0 at its base)
      const e = dist[k]! / ss;
      const deep = dist[k]! / Math.max(1, deepest);
      const up = (y1 + 1 - y) / fh;
      const c =
        deep >= 0.5 && up < 0.72 ? FLAME_CORE : e < 1 && (deep < 0.5 || up > 0.8) ? FLAME_RIM : FLAME_BODY;
      const i = k * 4;
      paint[i] = c[0];
      paint[i + 1] = c[1];
      paint[i + 2] = c[2];
    }
  if (wick) {
    // the wick: a grid column under the flame's base middle, from a fifth up the flame into the wax
    let sum = 0;
    let cnt = 0;
    for (let y = Math.max(y0, y1 - Math.round(fh * 0.15)); y <= y1; y++)
      for (let x = x0; x <= x1; x++)
        if (mask[y * w + x]) {
          sum += x;
          cnt++;
        }
    const mid = cnt ? sum / cnt : (x0 + x1) / 2;
    const gx = Math.floor(mid / ss) * ss;
    const top = y1 - Math.max(ss, Math.round(fh * 0.2));
    const end = Math.min(h - 1, y1 + ss);
    for (let y = Math.max(0, top); y <= end; y++)
      for (let x = gx; x < Math.min(w, gx + ss); x++) {
        const i = (y * w + x) * 4;
        // into the wax only where there is wax (never into the air beside a thin candle)
        if (y > y1 && base.data[i + 3]! < 128) continue;
        out[i] = WICK[0];
        out[i + 1] = WICK[1];
        out[i + 2] = WICK[2];
        out[i + 3] = 255;
      }
  }
  return { width: w, height: h, data: out };
}

/** A coin's shine: a light diagonal band across its face at `at` (0 its left edge, 1 its right). */
export function shine(src: Supersampled, at: number): Supersampled {
  const box = opaqueBox(src);
  if (!box) return src;
  const [x0, y0, x1, y1] = box;
  const { width: w, data } = src;
  const out = new Uint8ClampedArray(data);
  const bw = Math.max(1, x1 - x0 + 1);
  const bh = Math.max(1, y1 - y0 + 1);
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const i = (y * w + x) * 4;
      if (data[i + 3]! < 128) continue;
      const u = (x - x0) / bw + ((y - y0) / bh - 0.5) * 0.45;
      const d = Math.abs(u - at);
      if (d > 0.11) continue;
      const m = d < 0.05 ? 0.6 : 0.32;
      out[i] = data[i]! + (255 - data[i]!) * m;
      out[i + 1] = data[i + 1]! + (250 - data[i + 1]!) * m;
      out[i + 2] = data[i + 2]! + (225 - data[i + 2]!) * m;
    }
  return { width: w, height: src.height, data: out };
}

/** An explosion's colour at stage 0…1: white-yellow, yellow, orange, red-brown, then smoke grey. */
export function burstColour(stage: number): Rgb {
  const keys: Array<[number, Rgb]> = [
    [0, [255, 246, 196]],
    [0.3, [255, 206, 72]],
    [0.55, [240, 122, 40]],
    [0.78, [150, 70, 48]],
    [1, [104, 98, 110]],
  ];
  for (let i = 1; i < keys.length; i++) {
    const [t1, c1] = keys[i]!;
    const [t0, c0] = keys[i - 1]!;
    if (stage <= t1) {
      const k = (stage - t0) / (t1 - t0);
      return [c0[0] + (c1[0] - c0[0]) * k, c0[1] + (c1[1] - c0[1]) * k, c0[2] + (c1[2] - c0[2]) * k];
    }
  }
  return keys[keys.length - 1]![1];
}

/**
 * Recolours every opaque pixel to `colour` (a burst's stage), its lightest pixels the colour itself
 * and darker ones (a silhouette's carved details) a shade of it.
 */
export function tint(src: Supersampled, colour: Rgb): Supersampled {
  const out = new Uint8ClampedArray(src.data);
  const light = (i: number) => (0.3 * out[i]! + 0.59 * out[i + 1]! + 0.11 * out[i + 2]!) / 255;
  let top = 0;
  for (let i = 0; i < out.length; i += 4) if (out[i + 3]! >= 128) top = Math.max(top, light(i));
  for (let i = 0; i < out.length; i += 4) {
    if (out[i + 3]! === 0) continue;
    const k = top > 0 ? 0.62 + 0.38 * Math.min(1, light(i) / top) : 1;
    out[i] = colour[0] * k;
    out[i + 1] = colour[1] * k;
    out[i + 2] = colour[2] * k;
  }
  return { width: src.width, height: src.height, data: out };
}

/**
 * Removes specks: 8-connected groups of at most `max` opaque pixels, in a frame that has a bigger
 * shape (no pixel floats off the drawing by itself).
 */
export function removeSpecks(frame: RgbaImage, max = 2): void {
  const { width: w, height: h, data } = frame;
  const seen = new Uint8Array(w * h);
  const groups: number[][] = [];
  for (let p = 0; p < w * h; p++) {
    if (seen[p] || !data[p * 4 + 3]) continue;
    const group: number[] = [];
    const stack = [p];
    seen[p] = 1;
    while (stack.length) {
      const q = stack.pop()!;
      group.push(q);
      const qx = q % w;
      const qy = (q - qx) / w;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const x = qx + dx;
          const y = qy + dy;
          if (x < 0 || y < 0 || x >= w || y >= h) continue;
          const r = y * w + x;
          if (seen[r] || !data[r * 4 + 3]) continue;
          seen[r] = 1;
          stack.push(r);
        }
    }
    groups.push(group);
  }
  if (!groups.some((g) => g.length > max * 8)) return;
  for (const g of groups) if (g.length <= max) for (const q of g) data[q * 4 + 3] = 0;
}

/** The silhouettes of a bat with its wings spread (game-icons': one dark shape, no face). */
const FACELESS_BATS = new Set(['g/bat', 'g/evil-bat', 'g/swamp-bat']);
export const facelessBat = (d: Drawing) => FACELESS_BATS.has(d.id);

const BAT_EYE: Rgb = [250, 214, 96];

/**
 * Two eyes on a bat's silhouette (decision 0103: "a bat with no face", flapping): on the art grid,
 * below the top of its body's middle column (the notch between its ears) by a twelfth of the grid,
 * a bright pixel each side of the middle (two cells apart, two tall from 48 cells), only where the
 * body is solid round them. Returns new frames.
 */
export function batEyes(
  frames: readonly RgbaImage[],
  job: { width: number; height: number; gridHint: number; painter: Painter; enforced: boolean },
): RgbaImage[] {
  const { gw, gh, factor } = gridFor(job.width, job.height, job.gridHint);
  const ox = Math.floor((job.width - gw * factor) / 2);
  const oy = Math.floor((job.height - gh * factor) / 2);
  const eye = job.enforced ? job.painter.choose(BAT_EYE) : BAT_EYE;
  return frames.map((src) => {
    const data = new Uint8Array(src.data);
    const at = (gx: number, gy: number) => ((oy + gy * factor) * src.width + ox + gx * factor) * 4;
    const op = (gx: number, gy: number) =>
      gx >= 0 && gy >= 0 && gx < gw && gy < gh && src.data[at(gx, gy) + 3]! >= 128;
    // the middle: the mean column of the opaque cells (a spread bat is symmetric)
    let [sx, n] = [0, 0];
    for (let gy = 0; gy < gh; gy++)
      for (let gx = 0; gx < gw; gx++)
        if (op(gx, gy)) {
          sx += gx;
          n++;
        }
    if (!n) return { width: src.width, height: src.height, data };
    const xc = Math.round(sx / n);
    let top = 0;
    while (top < gh && !op(xc, top)) top++;
    const big = gw >= 48;
    const gap = big ? 2 : 1;
    const eyesAt = (y: number) => {
      const cells: Array<[number, number]> = [];
      for (const side of [-1, 1])
        for (let dy = 0; dy < (big ? 2 : 1); dy++) cells.push([xc + side * gap, y + dy]);
      return cells;
    };
    // only on a solid head: every eye cell with body all round it (the first such row of three
    // below the notch)
    const solid = (cells: Array<[number, number]>) =>
      cells.every(([x, yy]) => [-1, 0, 1].every((dy) => [-1, 0, 1].every((dx) => op(x + dx, yy + dy))));
    const y0 = top + Math.max(1, Math.round(gh / 24));
    const cells = [y0, y0 + 1, y0 + 2].map(eyesAt).find(solid);
    if (!cells) return { width: src.width, height: src.height, data };
    for (const [x, yy] of cells)
      for (let fy = 0; fy < factor; fy++)
        for (let fx = 0; fx < factor; fx++)
          data.set(
            [eye[0], eye[1], eye[2], 255],
            ((oy + yy * factor + fy) * src.width + ox + x * factor + fx) * 4,
          );
    return { width: src.width, height: src.height, data };
  });
}
