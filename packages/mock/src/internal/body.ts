/** Why a body could not be read; each maps to the server's envelope error (415, 413, 400). */
export type BodyFailure = 'unsupported-media-type' | 'too-large' | 'malformed';

export type BodyResult = { ok: true; value: unknown } | { ok: false; error: BodyFailure };

/** `application/json` or `application/<x>+json`, charset UTF-8 when given (the server's rule). */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  // msw's fetch interception can repeat a header that a client re-wrapped in a new Request
  // ("application/json, application/json"); one value sent twice is still that value.
  const copies = new Set(header.split(',').map((part) => part.trim()));
  const single = copies.size === 1 ? ([...copies][0] as string) : header;
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

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Reads a request body the way the server's strict reader does: no body → undefined; a non-JSON
 * content type → 415; more than `limit` bytes → 413; anything but one well-formed UTF-8 JSON value → 400.
 */
export async function readJsonBody(request: Request, limit: number): Promise<BodyResult> {
  const lengthHeader = request.headers.get('content-length');
  if (request.body === null || lengthHeader === '0') return { ok: true, value: undefined };
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return { ok: false, error: 'unsupported-media-type' };
  }
  if (lengthHeader !== null) {
    if (!/^\d+$/.test(lengthHeader)) return { ok: false, error: 'malformed' };
    if (Number(lengthHeader) > limit) return { ok: false, error: 'too-large' };
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await request.arrayBuffer());
  } catch {
    return { ok: false, error: 'malformed' };
  }
  if (bytes.byteLength > limit) return { ok: false, error: 'too-large' };
  // An empty body arrives at the server as `Content-Length: 0`: no body at all.
  if (bytes.byteLength === 0) return { ok: true, value: undefined };
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
