/**
 * What a picture's bytes say about it before anything is decoded: the format, read from the
 * signature (never from a file name or a header), the size its header states, and whether it is
 * animated. Decompression bombs are refused on these numbers, so a 1 MB PNG that claims 60000 ×
 * 60000 pixels is never inflated. Pure TypeScript over the first chunks of the file: browsers, Node.
 */

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

export type ProbeResult =
  | { ok: true; format: ImageFormat; width: number; height: number; animated: boolean }
  | {
      ok: false;
      reason: 'empty' | 'unknown-format' | 'truncated' | 'bad-header' | 'too-many-scans';
      detail: string;
    };

/** What the probe refuses besides a broken header. */
export interface ProbeLimits {
  /**
   * Most scans (SOS markers) a JPEG may have. Every scan of a progressive JPEG is a pass over all of
   * its coefficient blocks, so a picture within the pixel limits with thousands of empty scans costs
   * seconds to decode (libjpeg-turbo's TurboJPEG refuses these with its scan limit). Default
   * {@link JPEG_MAX_SCANS}.
   */
  maxJpegScans?: number;
}

/**
 * The default scan limit: progressive encoders write 8-10 scans (libjpeg's simple progression 10,
 * mozjpeg's optimised scans 8-9), a baseline JPEG 1-4. Decision 0043 has the figures.
 */
export const JPEG_MAX_SCANS = 64;

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** The format of these bytes by their signature, or null. */
export function sniffFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 8 && PNG_SIGNATURE.every((v, i) => bytes[i] === v)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'gif';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  return null;
}

const fail = (reason: Exclude<ProbeResult, { ok: true }>['reason'], detail: string): ProbeResult => ({
  ok: false,
  reason,
  detail,
});

/** Reads the format, size and animation of a picture from its header (see the module comment). */
export function probeImage(bytes: Uint8Array, limits: ProbeLimits = {}): ProbeResult {
  if (bytes.length === 0) return fail('empty', 'zero bytes');
  const format = sniffFormat(bytes);
  if (format === null) return fail('unknown-format', 'not a PNG, JPEG, WebP or GIF signature');
  switch (format) {
    case 'png':
      return probePng(bytes);
    case 'jpeg':
      return probeJpeg(bytes, limits.maxJpegScans ?? JPEG_MAX_SCANS);
    case 'gif':
      return probeGif(bytes);
    case 'webp':
      return probeWebp(bytes);
  }
}

function sized(format: ImageFormat, width: number, height: number, animated: boolean): ProbeResult {
  if (!(width >= 1 && height >= 1)) return fail('bad-header', `${format} header states ${width} × ${height}`);
  return { ok: true, format, width, height, animated };
}

/** IHDR, then the chunks up to the first IDAT: an `acTL` before it makes an APNG. */
function probePng(b: Uint8Array): ProbeResult {
  if (b.length < 33) return fail('truncated', 'PNG shorter than its IHDR');
  if (ascii(b, 12, 4) !== 'IHDR' || u32be(b, 8) !== 13) return fail('bad-header', 'PNG without IHDR first');
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  let animated = false;
  let sawData = false;
  for (let at = 8; at + 8 <= b.length; ) {
    const length = u32be(b, at);
    const type = ascii(b, at + 4, 4);
    if (type === 'acTL') animated = true;
    if (type === 'IDAT') {
      sawData = true;
      break;
    }
    at += 12 + length;
  }
  if (!sawData) return fail('truncated', 'PNG ends before its image data');
  return sized('png', width, height, animated);
}

/** The first start-of-frame marker (SOF0-SOF15 but DHT, JPG and DAC) states the size; scans are counted. */
function probeJpeg(b: Uint8Array, maxScans: number): ProbeResult {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return fail('bad-header', `JPEG marker expected at byte ${at}`);
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return fail('bad-header', 'JPEG without a frame header');
    const length = u16be(b, at + 2);
    if (length < 2) return fail('bad-header', 'JPEG segment of length < 2');
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (at + 9 > b.length) return fail('truncated', 'JPEG ends inside its frame header');
      // the scan data must follow: a file cut right after its header is refused here
      if (b.length < at + 2 + length + 4) return fail('truncated', 'JPEG ends after its frame header');
      const scans = countJpegScans(b, at + 2 + length, maxScans);
      if (scans > maxScans) {
        return fail('too-many-scans', `JPEG has more than ${maxScans} scans (the limit)`);
      }
      return sized('jpeg', u16be(b, at + 7), u16be(b, at + 5), false);
    }
    at += 2 + length;
  }
  return fail('truncated', 'JPEG ends before its frame header');
}

/**
 * The scans (SOS markers) of a JPEG from `from` on, counting stops past `limit`. Marker segments are
 * skipped by their length; entropy-coded data is walked to the next marker (0xFF not followed by a
 * stuffed 0x00, a fill 0xFF or a restart marker). One pass over the bytes, at most.
 */
function countJpegScans(b: Uint8Array, from: number, limit: number): number {
  let scans = 0;
  let at = from;
  while (at + 1 < b.length) {
    if (b[at] !== 0xff) {
      // inside entropy-coded data: the next 0xFF
      const next = b.indexOf(0xff, at + 1);
      if (next < 0) break;
      at = next;
      continue;
    }
    const marker = b[at + 1]!;
    if (marker === 0x00 || marker === 0xff || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += marker === 0xff ? 1 : 2; // stuffed byte, fill byte, restart marker, TEM
      continue;
    }
    if (marker === 0xd9) break; // end of image
    if (at + 4 > b.length) break;
    const length = u16be(b, at + 2);
    if (marker === 0xda) {
      scans++;
      if (scans > limit) return scans;
    }
    at += 2 + Math.max(length, 2);
  }
  return scans;
}

/** The logical screen states the size; more than one image descriptor makes it animated. */
function probeGif(b: Uint8Array): ProbeResult {
  if (b.length < 13) return fail('truncated', 'GIF shorter than its screen descriptor');
  const width = u16le(b, 6);
  const height = u16le(b, 8);
  const flags = b[10]!;
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  let images = 0;
  const skipSubBlocks = (from: number): number => {
    let i = from;
    while (i < b.length) {
      const n = b[i]!;
      i += 1 + n;
      if (n === 0) return i;
    }
    return -1;
  };
  while (at < b.length) {
    const block = b[at]!;
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      const next = skipSubBlocks(at + 2);
      if (next < 0) break;
      at = next;
    } else if (block === 0x2c) {
      if (at + 10 > b.length) break;
      images++;
      if (images > 1) break;
      const local = b[at + 9]!;
      let i = at + 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0);
      i += 1; // LZW minimum code size
      const next = skipSubBlocks(i);
      if (next < 0) {
        images = -1;
        break;
      }
      at = next;
    } else {
      return fail('bad-header', `GIF block 0x${block.toString(16)} unknown`);
    }
  }
  if (images === 0) return fail('truncated', 'GIF without an image');
  if (images < 0) return fail('truncated', 'GIF ends inside its first image');
  return sized('gif', width, height, images > 1);
}

/** VP8X states the canvas (and the animation flag), VP8L and VP8 their frame. */
function probeWebp(b: Uint8Array): ProbeResult {
  if (b.length < 30) return fail('truncated', 'WebP shorter than its first chunk header');
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X') {
    const animated = (b[20]! & 0x02) !== 0;
    return sized('webp', u24le(b, 24) + 1, u24le(b, 27) + 1, animated);
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return fail('bad-header', 'WebP lossless without its signature byte');
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return sized('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, false);
  }
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a)
      return fail('bad-header', 'WebP lossy without its start code');
    return sized('webp', u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff, false);
  }
  return fail('bad-header', `WebP chunk "${chunk}" unknown`);
}

/** The image media types an upload may declare, by the format they name. */
const DECLARED: Record<string, ImageFormat | 'any'> = {
  'image/png': 'png',
  'image/apng': 'png',
  'image/x-png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/octet-stream': 'any',
};

/**
 * What a declared content type says of the format: a format, `any` (octet-stream), `multipart`, or
 * null for a missing or non-image type.
 */
export function declaredFormat(
  contentType: string | null | undefined,
): ImageFormat | 'any' | 'multipart' | null {
  if (typeof contentType !== 'string') return null;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (type === 'multipart/form-data') return 'multipart';
  return DECLARED[type] ?? null;
}
