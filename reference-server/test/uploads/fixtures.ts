import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** A 48 × 32 test picture: a red square on blue, opaque (raw RGBA). */
export function testPixels(width = 48, height = 32): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const inside = x >= 8 && x < 24 && y >= 8 && y < 24;
      data.set(inside ? [220, 30, 30, 255] : [20, 40, 200, 255], i);
    }
  }
  return data;
}

const raw = (width = 48, height = 32) =>
  sharp(testPixels(width, height), { raw: { width, height, channels: 4 } });

/** PNGs of every colour type and bit depth sharp writes, and an interlaced one. */
export async function pngVariants(): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  out['rgba-8'] = await raw().png().toBuffer();
  out['rgb-8'] = await raw().removeAlpha().png().toBuffer();
  out['grey-8'] = await raw().removeAlpha().toColourspace('b-w').png().toBuffer();
  out['grey-alpha-8'] = await raw().toColourspace('b-w').png().toBuffer();
  out.palette = await raw().png({ palette: true, colours: 4 }).toBuffer();
  // 4 colours: libvips writes a 2-bit palette
  out['palette-2bit'] = await raw().png({ palette: true, colours: 4 }).toBuffer();
  out['rgba-16'] = await raw().toColourspace('rgb16').png().toBuffer();
  out.interlaced = await raw().png({ progressive: true }).toBuffer();
  return out;
}

export const jpeg = (options: { progressive?: boolean; exif?: boolean } = {}) => {
  let image = raw().removeAlpha();
  if (options.exif)
    image = image.withExif({ IFD0: { Copyright: 'secret camera owner', Artist: 'Jane Doe' } });
  return image.jpeg({ quality: 90, progressive: options.progressive ?? false }).toBuffer();
};
export const webp = (lossless: boolean) => raw().webp({ lossless }).toBuffer();
export const gif = () => raw().gif().toBuffer();

/** A two-frame animated GIF (first frame red-on-blue, second all green). */
export async function animatedGif(): Promise<Uint8Array> {
  const w = 48;
  const h = 32;
  const second = new Uint8Array(w * h * 4).fill(255);
  for (let i = 0; i < second.length; i += 4) second.set([0, 200, 0, 255], i);
  const both = new Uint8Array(w * h * 2 * 4);
  both.set(testPixels(w, h), 0);
  both.set(second, w * h * 4);
  return sharp(both, { raw: { width: w, height: h * 2, channels: 4, pageHeight: h } })
    .gif({ loop: 0, delay: [100, 100] })
    .toBuffer();
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The PNG with an `acTL` chunk (1 frame, endless) before its first IDAT: an APNG. */
export function asApng(png: Uint8Array): Uint8Array {
  const actl = new Uint8Array(8);
  new DataView(actl.buffer).setUint32(0, 1);
  const extra = chunk('acTL', actl);
  const at = 8 + 25; // signature + IHDR
  const out = new Uint8Array(png.length + extra.length);
  out.set(png.subarray(0, at), 0);
  out.set(extra, at);
  out.set(png.subarray(at), at + extra.length);
  return out;
}

/** A PNG whose IHDR claims `width × height` with almost no data: a decompression bomb's header. */
export function bombHeader(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const sig = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
  const parts = [
    sig,
    chunk('IHDR', ihdr),
    chunk('IDAT', new Uint8Array([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A real bomb: a grey PNG of `side × side` zeros (a few KB that inflate to side² × 4 bytes). */
export function realBomb(side: number): Promise<Uint8Array> {
  return sharp({ create: { width: side, height: side, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** The chunk types of a PNG, in order. */
export function pngChunkTypes(png: Uint8Array): string[] {
  const types: string[] = [];
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at + 8 <= png.length; ) {
    const length = view.getUint32(at);
    types.push(String.fromCharCode(...png.subarray(at + 4, at + 8)));
    at += 12 + length;
  }
  return types;
}

/**
 * A progressive JPEG of a flat grey `width` × `height` picture with `scans` valid scans (issue #37,
 * audit finding 1): every coefficient is zero, so each AC scan is a few end-of-band runs, yet a
 * decoder passes over every block once per scan. Written by hand: SOF2, three components, one DC
 * scan, then per component and coefficient a first scan at Al=13 and refinements down to Al=0.
 * 2,647 scans of 4096² is ~190 KB (the audit's was 191 KB with 2,649) and decodes without warnings.
 */
export function manyScanJpeg(width: number, height: number, scans: number): Uint8Array {
  const out: number[] = [];
  const u16 = (n: number) => [n >> 8, n & 255];
  const segment = (marker: number, body: number[]) =>
    out.push(0xff, marker, ...u16(body.length + 2), ...body);
  const counts = (lengths: number[]) => {
    const c = new Array<number>(16).fill(0);
    for (const l of lengths) c[l - 1] = (c[l - 1] ?? 0) + 1;
    return c;
  };
  out.push(0xff, 0xd8);
  segment(0xdb, [0, ...new Array<number>(64).fill(1)]);
  segment(0xc2, [8, ...u16(height), ...u16(width), 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
  // DC table 0: one symbol (category 0), code '0'. AC table 0: EOB14 (0xE0) code '0', EOB0-EOB13 5 bits.
  segment(0xc4, [0x00, ...counts([1]), 0]);
  const acSymbols = [
    0xe0, 0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xa0, 0xb0, 0xc0, 0xd0,
  ];
  const acLengths = [1, ...new Array<number>(14).fill(5)];
  segment(0xc4, [0x10, ...counts(acLengths), ...acSymbols]);
  const codes = new Map<number, { code: number; length: number }>();
  for (let length = 1, code = 0; length <= 16; length++, code <<= 1) {
    acSymbols.forEach((symbol, i) => {
      if (acLengths[i] === length) codes.set(symbol, { code: code++, length });
    });
  }
  const bits = () => {
    let acc = 0;
    let n = 0;
    const bytes: number[] = [];
    const push = (b: number) => {
      bytes.push(b);
      if (b === 0xff) bytes.push(0); // byte stuffing
    };
    return {
      put(value: number, length: number) {
        for (let i = length - 1; i >= 0; i--) {
          acc = (acc << 1) | ((value >> i) & 1);
          if (++n === 8) {
            push(acc);
            acc = 0;
            n = 0;
          }
        }
      },
      end() {
        if (n > 0) push((acc << (8 - n)) | ((1 << (8 - n)) - 1));
        return bytes;
      },
    };
  };
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const dc = bits();
  for (let i = 0; i < blocks * 3; i++) dc.put(0, 1);
  segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0]);
  out.push(...dc.end());
  let made = 1;
  for (let k = 1; k <= 63 && made < scans; k++) {
    for (let c = 1; c <= 3 && made < scans; c++) {
      for (let al = 13; al >= 0 && made < scans; al--) {
        const ah = al === 13 ? 0 : al + 1;
        const w = bits();
        for (let left = blocks; left > 0; ) {
          const run = Math.min(left, 32767);
          const r = 31 - Math.clz32(run);
          const { code, length } = codes.get(r << 4) as { code: number; length: number };
          w.put(code, length);
          if (r > 0) w.put(run - (1 << r), r);
          left -= run;
        }
        segment(0xda, [1, c, 0x00, k, k, (ah << 4) | al]);
        out.push(...w.end());
        made++;
      }
    }
  }
  out.push(0xff, 0xd9);
  return Uint8Array.from(out);
}

/** A PNG of RGB noise (it barely compresses: stored, it takes about 3 bytes a pixel). */
export function noisePng(width: number, height: number, seed = 1): Promise<Uint8Array> {
  return sharp(noisePixels(width, height, seed), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** A JPEG of RGB noise at a low quality: small to send, large once stored as PNG. */
export function noiseJpeg(width: number, height: number, quality: number, seed = 1): Promise<Uint8Array> {
  return sharp(noisePixels(width, height, seed), { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

function noisePixels(width: number, height: number, seed: number): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < data.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = x & 255;
  }
  return data;
}
