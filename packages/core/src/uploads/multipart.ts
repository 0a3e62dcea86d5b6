/**
 * The picture of a `multipart/form-data` body (RFC 7578), read from the whole body in memory (the
 * transport has already bounded it by the upload limit): the first part with a file name, else the
 * part named `file` or `image`. Pure TypeScript: the server and the mock read bodies alike.
 */
export type MultipartFile =
  | { ok: true; bytes: Uint8Array; contentType: string | null; filename: string | null }
  | { ok: false; detail: string };

const CRLF_CRLF = [13, 10, 13, 10];

function indexOf(haystack: Uint8Array, needle: Uint8Array | number[], from: number): number {
  const first = needle[0]!;
  const n = needle.length;
  outer: for (
    let i = haystack.indexOf(first, from);
    i >= 0 && i + n <= haystack.length;
    i = haystack.indexOf(first, i + 1)
  ) {
    for (let k = 1; k < n; k++) if (haystack[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

/** The `boundary` parameter of a multipart content type, or null. */
export function multipartBoundary(contentType: string | null | undefined): string | null {
  if (typeof contentType !== 'string') return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function headerParam(header: string, name: string): string | null {
  const match = new RegExp(`;\\s*${name}=(?:"([^"]*)"|([^;\\s]*))`, 'i').exec(header);
  return match ? (match[1] ?? match[2] ?? '') : null;
}

export function extractMultipartFile(
  body: Uint8Array,
  contentType: string | null | undefined,
): MultipartFile {
  const boundary = multipartBoundary(contentType);
  if (boundary === null) return { ok: false, detail: 'multipart body without a boundary' };
  const delimiter = new TextEncoder().encode(`--${boundary}`);
  const text = new TextDecoder('latin1');
  let at = indexOf(body, delimiter, 0);
  if (at < 0) return { ok: false, detail: 'multipart body without its boundary' };
  const candidates: Array<{
    name: string | null;
    filename: string | null;
    type: string | null;
    bytes: Uint8Array;
  }> = [];
  while (at >= 0) {
    let start = at + delimiter.length;
    // the closing delimiter ends with "--"
    if (body[start] === 45 && body[start + 1] === 45) break;
    if (body[start] === 13 && body[start + 1] === 10) start += 2;
    const headerEnd = indexOf(body, CRLF_CRLF, start);
    if (headerEnd < 0) return { ok: false, detail: 'multipart part without the end of its headers' };
    const headers = text.decode(body.subarray(start, headerEnd)).split('\r\n');
    const next = indexOf(body, delimiter, headerEnd + 4);
    if (next < 0) return { ok: false, detail: 'multipart body cut short (no closing boundary)' };
    // the part's data ends before the CRLF that precedes the next delimiter
    const end = body[next - 2] === 13 && body[next - 1] === 10 ? next - 2 : next;
    let name: string | null = null;
    let filename: string | null = null;
    let type: string | null = null;
    for (const line of headers) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const field = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (field === 'content-disposition') {
        name = headerParam(value, 'name');
        filename = headerParam(value, 'filename');
      } else if (field === 'content-type') {
        type = value;
      }
    }
    candidates.push({ name, filename, type, bytes: body.subarray(headerEnd + 4, end) });
    at = next;
  }
  const chosen =
    candidates.find((c) => c.filename !== null) ??
    candidates.find((c) => c.name === 'file' || c.name === 'image');
  if (chosen === undefined) return { ok: false, detail: 'multipart body without a file part' };
  return { ok: true, bytes: chosen.bytes, contentType: chosen.type, filename: chosen.filename };
}
