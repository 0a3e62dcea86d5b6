import type { IncomingMessage } from 'node:http';
import {
  checkDeclaredLength,
  isJsonContentType,
  type JsonBodyResult,
  parseJsonBytes,
  refusedContentEncoding,
} from '@assetloom/core/http';
import { discard, readBounded } from './read-bounded.js';

/**
 * A small strict JSON body reader. It accepts only JSON content types (→ 415), stops at `limit`
 * bytes whether or not Content-Length was sent (→ 413), and answers `malformed` for bodies that are
 * not one well-formed UTF-8 JSON value (→ 400). An absent body (no Content-Length and no
 * Transfer-Encoding, or Content-Length 0) reads as `undefined`.
 */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<JsonBodyResult> {
  const lengthHeader = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  const hasBody = chunked || (lengthHeader !== undefined && lengthHeader !== '0');
  if (!hasBody) return Promise.resolve({ ok: true, value: undefined });

  if (refusedContentEncoding(req.headers['content-encoding'])) {
    discard(req);
    return Promise.resolve({ ok: false, error: 'unsupported-encoding' });
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    discard(req);
    return Promise.resolve({ ok: false, error: 'unsupported-media-type' });
  }
  const declared = checkDeclaredLength(lengthHeader, limit);
  if (declared !== undefined) {
    discard(req);
    return Promise.resolve({ ok: false, error: declared });
  }

  return readBounded(req, limit).then((read) => (read.ok ? parseJsonBytes(read.bytes) : read));
}
