import type { RgbaImage } from '@assetloom/pipeline';
import type { ResolvedStyle, Rgb } from '@assetloom/pipeline/pixel';
import { bayer, oklab, Painter, PaletteMatcher } from '@assetloom/pipeline/pixel';
import { cleanUp, lightRamp, mapColours, outline } from './passes.js';
import { type Ramp, rampsOf } from './ramps.js';

/**
 * One look per project (issue #39): every sprite of the built-in generator, whatever drew it (a
 * licensed drawing, the rig), leaves through {@link applyLook}:
 *
 * - its colours reduced to a bounded palette — the project's palette exactly when the style enforces
 *   one, else at most {@link colourBudget} colours (16 on a 32-cell grid, 24 at 64, 32 at 128) in
 *   ramps with hue-shifted shadows and highlights and tempered chroma, so pure colours never reach the
 *   picture raw;
 * - one light direction (the style's), one rim of lit and shadowed edges for drawings that bring no
 *   light of their own, and at 96 cells and more a form shade across the whole subject (detail a
 *   larger sprite has, not a scaled smaller one);
 * - one outline rule: a selective outline one cell wide in the deep shadow of the colour it borders
 *   (`lineWeight` 1), one dark colour all round (2), or none (0);
 * - clean edges: no orphan pixels, no detached dots, no pinholes.
 *
 * A drawing drawn small can be simplified first: drawn at twice the grid, its palette and light set
 * there, then halved by the commonest colour of each 2 × 2 cell (a 32 px sprite keeps its silhouette
 * and loses its specks) before the outline.
 */
export interface Look {
  /** The project's palette when the style enforces one: every pixel is then one of its colours. */
  palette: readonly Rgb[] | null;
  /** At most this many colours (outline and shadows included) when no palette is enforced. */
  budget: number;
  lineWeight: 0 | 1 | 2;
  light: { x: number; y: number };
  /** `flat` asks for no light ramp. */
  flat: boolean;
  /** The grid's larger side, in cells. */
  grid: number;
}

/** The colour budget of a sprite on a grid of `side` cells: fewer colours for a smaller sprite. */
export function colourBudget(side: number): number {
  return side <= 40 ? 16 : side <= 96 ? 24 : 32;
}

/** The look a style asks for on a `gw × gh` grid. */
export function lookOf(style: ResolvedStyle, gw: number, gh: number): Look {
  const grid = Math.max(gw, gh);
  return {
    palette: style.paletteEnforced ? style.palette : null,
    budget: colourBudget(grid),
    lineWeight: style.lineWeight,
    light: style.light,
    flat: style.mood === 'flat',
    grid,
  };
}

/** What the look does with one colour: its place in the palette, a step along its ramp, its outline. */
export interface LookColours {
  /** The palette colour a colour becomes. */
  map(c: Rgb): Rgb;
  /** A palette colour one step lighter (1) or darker (−1) along its ramp (itself at the ramp's end). */
  step(c: Rgb, dir: -1 | 1): Rgb;
  /** The outline a palette colour gets where it meets the outside. */
  outline(c: Rgb): Rgb;
  /** Every colour the look may use. */
  readonly colours: readonly Rgb[];
}

const keyOf = (c: Rgb) => (c[0] << 16) | (c[1] << 8) | c[2];

const hueOf = (a: number, b: number) => Math.atan2(b, a);
const turnOf = (h1: number, h2: number) => Math.abs(((h2 - h1 + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
const DEG = Math.PI / 180;
/** Yellow's hue in OKLab: a highlight leans towards it, never away from it (a red's light is no pink). */
const YELLOW = 105 * DEG;

/**
 * Whether `step` is a lit (dir 1) or shaded (−1) step of `base`'s family under a palette (issue #39,
 * decisions 0122 and 0136). A grey's step stays a grey. A colour's shade keeps its hue within 50° and
 * half its chroma. Its light keeps its hue within 30° and 0.6 of its chroma, and turns no more than
 * 12° away from yellow: under sweetie16 the only colours lighter than its gold are white and cyan (a
 * white sticker rim, decision 0122); under pico8 a red's nearest light is pink (half a red shield read
 * pink in the blind review after 1130g). A pixel artist's highlight leans warm.
 */
function inFamily(base: Rgb, step: Rgb, dir: -1 | 1): boolean {
  const [, a, b] = oklab(base);
  const [, sa, sb] = oklab(step);
  const C = Math.hypot(a, b);
  const sC = Math.hypot(sa, sb);
  if (C < 0.05) return sC < Math.max(0.06, C + 0.03);
  const h = hueOf(a, b);
  const sh = hueOf(sa, sb);
  if (dir < 0) return turnOf(h, sh) <= 50 * DEG && sC >= C * 0.5;
  return turnOf(h, sh) <= 30 * DEG && sC >= C * 0.6 && turnOf(sh, YELLOW) <= turnOf(h, YELLOW) + 12 * DEG;
}

/**
 * The palette colour a colour becomes: the nearest in OKLab (hue and chroma weighed double) among the
 * colours of its family when it is a colour (within 30° of its hue and 0.25 of its lightness, keeping 0.7 of its chroma,
 * turning more than 15° away from yellow only when darker, towards it only when lighter), else among
 * all. Under pico8 a red (200, 36, 44) was its brown #ab5236 (nearer in lightness) and a blue
 * its lavender grey #83769c.
 */
function familyColour(palette: readonly Rgb[], c: Rgb, painter: Painter): Rgb {
  const [L, a, b] = oklab(c);
  const C = Math.hypot(a, b);
  if (C < 0.05) return painter.chooseLab(c);
  const h = hueOf(a, b);
  let best: Rgb | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const p of palette) {
    const [pl, pa, pb] = oklab(p);
    const ph = hueOf(pa, pb);
    if (Math.hypot(pa, pb) < C * 0.7 || turnOf(h, ph) > 30 * DEG || Math.abs(pl - L) > 0.25) continue;
    // a turn of more than 15° away from yellow only to a darker colour, towards it only to a lighter
    // one (lights lean warm, shadows cool): the lit face of a crimson shield is no pink, its shade no brown
    const away = turnOf(ph, YELLOW) - turnOf(h, YELLOW);
    if ((away > 15 * DEG && pl >= L - 0.06) || (-away > 15 * DEG && pl <= L + 0.06)) continue;
    const d = (pl - L) ** 2 + 2 * ((pa - a) ** 2 + (pb - b) ** 2);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  const found = best ?? painter.chooseLab(c);
  return isGold(L, C, h) ? goldColour(palette, found, L, a, b) : found;
}

/**
 * A gold, brass or bronze tone of a drawing: a warm yellow-orange of some chroma (OKLab hue 55°–105°,
 * lightness 0.3–0.97, chroma ≥ 0.1 when lighter than 0.6, else ≥ 0.08). A skin or a tan is as warm but
 * paler (chroma 0.07–0.095 at those lightnesses): it keeps its peach.
 */
const isGold = (L: number, C: number, h: number) =>
  C >= (L > 0.6 ? 0.1 : 0.08) && L >= 0.3 && L <= 0.97 && h >= 55 * DEG && h <= 105 * DEG;

/**
 * Gold under a fixed palette stays in the palette's yellow/orange ramp (decision 0146: the blind
 * review after 1130i found a golden crown under sweetie16 "pale peach/salmon, brass or cardboard"):
 * where the family's pick is a muted colour — a skin or peach (endesga32's #e4a672 for gold's shade), a
 * grey (pico8's #5f574f for its deep) — it is the nearest warm colour of the palette with chroma
 * (≥ 0.11, hue 30°–115°, within 0.3 of its lightness) instead; and a gold's glint, lighter than every
 * yellow the palette has, is the palette's lightest warm white (sweetie16's #f4f4f4 over #ffcd75): metal
 * shines, a flat pale yellow reads as card. A palette with no warm colour (gameboy's greens) keeps
 * its pick.
 */
function goldColour(palette: readonly Rgb[], found: Rgb, L: number, a: number, b: number): Rgb {
  const [fl, fa, fb] = oklab(found);
  const fC = Math.hypot(fa, fb);
  const fh = hueOf(fa, fb);
  if (L >= 0.92 && fl < L - 0.05) {
    // a glint: the palette's lightest near-white, when it is lighter than the yellow found
    let white: Rgb | null = null;
    let wl = fl + 0.05;
    for (const p of palette) {
      const [pl, pa, pb] = oklab(p);
      if (Math.hypot(pa, pb) < 0.04 && pl > wl) {
        wl = pl;
        white = p;
      }
    }
    if (white) return white;
  }
  // a muted pick is a peach or skin when light, a grey when without colour; a dark brown or red-brown
  // is a deep gold's own shade and stays
  if (!(fC < 0.05 || (fC < 0.11 && fl > 0.6)) && fh <= 115 * DEG) return found;
  let best: Rgb | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const p of palette) {
    const [pl, pa, pb] = oklab(p);
    const ph = hueOf(pa, pb);
    if (Math.hypot(pa, pb) < 0.11 || ph < 30 * DEG || ph > 115 * DEG || Math.abs(pl - L) > 0.3) continue;
    const d = (pl - L) ** 2 + 2 * ((pa - a) ** 2 + (pb - b) ** 2);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best ?? found;
}

/**
 * A palette's step from `base` that stays in base's family ({@link inFamily}): the painter's pick when
 * it does, else the nearest of the family's lighter (darker) colours, else base itself (the ramp's end).
 */
function familyStep(palette: readonly Rgb[], painter: Painter, base: Rgb, dir: -1 | 1): Rgb {
  const pick = painter.shade(base, dir, 0.45);
  if (inFamily(base, pick, dir)) return pick;
  const [L, a, b] = oklab(base);
  const tL = dir > 0 ? L + (1 - L) * 0.34 : L * 0.64;
  let best: Rgb = base;
  let bestD = Number.POSITIVE_INFINITY;
  for (const p of palette) {
    const [pl, pa, pb] = oklab(p);
    if ((dir > 0 ? pl <= L + 0.04 : pl >= L - 0.04) || !inFamily(base, p, dir)) continue;
    const d = 0.5 * (pl - tL) ** 2 + 6 * ((pa - a) ** 2 + (pb - b) ** 2);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best;
}

/** The project's palette: each colour the nearest of its family, steps and outlines among its own colours. */
export function paletteColours(palette: readonly Rgb[], lineWeight: number): LookColours {
  const painter = new Painter(palette, new PaletteMatcher(palette), false);
  const memo = new Map<number, Rgb>();
  const cached = (k: number, f: () => Rgb) => {
    let v = memo.get(k);
    if (!v) {
      v = f();
      memo.set(k, v);
    }
    return v;
  };
  return {
    colours: palette,
    map: (c) => cached(keyOf(c) * 4, () => familyColour(palette, c, painter)),
    step: (c, dir) => cached(keyOf(c) * 4 + (dir > 0 ? 1 : 2), () => familyStep(palette, painter, c, dir)),
    outline: (c) =>
      lineWeight >= 2
        ? painter.darkest
        : cached(keyOf(c) * 4 + 3, () => painter.shade(painter.shade(c, -1, 0.5), -1, 0.5)),
  };
}

/** A sprite's own ramps (see ramps.ts), built from the colours of all its frames. */
function rampColours(frames: readonly RgbaImage[], budget: number, lineWeight: number): LookColours {
  const counts = new Map<number, number>();
  for (const f of frames)
    for (let i = 0; i < f.data.length; i += 4)
      if (f.data[i + 3]) {
        const k = (f.data[i]! << 16) | (f.data[i + 1]! << 8) | f.data[i + 2]!;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
  const { ramps, familyOf } = rampsOf(counts, budget);
  const where = new Map<number, [number, number]>();
  ramps.forEach((r, ri) => {
    r.colours.forEach((c, si) => {
      if (!where.has(keyOf(c))) where.set(keyOf(c), [ri, si]);
    });
  });
  const colours = ramps.flatMap((r) => r.colours);
  let darkest = colours[0] ?? ([20, 16, 28] as Rgb);
  for (const c of colours) if (oklab(c)[0] < oklab(darkest)[0]) darkest = c;
  const nearestStep = (ramp: Ramp, L: number, deep: boolean) => {
    let best = deep ? 0 : 1;
    for (let s = best; s < ramp.colours.length; s++)
      if (Math.abs(ramp.lightness[s]! - L) < Math.abs(ramp.lightness[best]! - L)) best = s;
    return best;
  };
  const memo = new Map<number, Rgb>();
  const map = (c: Rgb): Rgb => {
    const k = keyOf(c);
    const hit = memo.get(k);
    if (hit) return hit;
    let out: Rgb;
    const fam = familyOf.get(k);
    if (fam !== undefined && ramps[fam]) {
      const r = ramps[fam]!;
      const L = oklab(c)[0];
      // the deep step is an outline and a deepest shadow: only what is darker than half-way to it
      out = r.colours[nearestStep(r, L, L < (r.lightness[0]! + (r.lightness[1] ?? 1)) / 2)]!;
    } else {
      // a colour the ramps were not built from: the nearest of them (hue and chroma weigh double)
      const [L, a, b] = oklab(c);
      out = colours[0]!;
      let bestD = Number.POSITIVE_INFINITY;
      for (const p of colours) {
        const [l2, a2, b2] = oklab(p);
        const d = (L - l2) ** 2 + 2 * ((a - a2) ** 2 + (b - b2) ** 2);
        if (d < bestD) {
          bestD = d;
          out = p;
        }
      }
    }
    memo.set(k, out);
    return out;
  };
  return {
    colours,
    map,
    step: (c, dir) => {
      const at = where.get(keyOf(c));
      if (!at) return c;
      const r = ramps[at[0]]!;
      // shading walks the ramp's own steps; the deep step stays the outline's
      const s = Math.max(Math.min(1, at[1]), Math.min(r.colours.length - 1, at[1] + dir));
      return r.colours[s]!;
    },
    outline: (c) => {
      if (lineWeight >= 2) return darkest;
      const at = where.get(keyOf(c));
      return at ? ramps[at[0]]!.colours[0]! : darkest;
    },
  };
}

/** The colours a look uses for these frames: the project's palette, or the frames' own ramps. */
function lookColours(frames: readonly RgbaImage[], look: Look): LookColours {
  return look.palette
    ? paletteColours(look.palette, look.lineWeight)
    : rampColours(frames, look.budget, look.lineWeight);
}

export interface LookPass {
  /** Depth in cells of the lit and shadowed rims; 0 when the source shaded its own (the rig). */
  relight: number;
  /** The frames are drawn at twice the grid: halve them (commonest colour of each 2 × 2 cell) before the outline. */
  simplify?: boolean;
  /** Runs on each frame after its colours and light, before the outline (a flash, a glow). */
  effect?: (frame: RgbaImage, index: number, colours: LookColours) => void;
  /** Clean-up drops detached dots (default); false keeps them (sparks, drops, stars). */
  dots?: boolean;
  /**
   * The colours of an earlier pass to use instead of these frames' own (a character's look, made once
   * from its reference views, so every task of the character has the same palette).
   */
  colours?: LookColours;
}

/** Alpha to 0 or 255 (a drawing's soft edge is in or out). */
function harden(img: RgbaImage): void {
  const d = img.data;
  for (let i = 3; i < d.length; i += 4) d[i] = d[i]! >= 128 ? 255 : 0;
}

/**
 * A 3 × 3 majority pass before halving: a pixel whose colour no neighbour shares takes the colour
 * most of its neighbours have (five of eight at least), a thin spur of one pixel with six empty
 * neighbours goes, a notch with six neighbours of one colour is filled. What is left is shapes at
 * least two pixels across, which survive the halving whole.
 */
function majority(img: RgbaImage): void {
  const { width: w, height: h, data: d } = img;
  const px = new Int32Array(w * h);
  for (let p = 0; p < w * h; p++)
    px[p] = d[p * 4 + 3] ? (d[p * 4]! << 16) | (d[p * 4 + 1]! << 8) | d[p * 4 + 2]! : -1;
  const counts = new Map<number, number>();
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const c = px[y * w + x]!;
      counts.clear();
      let same = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          if (!dx && !dy) continue;
          const nx = x + dx;
          const ny = y + dy;
          const n = nx < 0 || ny < 0 || nx >= w || ny >= h ? -1 : px[ny * w + nx]!;
          if (n === c) same++;
          counts.set(n, (counts.get(n) ?? 0) + 1);
        }
      if (same > 0 && !(c >= 0 && (counts.get(-1) ?? 0) >= 6)) continue;
      let best = c;
      let bestN = 0;
      for (const [k, n] of counts)
        if (n > bestN) {
          best = k;
          bestN = n;
        }
      const o = (y * w + x) * 4;
      if (c >= 0 && (counts.get(-1) ?? 0) >= 6) d[o + 3] = 0;
      else if (bestN >= (c < 0 ? 6 : 5) && best !== c) {
        if (best < 0) {
          d[o + 3] = 0;
          continue;
        }
        d[o] = (best >> 16) & 255;
        d[o + 1] = (best >> 8) & 255;
        d[o + 2] = best & 255;
        d[o + 3] = 255;
      }
    }
}

/**
 * Halves a frame: each 2 × 2 cell becomes its commonest colour (the darker of a tie: a line or an eye
 * survives), or transparent when fewer than two of its four pixels are opaque.
 */
function halve(img: RgbaImage): RgbaImage {
  const w = Math.floor(img.width / 2);
  const h = Math.floor(img.height / 2);
  const out = new Uint8Array(w * h * 4);
  const src = img.data;
  const keys: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      keys.length = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = ((y * 2 + dy) * img.width + x * 2 + dx) * 4;
        if (src[i + 3]) keys.push((src[i]! << 16) | (src[i + 1]! << 8) | src[i + 2]!);
      }
      if (keys.length < 2) continue;
      let best = keys[0]!;
      let bestN = 0;
      for (const k of keys) {
        const n = keys.filter((q) => q === k).length;
        const darker =
          n === bestN &&
          oklab([(k >> 16) & 255, (k >> 8) & 255, k & 255])[0] <
            oklab([(best >> 16) & 255, (best >> 8) & 255, best & 255])[0];
        if (n > bestN || darker) {
          best = k;
          bestN = n;
        }
      }
      const o = (y * w + x) * 4;
      out[o] = (best >> 16) & 255;
      out[o + 1] = (best >> 8) & 255;
      out[o + 2] = best & 255;
      out[o + 3] = 255;
    }
  return { width: w, height: h, data: out };
}

/**
 * A form shade across the whole subject, so every drawing is lit from the style's side whatever light
 * it was drawn with. It follows the form, not a straight line across the box (decision 0085: one
 * diagonal split across a flat crown or shield read as a shading bug): each pixel is placed between
 * the silhouette's edge towards the light and its edge away from it, along the light's line through
 * that pixel: a band of even depth along the far contour of each part a step darker (a crescent on a
 * disc), and on a large sprite (96 cells and more) a thinner band along the near contour a step
 * lighter, each band's inner edge dithered so the shade reads as a curve. Parts thinner than 4 cells
 * are left to the rim light.
 */
function formShade(
  img: RgbaImage,
  light: { x: number; y: number },
  step: LookColours['step'],
  soft: boolean,
): void {
  const { width: w, height: h, data: d } = img;
  const len = Math.max(Math.abs(light.x), Math.abs(light.y));
  if (!(len > 0)) return;
  const lx = light.x / len;
  const ly = light.y / len;
  const inside = (x: number, y: number) => {
    const ix = Math.round(x);
    const iy = Math.round(y);
    return ix >= 0 && iy >= 0 && ix < w && iy < h && d[(iy * w + ix) * 4 + 3] !== 0;
  };
  const reach = (x: number, y: number, dx: number, dy: number) => {
    let k = 0;
    while (k < w + h && inside(x + dx * (k + 1), y + dy * (k + 1))) k++;
    return k;
  };
  // the subject's extent along the light: a band is a share of it, so a disc's shade is a crescent of
  // even width along its far contour (a share of each chord would be a straight line across a disc)
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (d[(y * w + x) * 4 + 3]) {
        const u = x * lx + y * ly;
        lo = Math.min(lo, u);
        hi = Math.max(hi, u);
      }
  const extent = hi - lo;
  const out = new Uint8Array(d);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      if (!d[i + 3]) continue;
      // cells to the edge towards the light and away from it
      const near = reach(x, y, lx, ly);
      const far = reach(x, y, -lx, -ly);
      const across = near + far + 1;
      if (across < 4) continue;
      // the shade: the far 0.22 of the subject's extent, never more than 0.38 of this part's width;
      // the light (large sprites): the near 0.12, never more than 0.2 of it
      const dark = Math.min(extent * 0.22, across * 0.38);
      const lit = Math.min(extent * 0.12, across * 0.2);
      const dither = soft ? bayer(x, y) : 0.5;
      const edge = soft ? 1.5 : 0;
      let dir: -1 | 1 | 0 = 0;
      if (far < dark - edge || (far < dark + edge && dither < (dark + edge - far) / (2 * edge || 1)))
        dir = -1;
      else if (
        soft &&
        (near < lit - edge || (near < lit + edge && dither < (lit + edge - near) / (2 * edge)))
      )
        dir = 1;
      if (!dir) continue;
      const c = step([d[i]!, d[i + 1]!, d[i + 2]!], dir);
      out[i] = c[0];
      out[i + 1] = c[1];
      out[i + 2] = c[2];
    }
  d.set(out);
}

/**
 * The look pass every sprite source calls on the frames of one sheet (at the art grid, before any
 * upscale): the same palette for every frame, the light, the outline, the clean-up. Returns the
 * finished frames and the colours the look used. Frames are changed in place but for `simplify`.
 */
export function applyLook(
  frames: readonly RgbaImage[],
  look: Look,
  pass: LookPass,
): { frames: RgbaImage[]; colours: LookColours } {
  for (const f of frames) harden(f);
  const colours = pass.colours ?? lookColours(frames, look);
  const lit = !look.flat && pass.relight > 0;
  const out: RgbaImage[] = [];
  frames.forEach((source, i) => {
    let frame = source;
    mapColours(frame, colours.map);
    cleanUp(frame, pass.dots ?? true);
    if (lit) {
      formShade(frame, look.light, colours.step, look.grid >= 96);
      lightRamp(frame, look.light, colours.step, pass.relight);
      cleanUp(frame, false);
    }
    pass.effect?.(frame, i, colours);
    if (pass.simplify) {
      majority(frame);
      frame = halve(frame);
    }
    if (look.lineWeight > 0) outline(frame, colours.outline);
    cleanUp(frame, pass.dots ?? true);
    out.push(frame);
  });
  return { frames: out, colours };
}
