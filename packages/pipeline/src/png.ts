import { unzlibSync, zlibSync } from 'fflate';
import type { RgbaImage } from './types/index.js';

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
const MAX_PIXELS = 64 * 1024 * 1024;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface EncodePngOptions {
  /** zlib level 0–9; default 6. */
  level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  /** Text chunks (tEXt, Latin-1 keys) such as `Software`. */
  text?: Record<string, string>;
  /**
   * An enforced palette: when every pixel is one of its colours (alpha 255) or transparent (alpha 0),
   * the PNG is written indexed (colour type 3) with exactly these colours as its PLTE, in this order,
   * and — when any pixel is transparent — one more entry after them, made transparent by tRNS.
   * Otherwise (or with more than 256 entries needed) it is written as RGBA/RGB.
   */
  palette?: readonly (readonly [number, number, number])[];
}

/** The palette index of every pixel (the transparent entry `palette.length`), or null when one is off it. */
function indexed(
  rgba: Uint8Array,
  palette: readonly (readonly [number, number, number])[],
): { indices: Uint8Array; transparent: boolean } | null {
  const at = new Map<number, number>();
  palette.forEach((c, i) => {
    const k = (c[0] << 16) | (c[1] << 8) | c[2];
    if (!at.has(k)) at.set(k, i);
  });
  const indices = new Uint8Array(rgba.length / 4);
  let transparent = false;
  for (let p = 0, i = 0; p < indices.length; p++, i += 4) {
    const a = rgba[i + 3]!;
    if (a === 0) {
      indices[p] = palette.length;
      transparent = true;
      continue;
    }
    if (a !== 255) return null;
    const k = at.get((rgba[i]! << 16) | (rgba[i + 1]! << 8) | rgba[i + 2]!);
    if (k === undefined) return null;
    indices[p] = k;
  }
  if (palette.length + (transparent ? 1 : 0) > 256) return null;
  return { indices, transparent };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  if (pb <= pc) return b;
  return c;
}

/**
 * Encodes 8-bit RGBA pixels as a PNG (colour type 6, or 2 when fully opaque), choosing the
 * filter per row by the minimum-sum-of-absolute-differences heuristic; indexed (colour type 3) with
 * `options.palette` when every pixel is in it (see {@link EncodePngOptions.palette}). Throws a RangeError when
 * the dimensions do not match the buffer.
 */
export function encodePng(
  rgba: Uint8Array,
  width: number,
  height: number,
  options: EncodePngOptions = {},
): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(
      `[assetloom/pipeline] encodePng: width and height must be positive integers, got ${width}×${height}`,
    );
  }
  if (rgba.length !== width * height * 4) {
    throw new RangeError(
      `[assetloom/pipeline] encodePng: expected ${width * height * 4} bytes for ${width}×${height} RGBA, got ${rgba.length}`,
    );
  }
  const palette = options.palette && options.palette.length > 0 ? options.palette : null;
  const lookup = palette ? indexed(rgba, palette) : null;
  if (palette && lookup) {
    // indexed rows, filter 0 (the PNG spec's advice for palette images)
    const raw = new Uint8Array((width + 1) * height);
    for (let y = 0; y < height; y++)
      raw.set(lookup.indices.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
    const plte = new Uint8Array((palette.length + (lookup.transparent ? 1 : 0)) * 3);
    palette.forEach((c, i) => {
      plte.set([c[0], c[1], c[2]], i * 3);
    });
    const extra: Array<[string, Uint8Array]> = [['PLTE', plte]];
    if (lookup.transparent) {
      const trns = new Uint8Array(palette.length + 1).fill(255);
      trns[palette.length] = 0;
      extra.push(['tRNS', trns]);
    }
    return assemble(width, height, 3, extra, zlibSync(raw, { level: options.level ?? 6 }), options.text);
  }
  let opaque = true;
  for (let i = 3; i < rgba.length; i += 4) {
    if (rgba[i] !== 255) {
      opaque = false;
      break;
    }
  }
  const bpp = opaque ? 3 : 4;
  const stride = width * bpp;
  const raw = new Uint8Array((stride + 1) * height);
  const line = new Uint8Array(stride);
  const prev = new Uint8Array(stride);
  const candidates = [
    new Uint8Array(stride),
    new Uint8Array(stride),
    new Uint8Array(stride),
    new Uint8Array(stride),
  ];
  for (let y = 0; y < height; y++) {
    if (opaque) {
      for (let x = 0, s = y * width * 4, d = 0; x < width; x++, s += 4, d += 3) {
        line[d] = rgba[s]!;
        line[d + 1] = rgba[s + 1]!;
        line[d + 2] = rgba[s + 2]!;
      }
    } else {
      line.set(rgba.subarray(y * stride, (y + 1) * stride));
    }
    // candidates: 0 none is `line` itself; 1 sub, 2 up, 3 average, 4 paeth
    const [sub, up, avg, pae] = candidates as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    let sNone = 0;
    let sSub = 0;
    let sUp = 0;
    let sAvg = 0;
    let sPae = 0;
    for (let i = 0; i < stride; i++) {
      const v = line[i]!;
      const a = i >= bpp ? line[i - bpp]! : 0;
      const b = y > 0 ? prev[i]! : 0;
      const c = i >= bpp && y > 0 ? prev[i - bpp]! : 0;
      const f1 = (v - a) & 0xff;
      const f2 = (v - b) & 0xff;
      const f3 = (v - ((a + b) >> 1)) & 0xff;
      const f4 = (v - paeth(a, b, c)) & 0xff;
      sub[i] = f1;
      up[i] = f2;
      avg[i] = f3;
      pae[i] = f4;
      sNone += v < 128 ? v : 256 - v;
      sSub += f1 < 128 ? f1 : 256 - f1;
      sUp += f2 < 128 ? f2 : 256 - f2;
      sAvg += f3 < 128 ? f3 : 256 - f3;
      sPae += f4 < 128 ? f4 : 256 - f4;
    }
    let best = 0;
    let bestSum = sNone;
    let bestBuf: Uint8Array = line;
    const sums = [sSub, sUp, sAvg, sPae];
    for (let f = 0; f < 4; f++) {
      if (sums[f]! < bestSum) {
        bestSum = sums[f]!;
        best = f + 1;
        bestBuf = candidates[f]!;
      }
    }
    const o = y * (stride + 1);
    raw[o] = best;
    raw.set(bestBuf, o + 1);
    prev.set(line);
  }
  return assemble(
    width,
    height,
    opaque ? 2 : 6,
    [],
    zlibSync(raw, { level: options.level ?? 6 }),
    options.text,
  );
}

/** The PNG file: signature, IHDR (8 bits a sample), `extra` chunks, text, IDAT and IEND. */
function assemble(
  width: number,
  height: number,
  colorType: 2 | 3 | 6,
  extra: ReadonlyArray<[string, Uint8Array]>,
  idat: Uint8Array,
  text: Record<string, string> | undefined,
): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = 8;
  ihdr[9] = colorType;
  const chunks: Array<[string, Uint8Array]> = [['IHDR', ihdr], ...extra];
  for (const [k, v] of Object.entries(text ?? {})) {
    const key = k.replace(/[^\x20-\x7e]/g, '').slice(0, 79);
    if (!key) continue;
    const value = v.replace(/[^\x20-\x7e\n]/g, '?');
    const data = new Uint8Array(key.length + 1 + value.length);
    for (let i = 0; i < key.length; i++) data[i] = key.charCodeAt(i);
    for (let i = 0; i < value.length; i++) data[key.length + 1 + i] = value.charCodeAt(i);
    chunks.push(['tEXt', data]);
  }
  chunks.push(['IDAT', idat], ['IEND', new Uint8Array(0)]);
  let total = 8;
  for (const [, d] of chunks) total += 12 + d.length;
  const out = new Uint8Array(total);
  out.set(SIGNATURE, 0);
  const ov = new DataView(out.buffer);
  let p = 8;
  for (const [type, d] of chunks) {
    ov.setUint32(p, d.length);
    for (let i = 0; i < 4; i++) out[p + 4 + i] = type.charCodeAt(i);
    out.set(d, p + 8);
    ov.setUint32(p + 8 + d.length, crc32(out, p + 4, p + 8 + d.length));
    p += 12 + d.length;
  }
  return out;
}

export type DecodePngResult = { ok: true; image: RgbaImage } | { ok: false; error: string };

const ADAM7: ReadonlyArray<readonly [number, number, number, number]> = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

function fail(error: string): DecodePngResult {
  return { ok: false, error: `[assetloom/pipeline] decodePng: ${error}` };
}

/**
 * Decodes any standard PNG (grey, RGB, palette, grey+alpha, RGBA; 1–16 bits; Adam7 interlace;
 * tRNS transparency) to 8-bit RGBA. Never throws: bad input gives `{ ok: false, error }`.
 */
export function decodePng(bytes: Uint8Array): DecodePngResult {
  if (!(bytes instanceof Uint8Array)) return fail('expected a Uint8Array');
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) return fail('not a PNG (bad signature)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let colorType = -1;
  let interlace = 0;
  let palette: Uint8Array | null = null;
  let trns: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  let sawEnd = false;
  while (p + 12 <= bytes.length) {
    const len = view.getUint32(p);
    if (p + 12 + len > bytes.length) return fail('truncated chunk');
    const type = String.fromCharCode(bytes[p + 4]!, bytes[p + 5]!, bytes[p + 6]!, bytes[p + 7]!);
    const data = bytes.subarray(p + 8, p + 8 + len);
    if (crc32(bytes, p + 4, p + 8 + len) !== view.getUint32(p + 8 + len))
      return fail(`CRC mismatch in ${type}`);
    if (type === 'IHDR') {
      if (len !== 13) return fail('bad IHDR length');
      const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
      width = dv.getUint32(0);
      height = dv.getUint32(4);
      depth = data[8]!;
      colorType = data[9]!;
      interlace = data[12]!;
      if (data[10] !== 0 || data[11] !== 0) return fail('unsupported compression or filter method');
    } else if (type === 'PLTE') {
      palette = data;
    } else if (type === 'tRNS') {
      trns = data;
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      sawEnd = true;
      break;
    }
    p += 12 + len;
  }
  if (colorType < 0) return fail('missing IHDR');
  if (!sawEnd) return fail('missing IEND (truncated file)');
  if (width < 1 || height < 1 || width * height > MAX_PIXELS)
    return fail(`unsupported size ${width}×${height}`);
  const channelsByType: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
  const channels = channelsByType[colorType];
  if (channels === undefined) return fail(`unknown colour type ${colorType}`);
  const okDepth =
    colorType === 0
      ? [1, 2, 4, 8, 16].includes(depth)
      : colorType === 3
        ? [1, 2, 4, 8].includes(depth)
        : [8, 16].includes(depth);
  if (!okDepth) return fail(`bit depth ${depth} is invalid for colour type ${colorType}`);
  if (colorType === 3 && !palette) return fail('palette image without PLTE');
  if (interlace > 1) return fail(`unknown interlace method ${interlace}`);
  let total = 0;
  for (const c of idat) total += c.length;
  const compressed = new Uint8Array(total);
  let o = 0;
  for (const c of idat) {
    compressed.set(c, o);
    o += c.length;
  }
  let raw: Uint8Array;
  try {
    raw = unzlibSync(compressed);
  } catch (error) {
    return fail(`corrupt image data (${error instanceof Error ? error.message : String(error)})`);
  }
  const bitsPerPixel = channels * depth;
  const bpp = Math.max(1, bitsPerPixel >> 3);
  const out = new Uint8Array(width * height * 4);
  const passes = interlace ? ADAM7 : ([[0, 0, 1, 1]] as const);
  let rp = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const pw = Math.ceil((width - x0) / dx);
    const ph = Math.ceil((height - y0) / dy);
    if (pw <= 0 || ph <= 0) continue;
    const stride = Math.ceil((pw * bitsPerPixel) / 8);
    let prev = new Uint8Array(stride);
    let cur = new Uint8Array(stride);
    for (let y = 0; y < ph; y++) {
      if (rp + 1 + stride > raw.length) return fail('image data too short');
      const filter = raw[rp++]!;
      for (let i = 0; i < stride; i++) {
        const v = raw[rp + i]!;
        const a = i >= bpp ? cur[i - bpp]! : 0;
        const b = prev[i]!;
        const c = i >= bpp ? prev[i - bpp]! : 0;
        switch (filter) {
          case 0:
            cur[i] = v;
            break;
          case 1:
            cur[i] = (v + a) & 0xff;
            break;
          case 2:
            cur[i] = (v + b) & 0xff;
            break;
          case 3:
            cur[i] = (v + ((a + b) >> 1)) & 0xff;
            break;
          case 4:
            cur[i] = (v + paeth(a, b, c)) & 0xff;
            break;
          default:
            return fail(`unknown filter type ${filter}`);
        }
      }
      rp += stride;
      const oy = y0 + y * dy;
      for (let x = 0; x < pw; x++) {
        const ox = x0 + x * dx;
        const d = (oy * width + ox) * 4;
        let r = 0;
        let g = 0;
        let bl = 0;
        let al = 255;
        const sample = (ch: number): number => {
          if (depth === 8) return cur[x * channels + ch]!;
          if (depth === 16) return cur[(x * channels + ch) * 2]!;
          const bit = x * depth;
          const byte = cur[bit >> 3]!;
          const shift = 8 - depth - (bit & 7);
          return (byte >> shift) & ((1 << depth) - 1);
        };
        const sample16 = (ch: number): number =>
          (cur[(x * channels + ch) * 2]! << 8) | cur[(x * channels + ch) * 2 + 1]!;
        if (colorType === 3) {
          const idx = sample(0);
          if (idx * 3 + 2 >= palette!.length) return fail(`palette index ${idx} out of range`);
          r = palette![idx * 3]!;
          g = palette![idx * 3 + 1]!;
          bl = palette![idx * 3 + 2]!;
          al = trns && idx < trns.length ? trns[idx]! : 255;
        } else if (colorType === 0 || colorType === 4) {
          const raw0 = sample(0);
          const gray = depth < 8 ? Math.round((raw0 * 255) / ((1 << depth) - 1)) : raw0;
          r = g = bl = gray;
          if (colorType === 4) al = sample(1);
          else if (trns && trns.length >= 2) {
            const key = (trns[0]! << 8) | trns[1]!;
            const full = depth === 16 ? sample16(0) : raw0;
            if (full === key) al = 0;
          }
        } else {
          r = sample(0);
          g = sample(1);
          bl = sample(2);
          if (colorType === 6) al = sample(3);
          else if (trns && trns.length >= 6) {
            const dv = new DataView(trns.buffer, trns.byteOffset, trns.byteLength);
            const kr = dv.getUint16(0);
            const kg = dv.getUint16(2);
            const kb = dv.getUint16(4);
            const fr = depth === 16 ? sample16(0) : r;
            const fg = depth === 16 ? sample16(1) : g;
            const fb = depth === 16 ? sample16(2) : bl;
            if (fr === kr && fg === kg && fb === kb) al = 0;
          }
        }
        out[d] = r;
        out[d + 1] = g;
        out[d + 2] = bl;
        out[d + 3] = al;
      }
      const t = prev;
      prev = cur;
      cur = t;
    }
  }
  return { ok: true, image: { width, height, data: out } };
}
