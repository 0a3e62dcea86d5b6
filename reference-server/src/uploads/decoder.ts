import type { DecodedImage, ImageDecoder } from '@assetloom/core/uploads';
import sharp from 'sharp';
import type { DecodeGate } from './decode-gate.js';

// Nothing is kept between uploads: libvips' operation cache would hold decoded pictures of users.
sharp.cache(false);

/**
 * The server's decoder of uploads (decision 0034): sharp over libvips, prebuilt from npm. Called
 * only after core read the picture's header and found it within the limits (a JPEG's scans
 * counted); `limitInputPixels` is a second stop inside libvips. Every decode passes the process's
 * gate (at most UPLOAD_DECODE_CONCURRENCY at once, their pixels within UPLOAD_DECODE_MAX_PIXELS) and
 * each of its libvips operations has a timeout (decision 0043). `failOn: 'warning'` refuses a truncated or damaged file instead of
 * returning its grey remainder; `pages: 1` reads an animated GIF or WebP as its first frame (an APNG's
 * default image is its first frame). EXIF orientation is applied, then every picture (grey, palette,
 * 16-bit, CMYK) becomes 8-bit sRGB with alpha, and the PNG written from those pixels carries no
 * metadata (sharp writes none unless asked).
 */
export function createSharpDecoder(
  options: {
    compressionLevel?: number;
    /** The process's decode gate (decision 0043); absent: decodes are not bounded here. */
    gate?: DecodeGate;
    /** Each libvips operation of a decode is killed past this many seconds (default 20). */
    timeoutSeconds?: number;
  } = {},
): ImageDecoder {
  // zlib level 1: a 12 MP photo is written in a fraction of the time of level 6 for a few per cent more bytes
  const compressionLevel = options.compressionLevel ?? 1;
  const timeout = { seconds: options.timeoutSeconds ?? 20 };
  async function decode(
    bytes: Uint8Array,
    limits: { maxPixels: number; maxPngBytes?: number },
  ): Promise<DecodedImage> {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: limits.maxPixels,
      failOn: 'warning',
      pages: 1,
      sequentialRead: true,
    })
      .timeout(timeout)
      .autoOrient()
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error(`decoded ${info.channels} channels, expected 4`);
    const rgba = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const writePng = async (level: number, adaptiveFiltering: boolean) => {
      const png = await sharp(rgba, { raw: { width: info.width, height: info.height, channels: 4 } })
        .timeout(timeout)
        .png({ compressionLevel: level, adaptiveFiltering })
        .toBuffer();
      return onlyPixelChunks(new Uint8Array(png.buffer, png.byteOffset, png.byteLength));
    };
    let png = await writePng(compressionLevel, false);
    // Over the bound (a photo or noise grows 15-30× unfiltered): PNG filters at level 2 halve it,
    // in about 1.7× the time of the fast write (decision 0043).
    if (limits.maxPngBytes !== undefined && png.byteLength > limits.maxPngBytes) {
      png = await writePng(Math.max(2, compressionLevel), true);
    }
    return { width: info.width, height: info.height, rgba, png };
  }
  return {
    decode(bytes, header, limits) {
      if (options.gate === undefined) return decode(bytes, limits);
      return options.gate.run(header.width * header.height, () => decode(bytes, limits));
    },
  };
}

/** Chunks that carry the picture; every other (pHYs, tIME, text, colour profiles…) is dropped. */
const PIXEL_CHUNKS = new Set(['IHDR', 'PLTE', 'tRNS', 'IDAT', 'IEND']);

/**
 * The PNG with only the chunks that carry its pixels: libvips writes a `pHYs` (the pixel density)
 * even for raw input, and nothing of where a picture came from may stay in what is stored.
 */
export function onlyPixelChunks(png: Uint8Array): Uint8Array {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const keep: Array<[number, number]> = [[0, 8]];
  for (let at = 8; at + 12 <= png.length; ) {
    const end = at + 12 + view.getUint32(at);
    const type = String.fromCharCode(png[at + 4]!, png[at + 5]!, png[at + 6]!, png[at + 7]!);
    if (PIXEL_CHUNKS.has(type)) keep.push([at, Math.min(end, png.length)]);
    at = end;
  }
  const out = new Uint8Array(keep.reduce((n, [a, b]) => n + b - a, 0));
  let o = 0;
  for (const [a, b] of keep) {
    out.set(png.subarray(a, b), o);
    o += b - a;
  }
  return out;
}
