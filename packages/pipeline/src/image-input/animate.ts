import type { RgbaImage } from '../types/index.js';
import { blank, resampleNearest } from './picture.js';

/** The motions the built-in generator gives a sprite it is handed, with no model (decision 0034). */
export const SPRITE_MOTIONS = [
  'idle',
  'breathe',
  'squash',
  'hurt',
  'death',
  'spin',
  'glow',
  'hover',
] as const;
export type SpriteMotion = (typeof SPRITE_MOTIONS)[number];

const MOTION_WORDS: ReadonlyArray<[SpriteMotion, RegExp]> = [
  ['death', /\b(death|dead|die|dies|dying|dissolv\w*|disintegrat\w*|vanish\w*|fade\s*out|消失|死亡|死)\b/i],
  ['hurt', /\b(hurt|hit|hits|damage[ds]?|damaged|flash|struck|受伤|受击)\b/i],
  ['spin', /\b(spin\w*|rotat\w*|turn\w*|twirl\w*|旋转)\b/i],
  ['glow', /\b(glow\w*|pulse|pulsing|pulsate\w*|shin\w*|power\s*up|发光|闪烁)\b/i],
  ['hover', /\b(hover\w*|float\w*|levitat\w*|fly|flying|悬浮|漂浮)\b/i],
  ['squash', /\b(squash\w*|stretch\w*|bounc\w*|squish\w*|jelly|弹跳)\b/i],
  ['breathe', /\b(breath\w*|呼吸)\b/i],
  ['idle', /\b(idle|bob|bobbing|standing|待机)\b/i],
];

/** Motions that need a model to redraw the figure: named in the refusal. */
const MODEL_MOTIONS =
  /\b(walk\w*|run|runs|running|attack\w*|swing\w*|slash\w*|jump\w*|kick\w*|punch\w*|cast\w*|shoot\w*|dance\w*|wav(e|es|ing))\b/i;

/**
 * The motion a prompt names for a given sprite: the first of death, hurt, spin, glow, hover, squash,
 * breathe, idle it mentions (idle when none); `{ refused }` with the word when it names a motion that
 * needs a model (walking, attacking…: the figure's pose changes).
 */
export function spriteMotionOf(prompt: string): { motion: SpriteMotion } | { refused: string } {
  for (const [motion, re] of MOTION_WORDS) if (re.test(prompt)) return { motion };
  const needsModel = MODEL_MOTIONS.exec(prompt);
  if (needsModel) return { refused: needsModel[0] };
  return { motion: 'idle' };
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function contentBox(img: RgbaImage): Box | null {
  let x0 = img.width;
  let y0 = img.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (img.data[(y * img.width + x) * 4 + 3]! < 128) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/** Draws `src` into `dst` at (dx, dy), opaque pixels only. */
function stamp(dst: RgbaImage, src: RgbaImage, dx: number, dy: number): void {
  for (let y = 0; y < src.height; y++) {
    const ty = y + dy;
    if (ty < 0 || ty >= dst.height) continue;
    for (let x = 0; x < src.width; x++) {
      const tx = x + dx;
      if (tx < 0 || tx >= dst.width) continue;
      const s = (y * src.width + x) * 4;
      if (src.data[s + 3]! < 128) continue;
      dst.data.set(src.data.subarray(s, s + 4), (ty * dst.width + tx) * 4);
    }
  }
}

function content(img: RgbaImage, b: Box): RgbaImage {
  const out = blank(b.w, b.h);
  for (let y = 0; y < b.h; y++) {
    const from = ((b.y + y) * img.width + b.x) * 4;
    out.data.set(img.data.subarray(from, from + b.w * 4), y * b.w * 4);
  }
  return out;
}

/** The sprite's content scaled to `w × h` (nearest: pixel art stays crisp), bottom-centre anchored. */
function scaled(img: RgbaImage, b: Box, w: number, h: number, mirror = false): RgbaImage {
  const out = blank(img.width, img.height);
  let part = resampleNearest(content(img, b), Math.max(1, w), Math.max(1, h));
  if (mirror) part = mirrored(part);
  const dx = Math.round(b.x + b.w / 2 - part.width / 2);
  const dy = b.y + b.h - part.height;
  stamp(out, part, dx, dy);
  return out;
}

function mirrored(img: RgbaImage): RgbaImage {
  const out = blank(img.width, img.height);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const s = (y * img.width + x) * 4;
      out.data.set(img.data.subarray(s, s + 4), (y * img.width + (img.width - 1 - x)) * 4);
    }
  }
  return out;
}

function shifted(img: RgbaImage, dx: number, dy: number): RgbaImage {
  const out = blank(img.width, img.height);
  stamp(out, img, dx, dy);
  return out;
}

/** The sprite's colours by luminance: [darkest, lightest]. */
function extremes(img: RgbaImage): [[number, number, number], [number, number, number]] {
  let lo: [number, number, number] = [0, 0, 0];
  let hi: [number, number, number] = [255, 255, 255];
  let loL = Number.POSITIVE_INFINITY;
  let hiL = Number.NEGATIVE_INFINITY;
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3]! < 128) continue;
    const l = 0.2126 * d[i]! + 0.7152 * d[i + 1]! + 0.0722 * d[i + 2]!;
    if (l < loL) {
      loL = l;
      lo = [d[i]!, d[i + 1]!, d[i + 2]!];
    }
    if (l > hiL) {
      hiL = l;
      hi = [d[i]!, d[i + 1]!, d[i + 2]!];
    }
  }
  return [lo, hi];
}

/** A deterministic value in [0, 1) per pixel (dissolve order): a 32-bit integer hash, no visible pattern. */
function noise(p: number, seed: number): number {
  let h = (Math.imul(p, 0x9e3779b1) ^ Math.imul(seed + 1, 0x85ebca77)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b) >>> 0;
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/**
 * The `frames` frames of `motion` for one view of a sprite (its frame, transparent around it). Every
 * frame keeps the sprite's own colours (an enforced palette stays honoured): a flash is the sprite's
 * lightest colour dithered over it, a glow its lightest colour around it, a hover's shadow its
 * darkest. Frames differ from one another for every motion and count of frames above 1.
 */
export function animateSprite(view: RgbaImage, motion: SpriteMotion, frames: number, seed = 0): RgbaImage[] {
  const box = contentBox(view);
  if (box === null || frames <= 1)
    return Array.from({ length: Math.max(1, frames) }, () => shifted(view, 0, 0));
  const [dark, light] = extremes(view);
  const out: RgbaImage[] = [];
  for (let f = 0; f < frames; f++) {
    const t = f / frames;
    const wave = Math.sin(2 * Math.PI * t);
    switch (motion) {
      case 'idle': {
        // a dip of a pixel or two and back (the classic idle bob)
        const amp = Math.max(1, Math.round(box.h * 0.03));
        out.push(shifted(view, 0, Math.round((amp * (1 - Math.cos(2 * Math.PI * t))) / 2)));
        break;
      }
      case 'breathe': {
        const amp = Math.max(1, Math.round(box.h * 0.05));
        const h = box.h + Math.round(amp * (1 - Math.cos(2 * Math.PI * t)) * 0.5);
        const w = box.w - Math.round(((h - box.h) * box.w) / box.h / 2);
        out.push(scaled(view, box, w, h));
        break;
      }
      case 'squash': {
        const k = 0.18 * wave;
        out.push(scaled(view, box, Math.round(box.w * (1 + k)), Math.round(box.h * (1 - k))));
        break;
      }
      case 'hurt': {
        // knocked back and flashing on every other frame, settling again
        const back = Math.round(Math.max(1, box.w * 0.06) * (1 - t));
        const frame = shifted(view, f === frames - 1 ? 0 : -back, 0);
        if (f % 2 === 0) {
          const d = frame.data;
          for (let p = 0; p < frame.width * frame.height; p++) {
            const x = p % frame.width;
            const y = Math.floor(p / frame.width);
            if (d[p * 4 + 3]! >= 128 && (x + y) % 2 === 0) d.set([...light, 255], p * 4);
          }
        }
        out.push(frame);
        break;
      }
      case 'death': {
        // pixels leave in a fixed random order (every colour alike, so the sprite stays itself);
        // up to 60 % are gone by the last frame, fewer for a small sprite (a frame keeps at least
        // 3.5 % of its area, as the quality check asks)
        const frame = shifted(view, 0, 0);
        let opaque = 0;
        for (let i = 3; i < view.data.length; i += 4) if (view.data[i]! >= 128) opaque++;
        const most = Math.min(0.6, Math.max(0, 1 - (0.035 * view.width * view.height) / Math.max(1, opaque)));
        const gone = most * (f / (frames - 1));
        const d = frame.data;
        for (let p = 0; p < frame.width * frame.height; p++) {
          if (d[p * 4 + 3]! >= 128 && noise(p, seed) < gone) d.fill(0, p * 4, p * 4 + 4);
        }
        out.push(frame);
        break;
      }
      case 'spin': {
        const c = Math.cos(2 * Math.PI * t);
        // edge-on it keeps a fifth of its width (a coin's thickness), more for a small sprite: a frame
        // covers at least 4 % of its area, as the quality check asks
        let opaque = 0;
        for (let i = 3; i < view.data.length; i += 4) if (view.data[i]! >= 128) opaque++;
        const thinnest = Math.min(1, Math.max(0.2, (0.04 * view.width * view.height) / Math.max(1, opaque)));
        const w = Math.max(Math.max(1, Math.round(box.w * thinnest)), Math.round(Math.abs(c) * box.w));
        out.push(scaled(view, box, w, box.h, c < -1e-9 || (Math.abs(c) < 1e-9 && t > 0.5)));
        break;
      }
      case 'glow': {
        const rings = Math.round(1 - Math.cos(2 * Math.PI * t)); // 0, 1, 2, 1…
        const frame = shifted(view, 0, 0);
        let edge = frame;
        for (let r = 0; r < rings; r++) {
          const next = shifted(edge, 0, 0);
          for (let y = 0; y < edge.height; y++) {
            for (let x = 0; x < edge.width; x++) {
              const p = (y * edge.width + x) * 4;
              if (edge.data[p + 3]! >= 128) continue;
              const near = [
                [1, 0],
                [-1, 0],
                [0, 1],
                [0, -1],
              ].some(([ax, ay]) => {
                const nx = x + ax!;
                const ny = y + ay!;
                return (
                  nx >= 0 &&
                  ny >= 0 &&
                  nx < edge.width &&
                  ny < edge.height &&
                  edge.data[(ny * edge.width + nx) * 4 + 3]! >= 128
                );
              });
              if (near) next.data.set([...light, 255], p);
            }
          }
          edge = next;
        }
        out.push(edge);
        break;
      }
      case 'hover': {
        const lift = 2 + Math.round(Math.max(1, box.h * 0.04) * (1 + wave));
        const frame = blank(view.width, view.height);
        // a shadow on the ground, narrower while the sprite is higher
        const sw = Math.max(2, Math.round(box.w * (0.7 - 0.1 * wave)));
        const sy = Math.min(view.height - 1, box.y + box.h);
        const sx = Math.round(box.x + box.w / 2 - sw / 2);
        for (let x = sx; x < sx + sw; x++)
          // dithered: a shadow, not a line
          if (x >= 0 && x < view.width && (x + sy) % 2 === 0)
            frame.data.set([...dark, 255], (sy * view.width + x) * 4);
        stamp(frame, view, 0, -lift);
        out.push(frame);
        break;
      }
    }
  }
  return out;
}
