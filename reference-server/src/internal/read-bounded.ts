import type { IncomingMessage } from 'node:http';

/** Drains the rest of a request so the connection can be reused (bounded, errors ignored). */
export function discard(req: IncomingMessage): void {
  req.resume();
  req.on('error', () => {});
}

/**
 * The bytes of a request body, stopping at `limit` bytes (`too-large`, the rest drained) whether or
 * not Content-Length was sent; a request that errors or is aborted is `malformed`. The JSON reader
 * and the upload reader share it.
 */
export function readBounded(
  req: IncomingMessage,
  limit: number,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; error: 'too-large' | 'malformed' }> {
  return new Promise((resolvePromise) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (
      result: { ok: true; bytes: Buffer } | { ok: false; error: 'too-large' | 'malformed' },
    ) => {
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
    const onEnd = () => finish({ ok: true, bytes: Buffer.concat(chunks, received) });
    const onError = () => finish({ ok: false, error: 'malformed' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}
