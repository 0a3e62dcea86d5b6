import type { IncomingMessage } from 'node:http';
import { checkDeclaredLength, isJsonContentType, type JsonBodyResult, parseJsonBytes } from '@assetloom/core';

/** Drains the rest of a request so the connection can be reused (bounded, errors ignored). */
function discard(req: IncomingMessage): void {
  req.resume();
  req.on('error', () => {});
}

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

  if (!isJsonContentType(req.headers['content-type'])) {
    discard(req);
    return Promise.resolve({ ok: false, error: 'unsupported-media-type' });
  }
  const declared = checkDeclaredLength(lengthHeader, limit);
  if (declared !== undefined) {
    discard(req);
    return Promise.resolve({ ok: false, error: declared });
  }

  return new Promise((resolvePromise) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (result: JsonBodyResult) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      resolvePromise(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        chunks.length = 0;
        discard(req);
        finish({ ok: false, error: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      const buffer = Buffer.concat(chunks, received);
      finish(parseJsonBytes(buffer));
    };
    const onError = () => finish({ ok: false, error: 'malformed' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}
