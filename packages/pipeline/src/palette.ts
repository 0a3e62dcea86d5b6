import type { Rgb } from './types/image.js';

/** An sRGB colour as [r, g, b], 0–255. */
export type { Rgb };

const hex = (list: string): Rgb[] =>
  list
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((h) => parseHex(h)!);

/** Named palettes accepted by the `palette` style key (case-insensitive). */
export const NAMED_PALETTES: Readonly<Record<string, readonly Rgb[]>> = {
  pico8: hex(
    '#000000 #1d2b53 #7e2553 #008751 #ab5236 #5f574f #c2c3c7 #fff1e8 #ff004d #ffa300 #ffec27 #00e436 #29adff #83769c #ff77a8 #ffccaa',
  ),
  sweetie16: hex(
    '#1a1c2c #5d275d #b13e53 #ef7d57 #ffcd75 #a7f070 #38b764 #257179 #29366f #3b5dc9 #41a6f6 #73eff7 #f4f4f4 #94b0c2 #566c86 #333c57',
  ),
  gameboy: hex('#0f380f #306230 #8bac0f #9bbc0f'),
  nes: hex(
    '#000000 #fcfcfc #f8f8f8 #bcbcbc #7c7c7c #a4e4fc #3cbcfc #0078f8 #0000fc #b8b8f8 #6888fc #0058f8 #0000bc #d8b8f8 #9878f8 #6844fc #4428bc #f8b8f8 #f878f8 #d800cc #940084 #f8a4c0 #f85898 #e40058 #a80020 #f0d0b0 #f87858 #f83800 #a81000 #fce0a8 #fca044 #e45c10 #881400 #f8d878 #f8b800 #ac7c00 #503000 #d8f878 #b8f818 #00b800 #007800 #b8f8b8 #58d854 #00a800 #006800 #b8f8d8 #58f898 #00a844 #005800 #00fcfc #00e8d8 #008888 #004058 #f8d8f8 #787878',
  ),
  endesga32: hex(
    '#be4a2f #d77643 #ead4aa #e4a672 #b86f50 #733e39 #3e2731 #a22633 #e43b44 #f77622 #feae34 #fee761 #63c74d #3e8948 #265c42 #193c3e #124e89 #0099db #2ce8f5 #ffffff #c0cbdc #8b9bb4 #5a6988 #3a4466 #262b44 #181425 #ff0044 #68386c #b55088 #f6757a #e8b796 #c28569',
  ),
  /** Default when no palette is given: a 24-colour general-purpose game palette. */
  default: hex(
    '#140c1c #442434 #30346d #4e4a4e #854c30 #346524 #d04648 #757161 #597dce #d27d2c #8595a1 #6daa2c #d2aa99 #6dc2ca #dad45e #deeed6 #1b2632 #2f484e #5e3643 #a05b53 #e8c170 #7a4841 #3e6958 #9cdb43',
  ),
};

const PALETTE_ALIASES: Record<string, string> = {
  pico: 'pico8',
  dmg: 'gameboy',
  gb: 'gameboy',
  famicom: 'nes',
  sweetie: 'sweetie16',
  endesga: 'endesga32',
};

export function parseHex(text: string): Rgb | null {
  const m = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(text.trim());
  if (!m) return null;
  let h = m[1]!;
  if (h.length === 3) h = h[0]! + h[0]! + h[1]! + h[1]! + h[2]! + h[2]!;
  const n = Number.parseInt(h, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function toHex(c: Rgb): string {
  return `#${((1 << 24) | (c[0] << 16) | (c[1] << 8) | c[2]).toString(16).slice(1)}`;
}

/**
 * Reads the `palette` style value: a named palette (pico8, sweetie16, gameboy, nes, endesga32)
 * or a list of 2–256 hex colours separated by commas or spaces. Returns null when absent or
 * unreadable (the caller then uses the default palette and does not enforce adherence).
 */
export function parsePalette(value: string | undefined): { colors: Rgb[]; name: string } | null {
  if (!value) return null;
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  const name = PALETTE_ALIASES[key] ?? key;
  const named = name !== 'default' ? NAMED_PALETTES[name] : undefined;
  if (named) return { colors: [...named], name };
  const parts = value.split(/[\s,;]+/).filter(Boolean);
  const colors: Rgb[] = [];
  for (const part of parts) {
    const c = parseHex(part);
    if (c && !colors.some((o) => o[0] === c[0] && o[1] === c[1] && o[2] === c[2])) colors.push(c);
  }
  if (colors.length >= 2 && colors.length <= 256 && colors.length === parts.length) {
    return { colors, name: 'custom' };
  }
  return null;
}

export function luminance(c: Rgb): number {
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

/** Weighted RGB distance² ("redmean"), good enough for nearest-colour matching. */
export function colorDistance2(
  r1: number,
  g1: number,
  b1: number,
  r2: number,
  g2: number,
  b2: number,
): number {
  const rm = (r1 + r2) / 2;
  const dr = r1 - r2;
  const dg = g1 - g2;
  const db = b1 - b2;
  return (2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db;
}

/** Hue in degrees (0–360), saturation and value (0–1) of an sRGB colour. */
export function hsvOf(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let h = 0;
  if (d > 0) {
    if (max === r) h = ((g - b) / d + 6) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
  }
  return [h * 60, max ? d / max : 0, max / 255];
}

/** Whether an sRGB colour reads as a hue at all (not white, grey or black). */
export function isChromatic(c: Rgb): boolean {
  const [, s, v] = hsvOf(c[0], c[1], c[2]);
  return s >= 0.25 && v >= 0.15;
}

/**
 * Whether a pixel is in the hue of a chromatic target: within 32° of it, with some saturation and
 * light. What `prompt_adherence` counts, and what {@link matchColourWord} picks from.
 */
export function inHueOf(target: Rgb, r: number, g: number, b: number): boolean {
  const [th] = hsvOf(target[0], target[1], target[2]);
  const [h, s, v] = hsvOf(r, g, b);
  const dh = Math.min(Math.abs(h - th), 360 - Math.abs(h - th));
  return dh <= 32 && s >= 0.2 && v >= 0.12;
}

/**
 * The palette colour a colour word becomes: for a chromatic word the nearest colour (by
 * {@link colorDistance2}) among those in its hue, so "green" under sweetie16 is one of its greens
 * rather than the dark blue-grey that is nearer in plain RGB distance; the nearest colour otherwise
 * (white, grey, black, or a palette with no colour of that hue). `avoid` colours cost 4× distance.
 */
export function matchColourWord(palette: readonly Rgb[], target: Rgb, avoid: readonly Rgb[] = []): Rgb {
  const inHue = isChromatic(target) ? palette.filter((c) => inHueOf(target, c[0], c[1], c[2])) : [];
  const pool = inHue.length > 0 ? inHue : palette;
  let best: Rgb = pool[0]!;
  let bestD = Number.POSITIVE_INFINITY;
  for (const c of pool) {
    const penalty = avoid.some((a) => a[0] === c[0] && a[1] === c[1] && a[2] === c[2]) ? 4 : 1;
    const d = colorDistance2(target[0], target[1], target[2], c[0], c[1], c[2]) * penalty;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** Nearest-colour lookup with a small cache keyed by 15-bit colour. */
export class PaletteMatcher {
  private readonly cache = new Int16Array(32768).fill(-1);
  constructor(readonly colors: readonly Rgb[]) {}
  index(r: number, g: number, b: number): number {
    const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
    const hit = this.cache[key]!;
    if (hit >= 0) return hit;
    let best = 0;
    let bestD = Number.POSITIVE_INFINITY;
    const cr = (r & 0xf8) | 4;
    const cg = (g & 0xf8) | 4;
    const cb = (b & 0xf8) | 4;
    for (let i = 0; i < this.colors.length; i++) {
      const c = this.colors[i]!;
      const d = colorDistance2(cr, cg, cb, c[0], c[1], c[2]);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    this.cache[key] = best;
    return best;
  }
  nearest(c: Rgb): Rgb {
    return this.colors[this.index(c[0], c[1], c[2])]!;
  }
}

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [
    Math.round(a[0] + (b[0] - a[0]) * t),
    Math.round(a[1] + (b[1] - a[1]) * t),
    Math.round(a[2] + (b[2] - a[2]) * t),
  ];
}
