import type { Rgb } from './palette.js';

/** sRGB 0–255 → linear light, by table. */
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const toSrgb = (v: number) => {
  const c = v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055;
  return Math.max(0, Math.min(255, Math.round(c * 255)));
};

/** sRGB (0–255 channels) → OKLab [L, a, b] (Björn Ottosson's matrices). The pipeline's one OKLab. */
export function oklabOf(r: number, g: number, b: number): [number, number, number] {
  const lr = LINEAR[r & 255]!;
  const lg = LINEAR[g & 255]!;
  const lb = LINEAR[b & 255]!;
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** sRGB colour → OKLab [L, a, b]. */
export function oklab(c: Rgb): [number, number, number] {
  return oklabOf(Math.round(c[0]), Math.round(c[1]), Math.round(c[2]));
}

/** OKLab → sRGB, clamped to the gamut channel by channel. */
export function fromOklab(L: number, a: number, b: number): Rgb {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    toSrgb(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    toSrgb(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    toSrgb(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

/** OKLCh: lightness, chroma and hue (radians) of an sRGB colour. */
export function oklch(c: Rgb): [number, number, number] {
  const [L, a, b] = oklab(c);
  return [L, Math.hypot(a, b), Math.atan2(b, a)];
}

/** The shortest turn between two hues, in radians (0–π). */
export function hueTurn(h1: number, h2: number): number {
  return Math.abs(((h1 - h2 + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
}
