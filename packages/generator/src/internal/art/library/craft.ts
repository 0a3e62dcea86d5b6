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
