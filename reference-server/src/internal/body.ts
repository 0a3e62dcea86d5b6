import type { IncomingMessage } from 'node:http';

/** Why a body could not be read; the HTTP layer maps each to its envelope error. */
export type BodyFailure = 'unsupported-media-type' | 'too-large' | 'malformed';

export type BodyResult = { ok: true; value: unknown } | { ok: false; error: BodyFailure };

/** `application/json` or any `application/<x>+json`, with optional parameters (charset must be UTF-8). */
function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [typePart, ...params] = header.split(';');
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
export function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const lengthHeader = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  const hasBody = chunked || (lengthHeader !== undefined && lengthHeader !== '0');
  if (!hasBody) return Promise.resolve({ ok: true, value: undefined });

  if (!isJsonContentType(req.headers['content-type'])) {
    discard(req);
    return Promise.resolve({ ok: false, error: 'unsupported-media-type' });
  }
  if (lengthHeader !== undefined) {
    const declared = /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : NaN;
    if (!Number.isFinite(declared)) {
      discard(req);
      return Promise.resolve({ ok: false, error: 'malformed' });
    }
    if (declared > limit) {
      discard(req);
      return Promise.resolve({ ok: false, error: 'too-large' });
    }
  }

  return new Promise((resolvePromise) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (result: BodyResult) => {
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
      finish(parseJson(buffer));
    };
    const onError = () => finish({ ok: false, error: 'malformed' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function parseJson(buffer: Buffer): BodyResult {
  if (buffer.length === 0) return { ok: false, error: 'malformed' };
  let text: string;
  try {
    text = decoder.decode(buffer);
  } catch {
    return { ok: false, error: 'malformed' };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: 'malformed' };
  }
}
