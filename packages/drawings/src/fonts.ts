import { inflateSync } from 'fflate';
import { DrawingsError } from './errors.js';
import { packageFile, readBytes } from './load.js';

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
    font = packageFile(`fonts/${name}.bin`)
      .then(readBytes)
      .then((bytes) => parseFont(name, bytes));
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
  const glyphs = new Map<number, Glyph>();
  let at = 6 + count * 6;
  for (let i = 0; i < count; i++) {
    const cp = view.getUint32(6 + i * 6, true);
    const advance = view.getUint8(10 + i * 6);
    const width = view.getUint8(11 + i * 6);
    const size = Math.ceil(width / 8) * cellHeight;
    glyphs.set(cp, { advance, width, bits: raw.subarray(at, at + size) });
    at += size;
  }
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
