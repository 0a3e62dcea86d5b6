/**
 * Motions of things that do a verb (issue #39), made on the finished pixels of one still frame at the
 * art grid (after the look), so the body stays exactly the same from frame to frame and only the part
 * that does the verb changes: a lid or a door that swings open onto a dark inside, star-shaped glints
 * that appear and fade, a flag's cloth rippling as a travelling wave while its pole stays, bubbles
 * rising in a liquid, a halo that brightens and dims, and a still prop's idle (a 1-pixel squash with
 * held frames) — never a re-rendered, resampled pose, whose frames differ by scattered pixels.
 * Every colour comes from the look's own (a project's palette stays exact).
 */
import type { Drawing } from '@assetloom/drawings';
import type { RgbaImage } from '@assetloom/pipeline';
import { oklab, type Rgb } from '@assetloom/pipeline/pixel';
import type { LookColours } from '../../look/index.js';
import { craftFaults } from '../../look/passes.js';

/** The motions drawn here, from one still frame. */
export type PropMotion =
  | 'still'
  | 'settle'
  | 'sparkle'
  | 'open'
  | 'close'
  | 'wave'
  | 'bubble'
  | 'glow'
  | 'pulse'
  | 'bounce';
export const PROP_MOTIONS: ReadonlySet<string> = new Set<PropMotion>([
  'still',
  'settle',
  'sparkle',
  'open',
  'close',
  'wave',
  'bubble',
  'glow',
  'pulse',
  'bounce',
]);

/** Things that open with a lid hinged at the back, and things that swing open on a side hinge. */
const LIDDED = /\b(chest|treasure|coffer|trunk|casket|coffin)\b/;
const SWINGING = /\b(door|doors|doorway|gate|portal|hatch|shutter|wardrobe|cabinet|locker|cupboard|closet)\b/;
/** Cloth that waves on a pole or a line. */
const CLOTH = /\b(flag|flags|banner|pennant|standard|ensign|streamer|windsock|bunting|sail)\b/;
/** Hearts: they beat. */
const HEARTS = /\bhearts?\b|心/;
/** Vessels with a liquid in them. */
const VESSELS =
  /\b(potion|flask|bottle|vial|cauldron|beaker|jar|kettle|pot|cup|mug|tankard|goblet|bowl|tube|elixir|brew|poison|philter)\b/;
/** Things that bounce: balls (a ball's animation squashes on the ground and stretches in the air). */
const BOUNCY =
  /\b(ball|balls|football|soccer|basketball|volleyball|baseball|softball|beachball|tennis|marble|dodgeball|球)\b|球/;
const LIVING = (d: Drawing) => d.person || /^(animal|person|face)/.test(d.group);

/** The verbs things do, by the word the prompt says. */
const VERBS: ReadonlyArray<[RegExp, PropMotion]> = [
  [/^(open|opens|opening|opened|unlocking|unlock|unlocks)$/, 'open'],
  // closing is the opening played backwards: the same box, its lid or door coming down (decision 0081)
  [/^(close|closes|closing|shut|shuts|shutting|slam|slams|slamming|关上|合上)$/, 'close'],
  [
    /^(sparkle|sparkles|sparkling|sparkly|glint|glints|glinting|glitter|glitters|glittering|twinkle|twinkles|twinkling|shimmer|shimmers|shimmering|shine|shines|shining|shiny|gleam|gleams|gleaming|闪|闪闪|闪烁|闪光|闪亮)$/,
    'sparkle',
  ],
  [
    /^(wave|waves|waving|flutter|flutters|fluttering|flap|flaps|flapping|billow|billows|billowing|ripple|ripples|rippling|飘|飘扬|飘动)$/,
    'wave',
  ],
  [/^(bubble|bubbles|bubbling|boil|boils|boiling|brewing|fizz|fizzing|fizzes|冒泡|沸腾)$/, 'bubble'],
  [/^(glow|glows|glowing|发光|闪耀)$/, 'glow'],
  // a heart or a star pulsing swells and brightens; it has no halo (a glow has: decision 0081)
  // (a heart beating is its pulse: `beat` pulses a heart only, wings beat as they fly)
  [
    /^(pulse|pulses|pulsing|pulsate|pulsates|pulsating|throb|throbs|throbbing|beat|beats|beating|搏动|跳动)$/,
    'pulse',
  ],
  [/^(bounce|bounces|bouncing|bouncy|bounced|弹跳|蹦|弹)$/, 'bounce'],
];

/**
 * The verb of a thing the prompt's words ask for and the drawing can do, with the word that asked
 * (a door opens, a chest's lid lifts, a flag waves, a potion bubbles, anything still sparkles or
 * glows); null for a living subject or a verb the drawing cannot do.
 */
export function objectVerb(
  words: readonly string[],
  d: Drawing,
): { motion: PropMotion; word: string } | null {
  if (LIVING(d)) return null;
  return thingVerb(words, `${d.label} ${d.heads.join(' ')} ${d.words.join(' ')}`);
}

/** {@link objectVerb} for a thing named by `of` (its words: a rig object's noun and class). */
export function thingVerb(words: readonly string[], of: string): { motion: PropMotion; word: string } | null {
  for (const word of words) {
    const w = word.toLowerCase();
    for (const [re, motion] of VERBS) {
      if (!re.test(w)) continue;
      if ((motion === 'open' || motion === 'close') && !LIDDED.test(of) && !SWINGING.test(of)) continue;
      if (motion === 'wave' && !CLOTH.test(of)) continue;
      if (motion === 'bubble' && !VESSELS.test(of)) continue;
      if (motion === 'bounce' && !BOUNCY.test(of)) continue;
      if (motion === 'pulse' && /^(beat|跳动)/.test(w) && !HEARTS.test(of)) continue;
      return { motion, word };
    }
  }
  return null;
}

/** How a thing opens, by its words: a lid (hinged at the back) or a leaf on a side hinge. */
const opensBy = (of: string): 'lid' | 'swing' => (SWINGING.test(of) ? 'swing' : 'lid');

/**
 * Drawings drawn open: where the lid meets the back (`hinge`) and where the front of the body begins
 * below the contents (`mouth`), as shares of the drawing's opaque height. Their opening starts with
 * the lid folded down over the contents and ends as drawn, the contents showing.
 */
const DRAWN_OPEN: Readonly<Record<string, { hinge: number; mouth: number }>> = {
  'n/treasure-chest': { hinge: 0.33, mouth: 0.56 },
};

export interface PropContext {
  colours: LookColours;
  /** The project's palette is enforced: only the look's own colours may be drawn. */
  enforced: boolean;
  /** The thing: its drawing's id (or none), and its words (a door swings, a chest's lid lifts). */
  id?: string;
  of: string;
}

type Px = RgbaImage;
const at = (img: Px, x: number, y: number) => (y * img.width + x) * 4;
/** The four neighbours of a pixel. */
const N4 = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;
const opaqueAt = (img: Px, x: number, y: number) =>
  x >= 0 && y >= 0 && x < img.width && y < img.height && img.data[at(img, x, y) + 3]! > 0;
const rgbAt = (img: Px, x: number, y: number): Rgb => {
  const i = at(img, x, y);
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
};
function put(img: Px, x: number, y: number, c: Rgb): void {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  const i = at(img, x, y);
  img.data[i] = c[0];
  img.data[i + 1] = c[1];
  img.data[i + 2] = c[2];
  img.data[i + 3] = 255;
}
const clear = (img: Px, x: number, y: number) => {
  img.data[at(img, x, y) + 3] = 0;
};
const copyOf = (img: Px): Px => ({ width: img.width, height: img.height, data: new Uint8Array(img.data) });
/** The picture moved `dy` rows down (up when negative), whole. */
function moved(img: Px, dy: number): Px {
  const out = blank(img);
  const row = img.width * 4;
  for (let y = 0; y < img.height; y++) {
    const to = y + dy;
    if (to >= 0 && to < img.height) out.data.set(img.data.subarray(y * row, (y + 1) * row), to * row);
  }
  return out;
}
const blank = (img: Px): Px => ({
  width: img.width,
  height: img.height,
  data: new Uint8Array(img.data.length),
});
const lightness = (c: Rgb) => oklab(c)[0];
/** An opaque pixel with a transparent 4-neighbour: the outline. */
const edgeAt = (img: Px, x: number, y: number) =>
  !opaqueAt(img, x - 1, y) ||
  !opaqueAt(img, x + 1, y) ||
  !opaqueAt(img, x, y - 1) ||
  !opaqueAt(img, x, y + 1);

function boxOf(img: Px): { x0: number; y0: number; x1: number; y1: number } | null {
  let [x0, y0, x1, y1] = [img.width, img.height, -1, -1];
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (opaqueAt(img, x, y)) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

/** The brightest colour the look has, a glint's (whiter still where no palette is enforced). */
function glintColour(ctx: PropContext, img: Px, towards = 0.85): Rgb {
  let best: Rgb = [255, 255, 255];
  let l = -1;
  const pool = ctx.colours.colours.length ? ctx.colours.colours : frameColours(img);
  for (const c of pool) {
    const v = lightness(c);
    if (v > l) {
      l = v;
      best = c;
    }
  }
  if (ctx.enforced) return best;
  const whiter = (v: number, to: number) => Math.round(v + (to - v) * towards);
  return [whiter(best[0], 255), whiter(best[1], 255), whiter(best[2], 240)];
}

function frameColours(img: Px): Rgb[] {
  const seen = new Map<number, Rgb>();
  for (let i = 0; i < img.data.length; i += 4)
    if (img.data[i + 3])
      seen.set((img.data[i]! << 16) | (img.data[i + 1]! << 8) | img.data[i + 2]!, [
        img.data[i]!,
        img.data[i + 1]!,
        img.data[i + 2]!,
      ]);
  return [...seen.values()];
}

/**
 * Frame `f` of `n` of a thing doing `motion`, made from its still frame `base` (at the art grid, the
 * look applied). Frame 0 of a cycle is the still frame or close to it; the body's pixels never move
 * but where the verb moves them.
 */
export function propFrame(base: Px, motion: PropMotion, f: number, n: number, ctx: PropContext): Px {
  if (n <= 1) return copyOf(base);
  switch (motion) {
    case 'still':
      // a still thing's sprite (nothing asked to move): every frame is its one picture, so a sheet
      // played as an idle holds still (a settle by a pixel read as a wobble: issue #39, decision 0115)
      return copyOf(base);
    case 'settle':
      return settle(base, f, n);
    case 'sparkle':
      return sparkle(base, f, n, ctx);
    case 'open':
      return opensBy(ctx.of) === 'swing' ? swing(base, f, n, ctx) : lid(base, f, n, ctx);
    case 'close':
      return propFrame(base, 'open', n - 1 - f, n, ctx);
    case 'wave':
      return wave(base, f, n, ctx);
    case 'bubble':
      return bubble(base, f, n, ctx);
    case 'glow':
      return glow(base, f, n, ctx);
    case 'pulse':
      return pulse(base, f, n, ctx);
    case 'bounce':
      return bounce(base, f, n, ctx);
  }
}

/**
 * A ball bouncing (decision 0105): frame 0 is the ball on the ground squashed (wider, lower), then it
 * rises stretched along its flight, is round at the top of the arc, and falls stretched again; its
 * shadow on the ground line is widest when it lands and shrinks as it rises. The ball is its still
 * frame resampled (inside) and outlined anew, a little smaller than still, so the arc fits the cell.
 */
function bounce(base: Px, f: number, n: number, ctx: PropContext): Px {
  const box = boxOf(base);
  if (!box) return copyOf(base);
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  const ground = box.y1;
  const p = f / n;
  const up = Math.sin(Math.PI * p);
  const speed = Math.abs(Math.cos(Math.PI * p));
  // on the ground (frame 0) it squashes; in the air it stretches along its speed
  const sy = f === 0 ? 0.78 : 1 + 0.14 * speed;
  const sx = f === 0 ? 1.2 : 1 / (1 + 0.1 * speed);
  const k = 0.66;
  const shadowRows = base.height >= 48 ? 2 : 1;
  const h = bh * k * sy;
  // the arc's height: what the cell leaves above the stretched ball, a pixel of margin
  const travel = Math.max(0, ground - shadowRows - 1.5 - h);
  const bottom = ground - shadowRows + 0.5 - up * travel;
  const cxd = (box.x0 + box.x1 + 1) / 2;
  const cyd = bottom - h / 2;
  const cxs = cxd;
  const cys = (box.y0 + box.y1 + 1) / 2;
  const fx = k * sx;
  const fy = k * sy;
  const out = blank(base);
  const w = base.width;
  // the shadow: an ellipse a pixel or two high on the ground line, smaller the higher the ball
  const shade = ctx.colours.outline(commonColour(base));
  const half = Math.max(1, Math.round((bw * k * (1 - 0.55 * up)) / 2));
  for (let r = 0; r < shadowRows; r++)
    for (
      let x = Math.round(cxd - half) + (r === shadowRows - 1 && shadowRows > 1 ? 1 : 0);
      x < Math.round(cxd + half) - (r === shadowRows - 1 && shadowRows > 1 ? 1 : 0);
      x++
    )
      if (x >= 0 && x < w) put(out, x, ground - r, shade);
  const inner = new Uint8Array(w * base.height);
  const src = (x: number, y: number): [number, number] => [
    Math.floor(cxs + (x + 0.5 - cxd) / fx),
    Math.floor(cys + (y + 0.5 - cyd) / fy),
  ];
  for (let y = 0; y < ground - shadowRows + 1; y++)
    for (let x = 0; x < w; x++) {
      const [qx, qy] = src(x, y);
      if (!opaqueAt(base, qx, qy) || edgeAt(base, qx, qy)) continue;
      inner[y * w + x] = 1;
      put(out, x, y, rgbAt(base, qx, qy));
    }
  // the outline round the resampled inside, in the drawing's outline colour nearest it
  outlineResampled(base, out, inner, src, ctx, ground - shadowRows + 1);
  return out;
}

/** How much bigger a pulse is at its height than at rest (a share of its size: a beat you can see). */
const PULSE_SWELL = 0.16;
/** A pulse's squash and stretch between rest and peak: a share of its size, up one way, down the other. */
const PULSE_STRETCH = 0.07;

/**
 * A pulse swells and eases back: the body grows about its middle by up to {@link PULSE_SWELL} of its
 * size (an eased sine, frame 0 at rest), its inside resampled and its outline drawn anew a pixel out
 * round it (never a doubled outline), a step lighter at its height. The frame's edge bounds the swell.
 */
function pulse(base: Px, f: number, n: number, ctx: PropContext): Px {
  const box = boxOf(base);
  if (!box) return copyOf(base);
  const i = (1 - Math.cos((2 * Math.PI * f) / n)) / 2;
  if (i <= 0) return copyOf(base);
  const cx = (box.x0 + box.x1 + 1) / 2;
  const cy = (box.y0 + box.y1 + 1) / 2;
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  // the largest swell that keeps the outline a pixel off every edge
  const room = Math.min(
    (2 * Math.min(cx - 1, base.width - 1 - cx)) / bw,
    (2 * Math.min(cy - 1, base.height - 1 - cy)) / bh,
  );
  const most = 1 + Math.max(0, room - 1);
  const s = 1 + Math.min(PULSE_SWELL, most - 1) * i;
  if (s <= 1.001) return copyOf(base);
  // squash and stretch between rest and peak (decision 0141): rising it stretches up and narrows,
  // falling back it squashes wide and low, so the in-between frames are pictures of their own
  const q = PULSE_STRETCH * Math.sin((2 * Math.PI * f) / n);
  const sx = Math.min(most, s * (1 - q));
  const sy = Math.min(most, s * (1 + q));
  const out = blank(base);
  const w = base.width;
  const inner = new Uint8Array(w * base.height);
  const src = (x: number, y: number): [number, number] => [
    Math.floor(cx + (x + 0.5 - cx) / sx),
    Math.floor(cy + (y + 0.5 - cy) / sy),
  ];
  const lit = i >= 0.85;
  for (let y = 0; y < base.height; y++)
    for (let x = 0; x < w; x++) {
      const [sx, sy] = src(x, y);
      if (!opaqueAt(base, sx, sy) || edgeAt(base, sx, sy)) continue;
      inner[y * w + x] = 1;
      const c = rgbAt(base, sx, sy);
      put(out, x, y, lit ? ctx.colours.step(c, 1) : c);
    }
  // the outline: round the resampled inside, in the colour of the drawing's outline nearest it
  outlineResampled(base, out, inner, src, ctx, base.height);
  return out;
}

/**
 * Outlines a resampled inside (`inner`, 1 where `out` holds a pixel of it) in rows 0 to `rows` − 1:
 * each pixel beside it takes the colour of the drawing's outline nearest its source (`src`), else
 * the look's outline of its inside neighbour.
 */
function outlineResampled(
  base: Px,
  out: Px,
  inner: Uint8Array,
  src: (x: number, y: number) => readonly [number, number],
  ctx: PropContext,
  rows: number,
): void {
  const w = out.width;
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < w; x++) {
      if (inner[y * w + x]) continue;
      const by = N4.find(([dx, dy]) => {
        const nx = x + dx;
        const ny = y + dy;
        return nx >= 0 && ny >= 0 && nx < w && ny < base.height && inner[ny * w + nx];
      });
      if (!by) continue;
      const [sx, sy] = src(x, y);
      let c: Rgb | null = null;
      for (let r = 0; r <= 2 && !c; r++)
        for (let dy = -r; dy <= r && !c; dy++)
          for (let dx = -r; dx <= r && !c; dx++)
            if (opaqueAt(base, sx + dx, sy + dy) && edgeAt(base, sx + dx, sy + dy))
              c = rgbAt(base, sx + dx, sy + dy);
      put(out, x, y, c ?? ctx.colours.outline(rgbAt(out, x + by[0], y + by[1])));
    }
}

/**
 * A still prop's idle: it rests, then settles by a pixel (two at 64 px and up) for a frame or two and
 * rests again — the row it loses is the one most like its neighbour, so no band or hoop goes.
 */
function settle(base: Px, f: number, n: number): Px {
  const box = boxOf(base);
  if (!box) return copyOf(base);
  // 8 frames: rest ×3, down ×2, rest ×3; 4 frames: rest, rest, down, rest; 2: rest, down
  const down = n <= 2 ? f === 1 : n <= 4 ? f === 2 : f >= Math.floor(n / 2) - 1 && f <= Math.floor(n / 2);
  if (!down) return copyOf(base);
  const h = box.y1 - box.y0 + 1;
  // a long low thing (a car, a sled) sinks a pixel whole on its springs: its middle third runs
  // through its wheels, and a lost row there made them pointed (decision 0095); resting in every
  // frame, its sheet did not move and failed the quality check's frames_distinct. Longer than 1.6 times
  // its height: x/race-car, whose rear wing stands up (1.73), lost a row through its wheels
  if (box.x1 - box.x0 + 1 > 1.6 * h) return moved(base, box.y1 + 1 < base.height ? 1 : -1);
  const d = base.height >= 56 ? 2 : 1;
  // the rows of the middle third, the one most like the row above it first
  const rows: Array<{ y: number; diff: number }> = [];
  for (let y = box.y0 + Math.floor(h / 3); y <= box.y0 + Math.floor((2 * h) / 3); y++) {
    let diff = 0;
    for (let x = box.x0; x <= box.x1; x++) {
      const i = at(base, x, y);
      const j = at(base, x, y - d);
      for (let k = 0; k < 4; k++) diff += base.data[i + k] !== base.data[j + k] ? 1 : 0;
    }
    rows.push({ y, diff });
  }
  rows.sort((a, b) => a.diff - b.diff || Math.abs(a.y - (box.y0 + h / 2)) - Math.abs(b.y - (box.y0 + h / 2)));
  // the first that leaves no orphan pixel or detached dot: a thin arm or a stick cut at the lost row
  // left one behind (a snowman's arm, once every still thing settled instead of bobbing: issue #39)
  const faults = (p: Px) => {
    const c = craftFaults(p);
    return c.orphans + c.detached;
  };
  const had = faults(base);
  let first: Px | null = null;
  for (const { y } of rows) {
    const out = settledAt(base, y, d);
    first ??= out;
    if (faults(out) <= had) return out;
  }
  return first ?? copyOf(base);
}

/** The picture with the rows above `pick` moved down by d (over the d rows at pick … pick − d + 1). */
function settledAt(base: Px, pick: number, d: number): Px {
  const out = copyOf(base);
  for (let y = pick; y >= 0; y--)
    for (let x = 0; x < base.width; x++) {
      const src = y - d;
      const o = at(out, x, y);
      if (src < 0) {
        out.data[o + 3] = 0;
        continue;
      }
      const i = at(base, x, src);
      out.data.set(base.data.subarray(i, i + 4), o);
    }
  return out;
}

/** Where glints shine: the lightest pixels of the body, spread apart, the one nearest the light first. */
function glintSpots(base: Px, count: number): Array<[number, number]> {
  const box = boxOf(base);
  if (!box) return [];
  const cands: Array<{ x: number; y: number; l: number }> = [];
  for (let y = box.y0; y <= box.y1; y++)
    for (let x = box.x0; x <= box.x1; x++)
      if (opaqueAt(base, x, y) && !edgeAt(base, x, y)) cands.push({ x, y, l: lightness(rgbAt(base, x, y)) });
  if (!cands.length) return [];
  const size = Math.max(box.x1 - box.x0, box.y1 - box.y0) + 1;
  // on the lit side but not on its lightest colour (a white glint on white is no glint): the upper
  // fifth of the body's lightness counts no more than its edge, and the upper left gets a little credit
  const ls = cands.map((c) => c.l).sort((a, b) => a - b);
  const q80 = ls[Math.floor(ls.length * 0.8)]!;
  const score = (c: { x: number; y: number; l: number }) =>
    Math.min(c.l, q80) - (c.l > q80 ? 0.5 * (c.l - q80) : 0) - (0.08 * (c.x - box.x0 + c.y - box.y0)) / size;
  cands.sort((a, b) => score(b) - score(a) || a.y - b.y || a.x - b.x);
  const spots: Array<[number, number]> = [];
  for (const gap of [0.4, 0.28, 0.18, 0])
    for (const c of cands) {
      if (spots.length >= count) return spots;
      if (spots.some(([x, y]) => Math.hypot(x - c.x, y - c.y) < gap * size || (x === c.x && y === c.y)))
        continue;
      spots.push([c.x, c.y]);
    }
  return spots;
}

/**
 * A four-pointed glint at (x, y), in the look's lightest colour (lighter than anything of the body):
 * 1 a dot (a plus on large sprites), 2 a cross, 3 a star — long arms and short diagonals, 7 px across
 * at 32 px, 11 at 64 — never reaching more than two pixels past the body's box.
 */
function drawGlint(
  img: Px,
  x: number,
  y: number,
  stage: number,
  hot: Rgb,
  big: boolean,
  box: { x0: number; y0: number; x1: number; y1: number },
): void {
  if (stage <= 0) return;
  const dot = (px: number, py: number) => {
    if (px >= box.x0 - 2 && px <= box.x1 + 2 && py >= box.y0 - 2 && py <= box.y1 + 2) put(img, px, py, hot);
  };
  dot(x, y);
  const arm = stage === 1 ? (big ? 1 : 0) : stage === 2 ? (big ? 3 : 2) : big ? 5 : 3;
  for (let k = 1; k <= arm; k++) {
    dot(x + k, y);
    dot(x - k, y);
    dot(x, y + k);
    dot(x, y - k);
  }
  if (stage === 3)
    for (let k = 1; k <= (big ? 2 : 1); k++) {
      dot(x + k, y + k);
      dot(x - k, y - k);
      dot(x + k, y - k);
      dot(x - k, y + k);
    }
}

/** Glints that light up at the highlights one after another, grow to a star and fade; the body stays. */
function sparkle(base: Px, f: number, n: number, ctx: PropContext): Px {
  const out = copyOf(base);
  const count = n <= 4 ? 2 : 3;
  const spots = glintSpots(base, count);
  const hot = glintColour(ctx, base);
  const big = base.height >= 56;
  const box = boxOf(base);
  if (!box) return out;
  // a glint's life: dot, cross, star, cross, dot (shorter in a short cycle), then dark
  const life = n >= 8 ? [1, 2, 3, 2, 1] : n >= 6 ? [1, 3, 2, 1] : n >= 4 ? [2, 3, 1] : [3];
  spots.forEach(([x, y], k) => {
    const born = Math.round((k * n) / spots.length);
    const age = (f - born + n) % n;
    const stage = life[age] ?? 0;
    drawGlint(out, x, y, stage, hot, big, box);
  });
  return out;
}

/**
 * The dark of an inside (a box's, a doorway's): the outline's colour of the body's commonest colour,
 * darker than anything lit in it.
 */
function insideColour(base: Px, ctx: PropContext): Rgb {
  return ctx.colours.outline(commonColour(base));
}

/** The body's commonest colour (inside its outline). */
function commonColour(base: Px): Rgb {
  return commonestColour(base, 0, base.height) ?? [90, 60, 40];
}

/** The commonest colour of rows y0 to y1 − 1, outline pixels left out (the first of equals), or null. */
function commonestColour(base: Px, y0: number, y1: number): Rgb | null {
  const counts = new Map<number, { c: Rgb; n: number }>();
  for (let y = y0; y < y1; y++)
    for (let x = 0; x < base.width; x++) {
      if (!opaqueAt(base, x, y) || edgeAt(base, x, y)) continue;
      const c = rgbAt(base, x, y);
      const key = (c[0] << 16) | (c[1] << 8) | c[2];
      const e = counts.get(key) ?? { c, n: 0 };
      e.n++;
      counts.set(key, e);
    }
  let best: { c: Rgb; n: number } | null = null;
  for (const e of counts.values()) if (!best || e.n > best.n) best = e;
  return best?.c ?? null;
}

/** The opening's progress at frame f: closed at 0, open as drawn from the last frame but one (held). */
const openness = (f: number, n: number) => {
  const t = Math.min(1, f / Math.max(1, n - 2));
  return t * t * (3 - 2 * t);
};

/**
 * A lid's progress at frame f: closed at 0, open as drawn at the last frame, a step further every
 * frame between (4 frames: shut, ajar, half up, open) — one lid turning, never two frames alike.
 */
const lidOpenness = (f: number, n: number) => {
  const t = Math.min(1, f / Math.max(1, n - 1));
  return t * t * (3 - 2 * t);
};

/**
 * A lid hinged at the back lifts: it turns about its hinge (its height foreshortens, then it folds
 * back above, its underside showing a step darker) and the dark inside shows below it. A drawing drawn
 * open starts with its lid folded down over its contents and ends as drawn.
 */
function lid(base: Px, f: number, n: number, ctx: PropContext): Px {
  const box = boxOf(base);
  if (!box) return copyOf(base);
  const h = box.y1 - box.y0 + 1;
  const drawnOpen = ctx.id ? DRAWN_OPEN[ctx.id] : undefined;
  const t = lidOpenness(f, n);
  const out = blank(base);
  if (drawnOpen) {
    const hinge = box.y0 + Math.round(drawnOpen.hinge * h);
    const mouth = box.y0 + Math.round(drawnOpen.mouth * h);
    const lidH = hinge - box.y0;
    // its projected height about the hinge: −k (folded down over the mouth) … 1 (as drawn)
    const k = (mouth - hinge + 1) / Math.max(1, lidH);
    const s = -k + (1 + k) * t;
    if (t >= 1) return withoutLoose(base, mouth);
    // the body below the hinge; the contents dimmer while the lid is low
    const dim = s < 0.35 ? 2 : s < 0.75 ? 1 : 0;
    for (let y = hinge; y < base.height; y++)
      for (let x = 0; x < base.width; x++) {
        if (!opaqueAt(base, x, y)) continue;
        let c = rgbAt(base, x, y);
        if (y < mouth && !edgeAt(base, x, y)) for (let j = 0; j < dim; j++) c = ctx.colours.step(c, -1);
        put(out, x, y, c);
      }
    drawLid(base, out, box.y0, hinge, s, ctx);
    if (s <= 0)
      cleanLid(
        out,
        hinge,
        hinge + Math.max(1, Math.round(-s * lidH)),
        lidWood(base, box.y0, hinge),
        ctx,
        bands(base, mouth),
      );
    return withoutLoose(out, mouth, s < 0.35);
  }
  return hingedLid(base, box, t, ctx);
}

/** How far a shut lid turns open (105°: past upright, tipped back behind the box). */
const LID_OPEN = (105 * Math.PI) / 180;
/** A lid's depth (front to back) as a share of its front's height: the chest's top is deeper than its lid is tall. */
const LID_DEPTH = 1.4;

/**
 * A lid drawn shut turns about its hinge on the box's back top edge, seen from the front: at angle θ
 * its inside (bare planks, the lid's wood two steps darker, its rim a step lighter at the ends) rises
 * from the hinge row D·sin θ rows, and over it its front (bands and lock, as drawn) foreshortened to
 * H·cos θ rows until it passes upright, then hidden behind the inside (its lip lit along the top).
 * So at every frame the lid is a solid standing on the box's top edge — never a 1-px line (its front
 * edge-on at mid-swing stands on its inside), never apart from the box. What the box holds is heaped
 * above its rim in front of the lid's inside (gold in a treasure chest, else the dark of the inside).
 */
function hingedLid(
  base: Px,
  box: { x0: number; y0: number; x1: number; y1: number },
  t: number,
  ctx: PropContext,
): Px {
  const out = blank(base);
  const h = box.y1 - box.y0 + 1;
  const rim = box.y0 + Math.max(2, Math.round(0.36 * h));
  const lidH = rim - box.y0;
  const theta = t * LID_OPEN;
  for (let y = rim; y < base.height; y++)
    for (let x = 0; x < base.width; x++) if (opaqueAt(base, x, y)) put(out, x, y, rgbAt(base, x, y));
  if (t <= 0) {
    for (let y = box.y0; y < rim; y++)
      for (let x = 0; x < base.width; x++) if (opaqueAt(base, x, y)) put(out, x, y, rgbAt(base, x, y));
    return out;
  }
  // the lid's span: its widest row (its lip, on the hinge when it turns back)
  let [x0, x1] = [base.width, -1];
  for (let y = box.y0; y < rim; y++)
    for (let x = 0; x < base.width; x++)
      if (opaqueAt(base, x, y)) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
      }
  const wood = lidWood(base, box.y0, rim) ?? commonColour(base);
  const inside = ctx.colours.step(ctx.colours.step(wood, -1), -1);
  const insideRows = Math.max(1, Math.round(LID_DEPTH * lidH * Math.sin(theta)));
  const frontRows = theta < Math.PI / 2 ? Math.round(lidH * Math.cos(theta)) : 0;
  // the lid's inside: planks from the hinge up, a seam every third row on a big lid, its ends the rim
  // set in from the box's sides (the hinge is on the box's back edge, further from the eye than its
  // front): drawn as wide as the box, the open lid continued the box's sides straight up and the box
  // seemed to grow taller as it opened (the blind review after 1130g, decision 0132); the box's top
  // corners show at the rim in every frame
  const back = Math.max(1, Math.round((x1 - x0 + 1) * 0.04));
  for (let r = 0; r < insideRows; r++) {
    const y = rim - 1 - r;
    const far = r === insideRows - 1;
    // tipped back past upright, its far third is further from the eye: a pixel narrower each side
    const inset =
      back + (theta > Math.PI / 2 && r >= insideRows - Math.round(insideRows / 3) && insideRows >= 6 ? 1 : 0);
    const [a0, a1] = [x0 + inset, x1 - inset];
    for (let x = a0; x <= a1; x++) {
      const end = x === a0 || x === a1;
      const lip = far && frontRows === 0;
      let c = end
        ? ctx.colours.outline(wood)
        : x === a0 + 1 || x === a1 - 1
          ? ctx.colours.step(inside, 1)
          : inside;
      if (!end && !lip && insideRows >= 6 && r > 0 && r % 3 === 0) c = ctx.colours.step(inside, -1);
      // turned past upright, its lip (the front's bottom edge) is the top: lit, outlined above
      if (lip) c = end ? ctx.colours.outline(wood) : ctx.colours.step(wood, 1);
      put(out, x, y, c);
    }
    if (far && frontRows === 0) for (let x = a0; x <= a1; x++) put(out, x, y - 1, ctx.colours.outline(wood));
  }
  // what the box holds, heaped above its rim in front of the lid's inside (dim while the lid is low)
  const heap = ctx.id && TREASURE_HELD.has(ctx.id) ? goldHeap({ x0, y0: box.y0, x1 }, rim, ctx) : null;
  const dark = insideColour(base, ctx);
  const low = theta < (40 * Math.PI) / 180;
  for (let y = rim - insideRows; y < rim; y++)
    for (let x = x0 + back; x <= x1 - back; x++) {
      if (!opaqueAt(base, x, rim)) continue;
      let c = heap ? heap(x, y) : y >= rim - Math.max(1, Math.round(lidH * 0.25)) ? dark : null;
      if (!c) continue;
      if (low && heap) c = ctx.colours.step(c, -1);
      put(out, x, y, c);
    }
  // its front, as drawn (bands, lock), foreshortened, standing on the inside's far edge
  const top = rim - insideRows;
  for (let r = 0; r < frontRows; r++) {
    const srcY = rim - 1 - Math.floor(((r + 0.5) / frontRows) * lidH);
    const y = top - 1 - r;
    // raised past half-way the front stands on the inside's far edge: as far back, as narrow
    const [f0, f1] = theta > Math.PI / 4 ? [x0 + back, x1 - back] : [0, base.width - 1];
    for (let x = f0; x <= f1; x++) {
      if (!opaqueAt(base, x, srcY)) continue;
      const c = rgbAt(base, x, srcY);
      const edge = (x === f0 || x === f1) && f0 > 0;
      put(out, x, y, (r === frontRows - 1 && frontRows > 1) || edge ? ctx.colours.outline(c) : c);
    }
  }
  return out;
}

/** Drawings of a chest drawn shut with treasure in it: opened, gold is heaped in its mouth. */
const TREASURE_HELD: ReadonlySet<string> = new Set(['x/treasure-chest']);

/**
 * Gold heaped in a chest's mouth (rows box.y0 … mouth − 1), or null above the heap (the dark inside
 * shows there): a mound highest in the middle, its top row lit, coins' glints on a checker, its
 * foot a step darker — the look's colours nearest gold.
 */
function goldHeap(
  box: { x0: number; y0: number; x1: number },
  mouth: number,
  ctx: PropContext,
): (x: number, y: number) => Rgb | null {
  const gold = ctx.colours.map([232, 178, 52]);
  const lit = ctx.colours.map([250, 224, 120]);
  const deep = ctx.colours.map([178, 120, 34]);
  const h = mouth - box.y0;
  const cx = (box.x0 + box.x1) / 2;
  const half = Math.max(1, (box.x1 - box.x0) / 2);
  const topAt = (x: number) => {
    const u = (x - cx) / half;
    return mouth - Math.round(h * (0.5 + 0.3 * Math.max(0, 1 - u * u)));
  };
  return (x, y) => {
    const top = topAt(x);
    if (y < top) return null;
    if (y === top) return lit;
    if (y >= mouth - 1) return deep;
    // coins lying in staggered rows, each 3 px wide and 2 rows deep: a glint on its top row's middle,
    // the gap between two coins a step darker on its lower row (not a stipple of glints: decision 0121)
    const k = mouth - 1 - y;
    const pos = (x + (Math.floor(k / 2) % 2) * 2) % 4;
    if (k % 2 === 1) return pos === 1 ? lit : gold;
    return pos === 3 ? deep : gold;
  };
}

/**
 * The colours of a chest's body: those of the middle of its front below the mouth that make up three
 * fifths of its inside pixels, with their outlines — treasure (gold, gems) is what is not.
 */
function bodyColours(img: Px, mouth: number): Set<number> {
  const box = boxOf(img);
  const keys = new Set<number>();
  if (!box) return keys;
  const h = box.y1 - mouth;
  const counts = new Map<number, number>();
  let all = 0;
  for (let y = mouth + Math.round(h * 0.25); y <= box.y1 - Math.round(h * 0.2); y++)
    for (let x = box.x0; x <= box.x1; x++) {
      if (!opaqueAt(img, x, y) || edgeAt(img, x, y)) continue;
      const c = rgbAt(img, x, y);
      const key = (c[0] << 16) | (c[1] << 8) | c[2];
      counts.set(key, (counts.get(key) ?? 0) + 1);
      all++;
    }
  let got = 0;
  for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
    if (got >= all * 0.6) break;
    keys.add(key);
    got += n;
  }
  return keys;
}

const keyOf = (c: Rgb) => (c[0] << 16) | (c[1] << 8) | c[2];

/**
 * What lies loose about a chest drawn open (coins and gems on the ground beside it, below its foot)
 * is taken away: below the mouth, a pixel outside the span of the body's colours in its row, or below
 * the body's last wide row. `closed`: treasure hanging over the front (a necklace) is painted over in
 * its row's commonest body colour too, so a shut chest is wood and iron only.
 */
function withoutLoose(img: Px, mouth: number, closed = false): Px {
  const out = copyOf(img);
  const body = bodyColours(img, mouth);
  const box = boxOf(img);
  if (!box || !body.size) return out;
  const isBody = (x: number, y: number) => opaqueAt(img, x, y) && body.has(keyOf(rgbAt(img, x, y)));
  const spans: Array<[number, number] | null> = [];
  let widest = 0;
  for (let y = mouth; y <= box.y1; y++) {
    let [a, b] = [img.width, -1];
    for (let x = 0; x < img.width; x++)
      if (isBody(x, y)) {
        a = Math.min(a, x);
        b = Math.max(b, x);
      }
    spans.push(b < 0 ? null : [a, b]);
    if (b >= 0) widest = Math.max(widest, b - a + 1);
  }
  let base = mouth;
  spans.forEach((sp, i) => {
    if (sp && sp[1] - sp[0] + 1 >= widest * 0.5) base = mouth + i;
  });
  for (let y = mouth; y <= box.y1; y++) {
    const sp = spans[y - mouth];
    const counts = new Map<number, { c: Rgb; n: number }>();
    for (let x = 0; x < img.width; x++)
      if (isBody(x, y) && !edgeAt(img, x, y)) {
        const c = rgbAt(img, x, y);
        const e = counts.get(keyOf(c)) ?? { c, n: 0 };
        e.n++;
        counts.set(keyOf(c), e);
      }
    const common = [...counts.values()].sort((p, q) => q.n - p.n)[0]?.c;
    for (let x = 0; x < img.width; x++) {
      if (!opaqueAt(img, x, y)) continue;
      // the outline a pixel beyond the span is the body's own
      if (y > base + 1 || (sp && (x < sp[0] - 1 || x > sp[1] + 1))) {
        clear(out, x, y);
        continue;
      }
      if (
        closed &&
        common &&
        sp &&
        y > mouth &&
        y < base &&
        !edgeAt(img, x, y) &&
        !isBody(x, y) &&
        x > sp[0] &&
        x < sp[1]
      )
        put(out, x, y, common);
    }
  }
  return out;
}

/** A lid's wood: the commonest coloured (not grey: its iron bands are) inside colour of its rows. */
function lidWood(base: Px, y0: number, y1: number): Rgb | null {
  const counts = new Map<number, { c: Rgb; n: number }>();
  for (let y = y0; y < y1; y++)
    for (let x = 0; x < base.width; x++) {
      if (!opaqueAt(base, x, y) || edgeAt(base, x, y)) continue;
      const c = rgbAt(base, x, y);
      if (Math.max(...c) - Math.min(...c) < 40) continue;
      const e = counts.get(keyOf(c)) ?? { c, n: 0 };
      e.n++;
      counts.set(keyOf(c), e);
    }
  return (
    [...counts.values()].sort((p, q) => q.n - p.n || keyOf(p.c) - keyOf(q.c))[0]?.c ??
    commonestColour(base, y0, y1)
  );
}

/**
 * A lid folded down over a chest's mouth is drawn clean: its planks in the lid's commonest colour, its
 * top row a step lighter (lit), its lip a step darker, its ends the outline — not the drawn lid's
 * rows squeezed over the treasure (a dark smear with gold marks).
 */
function cleanLid(
  out: Px,
  top: number,
  bottom: number,
  lidColour: Rgb | null,
  ctx: PropContext,
  iron: { cols: Map<number, Rgb>; lock: number } | null = null,
): void {
  const wood = lidColour ?? commonColour(out);
  for (let y = top; y < bottom; y++)
    for (let x = 0; x < out.width; x++) {
      if (!opaqueAt(out, x, y)) continue;
      const end = !opaqueAt(out, x - 1, y) || !opaqueAt(out, x + 1, y) || !opaqueAt(out, x, y - 1);
      // the body's iron bands run on over the lid, so the shut lid is the same chest's
      const band = iron?.cols.get(x);
      const face = band ?? wood;
      const c = end
        ? ctx.colours.outline(face)
        : y === top || !opaqueAt(out, x, y - 2)
          ? ctx.colours.step(face, 1)
          : y === bottom - 1
            ? ctx.colours.step(face, -1)
            : face;
      put(out, x, y, c);
    }
  // a lock plate hangs from the lid's lip at the front's middle (2 px wide, 2 tall; 3 × 3 on a big lid)
  if (iron && iron.lock >= 0 && bottom - top >= 3) {
    const metal = [...iron.cols.values()][0] ?? ctx.colours.step(ctx.colours.step(wood, 1), 1);
    const half = bottom - top >= 6 ? 1 : 0;
    for (let y = bottom - 2 - half; y <= bottom; y++)
      for (let x = iron.lock - 1 - half; x <= iron.lock + 1 + half; x++) {
        if (!opaqueAt(out, x, y)) continue;
        const rim = x === iron.lock - 1 - half || x === iron.lock + 1 + half || y === bottom;
        put(out, x, y, rim ? ctx.colours.outline(metal) : metal);
      }
  }
}

/**
 * A chest's iron bands: the columns of its front, just below the mouth, painted a grey (a colour
 * with little hue) that runs down at least a third of the front; and the front's middle column (its
 * lock's place). Null when the front has no grey run.
 */
function bands(base: Px, mouth: number): { cols: Map<number, Rgb>; lock: number } | null {
  const box = boxOf(base);
  if (!box) return null;
  const grey = (c: Rgb) => Math.max(...c) - Math.min(...c) < 28 && lightness(c) > 0.2;
  const cols = new Map<number, Rgb>();
  const from = mouth + 1;
  const span = box.y1 - from;
  if (span < 3) return null;
  let x0 = base.width;
  let x1 = -1;
  for (let x = box.x0; x <= box.x1; x++) {
    let run = 0;
    let colour: Rgb | null = null;
    for (let y = from; y < box.y1; y++) {
      if (!opaqueAt(base, x, y)) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      const c = rgbAt(base, x, y);
      if (!edgeAt(base, x, y) && grey(c)) {
        run++;
        colour ??= c;
      }
    }
    if (colour && run >= span / 3) cols.set(x, colour);
  }
  if (!cols.size) return null;
  return { cols, lock: x1 >= x0 ? Math.round((x0 + x1) / 2) : -1 };
}

/**
 * Draws the lid (the rows from `top` to `hinge` of `base`) scaled by `s` about the hinge row: s = 1 as
 * drawn, 0 edge-on, below 0 turned over (its other face a step darker). `hingeAtTop`: the hinge is the
 * lid's top row (a closed box's lid lifts from its back edge), else its bottom row.
 */
function drawLid(
  base: Px,
  out: Px,
  from: number,
  to: number,
  s: number,
  ctx: PropContext,
  hingeAtTop = false,
  darker: 1 | 2 = 1,
): void {
  const top = Math.min(from, to);
  const bottom = Math.max(from, to);
  const hinge = hingeAtTop ? top : bottom;
  const lidH = bottom - top;
  const rows = Math.max(1, Math.round(Math.abs(s) * lidH));
  const under = s < 0;
  // a drawn-open lid's rows have the contents heaped in front of them: folded, the lid is wood only
  // (a pixel much lighter than its row's commonest colour takes that colour)
  const common = (y: number): Rgb | null => commonestColour(base, y, y + 1);
  const inside = under && darker === 2 ? lidWood(base, top, bottom) : null;
  for (let r = 0; r < rows; r++) {
    // output row r away from the hinge, on the side s says; sample the lid at the same share
    const share = (r + 0.5) / rows;
    // (a lid hinged at its top edge and swung back shows its inside: its open rim, the lid's full
    // width, lies along the hinge and its crown is the far edge; sampled the other way round, the
    // crown's narrow top row sat on the hinge and the lid floated above the box as a detached plank:
    // the blind reviews after 1130c and 1130d)
    const srcY =
      hingeAtTop && !under ? top + Math.floor(share * lidH) : bottom - 1 - Math.floor(share * lidH);
    const dir = hingeAtTop ? (under ? -1 : 1) : under ? 1 : -1;
    const y = hinge + dir * r + (hingeAtTop ? (under ? -1 : 0) : under ? 0 : -1);
    const wood = under && !hingeAtTop ? common(srcY) : null;
    for (let x = 0; x < base.width; x++) {
      if (!opaqueAt(base, x, srcY)) continue;
      let c = rgbAt(base, x, srcY);
      if (wood && !edgeAt(base, x, srcY) && lightness(c) > lightness(wood) + 0.1) c = wood;
      // a treasure chest's lid seen from inside is bare planks: its bands and lock are on the outside
      if (inside && !edgeAt(base, x, srcY)) c = inside;
      if (under && !edgeAt(base, x, srcY)) for (let k = 0; k < darker; k++) c = ctx.colours.step(c, -1);
      // the lid's far edge keeps its outline
      if (r === rows - 1 && rows > 1) c = ctx.colours.outline(c);
      put(out, x, y, c);
    }
  }
}

/**
 * A door swings open on its hinge (the left side): its leaf narrows towards the hinge as it turns,
 * its free edge a little taller as it comes nearer, a step darker as it turns from the light, and the
 * doorway behind it is dark.
 */
function swing(base: Px, f: number, n: number, ctx: PropContext): Px {
  const box = boxOf(base);
  if (!box) return copyOf(base);
  const t = openness(f, n);
  if (t <= 0) return copyOf(base);
  const out = copyOf(base);
  const dark = insideColour(base, ctx);
  for (let y = box.y0; y <= box.y1; y++)
    for (let x = box.x0; x <= box.x1; x++)
      if (opaqueAt(base, x, y) && !edgeAt(base, x, y)) put(out, x, y, dark);
  const a = t * ((80 * Math.PI) / 180);
  const w = box.x1 - box.x0 + 1;
  const nw = Math.max(2, Math.round(w * Math.cos(a)));
  const cy = (box.y0 + box.y1) / 2;
  const grow = Math.sin(a) * 0.1;
  for (let x = box.x0; x < box.x0 + nw; x++) {
    const u = (x - box.x0 + 0.5) / nw;
    const sx = box.x0 + Math.min(w - 1, Math.floor(u * w));
    const e = 1 + grow * u;
    for (let y = box.y0 - 3; y <= box.y1 + 1; y++) {
      const sy = Math.round(cy + (y - cy) / e);
      if (sy < box.y0 || sy > box.y1 || !opaqueAt(base, sx, sy) || y < 0 || y >= base.height) continue;
      let c = rgbAt(base, sx, sy);
      if (t > 0.5 && !edgeAt(base, sx, sy)) c = ctx.colours.step(c, -1);
      // the free edge is the leaf's outline
      if (x === box.x0 + nw - 1) c = ctx.colours.outline(c);
      put(out, x, y, c);
    }
  }
  return out;
}

/**
 * A flag waves: a wave travels along its cloth from the pole, the cloth's columns shifted up and down
 * more the further they are from the pole, the falling side of each ripple a step darker; the pole
 * (a thin run of pixels, found below the cloth) stays.
 */
function wave(base: Px, f: number, n: number, ctx: PropContext): Px {
  const box = boxOf(base);
  if (!box) return copyOf(base);
  if (HANGING.test(ctx.of)) return hangingWave(base, f, n, ctx, box);
  const W = box.x1 - box.x0 + 1;
  const thin = Math.max(3, Math.round(W * 0.18));
  const widths: number[] = [];
  const mids: number[] = [];
  for (let y = 0; y < base.height; y++) {
    let c = 0;
    let sum = 0;
    for (let x = 0; x < base.width; x++)
      if (opaqueAt(base, x, y)) {
        c++;
        sum += x;
      }
    widths.push(c);
    mids.push(c ? sum / c : 0);
  }
  // the pole: rows of a thin run, fitted to a line x = a + b·y
  const pole = widths.flatMap((c, y) => (c > 0 && c <= thin ? [y] : []));
  let poleX: (y: number) => number = () => box.x0;
  if (pole.length >= 3) {
    const my = pole.reduce((s, y) => s + y, 0) / pole.length;
    const mx = pole.reduce((s, y) => s + mids[y]!, 0) / pole.length;
    let num = 0;
    let den = 0;
    for (const y of pole) {
      num += (y - my) * (mids[y]! - mx);
      den += (y - my) ** 2;
    }
    const b = den ? num / den : 0;
    poleX = (y) => mx + b * (y - my);
  }
  const cloth = widths.flatMap((c, y) => (c > thin ? [y] : []));
  if (!cloth.length) return copyOf(base);
  const cy0 = cloth[0]!;
  const cy1 = cloth[cloth.length - 1]!;
  const midY = (cy0 + cy1) / 2;
  const px = poleX(midY);
  const reach = Math.max(1, Math.max(Math.abs(box.x0 - px), Math.abs(box.x1 - px)));
  const amp = Math.max(1.5, (cy1 - cy0 + 1) * 0.13);
  const phase = f / n;
  const shift = (x: number) => {
    const u = Math.min(1, Math.abs(x - px) / reach);
    return amp * Math.min(1, u * 1.6) * Math.sin(2 * Math.PI * (u * 1.25 - phase));
  };
  const out = copyOf(base);
  for (let y = cy0; y <= cy1; y++)
    for (let x = 0; x < base.width; x++) if (opaqueAt(base, x, y)) clear(out, x, y);
  // the pole's own pixels in the cloth's rows stay where they are
  for (let y = cy0; y <= cy1; y++)
    for (let x = 0; x < base.width; x++)
      if (opaqueAt(base, x, y) && Math.abs(x - poleX(y)) <= 1.5) put(out, x, y, rgbAt(base, x, y));
  for (let x = 0; x < base.width; x++) {
    if (Math.abs(x - px) <= 1.5) continue;
    const dy = Math.round(shift(x));
    const slope = shift(x + 1) - shift(x - 1);
    // the falling side of a ripple turns from the light (away from the pole, light from the left)
    const shade = Math.abs(slope) > 0.35 && slope * (x > px ? 1 : -1) > 0;
    for (let y = cy0; y <= cy1; y++) {
      if (!opaqueAt(base, x, y) || Math.abs(x - poleX(y)) <= 1.5) continue;
      let c = rgbAt(base, x, y);
      if (shade && !edgeAt(base, x, y)) c = ctx.colours.step(c, -1);
      put(out, x, y + dy, c);
    }
  }
  return out;
}

/** Cloth that hangs from a crossbar (a banner), not flown from a pole at its side. */
const HANGING = /\b(banner|banners|gonfalon|tapestry)\b/;

/**
 * A banner waves from its crossbar (decision 0093: the side-pole wave bent the bar with the cloth):
 * the bar (the widest rows at the top) and a pole below the cloth stay; each row of the hanging cloth
 * is shifted sideways by a wave that travels down it, more the further it hangs from the bar
 * (≥ 2 px at 64 px), its leading side a step darker.
 */
function hangingWave(
  base: Px,
  f: number,
  n: number,
  ctx: PropContext,
  box: { x0: number; y0: number; x1: number; y1: number },
): Px {
  const W = box.x1 - box.x0 + 1;
  const widthOf = (y: number) => {
    let c = 0;
    for (let x = box.x0; x <= box.x1; x++) if (opaqueAt(base, x, y)) c++;
    return c;
  };
  const widths: number[] = [];
  for (let y = box.y0; y <= box.y1; y++) widths.push(widthOf(y));
  const sorted = [...widths].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const thin = Math.max(3, Math.round(W * 0.18));
  // the bar: the top rows wider than the cloth (and the row under it, where the cloth is sewn on)
  let hang = box.y0;
  while (hang < box.y1 && widths[hang - box.y0]! > median * 1.08) hang++;
  hang = Math.min(box.y1, hang + 1);
  const len = Math.max(1, box.y1 - hang);
  const amp = Math.max(2, W * 0.07);
  const phase = f / n;
  const shift = (y: number) => {
    const u = (y - hang) / len;
    return amp * Math.min(1, u * 1.4) * Math.sin(2 * Math.PI * (u * 0.9 - phase));
  };
  const out = copyOf(base);
  for (let y = hang + 1; y <= box.y1; y++) {
    if (widths[y - box.y0]! <= thin) continue; // a pole below the cloth stays
    const dx = Math.round(shift(y));
    if (dx === 0) continue;
    const row: Array<Rgb | null> = [];
    for (let x = 0; x < base.width; x++) row.push(opaqueAt(base, x, y) ? rgbAt(base, x, y) : null);
    for (let x = 0; x < base.width; x++) clear(out, x, y);
    const lead = shift(y + 1) - shift(y - 1);
    for (let x = 0; x < base.width; x++) {
      const c = row[x];
      if (!c) continue;
      const shaded =
        Math.abs(lead) > 0.3 &&
        !edgeAt(base, x, y) &&
        (lead > 0 ? x > (box.x0 + box.x1) / 2 : x < (box.x0 + box.x1) / 2);
      put(out, x + dx, y, shaded ? ctx.colours.step(c, -1) : c);
    }
  }
  return out;
}

/** Vessels open at the top: their bubbles rise out of the liquid's surface and burst above it. */
const OPEN_VESSELS = /\b(cauldron|pot|bowl|cup|mug|tankard|goblet|beaker)\b/;

/**
 * How far above a drawing's top a motion draws (a share of its height): a lid folds back above a
 * chest, bubbles rise out of a cauldron.
 */
export function roomAbove(motion: string, of: string, id?: string): number {
  // a lid drawn shut sweeps its front corner through √(1 + 1.4²) of its height about the hinge (0.26 of
  // the drawing's height above its top); a door or a lid drawn open needs less
  if (motion === 'open' || motion === 'close')
    return LIDDED.test(of) && !SWINGING.test(of) && !(id && DRAWN_OPEN[id]) ? 0.3 : 0.17;
  if (motion === 'bubble' && OPEN_VESSELS.test(of)) return 0.3;
  return 0;
}

/**
 * Bubbles rise through a vessel's liquid: a few light dots (2 × 2 at 64 px and up) that start low,
 * climb a row or more a frame at staggered columns and heights, and are gone at the top. Out of an
 * open vessel (a cauldron) they rise from the surface into the air, grow, and burst.
 */
function bubble(base: Px, f: number, n: number, ctx: PropContext): Px {
  const box = boxOf(base);
  const out = copyOf(base);
  if (!box) return out;
  const big = base.height >= 56;
  const h = box.y1 - box.y0 + 1;
  const w = box.x1 - box.x0 + 1;
  const hot = glintColour(ctx, base);
  if (OPEN_VESSELS.test(ctx.of)) {
    // the surface: the widest of the top rows; bubbles climb from it, the last stage a burst
    const rise = Math.max(3, Math.min(box.y0, Math.round(h * 0.3)));
    // the brew's own colour, the outline's shade of it so it shows against the sky
    const soft = ctx.colours.step(ctx.colours.outline(commonColour(base)), 1);
    for (let k = 0; k < 3; k++) {
      const p = (f / n + k / 3) % 1;
      const x = Math.round(box.x0 + w * [0.38, 0.6, 0.5][k]!);
      const y = Math.round(box.y0 + 1 - p * rise);
      const r = p < 0.3 ? 0 : big && p >= 0.55 ? 2 : 1;
      if (p > 0.85) {
        // a burst: four specks round where it was
        for (const [dx, dy] of [
          [-1, -1],
          [1, -1],
          [-1, 1],
          [1, 1],
        ] as const)
          if (!opaqueAt(base, x + dx * (r + 1), y + dy)) put(out, x + dx * (r + 1), y + dy, soft);
        continue;
      }
      if (r === 0) {
        put(out, x, y, hot);
        continue;
      }
      // a ring: its rim light, its top-left lit
      for (let dy = -r; dy <= r; dy++)
        for (let dx = -r; dx <= r; dx++) {
          const d = Math.abs(dx) + Math.abs(dy);
          if (d === 0 || d > r + (r > 1 ? 1 : 0) || (r > 1 && Math.abs(dx) === r && Math.abs(dy) === r))
            continue;
          put(out, x + dx, y + dy, dx < 0 && dy < 0 ? hot : soft);
        }
    }
    return out;
  }
  const bottom = box.y1 - Math.max(2, Math.round(h * 0.1));
  const top = box.y0 + Math.round(h * 0.3);
  const travel = Math.max(2, bottom - top);
  const count = 4;
  const size = big ? 2 : 1;
  for (let k = 0; k < count; k++) {
    const x = Math.round(box.x0 + w * [0.42, 0.55, 0.36, 0.5][k]!);
    const p = (f / n + k / count) % 1;
    const y = Math.round(bottom - p * travel);
    // wobble a pixel side to side on the way up
    const bx = x + (Math.floor(p * 4) % 2 === 0 ? 0 : 1);
    let inside = true;
    for (let dy = 0; dy < size; dy++)
      for (let dx = 0; dx < size; dx++)
        if (!opaqueAt(base, bx + dx, y + dy) || edgeAt(base, bx + dx, y + dy)) inside = false;
    if (!inside) continue;
    for (let dy = 0; dy < size; dy++)
      for (let dx = 0; dx < size; dx++) {
        const c = rgbAt(base, bx + dx, y + dy);
        const lit = ctx.colours.step(ctx.colours.step(c, 1), 1);
        // a bubble's lit top-left, its body a lighter shade of the liquid
        put(out, bx + dx, y + dy, (dx === 0 && dy === 0) || size === 1 ? hot : lit);
      }
  }
  return out;
}

/**
 * A glow pulses: a halo round the outline in the body's lightest colour brightens (a dithered ring,
 * a whole ring, a second dithered ring at its height) and dims, the body a step lighter at its height.
 */
function glow(base: Px, f: number, n: number, ctx: PropContext, halo = true): Px {
  const out = copyOf(base);
  const i = (1 - Math.cos((2 * Math.PI * f) / n)) / 2;
  if (i < 0.2) return out;
  // the halo's colour: the look's lightest, towards white where no palette is enforced
  const ring = glintColour(ctx, base, 0.45);
  const rings = 2;
  const dist = new Int8Array(base.width * base.height).fill(-1);
  for (let y = 0; y < base.height; y++)
    for (let x = 0; x < base.width; x++) if (opaqueAt(base, x, y)) dist[y * base.width + x] = 0;
  for (let r = 1; r <= rings; r++)
    for (let y = 0; y < base.height; y++)
      for (let x = 0; x < base.width; x++) {
        if (dist[y * base.width + x] !== -1) continue;
        const near = [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ].some(([dx, dy]) => {
          const nx = x + dx!;
          const ny = y + dy!;
          return (
            nx >= 0 && ny >= 0 && nx < base.width && ny < base.height && dist[ny * base.width + nx] === r - 1
          );
        });
        if (near) dist[y * base.width + x] = r;
      }
  const full = i >= 0.6;
  for (let y = 0; y < base.height; y++)
    for (let x = 0; x < base.width; x++) {
      const d = dist[y * base.width + x]!;
      if (d === 0) {
        if (!full) continue;
        if (!edgeAt(base, x, y)) put(out, x, y, ctx.colours.step(rgbAt(base, x, y), 1));
        else {
          // the body grows by a pixel: an outline pixel takes the lit colour inside it
          const open = N4.find(([dx, dy]) => !opaqueAt(base, x + dx, y + dy));
          const ix = x - (open?.[0] ?? 0);
          const iy = y - (open?.[1] ?? 0);
          if (opaqueAt(base, ix, iy) && !edgeAt(base, ix, iy))
            put(out, x, y, ctx.colours.step(rgbAt(base, ix, iy), 1));
        }
        continue;
      }
      const checker = (x + y) % 2 === 0;
      if (d === 1) {
        if (full) {
          // …and the outline moves out onto the first ring: the pulse swells by a pixel each side
          const from = N4.map(([dx, dy]) => [x + dx, y + dy] as const).find(([nx, ny]) =>
            opaqueAt(base, nx, ny),
          );
          if (from) put(out, x, y, rgbAt(base, from[0], from[1]));
        } else if (checker && halo) put(out, x, y, ring);
      }
      if (d === 2 && full && halo && (i >= 0.9 || checker)) put(out, x, y, ring);
    }
  return out;
}

/** Flat round things that spin about their upright axis and have a rim. */
export const COIN = /\b(coin|coins|medal|token|medallion|doubloon)\b/;

/**
 * A coin turned towards edge-on shows its side: every row of its narrowed face moves over by the rim's
 * thickness (its outline and a pixel or two of rim, more the nearer edge-on: `sx` is its width's share) and the band it
 * leaves is the rim, a shade of the face's colour with the outline kept at the row's ends.
 */
export function coinSide(frame: Px, sx: number, colours: LookColours, side: -1 | 1): Px {
  const box = boxOf(frame);
  if (!box) return frame;
  const t = 1 + Math.max(1, Math.round((1 - sx) * (frame.height >= 48 ? 1.5 : 1)));
  if (box.x1 + t >= frame.width - 1 || box.x0 - t <= 0) return frame;
  const out = copyOf(frame);
  for (let y = box.y0; y <= box.y1; y++) {
    let l = -1;
    let r = -1;
    for (let x = box.x0; x <= box.x1; x++)
      if (opaqueAt(frame, x, y)) {
        if (l < 0) l = x;
        r = x;
      }
    if (l < 0) continue;
    // the face moves away from the rim's side by its thickness; the rim fills the band it leaves
    const shift = side < 0 ? t : -t;
    for (let x = l; x <= r; x++) if (opaqueAt(frame, x, y)) clear(out, x, y);
    for (let x = l; x <= r; x++) if (opaqueAt(frame, x, y)) put(out, x + shift, y, rgbAt(frame, x, y));
    const face = rgbAt(frame, side < 0 ? Math.min(r, l + 1) : Math.max(l, r - 1), y);
    const rim = colours.step(colours.step(face, -1), -1);
    const end = side < 0 ? l : r;
    for (let k = 0; k < t; k++) {
      const x = end + (side < 0 ? k : -k);
      put(out, x, y, k === 0 ? rgbAt(frame, end, y) : rim);
    }
  }
  return out;
}
