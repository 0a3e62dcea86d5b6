import { inflateSync } from 'fflate';
import { DrawingsError } from './errors.js';
import { readPackageFile } from './load.js';

/**
 * The bitmap fonts UI pieces are lettered with (built by scripts/build-fonts.mjs from fonts on npm
 * under the SIL Open Font License 1.1):
 * - `assetloom-8`: Press Start 2P's glyphs as 8 × 8 bitmaps (Latin; the conversion carries another
 *   name, as the font's Reserved Font Name asks);
 * - `unifont`: GNU Unifont at 16 px (Latin 8 × 16, CJK ideographs, punctuation and full-width forms 16 × 16).
 */
export type FontName = 'assetloom-8' | 'unifont';

export interface Glyph {
  /** Pixels to the next glyph's origin. */
  advance: number;
  width: number;
  /** Row-major, `ceil(width / 8)` bytes a row, most significant bit first. */
  bits: Uint8Array;
}

export interface BitmapFont {
  name: FontName;
  /** Pixels from the top of a line to the bottom of its lowest glyph. */
  cellHeight: number;
  /** Pixels from the top of a line to its baseline. */
  baseline: number;
  glyph(codepoint: number): Glyph | undefined;
  /** Whether every character of the text has a glyph (spaces included). */
  covers(text: string): boolean;
  /** The text's width in pixels, `spacing` extra pixels between glyphs. */
  measure(text: string, spacing?: number): number;
  /** Calls `put(x, y)` for every pixel of the text set from (x, y) at its top-left. */
  draw(text: string, x: number, y: number, put: (x: number, y: number) => void, spacing?: number): void;
}

/** The font's licence, author and source, for a piece's provenance. */
export const FONT_LICENCES: Record<
  FontName,
  { font: string; licence: string; author: string; source: string }
> = {
  'assetloom-8': {
    font: 'Press Start 2P (converted to an 8 × 8 bitmap font, "assetloom-8")',
    licence: 'OFL-1.1',
    author: 'The Press Start 2P Project Authors (CodeMan38)',
    source: 'https://www.npmjs.com/package/@fontsource/press-start-2p',
  },
  unifont: {
    font: 'GNU Unifont 16 px',
    licence: 'OFL-1.1',
    author: 'GNU Unifont Authors (Roman Czyborra, Paul Hardy and others)',
    source: 'https://www.npmjs.com/package/@fontsource/unifont',
  },
};

const loaded = new Map<FontName, Promise<BitmapFont>>();

/** A bitmap font (its file is read once, on first use). */
export function loadFont(name: FontName): Promise<BitmapFont> {
  let font = loaded.get(name);
  if (!font) {
    font = readPackageFile(`fonts/${name}.bin`).then((bytes) => parseFont(name, bytes));
    font.catch(() => loaded.delete(name));
    loaded.set(name, font);
  }
  return font;
}

function parseFont(name: FontName, packed: Uint8Array): BitmapFont {
  let raw: Uint8Array;
  try {
    raw = inflateSync(packed);
  } catch {
    throw new DrawingsError('load_failed', `the font file fonts/${name}.bin is damaged`);
  }
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const count = view.getUint32(0, true);
  const cellHeight = view.getUint8(4);
  const baseline = view.getUint8(5);
  // code points (ascending, as build-fonts.mjs writes them) and where each glyph's bits start: a Glyph
  // is made when asked for (issue #38: a Map of Unifont's 21,334 glyph objects was +4 MB of heap per
  // pipeline thread)
  const cps = new Uint32Array(count);
  const starts = new Uint32Array(count + 1);
  starts[0] = 6 + count * 6;
  for (let i = 0; i < count; i++) {
    cps[i] = view.getUint32(6 + i * 6, true);
    if (i > 0 && cps[i]! <= cps[i - 1]!)
      throw new DrawingsError(
        'load_failed',
        `the font file fonts/${name}.bin is damaged (glyphs out of order)`,
      );
    starts[i + 1] = starts[i]! + Math.ceil(view.getUint8(11 + i * 6) / 8) * cellHeight;
  }
  /** The glyph's index, or -1. */
  const find = (cp: number) => {
    let lo = 0;
    let hi = count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (cps[mid] === cp) return mid;
      if (cps[mid]! < cp) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };
  const glyphAt = (i: number): Glyph => ({
    advance: view.getUint8(10 + i * 6),
    width: view.getUint8(11 + i * 6),
    bits: raw.subarray(starts[i], starts[i + 1]),
  });
  const glyphs = {
    get: (cp: number) => {
      const i = find(cp);
      return i < 0 ? undefined : glyphAt(i);
    },
    has: (cp: number) => find(cp) >= 0,
  };
  const chars = (text: string) => Array.from(text, (c) => c.codePointAt(0)!);
  const font: BitmapFont = {
    name,
    cellHeight,
    baseline,
    glyph: (cp) => glyphs.get(cp),
    covers: (text) => chars(text).every((cp) => glyphs.has(cp)),
    measure(text, spacing = 0) {
      const cps = chars(text);
      return (
        cps.reduce((w, cp) => w + (glyphs.get(cp)?.advance ?? 0), 0) + Math.max(0, cps.length - 1) * spacing
      );
    },
    draw(text, x, y, put, spacing = 0) {
      let pen = x;
      for (const cp of chars(text)) {
        const g = glyphs.get(cp);
        if (!g) continue;
        const stride = Math.ceil(g.width / 8);
        for (let row = 0; row < cellHeight; row++)
          for (let col = 0; col < g.width; col++)
            if (g.bits[row * stride + (col >> 3)]! & (0x80 >> (col & 7))) put(pen + col, y + row);
        pen += g.advance + spacing;
      }
    },
  };
  return font;
}
