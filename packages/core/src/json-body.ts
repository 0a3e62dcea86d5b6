/** Why a request body could not be read; the HTTP layers map each to its envelope error (415, 413, 400). */
export type JsonBodyFailure = 'unsupported-media-type' | 'unsupported-encoding' | 'too-large' | 'malformed';

/**
 * Whether a request's Content-Encoding is one the API refuses (issue #37): every coding but
 * `identity`. A gzip body was read as plain bytes (garbage JSON, a PNG that is not one); decoding it
 * would open the server to compression bombs, so it answers 415 naming the cause instead.
 */
export function refusedContentEncoding(header: string | null | undefined): boolean {
  if (header === null || header === undefined) return false;
  return header.split(',').some((coding) => {
    const c = coding.trim().toLowerCase();
    return c !== '' && c !== 'identity';
  });
}

export type JsonBodyResult = { ok: true; value: unknown } | { ok: false; error: JsonBodyFailure };

/**
 * `application/json` or any `application/<x>+json`, with optional parameters (a charset must be
 * UTF-8). With `sameValueRepeated`, one value sent twice ("application/json, application/json", as
 * msw's fetch interception can produce) reads as that value.
 */
export function isJsonContentType(
  header: string | null | undefined,
  options: { sameValueRepeated?: boolean } = {},
): boolean {
  if (header === null || header === undefined) return false;
  let single = header;
  if (options.sameValueRepeated) {
    const copies = new Set(header.split(',').map((part) => part.trim()));
    if (copies.size === 1) single = [...copies][0] as string;
  }
  const [typePart, ...params] = single.split(';');
  const type = (typePart ?? '').trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) return false;
  for (const param of params) {
    const [name, rawValue] = param.split('=');
    if ((name ?? '').trim().toLowerCase() !== 'charset') continue;
    const value = (rawValue ?? '').trim().replace(/^"|"$/g, '').toLowerCase();
    if (value !== 'utf-8' && value !== 'utf8') return false;
  }
  return true;
}

/** A Content-Length checked before reading: not digits → malformed; over `limit` → too-large. */
export function checkDeclaredLength(
  header: string | null | undefined,
  limit: number,
): JsonBodyFailure | undefined {
  if (header === null || header === undefined) return undefined;
  if (!/^\d+$/.test(header)) return 'malformed';
  return Number(header) > limit ? 'too-large' : undefined;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The bytes of a body as one JSON value: more than `limit` bytes → too-large; empty, not UTF-8, or not
 * exactly one well-formed JSON value → malformed. Never throws.
 */
export function parseJsonBytes(bytes: Uint8Array, limit = Number.POSITIVE_INFINITY): JsonBodyResult {
  if (bytes.byteLength > limit) return { ok: false, error: 'too-large' };
  if (bytes.byteLength === 0) return { ok: false, error: 'malformed' };
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, error: 'malformed' };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: 'malformed' };
  }
}
