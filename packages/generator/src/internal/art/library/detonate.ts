/**
 * A thing that explodes ("a bomb exploding", "a barrel blowing up", issue #39): the thing as drawn for
 * its first frame or two (the second shakes), then a fireball drawn where it stood — a flash with
 * rays, a lobed ball of fire from a white-hot core through yellow and orange to a dark red rim, flying
 * sparks, then the ball cooling and thinning into rising smoke. Drawn on the art grid and scaled up
 * like every sprite frame, in the palette's colours when one is enforced. Before this, "exploding" was
 * listed as not honoured and the thing sat still.
 */
import type { RgbaImage } from '@assetloom/pipeline';
import { gridFor, type Painter, type Rgb, upscale } from '@assetloom/pipeline/pixel';
import { EXPLOSION } from './parts.js';

/** Words that ask a thing to blow up (its own explosion drawing bursts instead: parts.ts). */
const DETONATE =
  /^(explode|explodes|exploding|exploded|detonate|detonates|detonating|blow|blows|blowing|blown|kaboom|explosion)$/;

/** The word of `words` that asks a thing to explode, or null (never for an explosion's own drawing). */
export function detonateWord(words: readonly string[], drawingWords: string): string | null {
  if (EXPLOSION.test(drawingWords)) return null;
  const lower = words.map((w) => w.toLowerCase());
  const word = lower.find((w) => DETONATE.test(w));
  if (!word) return null;
  // "blow"/"blowing" only with "up" ("a bomb blowing up"; "wind blowing" is not an explosion)
  if (/^blow/.test(word) && !lower.includes('up')) return null;
  return word;
}

/** The fire's ramp, hottest first, and the smoke's, lit first (free colours; mapped when enforced). */
const FIRE: readonly Rgb[] = [
  [255, 250, 222],
  [255, 224, 96],
  [250, 160, 48],
  [222, 92, 38],
  [150, 44, 34],
  [84, 30, 36],
];
const SMOKE: readonly Rgb[] = [
  [198, 192, 200],
  [148, 142, 156],
  [102, 96, 112],
  [60, 56, 70],
];

interface Blast {
  /** Where the thing stood (grid cells) and the ball's full radius. */
  cx: number;
  cy: number;
  r: number;
  /** Seeded lobe angles and sizes (the same ball in every row, so rows agree). */
  lobes: ReadonlyArray<{ a: number; d: number; s: number }>;
  sparks: ReadonlyArray<{ a: number; v: number }>;
}

function lcg(seed: number): () => number {
  let s = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** One frame of the blast at `stage` (0 flash … 1 last smoke) on a gw × gh grid. */
function blastFrame(gw: number, gh: number, b: Blast, stage: number, colour: (c: Rgb) => Rgb): Uint8Array {
  const out = new Uint8Array(gw * gh * 4);
  const put = (x: number, y: number, c: Rgb) => {
    if (x < 1 || y < 1 || x >= gw - 1 || y >= gh - 1) return;
    const m = colour(c);
    out.set([m[0], m[1], m[2], 255], (y * gw + x) * 4);
  };
  const { cx, cy, r } = b;
  if (stage < 0.2) {
    // the flash: a white-hot star of uneven spikes (the lobes' angles), yellow then orange at its tips
    const rf = Math.max(2.5, r * (0.5 + stage * 1.5));
    const spikes = b.lobes.slice(1);
    const reach = (a: number) => {
      let k = 0.55;
      for (const l of spikes) {
        const da = Math.abs(Math.atan2(Math.sin(a - l.a), Math.cos(a - l.a)));
        k = Math.max(k, (0.55 + l.s * 1.2) * Math.max(0, 1 - da / 0.42));
      }
      return k * rf;
    };
    for (let y = Math.floor(cy - rf * 1.3); y <= cy + rf * 1.3; y++)
      for (let x = Math.floor(cx - rf * 1.3); x <= cx + rf * 1.3; x++) {
        const dx = x + 0.5 - cx;
        const dy = y + 0.5 - cy;
        const t = Math.hypot(dx, dy) / reach(Math.atan2(dy, dx));
        if (t < 0.45) put(x, y, FIRE[0]!);
        else if (t < 0.75) put(x, y, FIRE[1]!);
        else if (t < 1) put(x, y, FIRE[2]!);
      }
    return out;
  }
  // the ball: it grows to its full size by mid-blast; lobe by lobe (the highest first) it cools into
  // smoke; past 0.75 it is smoke alone, rising, its puffs fewer and smaller
  const grow = Math.min(1, 0.7 + stage * 0.6);
  const cool = Math.min(1, Math.max(0, (stage - 0.2) / 0.55));
  const smokeOnly = stage >= 0.75;
  const thin = smokeOnly ? (stage - 0.75) / 0.25 : 0;
  const rise = smokeOnly ? r * (0.1 + 0.3 * thin) : r * 0.08 * cool;
  const kept = smokeOnly ? Math.max(3, Math.round(b.lobes.length * (1 - 0.5 * thin))) : b.lobes.length;
  const lobes = b.lobes.slice(0, kept).map((l, i) => {
    const x = cx + Math.cos(l.a) * l.d * r * grow;
    const y = cy - rise + Math.sin(l.a) * l.d * r * grow * 0.85;
    // how high the lobe sits (1 top … 0 bottom): the top ones turn to smoke first
    const up = (1 - Math.sin(l.a) * Math.min(1, l.d * 3)) / 2;
    return {
      x,
      y,
      s: l.s * r * grow * (smokeOnly ? 1 - 0.3 * thin : 1),
      smoke: smokeOnly || (i > 0 && up > 1.15 - cool * 1.1),
    };
  });
  const owner = new Int16Array(gw * gh).fill(-1);
  const depth = new Float32Array(gw * gh);
  for (let y = 0; y < gh; y++)
    for (let x = 0; x < gw; x++) {
      let best = 0;
      let who = -1;
      lobes.forEach((l, i) => {
        const d = 1 - Math.hypot(x + 0.5 - l.x, y + 0.5 - l.y) / l.s;
        // smoke lies over the fire (it is in front where they meet)
        const k = d > 0 && l.smoke ? d + 0.15 : d;
        if (k > best) {
          best = k;
          who = i;
        }
      });
      depth[y * gw + x] = best;
      owner[y * gw + x] = who;
    }
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < gw && y < gh && owner[y * gw + x]! >= 0;
  const smokeAt = (x: number, y: number) => inside(x, y) && lobes[owner[y * gw + x]!]!.smoke;
  for (let y = 0; y < gh; y++)
    for (let x = 0; x < gw; x++) {
      if (!inside(x, y)) continue;
      const l = lobes[owner[y * gw + x]!]!;
      const edge = !inside(x - 1, y) || !inside(x + 1, y) || !inside(x, y - 1) || !inside(x, y + 1);
      if (l.smoke) {
        // a puff lit from the upper left, its lower right in shade, a line where it meets the air
        // or the fire
        const rim = edge || [smokeAt(x - 1, y), smokeAt(x + 1, y), smokeAt(x, y + 1)].includes(false);
        const px = x + 0.5 - l.x;
        const py = y + 0.5 - l.y;
        const lit = Math.hypot(px + 0.26 * l.s, py + 0.32 * l.s) < 0.5 * l.s;
        const mid = Math.hypot(px + 0.08 * l.s, py + 0.12 * l.s) < 0.86 * l.s;
        put(x, y, rim ? SMOKE[3]! : lit ? SMOKE[0]! : mid ? SMOKE[1]! : SMOKE[2]!);
        continue;
      }
      if (edge) {
        put(x, y, FIRE[5]!);
        continue;
      }
      // heat: deep in the ball and near its centre is hottest; it cools as the blast goes on
      const t = Math.hypot(x + 0.5 - cx, y + 0.5 - (cy - rise)) / (r * grow);
      const h = 0.55 * (1 - t) + 0.45 * Math.min(1, depth[y * gw + x]!) - cool * 0.28;
      put(
        x,
        y,
        h > 0.62 ? FIRE[0]! : h > 0.48 ? FIRE[1]! : h > 0.3 ? FIRE[2]! : h > 0.12 ? FIRE[3]! : FIRE[4]!,
      );
    }
  // embers fly out while it is hot: 2 × 2 (a lone pixel reads as a stray one), only where the frame
  // is large enough to hold them apart from the ball
  if (!smokeOnly && cool < 0.6 && gw >= 40)
    for (const s of b.sparks.slice(0, 5)) {
      const d = r * (0.85 + s.v * 0.2) * (0.75 + stage * 0.5);
      const x = Math.round(cx + Math.cos(s.a) * d);
      const y = Math.round(cy + Math.sin(s.a) * d * 0.9);
      if (inside(x, y) || inside(x + 1, y + 1)) continue;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const)
        put(x + dx, y + dy, dx + dy === 0 ? FIRE[1]! : FIRE[3]!);
    }
  return out;
}

/**
 * Replaces each row's frames after the first (two from 6 frames: the second shaken a pixel) with the
 * blast, centred where the thing stood in that row's first frame (an explosion's own drawing: every
 * frame, `held` 0). `frames` are the thing's sheet at the
 * output size, rows after rows; returns the new frames.
 */
export function detonate(
  frames: readonly RgbaImage[],
  job: {
    width: number;
    height: number;
    gridHint: number;
    framesPerDirection: number;
    seed: number;
    painter: Painter;
    enforced: boolean;
    /** Frames of the thing before it goes (default: one, two from 6 frames; 0 for an explosion). */
    held?: number;
  },
): RgbaImage[] {
  const fpd = job.framesPerDirection;
  if (fpd < 2) return [...frames];
  const { gw, gh, factor } = gridFor(job.width, job.height, job.gridHint);
  const ox = Math.floor((job.width - gw * factor) / 2);
  const oy = Math.floor((job.height - gh * factor) / 2);
  const held = job.held ?? (fpd >= 6 ? 2 : 1);
  const rng = lcg(job.seed);
  const count = 6 + Math.floor(rng() * 2);
  const lobes = Array.from({ length: count }, (_, i) => ({
    a: (i / count) * Math.PI * 2 + rng() * 0.6,
    d: 0.42 + rng() * 0.16,
    s: 0.36 + rng() * 0.14,
  }));
  // the middle lobe the others heap round
  lobes.unshift({ a: 0, d: 0, s: 0.62 });
  const sparks = Array.from({ length: 7 }, () => ({ a: rng() * Math.PI * 2, v: rng() }));
  const cache = new Map<string, RgbaImage>();
  const colour = (c: Rgb): Rgb => (job.enforced ? job.painter.choose(c) : c);
  const out: RgbaImage[] = [];
  for (let row = 0; row * fpd < frames.length; row++) {
    const first = frames[row * fpd]!;
    const box = gridBox(first, gw, gh, factor, ox, oy);
    // the ball as large as the frame allows where the thing stood, lifted off the ground when the
    // thing stands low (a blast rises; sparks stay inside the frame)
    const want = Math.min(gw, gh) * 0.46;
    const bx = box ? (box[0] + box[2] + 1) / 2 : gw / 2;
    const by = box ? (box[1] + box[3] + 1) / 2 : gh / 2;
    const cx = Math.min(Math.max(bx, want * 1.02 + 1.5), gw - want * 1.02 - 1.5);
    const cy = Math.min(Math.max(by, want * 1.02 + 1.5), gh - want * 1.02 - 1.5);
    const room = Math.min(cx, gw - cx, cy, gh - cy) - 1.5;
    const r = Math.max(3, Math.min(room / 1.02, want));
    const blast: Blast = { cx, cy, r, lobes, sparks };
    for (let f = 0; f < fpd; f++) {
      if (f < held) {
        out.push(f === 0 ? first : shake(first, factor));
        continue;
      }
      const m = fpd - held;
      const stage = m === 1 ? 0.45 : 0.06 + (0.92 * (f - held)) / (m - 1);
      const key = `${cx},${cy},${r},${stage}`;
      let frame = cache.get(key);
      if (!frame) {
        frame = upscale(blastFrame(gw, gh, blast, stage, colour), gw, gh, factor, job.width, job.height);
        cache.set(key, frame);
      }
      out.push({ width: frame.width, height: frame.height, data: new Uint8Array(frame.data) });
    }
  }
  return out;
}

/** The opaque box of an output frame in grid cells, or null. */
function gridBox(
  f: RgbaImage,
  gw: number,
  gh: number,
  factor: number,
  ox: number,
  oy: number,
): [number, number, number, number] | null {
  let x0 = gw;
  let y0 = gh;
  let x1 = -1;
  let y1 = -1;
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      const x = ox + gx * factor;
      const y = oy + gy * factor;
      if (f.data[(y * f.width + x) * 4 + 3]! < 128) continue;
      x0 = Math.min(x0, gx);
      x1 = Math.max(x1, gx);
      y0 = Math.min(y0, gy);
      y1 = Math.max(y1, gy);
    }
  return x1 < 0 ? null : [x0, y0, x1, y1];
}

/** The frame moved one art pixel right (the thing shakes before it goes). */
function shake(f: RgbaImage, factor: number): RgbaImage {
  const out = new Uint8Array(f.data.length);
  const w = f.width;
  for (let y = 0; y < f.height; y++)
    out.set(f.data.subarray(y * w * 4, (y * w + w - factor) * 4), (y * w + factor) * 4);
  return { width: w, height: f.height, data: out };
}
