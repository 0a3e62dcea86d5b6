import { zlibSync } from 'fflate';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodePng, encodePng } from './png.js';

function randomImage(w: number, h: number, opaque: boolean, seed = 1): Uint8Array {
  const d = new Uint8Array(w * h * 4);
  let s = seed;
  for (let i = 0; i < d.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    d[i] = (s >>> 16) & 0xff;
    if (opaque && i % 4 === 3) d[i] = 255;
  }
  return d;
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Builds a PNG by hand (independent of encodePng) to exercise the decoder's other formats. */
function handmadePng(
  w: number,
  h: number,
  colorType: number,
  depth: number,
  rows: Uint8Array[],
  extra: Array<[string, Uint8Array]> = [],
): Uint8Array {
  const raw = new Uint8Array(rows.reduce((a, r) => a + r.length + 1, 0));
  let o = 0;
  for (const r of rows) {
    raw[o++] = 0;
    raw.set(r, o);
    o += r.length;
  }
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, w);
  new DataView(ihdr.buffer).setUint32(4, h);
  ihdr[8] = depth;
  ihdr[9] = colorType;
  const chunks: Array<[string, Uint8Array]> = [
    ['IHDR', ihdr],
    ...extra,
    ['IDAT', zlibSync(raw)],
    ['IEND', new Uint8Array()],
  ];
  const parts: number[] = [137, 80, 78, 71, 13, 10, 26, 10];
  for (const [type, data] of chunks) {
    const body = new Uint8Array(4 + data.length);
    for (let i = 0; i < 4; i++) body[i] = type.charCodeAt(i);
    body.set(data, 4);
    const len = data.length;
    parts.push(len >>> 24, (len >>> 16) & 255, (len >>> 8) & 255, len & 255, ...body);
    const c = crc32(body);
    parts.push(c >>> 24, (c >>> 16) & 255, (c >>> 8) & 255, c & 255);
  }
  return new Uint8Array(parts);
}

describe('encodePng / decodePng', () => {
  it.each([
    ['1×1 opaque', { w: 1, h: 1, opaque: true }],
    ['odd size with alpha', { w: 37, h: 19, opaque: false }],
    ['wide opaque', { w: 300, h: 7, opaque: true }],
  ])('round-trips %s', (_name, { w, h, opaque }) => {
    const rgba = randomImage(w, h, opaque, w * h);
    const png = encodePng(rgba, w, h);
    const back = decodePng(png);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.image.width).toBe(w);
    expect(back.image.height).toBe(h);
    expect(Buffer.from(back.image.data).equals(Buffer.from(rgba))).toBe(true);
    // opaque images are stored as RGB (colour type 2)
    expect(png[25]).toBe(opaque ? 2 : 6);
  });

  it('is deterministic', () => {
    const rgba = randomImage(16, 16, false);
    expect(Buffer.from(encodePng(rgba, 16, 16)).equals(Buffer.from(encodePng(rgba, 16, 16)))).toBe(true);
  });

  it('rejects mismatched buffers with a RangeError', () => {
    expect(() => encodePng(new Uint8Array(3), 1, 1)).toThrow(RangeError);
    expect(() => encodePng(new Uint8Array(0), 0, 0)).toThrow(RangeError);
  });

  it('decodes palette, grey, 16-bit and tRNS images', () => {
    const pal = handmadePng(
      2,
      1,
      3,
      8,
      [new Uint8Array([0, 1])],
      [
        ['PLTE', new Uint8Array([255, 0, 0, 0, 0, 255])],
        ['tRNS', new Uint8Array([128])],
      ],
    );
    const p = decodePng(pal);
    expect(p.ok && [...p.image.data]).toEqual([255, 0, 0, 128, 0, 0, 255, 255]);
    const grey1 = decodePng(handmadePng(8, 1, 0, 1, [new Uint8Array([0b10100000])]));
    expect(grey1.ok && [...grey1.image.data.subarray(0, 12)]).toEqual([
      255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255,
    ]);
    const rgb16 = decodePng(handmadePng(1, 1, 2, 16, [new Uint8Array([0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc])]));
    expect(rgb16.ok && [...rgb16.image.data]).toEqual([0x12, 0x56, 0x9a, 255]);
  });

  it.each([
    ['empty', new Uint8Array()],
    ['not a png', new TextEncoder().encode('GIF89a not a png at all')],
    ['truncated', encodePng(randomImage(8, 8, false), 8, 8).subarray(0, 40)],
  ])('returns an error for %s input instead of throwing', (_name, bytes) => {
    const r = decodePng(bytes);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^\[assetloom\/pipeline\] decodePng/);
  });

  it('detects corrupted chunks by CRC', () => {
    const png = encodePng(randomImage(8, 8, false), 8, 8);
    png[40] = png[40]! ^ 0xff;
    expect(decodePng(png).ok).toBe(false);
  });
});

describe('encodePng with an enforced palette (indexed, colour type 3)', () => {
  const pico = ['#000000', '#1d2b53', '#7e2553', '#008751', '#ff004d', '#ffec27'].map(
    (h) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as [number, number, number],
  );
  /** A `w × h` picture of the palette's colours (index by position), transparent where `hole` says. */
  const picture = (w: number, h: number, hole: (x: number, y: number) => boolean) => {
    const d = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        if (hole(x, y)) continue;
        d.set([...pico[(x * 3 + y) % pico.length]!, 255], i);
      }
    return d;
  };
  it.each([
    [
      'with transparent pixels',
      { w: 13, h: 9, hole: (x: number, y: number) => (x + y) % 4 === 0, entries: 7 },
    ],
    ['fully opaque', { w: 8, h: 8, hole: () => false, entries: 6 }],
  ])('%s: read by pngjs as colour type 3 with exactly the palette', (_name, { w, h, hole, entries }) => {
    const rgba = picture(w, h, hole);
    const png = encodePng(rgba, w, h, { palette: pico });
    const read = PNG.sync.read(Buffer.from(png));
    expect(read.colorType).toBe(3);
    // the palette's colours in its own order, then (only when needed) the one transparent entry
    const plte = chunk(png, 'PLTE');
    expect(plte.length).toBe(entries * 3);
    expect([...plte.subarray(0, 18)]).toEqual(pico.flat());
    if (entries > pico.length) expect([...chunk(png, 'tRNS')]).toEqual([255, 255, 255, 255, 255, 255, 0]);
    expect(Buffer.from(read.data).equals(Buffer.from(rgba))).toBe(true);
  });
  it.each([
    ['a colour off the palette', (d: Uint8Array) => d.set([1, 2, 3], 0), 2],
    ['a half-transparent pixel', (d: Uint8Array) => d.set([128], 3), 6],
  ])('falls back to RGB(A) with %s', (_name, spoil, type) => {
    const rgba = picture(4, 4, () => false);
    spoil(rgba);
    const png = encodePng(rgba, 4, 4, { palette: pico });
    expect(png[25]).toBe(type);
    expect(Buffer.from(PNG.sync.read(Buffer.from(png)).data).equals(Buffer.from(rgba))).toBe(true);
  });
});

/** The data of a PNG's first chunk of `type`. */
function chunk(png: Uint8Array, type: string): Uint8Array {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let p = 8; p < png.length; ) {
    const len = view.getUint32(p);
    const name = String.fromCharCode(...png.subarray(p + 4, p + 8));
    if (name === type) return png.subarray(p + 8, p + 8 + len);
    p += 12 + len;
  }
  throw new Error(`no ${type} chunk`);
}
