/** A v4 UUID: `crypto.randomUUID()` where it exists (Node ≥ 19, browsers in secure contexts), else built from `getRandomValues`. */
export function randomUuid(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * `Retry-After` in seconds: delta-seconds or an HTTP date, `undefined` when absent or unreadable.
 * Negative or past values become 0.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Resolves a possibly relative URL against the client's base URL (which may itself be relative in browsers). */
export function resolveUrl(url: string, baseUrl: string): string {
  if (/^[a-z][a-z\d+\-.]*:/i.test(url)) return url;
  const base = baseUrl.replace(/\/+$/, '');
  try {
    return new URL(url, `${base}/`).toString();
  } catch {
    // A relative base URL (browsers, same origin): fetch resolves the result against the page.
    return url.startsWith('/') ? url : `${base}/${url}`;
  }
}

/**
 * A `Request` constructor that is whatever `globalThis.Request` is at the moment a request is made,
 * for openapi-fetch (which otherwise keeps the one it found when the client was made). msw's
 * `server.listen()` replaces `globalThis.Request` with a class that records the headers a request
 * was made with; a request made with the class from before lost them on the way (every
 * authenticated call to the mock answered 415, issue #41). `instanceof` checks the current class too.
 */
export const lateRequest: typeof Request = new Proxy(function Request() {} as unknown as typeof Request, {
  construct: (_target, args) =>
    new globalThis.Request(...(args as ConstructorParameters<typeof Request>)) as object,
  get: (_target, key) => Reflect.get(globalThis.Request, key),
});
