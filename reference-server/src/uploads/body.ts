import type { IncomingMessage } from 'node:http';
import { checkDeclaredLength, type RawBodyResult } from '@assetloom/core';

/**
 * Reads an upload's body as bytes with its Content-Type, stopping at `limit` bytes whether or not
 * Content-Length was sent (→ 413 before the rest is read; the remainder is drained). The content type
 * is judged by core (it sniffs the bytes); an absent body reads as zero bytes (→ 400).
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<RawBodyResult> {
  const contentType = req.headers['content-type'] ?? null;
  const lengthHeader = req.headers['content-length'];
  const declared = checkDeclaredLength(lengthHeader, limit);
  if (declared !== undefined) {
    req.resume();
    req.on('error', () => {});
    return Promise.resolve({ ok: false, error: declared === 'too-large' ? 'too-large' : 'malformed' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (result: RawBodyResult) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        chunks.length = 0;
        req.resume();
        req.on('error', () => {});
        finish({ ok: false, error: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      const buffer = Buffer.concat(chunks, received);
      finish({
        ok: true,
        value: { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), contentType },
      });
    };
    const onError = () => finish({ ok: false, error: 'malformed' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}
