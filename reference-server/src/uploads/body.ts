import type { IncomingMessage } from 'node:http';
import { checkDeclaredLength, type RawBodyResult, refusedContentEncoding } from '@assetloom/core/http';
import { discard, readBounded } from '../internal/read-bounded.js';

/**
 * Reads an upload's body as bytes with its Content-Type, stopping at `limit` bytes whether or not
 * Content-Length was sent (→ 413 before the rest is read; the remainder is drained). The content type
 * is judged by core (it sniffs the bytes); an absent body reads as zero bytes (→ 400).
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<RawBodyResult> {
  const contentType = req.headers['content-type'] ?? null;
  const lengthHeader = req.headers['content-length'];
  if (refusedContentEncoding(req.headers['content-encoding'])) {
    discard(req);
    return Promise.resolve({ ok: false, error: 'unsupported-encoding' });
  }
  const declared = checkDeclaredLength(lengthHeader, limit);
  if (declared !== undefined) {
    discard(req);
    return Promise.resolve({ ok: false, error: declared === 'too-large' ? 'too-large' : 'malformed' });
  }
  return readBounded(req, limit).then((read) =>
    read.ok
      ? {
          ok: true,
          value: {
            bytes: new Uint8Array(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength),
            contentType,
          },
        }
      : read,
  );
}
