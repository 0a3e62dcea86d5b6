#!/usr/bin/env node
// Builds the bitmap fonts the built-in generator letters UI pieces with, from two licensed pixel
// fonts on npm (SIL Open Font License 1.1):
//   - Press Start 2P (@fontsource/press-start-2p; Latin, 8 × 8 px per glyph, Reserved Font Name
//     "Press Start 2P", so its bitmap conversion here is named "assetloom-8"),
//   - GNU Unifont (@fontsource/unifont; 16 px: Latin 8 × 16, CJK 16 × 16; no reserved name) for text
//     with Chinese in it.
// Each glyph's outline (a pixel font's outlines are squares on its pixel grid) is read with
// opentype.js and sampled at pixel centres at the font's own pixel size, so the bitmap is the font's
// pixels, not a smoothed rendering. Output: dist/fonts/<name>.bin, deflated:
//   u32 count, u8 cellHeight, u8 baseline, then per glyph u32 codepoint, u8 advance, u8 width,
//   then the bitmaps (rows of ceil(width / 8) bytes, most significant bit first), in glyph order.
// Unifont is limited to ASCII, Latin-1, CJK punctuation, full-width forms and the CJK Unified
// Ideographs block (U+4E00–U+9FFF).
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'fflate';
import opentype from 'opentype.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// built once into a cache (node_modules/.cache), copied into the build directory every build
const cache = join(here, '..', 'node_modules', '.cache', 'assetloom-fonts');
const out = join(here, '..', process.env.ASSETLOOM_BUILD_DIR ?? 'dist', 'fonts');

function fontFile(pkg, file) {
  const bytes = readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), 'files', file));
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

/** Flattens a glyph path (pixel fonts: straight edges; curves split anyway) into closed polygons. */
function polygons(path) {
  const polys = [];
  let cur = [];
  let x = 0;
  let y = 0;
  for (const c of path.commands) {
    if (c.type === 'M') {
      if (cur.length) polys.push(cur);
      cur = [[c.x, c.y]];
    } else if (c.type === 'L') cur.push([c.x, c.y]);
    else if (c.type === 'Q')
      for (let t = 0.25; t <= 1; t += 0.25)
        cur.push([
          (1 - t) ** 2 * x + 2 * (1 - t) * t * c.x1 + t * t * c.x,
          (1 - t) ** 2 * y + 2 * (1 - t) * t * c.y1 + t * t * c.y,
        ]);
    else if (c.type === 'C')
      for (let t = 0.25; t <= 1; t += 0.25)
        cur.push([
          (1 - t) ** 3 * x + 3 * (1 - t) ** 2 * t * c.x1 + 3 * (1 - t) * t * t * c.x2 + t ** 3 * c.x,
          (1 - t) ** 3 * y + 3 * (1 - t) ** 2 * t * c.y1 + 3 * (1 - t) * t * t * c.y2 + t ** 3 * c.y,
        ]);
    else if (c.type === 'Z') {
      if (cur.length) polys.push(cur);
      cur = [];
    }
    if (c.x !== undefined) {
      x = c.x;
      y = c.y;
    }
  }
  if (cur.length) polys.push(cur);
  return polys;
}

/** Nonzero winding at a point. */
function inside(polys, px, py) {
  let wn = 0;
  for (const poly of polys)
    for (let i = 0; i < poly.length; i++) {
      const [ax, ay] = poly[i];
      const [bx, by] = poly[(i + 1) % poly.length];
      const cross = (bx - ax) * (py - ay) - (px - ax) * (by - ay);
      if (ay <= py && by > py && cross > 0) wn++;
      else if (ay > py && by <= py && cross < 0) wn--;
    }
  return wn !== 0;
}

function build(name, font, size, codepoints) {
  const scale = size / font.unitsPerEm;
  const ascent = Math.round(font.ascender * scale);
  const descent = Math.round(-font.descender * scale);
  const cell = ascent + descent;
  const glyphs = [];
  for (const cp of codepoints) {
    const glyph = font.charToGlyph(String.fromCodePoint(cp));
    if (!glyph || glyph.index === 0) continue;
    const advance = Math.round(glyph.advanceWidth * scale);
    if (advance <= 0 || advance > 32) continue;
    const polys = polygons(glyph.getPath(0, ascent, size));
    const width = advance;
    const stride = Math.ceil(width / 8);
    const bits = new Uint8Array(stride * cell);
    let any = false;
    for (let y = 0; y < cell; y++)
      for (let x = 0; x < width; x++)
        if (inside(polys, x + 0.5, y + 0.5)) {
          bits[y * stride + (x >> 3)] |= 0x80 >> (x & 7);
          any = true;
        }
    if (!any && cp !== 0x20 && cp !== 0x3000) continue;
    glyphs.push({ cp, advance, width, bits });
  }
  const header = new DataView(new ArrayBuffer(6 + glyphs.length * 6));
  header.setUint32(0, glyphs.length, true);
  header.setUint8(4, cell);
  header.setUint8(5, ascent);
  glyphs.forEach((g, i) => {
    header.setUint32(6 + i * 6, g.cp, true);
    header.setUint8(10 + i * 6, g.advance);
    header.setUint8(11 + i * 6, g.width);
  });
  const total = 6 + glyphs.length * 6 + glyphs.reduce((a, g) => a + g.bits.length, 0);
  const raw = new Uint8Array(total);
  raw.set(new Uint8Array(header.buffer), 0);
  let at = 6 + glyphs.length * 6;
  for (const g of glyphs) {
    raw.set(g.bits, at);
    at += g.bits.length;
  }
  const packed = deflateSync(raw, { level: 9 });
  writeFileSync(join(cache, `${name}.bin`), packed);
  console.log(
    `[build-fonts] ${name}: ${glyphs.length} glyphs, ${cell} px cell, ${(packed.length / 1024).toFixed(0)} KiB`,
  );
}

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
mkdirSync(out, { recursive: true });
mkdirSync(cache, { recursive: true });
const NAMES = ['assetloom-8', 'unifont'];
const publish = () => {
  for (const name of NAMES) copyFileSync(join(cache, `${name}.bin`), join(out, `${name}.bin`));
};
// the conversion takes half a minute: done again only when this script or a font package changed
const version = (pkg) => JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')).version;
const stamp = JSON.stringify({
  script: createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex'),
  pressStart: version('@fontsource/press-start-2p'),
  unifont: version('@fontsource/unifont'),
});
const stampFile = join(cache, 'stamp.json');
if (
  existsSync(stampFile) &&
  readFileSync(stampFile, 'utf8') === stamp &&
  NAMES.every((name) => existsSync(join(cache, `${name}.bin`)))
) {
  publish();
  console.log('[build-fonts] fonts up to date (cached)');
  process.exit(0);
}
const pressStart = opentype.parse(
  fontFile('@fontsource/press-start-2p', 'press-start-2p-latin-400-normal.woff'),
);
build('assetloom-8', pressStart, 8, [...range(0x20, 0x7e), ...range(0xa0, 0xff)]);
const unifont = opentype.parse(fontFile('@fontsource/unifont', 'unifont-latin-400-normal.woff'));
build('unifont', unifont, 16, [
  ...range(0x20, 0x7e),
  ...range(0xa0, 0xff),
  ...range(0x3000, 0x303f),
  ...range(0x4e00, 0x9fff),
  ...range(0xff01, 0xff5e),
]);
writeFileSync(stampFile, stamp);
publish();
