import type { FetchLike } from './transport.js';

/**
 * The two methods the SDK needs from a cookie jar. tough-cookie's `CookieJar` has them, so one jar
 * can be shared with other code (`new CookieJar()` from tough-cookie).
 */
export interface CookieJarLike {
  getCookieString(url: string): Promise<string> | string;
  setCookie(cookie: string, url: string): Promise<unknown> | unknown;
}

/** True in browsers and web workers, where the platform keeps cookies and the SDK must not. */
export function platformKeepsCookies(): boolean {
  const g = globalThis as { document?: unknown; WorkerGlobalScope?: unknown };
  return typeof g.document !== 'undefined' || typeof g.WorkerGlobalScope !== 'undefined';
}

/**
 * The default jar: tough-cookie (RFC 6265 domain, path, expiry and Secure rules), loaded on first use
 * so browser bundles never pull it in.
 */
export async function createDefaultJar(): Promise<CookieJarLike> {
  const { CookieJar } = await import('tough-cookie');
  return new CookieJar();
}

function setCookieHeaders(headers: Headers): string[] {
  const withGetter = headers as Headers & { getSetCookie?: () => string[] };
  if (typeof withGetter.getSetCookie === 'function') return withGetter.getSetCookie();
  const joined = headers.get('set-cookie');
  return joined ? [joined] : [];
}

/**
 * Wraps a fetch so that it sends the jar's cookies for each request URL and stores every
 * `Set-Cookie` of the answer (redirect answers included, since the caller sees them with
 * `redirect: 'manual'`). Unparsable cookies are ignored, as browsers do.
 */
export function withCookieJar(fetch: FetchLike, jar: () => Promise<CookieJarLike>): FetchLike {
  return async (request, init) => {
    const store = await jar();
    const cookie = await store.getCookieString(request.url);
    let outgoing = request;
    if (cookie) {
      const headers = new Headers(request.headers);
      headers.set('cookie', cookie);
      outgoing = new Request(request, { headers });
    }
    const response = await fetch(outgoing, init);
    const url = response.url || request.url;
    for (const header of setCookieHeaders(response.headers)) {
      try {
        await store.setCookie(header, url);
      } catch {
        // A cookie the jar rejects (wrong domain, malformed) is dropped, like a browser would.
      }
    }
    return response;
  };
}
