import { fromOklab, oklab } from '../colour.js';
import { colorDistance2, luminance, matchColourWord, type PaletteMatcher, type Rgb } from '../palette.js';
import type { ResolvedStyle } from '../style.js';
import type { RgbaImage } from '../types/index.js';

/** A colour ramp built from palette entries only, so shaded output stays inside the palette. */
export interface Ramp {
  shadow: Rgb;
  dark: Rgb;
  base: Rgb;
  light: Rgb;
  outline: Rgb;
}

export interface Material {
  ramp: Ramp;
  /** Flat materials (eyes, gems' sparkle) are drawn in `base` without shading. */
  flat?: boolean;
  /** Shiny materials get a specular pixel on the lit side. */
  shiny?: boolean;
}

/** Palette-aware colour picking shared by every generator. */
export class Painter {
  readonly darkest: Rgb;
  readonly lightest: Rgb;
  constructor(
    readonly palette: readonly Rgb[],
    readonly matcher: PaletteMatcher,
    /**
     * With no palette enforced, a material's ramp is built from its own colour (a pixel artist's
     * hue-shifted ramp) instead of the nearest working-palette colours: a palette without dark reds
     * or golds would otherwise shade a crimson robe brown and a gold crown green.
     */
    readonly free = false,
  ) {
    const sorted = [...palette].sort((a, b) => luminance(a) - luminance(b));
    this.darkest = sorted[0]!;
    this.lightest = sorted[sorted.length - 1]!;
  }

  /** The palette colour nearest to `target`, avoiding `avoid` when another colour is close enough. */
  choose(target: Rgb, avoid: readonly Rgb[] = []): Rgb {
    let best: Rgb = this.palette[0]!;
    let bestD = Number.POSITIVE_INFINITY;
    for (const c of this.palette) {
      const penalty = avoid.some((a) => a[0] === c[0] && a[1] === c[1] && a[2] === c[2]) ? 4 : 1;
      const d = colorDistance2(target[0], target[1], target[2], c[0], c[1], c[2]) * penalty + 1;
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best;
  }

  /** A palette colour darker (dir -1) or lighter (dir 1) than `base`, close in hue. */
  step(base: Rgb, dir: -1 | 1, amount = 0.45): Rgb {
    const lb = luminance(base);
    const target: Rgb =
      dir < 0
        ? [
            base[0] * (1 - amount) + 20 * amount,
            base[1] * (1 - amount) + 12 * amount,
            base[2] * (1 - amount) + 40 * amount,
          ]
        : [
            base[0] + (255 - base[0]) * amount,
            base[1] + (250 - base[1]) * amount,
            base[2] + (220 - base[2]) * amount,
          ];
    let best: Rgb | null = null;
    let bestD = Number.POSITIVE_INFINITY;
    for (const c of this.palette) {
      const l = luminance(c);
      if (dir < 0 ? l >= lb - 6 : l <= lb + 6) continue;
      const d = colorDistance2(target[0], target[1], target[2], c[0], c[1], c[2]);
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best ?? base;
  }

  /**
   * A palette colour lighter (dir 1) or darker (dir -1) than `base` that keeps its hue, the way a
   * pixel artist builds a ramp: compared in OKLab, with hue and chroma weighed well above
   * lightness, lights leaning a little to yellow and shadows to blue (hue shifting). A grey's light is
   * a lighter grey, never a pink that happens to be near in RGB.
   */
  shade(base: Rgb, dir: -1 | 1, amount = 0.45): Rgb {
    const [L, a, b] = oklab(base);
    const tL = dir > 0 ? L + (1 - L) * amount * 0.75 : L * (1 - amount * 0.8);
    const ta = a * (dir > 0 ? 0.9 : 1);
    const tb = b + (dir > 0 ? 0.015 : -0.02);
    let best: Rgb | null = null;
    let bestD = Number.POSITIVE_INFINITY;
    for (const c of this.palette) {
      const [cl, ca, cb] = oklab(c);
      if (dir > 0 ? cl <= L + 0.04 : cl >= L - 0.04) continue;
      const d = 0.5 * (cl - tL) ** 2 + 6 * ((ca - ta) ** 2 + (cb - tb) ** 2);
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best ?? (dir > 0 ? base : this.step(base, -1, amount));
  }

  /** The palette colour nearest to `target` in OKLab (hue and chroma weighed double), avoiding `avoid`. */
  chooseLab(target: Rgb, avoid: readonly Rgb[] = []): Rgb {
    const [L, a, b] = oklab(target);
    let best: Rgb = this.palette[0]!;
    let bestD = Number.POSITIVE_INFINITY;
    for (const c of this.palette) {
      const [cl, ca, cb] = oklab(c);
      const penalty = avoid.some((x) => x[0] === c[0] && x[1] === c[1] && x[2] === c[2]) ? 4 : 1;
      const d = ((cl - L) ** 2 + 2 * ((ca - a) ** 2 + (cb - b) ** 2)) * penalty + 1e-6;
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best;
  }

  /** A hue-keeping ramp (see `shade`) for sprites' materials. */
  spriteRamp(target: Rgb, avoid: readonly Rgb[] = [], byRgb = false): Ramp {
    if (this.free && !byRgb) return freeRamp(target);
    // the asked body colour is matched as a colour word (what prompt_adherence checks): the nearest
    // palette colour in its hue, so "green" is the palette's green, not a teal or a blue-grey nearer in RGB
    const base = byRgb ? matchColourWord(this.palette, target, avoid) : this.chooseLab(target, avoid);
    const dark = this.shade(base, -1, 0.35);
    // a saturated colour keeps its hue into the shadow: a shadow of another hue (a green's teal-grey)
    // would read as another material, so the dark tone doubles as the shadow then
    const deeper = this.shade(dark, -1, 0.35);
    const hue = ([, a, b]: readonly number[]) => Math.atan2(b!, a!);
    const [, ba, bb] = oklab(base);
    const turn = Math.abs(((hue(oklab(deeper)) - hue(oklab(base)) + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
    const shadow = Math.hypot(ba, bb) > 0.08 && turn > 0.9 ? dark : deeper;
    const light = this.shade(base, 1, 0.45);
    const outlineCandidate = this.shade(shadow, -1, 0.5);
    const outline = oklab(outlineCandidate)[0] < oklab(shadow)[0] - 0.02 ? outlineCandidate : this.darkest;
    return { shadow, dark, base, light, outline };
  }

  ramp(target: Rgb, avoid: readonly Rgb[] = []): Ramp {
    const base = this.choose(target, avoid);
    const dark = this.step(base, -1);
    const shadow = this.step(dark, -1, 0.35);
    const light = this.step(base, 1);
    const outlineCandidate = this.step(shadow, -1, 0.5);
    const outline = luminance(outlineCandidate) < luminance(base) ? outlineCandidate : this.darkest;
    return { shadow, dark, base, light, outline };
  }
}

/**
 * A material's ramp from its own colour in OKLab: lighter steps lean warm and a little less saturated,
 * darker ones cool and deeper, the outline darkest of the hue (never pure black).
 */
function freeRamp(target: Rgb): Ramp {
  const [L, a, b] = oklab(target);
  // greys and steels stay neutral: the hue shift grows with the colour's own chroma
  const shift = Math.min(1, Math.hypot(a, b) / 0.1);
  const at = (l: number, k: number, db: number): Rgb =>
    fromOklab(Math.max(0.04, Math.min(0.97, l)), a * k, b * k + db * shift);
  return {
    light: at(L + 0.12, 0.85, 0.015),
    base: at(L, 1, 0),
    dark: at(L - 0.12, 1.02, -0.012),
    shadow: at(L - 0.22, 0.95, -0.025),
    outline: at(Math.min(0.22, L - 0.34), 0.7, -0.03),
  };
}

/** Packs an sRGB colour as the little-endian RGBA word of an opaque pixel (0 is an empty pixel). */
export const pack = (c: readonly [number, number, number]): number =>
  ((255 << 24) | (clamp8(c[2]) << 16) | (clamp8(c[1]) << 8) | clamp8(c[0])) >>> 0;
/** The colour of a packed opaque pixel (see {@link pack}). */
export const unpack = (v: number): Rgb => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255];
const clamp8 = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

/**
 * The one pixel canvas every drawing of the built-in generator paints on: `w × h` cells of one
 * 32-bit value each, 0 empty. What a value means is the drawing's: a material index (1–255, into a
 * `Material` list, shaded by {@link shadeGrid}: the rig), or a packed opaque colour ({@link pack}:
 * scene layers, UI pieces). Every primitive sets whole cells to one value, sampled at cell centres:
 * shapes are pixel-art shapes, never blended.
 */
export class PixelCanvas {
  readonly px: Uint32Array;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    this.px = new Uint32Array(w * h);
  }
  inside(x: number, y: number): boolean {
    return x >= 0 && y >= 0 && x < this.w && y < this.h;
  }
  get(x: number, y: number): number {
    return this.inside(x, y) ? this.px[Math.floor(y) * this.w + Math.floor(x)]! : 0;
  }
  set(x: number, y: number, v: number): void {
    const xi = Math.floor(x);
    const yi = Math.floor(y);
    if (xi >= 0 && yi >= 0 && xi < this.w && yi < this.h) this.px[yi * this.w + xi] = v;
  }
  /** Sets a cell to a colour (packed), or empties it with null. */
  paint(x: number, y: number, c: readonly [number, number, number] | null): void {
    this.set(x, y, c ? pack(c) : 0);
  }
  /** Half-open rectangle [x0, x1) × [y0, y1), corners rounded to cells (either order). */
  rect(x0: number, y0: number, x1: number, y1: number, v: number): void {
    const ax = Math.max(0, Math.round(Math.min(x0, x1)));
    const bx = Math.min(this.w, Math.round(Math.max(x0, x1)));
    const ay = Math.max(0, Math.round(Math.min(y0, y1)));
    const by = Math.min(this.h, Math.round(Math.max(y0, y1)));
    if (bx <= ax) return;
    for (let y = ay; y < by; y++) this.px.fill(v, y * this.w + ax, y * this.w + bx);
  }
  /**
   * The cells whose centres are inside the ellipse; with `dither` (0–1) its outer part thins out in
   * an ordered (Bayer) pattern, as a glow fades.
   */
  ellipse(cx: number, cy: number, rx: number, ry: number, v: number, dither = 0): void {
    if (!(rx > 0) || !(ry > 0)) return;
    const x0 = Math.max(0, Math.floor(cx - rx - 1));
    const x1 = Math.min(this.w - 1, Math.ceil(cx + rx + 1));
    const y0 = Math.max(0, Math.floor(cy - ry - 1));
    const y1 = Math.min(this.h - 1, Math.ceil(cy + ry + 1));
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const dx = (x + 0.5 - cx) / rx;
        const dy = (y + 0.5 - cy) / ry;
        const d2 = dx * dx + dy * dy;
        if (d2 > 1) continue;
        if (dither && !(bayer(x, y) > (Math.sqrt(d2) - (1 - dither)) / dither)) continue;
        this.px[y * this.w + x] = v;
      }
  }
  disc(cx: number, cy: number, r: number, v: number, dither = 0): void {
    this.ellipse(cx, cy, r, r, v, dither);
  }
  /** A thick line segment with round ends. */
  capsule(x0: number, y0: number, x1: number, y1: number, r: number, v: number): void {
    const minX = Math.max(0, Math.floor(Math.min(x0, x1) - r - 1));
    const maxX = Math.min(this.w - 1, Math.ceil(Math.max(x0, x1) + r + 1));
    const minY = Math.max(0, Math.floor(Math.min(y0, y1) - r - 1));
    const maxY = Math.min(this.h - 1, Math.ceil(Math.max(y0, y1) + r + 1));
    const dx = x1 - x0;
    const dy = y1 - y0;
    const len2 = dx * dx + dy * dy || 1e-9;
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const px = x + 0.5 - x0;
        const py = y + 0.5 - y0;
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        const ex = px - t * dx;
        const ey = py - t * dy;
        if (ex * ex + ey * ey <= r * r) this.px[y * this.w + x] = v;
      }
    }
  }
  /** A filled polygon (even-odd rule, sampled at cell centres). */
  polygon(points: ReadonlyArray<readonly [number, number]>, v: number): void {
    if (points.length < 3) return;
    let minY = Number.POSITIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (const [, y] of points) {
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    const y0 = Math.max(0, Math.floor(minY));
    const y1 = Math.min(this.h - 1, Math.ceil(maxY));
    for (let y = y0; y <= y1; y++) {
      const sy = y + 0.5;
      const xs: number[] = [];
      for (let i = 0; i < points.length; i++) {
        const [ax, ay] = points[i]!;
        const [bx, by] = points[(i + 1) % points.length]!;
        if (ay <= sy !== by <= sy) xs.push(ax + ((sy - ay) / (by - ay)) * (bx - ax));
      }
      xs.sort((a, b) => a - b);
      for (let k = 0; k + 1 < xs.length; k += 2) {
        const from = Math.max(0, Math.ceil(xs[k]! - 0.5));
        const to = Math.min(this.w - 1, Math.floor(xs[k + 1]! - 0.5));
        for (let x = from; x <= to; x++) this.px[y * this.w + x] = v;
      }
    }
  }
  /** A line one cell wide (or a square pen `width` cells wide). */
  line(x0: number, y0: number, x1: number, y1: number, v: number, width = 1): void {
    const n = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    for (let i = 0; i <= n; i++) {
      const x = x0 + ((x1 - x0) * i) / n;
      const y = y0 + ((y1 - y0) * i) / n;
      if (width <= 1) this.set(x, y, v);
      else this.rect(x - width / 2, y - width / 2, x + width / 2, y + width / 2, v);
    }
  }
  /** Draws an RGBA picture (its opaque pixels) with its top-left at x, y; `map` may recolour it. */
  blit(img: RgbaImage, x: number, y: number, map?: (c: Rgb) => readonly [number, number, number]): void {
    const ox = Math.round(x);
    const oy = Math.round(y);
    const memo = new Map<number, number>();
    for (let j = 0; j < img.height; j++)
      for (let i = 0; i < img.width; i++) {
        const s = (j * img.width + i) * 4;
        if (img.data[s + 3]! < 128) continue;
        const tx = ox + i;
        const ty = oy + j;
        if (tx < 0 || ty < 0 || tx >= this.w || ty >= this.h) continue;
        const key = (img.data[s]! << 16) | (img.data[s + 1]! << 8) | img.data[s + 2]!;
        let v = memo.get(key);
        if (v === undefined) {
          const c: Rgb = [img.data[s]!, img.data[s + 1]!, img.data[s + 2]!];
          v = pack(map ? map(c) : c);
          memo.set(key, v);
        }
        this.px[ty * this.w + tx] = v;
      }
  }
  /** Recolours every coloured cell (ambient light, haze). */
  map(fn: (c: Rgb) => readonly [number, number, number]): void {
    const memo = new Map<number, number>();
    for (let i = 0; i < this.px.length; i++) {
      const v = this.px[i]!;
      if (!v) continue;
      let r = memo.get(v);
      if (r === undefined) {
        r = pack(fn(unpack(v)));
        memo.set(v, r);
      }
      this.px[i] = r;
    }
  }
  /** Mirrors the left half onto the right half. */
  mirrorX(): void {
    for (let y = 0; y < this.h; y++)
      for (let x = 0; x < this.w >> 1; x++) this.px[y * this.w + (this.w - 1 - x)] = this.px[y * this.w + x]!;
  }
  /** The share of cells that are not empty. */
  coverage(): number {
    let n = 0;
    for (const v of this.px) if (v) n++;
    return n / this.px.length;
  }
  /** A canvas of packed colours as RGBA (transparent where empty). */
  rgba(): RgbaImage {
    return { width: this.w, height: this.h, data: new Uint8Array(new Uint32Array(this.px).buffer) };
  }
  /** A canvas of packed colours as RGBA, each cell `factor` pixels, centred on `width × height`. */
  image(factor: number, width: number, height: number): RgbaImage {
    return upscale(new Uint8Array(this.px.buffer), this.w, this.h, factor, width, height);
  }
}

/**
 * Shades a material grid into RGBA: per-part dome shading from a distance field (lit towards the
 * style's light direction, in three bands plus shadow), a specular pixel on shiny parts, and a
 * selective outline `lineWeight` cells thick. Every colour comes from the materials' ramps.
 */
export function shadeGrid(
  grid: PixelCanvas,
  materials: readonly Material[],
  style: ResolvedStyle,
): Uint8Array {
  const { w, h, px: mat } = grid;
  const dist = new Float32Array(w * h);
  const INF = 1e6;
  for (let i = 0; i < mat.length; i++) dist[i] = mat[i] ? INF : 0;
  // two-pass chamfer distance to the nearest cell of a different material (parts shade separately)
  const same = (i: number, j: number) => mat[i] === mat[j];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!mat[i]) continue;
      let d = dist[i]!;
      d = Math.min(d, x > 0 && same(i, i - 1) ? dist[i - 1]! + 1 : 1);
      d = Math.min(d, y > 0 && same(i, i - w) ? dist[i - w]! + 1 : 1);
      d = Math.min(d, x > 0 && y > 0 && same(i, i - w - 1) ? dist[i - w - 1]! + Math.SQRT2 : 1);
      d = Math.min(d, x < w - 1 && y > 0 && same(i, i - w + 1) ? dist[i - w + 1]! + Math.SQRT2 : 1);
      dist[i] = d;
    }
  }
  for (let y = h - 1; y >= 0; y--) {
    for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      if (!mat[i]) continue;
      let d = dist[i]!;
      d = Math.min(d, x < w - 1 && same(i, i + 1) ? dist[i + 1]! + 1 : 1);
      d = Math.min(d, y < h - 1 && same(i, i + w) ? dist[i + w]! + 1 : 1);
      d = Math.min(d, x < w - 1 && y < h - 1 && same(i, i + w + 1) ? dist[i + w + 1]! + Math.SQRT2 : 1);
      d = Math.min(d, x > 0 && y < h - 1 && same(i, i + w - 1) ? dist[i + w - 1]! + Math.SQRT2 : 1);
      dist[i] = d;
    }
  }
  const out = new Uint8Array(w * h * 4);
  const { x: lx, y: ly } = style.light;
  const sx = Math.abs(lx) > 0.3 ? Math.sign(lx) : 0;
  const sy = Math.abs(ly) > 0.3 ? Math.sign(ly) : 0;
  const mood = style.mood;
  const scale = Math.max(1, w / 32);
  const put = (i: number, c: Rgb) => {
    out[i * 4] = c[0];
    out[i * 4 + 1] = c[1];
    out[i * 4 + 2] = c[2];
    out[i * 4 + 3] = 255;
  };
  const empty = (x: number, y: number) => x < 0 || y < 0 || x >= w || y >= h || mat[y * w + x] === 0;
  const outside = (x: number, y: number, m: number) =>
    x < 0 || y < 0 || x >= w || y >= h || mat[y * w + x] !== m;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const m = mat[i]!;
      if (!m) continue;
      const material = materials[m - 1];
      if (!material) continue;
      const r = material.ramp;
      if (material.flat || mood === 'flat') {
        put(i, r.base);
        continue;
      }
      // classic pixel-art shading: a highlight on the edges facing the light, a shadow band on the
      // edges facing away, and a dithered core shadow on big parts
      const d = dist[i]!;
      // the highlight follows the silhouette's lit rim only: a part's edge against another part is
      // told apart by the shadow band below it, not by a second highlight (that reads as noise)
      const litEdge = (sx !== 0 && empty(x + sx, y)) || (sy !== 0 && empty(x, y + sy));
      const band = Math.max(1, Math.round(scale * (mood === 'dramatic' ? 1.6 : 1)));
      let darkEdge = false;
      let deepEdge = false;
      for (let k = 1; k <= band + 1; k++) {
        if ((sx !== 0 && outside(x - sx * k, y, m)) || (sy !== 0 && outside(x, y - sy * k, m))) {
          if (k <= band) darkEdge = true;
          if (k === 1 && d >= 1) deepEdge = mood === 'dramatic' || mood === 'night';
          break;
        }
      }
      let c: Rgb = r.base;
      if (litEdge && !(mood === 'night' && !darkEdge)) c = r.light;
      else if (deepEdge) c = r.shadow;
      else if (darkEdge) c = r.dark;
      else if (mood === 'night' && bayer(x, y) < 0.5) c = r.dark;
      if (material.shiny && !litEdge && !darkEdge && d >= 1.9 && d < 2.9 && empty(x + sx * 2, y + sy * 2))
        c = r.light;
      put(i, c);
    }
  }
  if (style.lineWeight > 0) {
    // one art pixel (two for a thick line) at every size: a larger sprite has more detail, not fatter lines
    const thick = style.lineWeight;
    const src = mat.slice();
    for (let pass = 0; pass < thick; pass++) {
      // each pass grows the outline by one cell; later passes copy the outline colour outwards
      const add: Array<[number, Rgb]> = [];
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const i = y * w + x;
          if (out[i * 4 + 3]) continue;
          let neighbour = -1;
          if (x > 0 && out[(i - 1) * 4 + 3]) neighbour = i - 1;
          else if (x < w - 1 && out[(i + 1) * 4 + 3]) neighbour = i + 1;
          else if (y > 0 && out[(i - w) * 4 + 3]) neighbour = i - w;
          else if (y < h - 1 && out[(i + w) * 4 + 3]) neighbour = i + w;
          if (neighbour < 0) continue;
          const m = src[neighbour]!;
          const material = m ? materials[m - 1] : undefined;
          add.push([
            i,
            material
              ? material.ramp.outline
              : [out[neighbour * 4]!, out[neighbour * 4 + 1]!, out[neighbour * 4 + 2]!],
          ]);
        }
      }
      for (const [i, c] of add) {
        put(i, c);
        src[i] = 0;
      }
    }
  }
  return out;
}

/** Nearest-neighbour upscale by an integer factor, centred on a transparent canvas of outW × outH. */
export function upscale(
  src: Uint8Array,
  sw: number,
  sh: number,
  factor: number,
  outW: number,
  outH: number,
): RgbaImage {
  const data = new Uint8Array(outW * outH * 4);
  const ox = Math.floor((outW - sw * factor) / 2);
  const oy = Math.floor((outH - sh * factor) / 2);
  const src32 = new Uint32Array(src.buffer, src.byteOffset, sw * sh);
  const dst32 = new Uint32Array(data.buffer);
  for (let y = 0; y < outH; y++) {
    const sy = Math.floor((y - oy) / factor);
    if (sy < 0 || sy >= sh) continue;
    const row = sy * sw;
    const drow = y * outW;
    for (let x = 0; x < outW; x++) {
      const sx = Math.floor((x - ox) / factor);
      if (sx < 0 || sx >= sw) continue;
      dst32[drow + x] = src32[row + sx]!;
    }
  }
  return { width: outW, height: outH, data };
}

/** The art grid for a frame: `gridHint` cells at most, scaled up by a whole factor. */
export function gridFor(
  width: number,
  height: number,
  hint: number,
): { gw: number; gh: number; factor: number } {
  const factor = Math.max(1, Math.floor(Math.max(width, height) / hint));
  return {
    gw: Math.max(1, Math.floor(width / factor)),
    gh: Math.max(1, Math.floor(height / factor)),
    factor,
  };
}

/** 4×4 Bayer threshold in [0, 1) for ordered dithering. */
const BAYER = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];
export function bayer(x: number, y: number): number {
  return (BAYER[(y & 3) * 4 + (x & 3)]! + 0.5) / 16;
}
