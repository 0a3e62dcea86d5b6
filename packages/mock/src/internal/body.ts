import {
  checkDeclaredLength,
  isJsonContentType as isJsonMediaType,
  type JsonBodyResult,
  parseJsonBytes,
  type RawBodyResult,
  refusedContentEncoding,
} from '@assetloom/core/http';

/**
 * `application/json` or `application/<x>+json`, charset UTF-8 when given (the server's rule). msw's
 * fetch interception can repeat a header that a client re-wrapped in a new Request
 * ("application/json, application/json"); one value sent twice is still that value.
 */
export function isJsonContentType(header: string | null): boolean {
  return isJsonMediaType(header, { sameValueRepeated: true });
}

/**
 * Reads a request body the way the server's strict reader does: no body → undefined; a non-JSON
 * content type → 415; more than `limit` bytes → 413; anything but one well-formed UTF-8 JSON value → 400.
 */
export async function readJsonBody(request: Request, limit: number): Promise<JsonBodyResult> {
  const lengthHeader = request.headers.get('content-length');
  if (request.body === null || lengthHeader === '0') return { ok: true, value: undefined };
  if (refusedContentEncoding(request.headers.get('content-encoding'))) {
    return { ok: false, error: 'unsupported-encoding' };
  }
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return { ok: false, error: 'unsupported-media-type' };
  }
  const declared = checkDeclaredLength(lengthHeader, limit);
  if (declared !== undefined) return { ok: false, error: declared };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await request.arrayBuffer());
  } catch {
    return { ok: false, error: 'malformed' };
  }
  // An empty body arrives at the server as `Content-Length: 0`: no body at all.
  if (bytes.byteLength === 0) return { ok: true, value: undefined };
  return parseJsonBytes(bytes, limit);
}

/** An upload's body as bytes with its Content-Type, at most `limit` bytes (→ 413); no body → zero bytes. */
export async function readRawBody(request: Request, limit: number): Promise<RawBodyResult> {
  if (refusedContentEncoding(request.headers.get('content-encoding'))) {
    return { ok: false, error: 'unsupported-encoding' };
  }
  const declared = checkDeclaredLength(request.headers.get('content-length'), limit);
  if (declared !== undefined)
    return { ok: false, error: declared === 'too-large' ? 'too-large' : 'malformed' };
  let bytes: Uint8Array;
  try {
    bytes = request.body === null ? new Uint8Array() : new Uint8Array(await request.arrayBuffer());
  } catch {
    return { ok: false, error: 'malformed' };
  }
  if (bytes.byteLength > limit) return { ok: false, error: 'too-large' };
  return { ok: true, value: { bytes, contentType: request.headers.get('content-type') } };
}
