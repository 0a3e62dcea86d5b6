import type { Context } from 'koa';

/**
 * The CSRF rule of openapi/review-auth.yaml: a POST is refused when `Sec-Fetch-Site` says
 * `cross-site`, or when an `Origin` header names another origin than the server's. Origins are
 * compared by host (name and port), so a TLS-terminating proxy that forwards plain HTTP does not
 * turn the pages' own requests into "another origin"; an opaque origin (`null`) or anything that
 * is not an http(s) URL counts as another origin. Requests without either header (curl, SDKs)
 * pass: a browser always sends at least one of them on a cross-site POST.
 */
export function isCrossSite(ctx: Pick<Context, 'get' | 'host'>): boolean {
  const site = ctx.get('Sec-Fetch-Site').trim().toLowerCase();
  if (site === 'cross-site') return true;
  const origin = ctx.get('Origin').trim();
  if (origin === '') return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return true;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return true;
  return parsed.host.toLowerCase() !== ctx.host.toLowerCase();
}
