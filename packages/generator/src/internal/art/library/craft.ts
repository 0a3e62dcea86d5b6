import type { RgbaImage } from '@assetloom/pipeline';
import type { Rgb } from '@assetloom/pipeline/pixel';
import { fromOklab, hueTurn, oklabOf, oklch } from '@assetloom/pipeline/pixel';

/**
 * The passes that turn a render of a drawing into pixels before the look every sprite shares
 * (look/index.ts): a known-grid downsample and a recolour to the asked colour.
 */

/** A picture rendered at `ss` × the grid, read back one cell at a time. */
export interface Supersampled {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/**
 * One pixel per `ss` × `ss` cell: transparent when under half the cell is covered, else the
 * commonest colour among its covered samples (colours binned at 5 bits a channel, the bin's mean):
 * a cell on the border of two colours takes one of them, never their blend, so edges stay crisp.
 */
export function downsample(src: Supersampled, ss: number, gw: number, gh: number): RgbaImage {
  const out = new Uint8Array(gw * gh * 4);
  const bins = new Map<number, [number, number, number, number]>();
  const need = (ss * ss) / 2;
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      bins.clear();
      let covered = 0;
      for (let sy = 0; sy < ss; sy++) {
        const y = gy * ss + sy;
        if (y >= src.height) continue;
        for (let sx = 0; sx < ss; sx++) {
          const x = gx * ss + sx;
          if (x >= src.width) continue;
          const i = (y * src.width + x) * 4;
          if (src.data[i + 3]! < 128) continue;
          covered++;
          const r = src.data[i]!;
          const g = src.data[i + 1]!;
          const b = src.data[i + 2]!;
          const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
          const bin = bins.get(key);
          if (bin) {
            bin[0] += r;
            bin[1] += g;
            bin[2] += b;
            bin[3]++;
          } else bins.set(key, [r, g, b, 1]);
        }
      }
      if (covered < need) continue;
      let best: [number, number, number, number] | null = null;
      for (const bin of bins.values()) if (!best || bin[3] > best[3]) best = bin;
      const o = (gy * gw + gx) * 4;
      out[o] = Math.round(best![0] / best![3]);
      out[o + 1] = Math.round(best![1] / best![3]);
      out[o + 2] = Math.round(best![2] / best![3]);
      out[o + 3] = 255;
    }
  return { width: gw, height: gh, data: out };
}

/**
 * Turns the drawing's own colour family to `target`: the pixels within ~50° of the drawing's main
 * hue take the target's hue and chroma, keeping their lightness relative to the main colour, so
 * a green dragon asked red is red with its own shading, and its white belly and dark eyes stay.
 * A grey target (white, grey, black) moves lightness and drops chroma the same way.
 */
/** `main` turned round the hue circle by `degrees` (OKLCh), its lightness and chroma kept: a seed's other ramp. */
export function hueTurned(main: Rgb, degrees: number): Rgb {
  const [L, C, H] = oklch(main);
  const h = H + (degrees * Math.PI) / 180;
  return fromOklab(L, C * Math.cos(h), C * Math.sin(h));
}

export function recolour(img: RgbaImage, main: Rgb, target: Rgb): void {
  const [mL, mC, mH] = oklch(main);
  const [tL, tC, tH] = oklch(target);
  const chromatic = mC > 0.04;
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 0) continue;
    const [L, a, b] = oklabOf(d[i]!, d[i + 1]!, d[i + 2]!);
    const C = Math.hypot(a, b);
    const H = Math.atan2(b, a);
    // the main colour's family: its hue (for a chromatic main), or its greys (for a grey main)
    const inFamily = chromatic ? C > 0.03 && hueTurn(H, mH) < 0.9 : C < 0.05 && Math.abs(L - mL) < 0.3;
    if (!inFamily) continue;
    const nL = Math.max(0.08, Math.min(0.97, tL + (L - mL) * (tL > 0.85 || tL < 0.2 ? 0.5 : 0.9)));
    const nC = tC < 0.04 ? tC : Math.max(0.02, tC * (chromatic ? C / mC : 1));
    const [r, g, bb] = fromOklab(nL, nC * Math.cos(tH), nC * Math.sin(tH));
    d[i] = r;
    d[i + 1] = g;
    d[i + 2] = bb;
  }
}

/** Chamfer (3-4) distance of every cell to the nearest cell where `seed` is false, in cells. */
function chamfer(seed: Uint8Array, w: number, h: number): Float32Array {
  const d = new Float32Array(w * h);
  const big = 1e6;
  for (let p = 0; p < w * h; p++) d[p] = seed[p] ? big : 0;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? 0 : d[y * w + x]!);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      if (!d[p]) continue;
      d[p] = Math.min(d[p]!, at(x - 1, y) + 3, at(x, y - 1) + 3, at(x - 1, y - 1) + 4, at(x + 1, y - 1) + 4);
    }
  for (let y = h - 1; y >= 0; y--)
    for (let x = w - 1; x >= 0; x--) {
      const p = y * w + x;
      if (!d[p]) continue;
      d[p] = Math.min(d[p]!, at(x + 1, y) + 3, at(x, y + 1) + 3, at(x + 1, y + 1) + 4, at(x - 1, y + 1) + 4);
    }
  for (let p = 0; p < w * h; p++) d[p] = d[p]! / 3;
  return d;
}

/**
 * A one-colour silhouette's thin long parts — a flag's pole, a lantern's handle, a hammer's haft —
 * found as what a morphological opening (a disc of 6.5 % of the subject's size) removes, kept where a
 * removed piece is long (0.4 of the subject: a crystal's tip is not) and runs out to the subject's end, there are one or
 * two such pieces, and they are 3–35 % of the silhouette.
 * Returns a mask of those cells, or null when the silhouette has none (decision 0085: a flag and its
 * pole in one brown read as a placeholder).
 */
export function thinParts(img: RgbaImage): Uint8Array | null {
  const { width: w, height: h, data } = img;
  const solid = new Uint8Array(w * h);
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  let area = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (data[(y * w + x) * 4 + 3]! >= 128) {
        solid[y * w + x] = 1;
        area++;
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  if (!area) return null;
  const size = Math.max(x1 - x0 + 1, y1 - y0 + 1);
  const r = Math.max(1.5, size * 0.065);
  const inner = chamfer(solid, w, h);
  const core = new Uint8Array(w * h);
  for (let p = 0; p < w * h; p++) core[p] = inner[p]! > r ? 0 : 1;
  // distance to the nearest core cell (core = cells deeper than r): the opening is what lies within r
  const toCore = chamfer(core, w, h);
  const thin = new Uint8Array(w * h);
  for (let p = 0; p < w * h; p++) thin[p] = solid[p] && toCore[p]! > r + 0.5 ? 1 : 0;
  // long pieces only (a notch's corner or a spike's tip is no part of its own)
  const keep = new Uint8Array(w * h);
  const seen = new Uint8Array(w * h);
  let kept = 0;
  let pieces = 0;
  for (let s = 0; s < w * h; s++) {
    if (!thin[s] || seen[s]) continue;
    const group: number[] = [];
    const stack = [s];
    seen[s] = 1;
    let gx0 = w;
    let gy0 = h;
    let gx1 = -1;
    let gy1 = -1;
    while (stack.length) {
      const p = stack.pop()!;
      group.push(p);
      const x = p % w;
      const y = (p - x) / w;
      gx0 = Math.min(gx0, x);
      gy0 = Math.min(gy0, y);
      gx1 = Math.max(gx1, x);
      gy1 = Math.max(gy1, y);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (thin[q] && !seen[q]) {
            seen[q] = 1;
            stack.push(q);
          }
        }
    }
    // a pole or a haft runs out to the subject's end (a sliver inside a head does not)
    const reachesEnd = gx0 <= x0 + 1 || gy0 <= y0 + 1 || gx1 >= x1 - 1 || gy1 >= y1 - 1;
    if (Math.max(gx1 - gx0 + 1, gy1 - gy0 + 1) < size * 0.4 || !reachesEnd) continue;
    for (const p of group) keep[p] = 1;
    kept += group.length;
    pieces++;
  }
  // one pole or two (a haft and its spike); more is a frame of one material (a table's top and legs)
  return pieces <= 2 && kept >= area * 0.03 && kept <= area * 0.35 ? keep : null;
}

/**
 * The cells of `mask` recoloured from `from` to `to`, each keeping its lightness offset from `from`
 * (a carved line on a pole stays a line).
 */
export function paintParts(img: RgbaImage, mask: Uint8Array, from: Rgb, to: Rgb): void {
  const [fL] = oklabOf(from[0], from[1], from[2]);
  const [tL, ta, tb] = oklabOf(to[0], to[1], to[2]);
  const d = img.data;
  for (let p = 0; p < mask.length; p++) {
    if (!mask[p] || d[p * 4 + 3]! < 128) continue;
    const [L] = oklabOf(d[p * 4]!, d[p * 4 + 1]!, d[p * 4 + 2]!);
    const c = fromOklab(Math.max(0.1, Math.min(0.95, tL + (L - fL))), ta, tb);
    d[p * 4] = c[0];
    d[p * 4 + 1] = c[1];
    d[p * 4 + 2] = c[2];
  }
}

/**
 * Holes of a few transparent cells inside a silhouette (4-connected, not reaching the outside; at
 * most 3 cells, or 0.3 % of the frame: 12 at 64 px, 49 at 128) take the commonest colour round them: a silhouette's carved lines, halved,
 * leave such holes between a hoop and a stave that read as near-white flecks on the background
 * (a barrel drawn at the framing rule's full size, decision 0095, left one of 10 at 64 px).
 */
export function fillPinholes(img: RgbaImage): void {
  const { width: w, height: h, data: d } = img;
  const seen = new Uint8Array(w * h);
  for (let s = 0; s < w * h; s++) {
    if (seen[s] || d[s * 4 + 3]) continue;
    const group: number[] = [];
    const stack = [s];
    seen[s] = 1;
    let open = false;
    while (stack.length) {
      const p = stack.pop()!;
      group.push(p);
      const x = p % w;
      const y = (p - x) / w;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) open = true;
      for (const q of [
        x > 0 ? p - 1 : -1,
        x < w - 1 ? p + 1 : -1,
        y > 0 ? p - w : -1,
        y < h - 1 ? p + w : -1,
      ])
        if (q >= 0 && !seen[q] && !d[q * 4 + 3]) {
          seen[q] = 1;
          stack.push(q);
        }
    }
    if (open || group.length > Math.max(3, w * h * 0.003)) continue;
    for (const p of group) {
      const counts = new Map<number, number>();
      const x = p % w;
      const y = (p - x) / w;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const i = (ny * w + nx) * 4;
          if (!d[i + 3]) continue;
          const k = (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
          counts.set(k, (counts.get(k) ?? 0) + 1);
        }
      let best = -1;
      let bestN = 0;
      for (const [k, n] of counts)
        if (n > bestN) {
          best = k;
          bestN = n;
        }
      if (best < 0) continue;
      d[p * 4] = (best >> 16) & 255;
      d[p * 4 + 1] = (best >> 8) & 255;
      d[p * 4 + 2] = best & 255;
      d[p * 4 + 3] = 255;
    }
  }
}
