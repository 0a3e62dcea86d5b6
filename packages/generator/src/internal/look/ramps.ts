import type { Rgb } from '@assetloom/pipeline/pixel';
import { fromOklab, hueTurn, oklabOf } from '@assetloom/pipeline/pixel';

/**
 * Colour ramps as a pixel artist builds them: a few steps of one hue family from a deep shadow (which
 * doubles as the family's outline) to a highlight, the shadows turning towards purple-blue and the
 * lights towards yellow (hue shifting), chroma highest in the middle and tempered overall, so a pure
 * #ff0000 or #0000ff never reaches a picture raw.
 */

/** OKLab hue (radians) the shadows of every ramp turn towards: a purple-blue. */
const COOL = (300 / 180) * Math.PI;
/** OKLab hue the lights turn towards: a warm yellow. */
const WARM = (90 / 180) * Math.PI;
/** The largest hue turn at either end of a ramp (radians, ~18°). */
const MAX_TURN = 0.32;

/** Whether OKLab (L, a, b) is inside the sRGB gamut (linear channels in 0–1). */
function inGamut(L: number, a: number, b: number): boolean {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const r = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
  const g = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
  const bl = -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s;
  const e = 1e-4;
  return r >= -e && r <= 1 + e && g >= -e && g <= 1 + e && bl >= -e && bl <= 1 + e;
}

const capMemo = new Map<number, number>();
/**
 * The highest chroma a ramp colour may have at lightness L and hue h: 80 % of what sRGB can show
 * there, so a pure #ff0000, #0000ff or #ffff00 is tempered, never raw, and a yellow stays yellow.
 */
export function chromaCap(L: number, h: number): number {
  const Lk = Math.round(L * 100);
  const hk = Math.round(((h + 2 * Math.PI) % (2 * Math.PI)) * 100);
  const key = Lk * 1000 + hk;
  const hit = capMemo.get(key);
  if (hit !== undefined) return hit;
  // measured at the memo bucket's own lightness and hue, so the cap is one function of the key and
  // never of which colour happened to fill the bucket first (a picture must not depend on what the
  // process drew before it: two tasks of one character on two workers would differ)
  const Lb = Lk / 100;
  const hb = hk / 100;
  let lo = 0;
  let hi = 0.4;
  for (let i = 0; i < 14; i++) {
    const c = (lo + hi) / 2;
    if (inGamut(Lb, c * Math.cos(hb), c * Math.sin(hb))) lo = c;
    else hi = c;
  }
  const cap = lo * 0.8;
  capMemo.set(key, cap);
  return cap;
}

/** `h` turned towards `target` by `k` × MAX_TURN at most, never past it. */
function turnTowards(h: number, target: number, k: number): number {
  const d = ((target - h + 3 * Math.PI) % (2 * Math.PI)) - Math.PI;
  const turn = Math.sign(d) * Math.min(Math.abs(d), MAX_TURN * Math.max(0, Math.min(1, k)));
  return h + turn;
}

/** One colour of a ramp at lightness L, for a family of hue `h` and chroma `c`, `t` −1 (deepest) … 1. */
function rampColour(L: number, c: number, h: number, t: number, grey: boolean): Rgb {
  if (grey) {
    // greys keep a hint of temperature: cool in the shadow, warm in the light
    const tint = 0.012 * Math.abs(t);
    const hh = t < 0 ? COOL : WARM;
    return fromOklab(L, tint * Math.cos(hh), tint * Math.sin(hh));
  }
  const hue = t < 0 ? turnTowards(h, COOL, -t) : turnTowards(h, WARM, t);
  const chroma = Math.min(chromaCap(L, hue), c * (t < 0 ? 1 + 0.1 * t : 1 - 0.3 * t));
  return fromOklab(L, chroma * Math.cos(hue), chroma * Math.sin(hue));
}

/** One hue family's ramp, darkest first: `colours[0]` is its deep shadow and outline. */
export interface Ramp {
  colours: Rgb[];
  /** OKLab hue (radians) and chroma of the family; `grey` when it has none to speak of. */
  hue: number;
  chroma: number;
  grey: boolean;
  /** Lightness of each colour, darkest first. */
  lightness: number[];
}

interface Entry {
  key: number;
  L: number;
  a: number;
  b: number;
  C: number;
  h: number;
  n: number;
  family: number;
}
interface Family {
  entries: Entry[];
  weight: number;
  grey: boolean;
  hue: number;
  chroma: number;
}

const GREY_CHROMA = 0.035;

/** A weighted percentile of the entries' lightness. */
function lightnessAt(entries: readonly Entry[], q: number): number {
  const sorted = [...entries].sort((x, y) => x.L - y.L);
  const total = sorted.reduce((s, e) => s + e.n, 0);
  let acc = 0;
  for (const e of sorted) {
    acc += e.n;
    if (acc >= q * total) return e.L;
  }
  return sorted.at(-1)?.L ?? 0.5;
}

function summarise(f: Family): void {
  let x = 0;
  let y = 0;
  let w = 0;
  const chromas: Array<[number, number]> = [];
  for (const e of f.entries) {
    x += Math.cos(e.h) * e.n * e.C;
    y += Math.sin(e.h) * e.n * e.C;
    w += e.n;
    chromas.push([e.C, e.n]);
  }
  f.weight = w;
  f.hue = Math.atan2(y, x);
  chromas.sort((p, q) => p[0] - q[0]);
  let acc = 0;
  f.chroma = chromas.at(-1)?.[0] ?? 0;
  for (const [c, n] of chromas) {
    acc += n;
    if (acc >= w * 0.6) {
      f.chroma = c;
      break;
    }
  }
}

/** Families of colours by hue (greys apart), at most `max` of them, the least important merged away. */
function familiesOf(entries: Entry[], max: number): Family[] {
  const families: Family[] = [];
  const grey: Family = { entries: [], weight: 0, grey: true, hue: 0, chroma: 0 };
  const byCount = [...entries].sort((x, y) => y.n - x.n);
  for (const e of byCount) {
    if (e.C < GREY_CHROMA) {
      grey.entries.push(e);
      continue;
    }
    let best: Family | undefined;
    let bestTurn = 0.42;
    for (const f of families) {
      const turn = hueTurn(f.hue, e.h);
      if (turn < bestTurn) {
        best = f;
        bestTurn = turn;
      }
    }
    if (best) {
      best.entries.push(e);
      summarise(best);
    } else families.push({ entries: [e], weight: e.n, grey: false, hue: e.h, chroma: e.C });
  }
  const total = entries.reduce((s, e) => s + e.n, 0);
  // what merging a family into another costs: a small, dull family close in hue to another costs
  // little (a brown into a red-brown); a vivid accent of its own hue costs a lot (a gem, an eye)
  const cost = (v: Family, into: Family) =>
    Math.sqrt(v.weight / total) *
    (0.12 + (into.grey ? Math.max(0, v.chroma - 0.03) * 8 : hueTurn(into.hue, v.hue))) *
    (0.3 + 6 * v.chroma);
  for (;;) {
    const count = families.length + (grey.entries.length ? 1 : 0);
    const crumbs = families.filter((f) => f.weight < total * 0.004 && f.chroma < 0.09);
    if (count <= max && !crumbs.length) break;
    let best: [Family, Family] | null = null;
    let bestCost = Number.POSITIVE_INFINITY;
    for (const v of crumbs.length ? crumbs : families)
      for (const into of grey.entries.length ? [...families, grey] : families) {
        if (into === v) continue;
        const c = cost(v, into);
        if (c < bestCost) {
          best = [v, into];
          bestCost = c;
        }
      }
    if (!best) break;
    const [victim, into] = best;
    families.splice(families.indexOf(victim), 1);
    into.entries.push(...victim.entries);
    summarise(into);
  }
  const out = grey.entries.length ? [...families, grey] : families;
  for (const f of out) summarise(f);
  return out;
}

/**
 * A family's ramp from its own colours: `steps` lightness levels found by weighted 1-D k-means, each
 * taking the chroma and hue of the colours around it (a brown-orange-yellow fire stays one ramp
 * from dark to bright), nudged along the ramp's hue shift and tempered; plus the deep shadow below.
 */
function rampOfFamily(f: Family, steps: number): Ramp {
  const entries = [...f.entries].sort((x, y) => x.L - y.L);
  // room to shade: a step below and above the family's commonest lightness at least (a one-colour
  // silhouette gets a light and a shadow of its own)
  const med = lightnessAt(entries, 0.5);
  const lo = Math.max(0.12, Math.min(lightnessAt(entries, 0.04), med - 0.11));
  const hi = Math.min(0.97, Math.max(lightnessAt(entries, 0.96), med + 0.1, lo + 0.04));
  const n = Math.max(1, steps);
  const centres = Array.from({ length: n }, (_, i) =>
    n === 1 ? (lo + hi) / 2 : lo + ((hi - lo) * i) / (n - 1),
  );
  const nearest = (L: number) => {
    let best = 0;
    for (let k = 1; k < n; k++) if (Math.abs(centres[k]! - L) < Math.abs(centres[best]! - L)) best = k;
    return best;
  };
  for (let iter = 0; iter < 6; iter++) {
    const sum = new Float64Array(n);
    const wt = new Float64Array(n);
    for (const e of entries) {
      const k = nearest(e.L);
      sum[k]! += e.L * e.n;
      wt[k]! += e.n;
    }
    for (let k = 0; k < n; k++) if (wt[k]! > 0) centres[k] = sum[k]! / wt[k]!;
    centres.sort((x, y) => x - y);
  }
  // keep the levels apart: two levels closer than 0.045 would read as one colour
  for (let k = 1; k < n; k++) centres[k] = Math.max(centres[k]!, centres[k - 1]! + 0.045);
  const ax = new Float64Array(n);
  const by = new Float64Array(n);
  const cw = new Float64Array(n);
  const ch = new Float64Array(n);
  for (const e of entries) {
    const k = nearest(e.L);
    ax[k]! += e.a * e.n;
    by[k]! += e.b * e.n;
    ch[k]! += e.C * e.n;
    cw[k]! += e.n;
  }
  const mid = (centres[0]! + centres[n - 1]!) / 2;
  const half = Math.max(0.05, (centres[n - 1]! - centres[0]!) / 2);
  const level = (k: number): [number, number] => {
    if (cw[k]! > 0) return [ch[k]! / cw[k]!, Math.atan2(by[k]!, ax[k]!)];
    return [f.chroma, f.hue];
  };
  const colours: Rgb[] = [];
  const lightness: number[] = [];
  const deepL = Math.max(0.16, Math.min(centres[0]! - 0.12, 0.36));
  const [c0, h0] = level(0);
  colours.push(rampColour(deepL, c0, h0, -1, f.grey));
  lightness.push(deepL);
  for (let k = 0; k < n; k++) {
    const [c, h] = level(k);
    const t = Math.max(-0.8, Math.min(1, (centres[k]! - mid) / half));
    colours.push(rampColour(centres[k]!, c, h, t * 0.25, f.grey || c < GREY_CHROMA));
    lightness.push(centres[k]!);
  }
  return { colours, hue: f.hue, chroma: f.chroma, grey: f.grey, lightness };
}

/**
 * A sprite's palette as ramps: its colours (packed 0xRRGGBB with their pixel counts) grouped into
 * hue families, each family a ramp whose steps share `budget` colours in all (deep shadows
 * included), by weight and lightness span. Returns the ramps and, for each input colour, the ramp it
 * belongs to.
 */
export function rampsOf(
  counts: ReadonlyMap<number, number>,
  budget: number,
): { ramps: Ramp[]; familyOf: Map<number, number> } {
  const entries: Entry[] = [];
  for (const [key, n] of counts) {
    const [L, a, b] = oklabOf((key >> 16) & 255, (key >> 8) & 255, key & 255);
    entries.push({ key, L, a, b, C: Math.hypot(a, b), h: Math.atan2(b, a), n, family: -1 });
  }
  if (!entries.length) return { ramps: [], familyOf: new Map() };
  const maxFamilies = budget <= 12 ? 3 : budget <= 16 ? 4 : budget <= 24 ? 5 : 6;
  const families = familiesOf(entries, maxFamilies);
  // steps: every family 2 at least (4 for a big one), the rest by weight and lightness span
  const total = families.reduce((s, f) => s + f.weight, 0);
  const spans = families.map((f) => lightnessAt(f.entries, 0.97) - lightnessAt(f.entries, 0.03));
  const steps = families.map((f) => (f.weight > total * 0.12 ? 3 : f.weight > total * 0.03 ? 2 : 1));
  let left = budget - families.length - steps.reduce((s, n) => s + n, 0);
  const want = families.map((f, i) => (f.weight / total) ** 0.6 * (spans[i]! + 0.08));
  while (left > 0) {
    let best = -1;
    let bestScore = 0;
    for (let i = 0; i < families.length; i++) {
      if (steps[i]! >= 7) continue;
      // a step more where it covers the most lightness per step
      const score = (want[i]! / steps[i]!) * (spans[i]! / steps[i]! > 0.05 ? 1 : 0.2);
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    if (best < 0) break;
    steps[best]!++;
    left--;
  }
  const familyOf = new Map<number, number>();
  const ramps = families.map((f, i) => {
    for (const e of f.entries) familyOf.set(e.key, i);
    return rampOfFamily(f, steps[i]!);
  });
  return { ramps, familyOf };
}

/**
 * A colour as a ramp's middle may hold it: lightness kept between 0.3 and 0.86 and chroma under the
 * cap, so an asked CSS colour (#ffff00, #0000ff) becomes a pixel artist's yellow or blue.
 */
export function temper(c: Rgb): Rgb {
  const [L0, a, b] = oklabOf(Math.round(c[0]), Math.round(c[1]), Math.round(c[2]));
  const C = Math.hypot(a, b);
  if (C < GREY_CHROMA) return c;
  const h = Math.atan2(b, a);
  const L = Math.max(0.3, Math.min(0.86, L0));
  const k = Math.min(C, chromaCap(L, h));
  return fromOklab(L, k * Math.cos(h), k * Math.sin(h));
}
