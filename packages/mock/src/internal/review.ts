import { MESSAGES } from '@assetloom/core';
import {
  createMemoryRateLimiter,
  createReviewAuthService,
  type PasswordHasher,
  REVIEW_ROUTE_PATHS,
  type ReviewAuthService,
  type ReviewStore,
  reviewErrors,
  reviewFailure,
} from '@assetloom/core/review';
import { createEmbeddedReviewStore } from '@assetloom/core/store/embedded';
import { readJsonBody } from './body.js';
import type { MockClock } from './clock.js';
import { randomToken } from './crypto.js';

export const SESSION_COOKIE = 'review_sid';
const SESSION_MAX_AGE_S = 7 * 24 * 60 * 60;
const BODY_LIMIT = 16 * 1024;

/** The paths of the review helper (spec 001); everything else belongs to the asset API. */
export const REVIEW_PATHS: ReadonlySet<string> = new Set(REVIEW_ROUTE_PATHS);

export interface ReviewMock {
  readonly store: ReviewStore;
  readonly service: ReviewAuthService;
  /** Session id → user id (the server keeps them in its database). */
  readonly sessions: Map<string, number>;
  handle(request: Request, cookies: Record<string, string>, requestId: string): Promise<Response>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

/** The CSRF rule of review-auth.yaml: Sec-Fetch-Site cross-site, or an Origin of another host. */
function isCrossSite(request: Request, host: string): boolean {
  if ((request.headers.get('sec-fetch-site') ?? '').trim().toLowerCase() === 'cross-site') return true;
  const origin = (request.headers.get('origin') ?? '').trim();
  if (origin === '') return false;
  try {
    const parsed = new URL(origin);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return true;
    return parsed.host.toLowerCase() !== host.toLowerCase();
  } catch {
    return true;
  }
}

/**
 * The review helper's JSON endpoints and pages over @assetloom/core/review (the same service the
 * server runs), with sessions in memory and the `review_sid` cookie.
 */
export async function createReviewMock(hasher: PasswordHasher, clock: MockClock): Promise<ReviewMock> {
  const store = createEmbeddedReviewStore();
  await store.init();
  const service = createReviewAuthService({
    store,
    hasher,
    clock: { now: () => clock.now() },
    loginLimiter: createMemoryRateLimiter({
      limit: 5,
      windowMs: 15 * 60 * 1000,
      clock: { now: () => clock.now() },
    }),
  });
  const sessions = new Map<string, number>();

  const headersFor = (requestId: string, extra: Record<string, string> = {}) => {
    const headers = new Headers({
      'X-Request-Id': requestId,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
      'Cross-Origin-Opener-Policy': 'same-origin',
      ...extra,
    });
    return headers;
  };
  const json = (status: number, body: unknown, headers: Headers) => {
    headers.set('Content-Type', 'application/json; charset=utf-8');
    headers.set('Cache-Control', 'no-store');
    return new Response(JSON.stringify(body), { status, headers });
  };
  const html = (text: string, headers: Headers) => {
    headers.set('Content-Type', 'text/html; charset=utf-8');
    headers.set('Cache-Control', 'no-store');
    return new Response(text, { status: 200, headers });
  };
  const redirect = (location: string, headers: Headers) => {
    headers.set('Location', location);
    headers.set('Cache-Control', 'no-store');
    return new Response(null, { status: 302, headers });
  };
  const sessionCookie = (sid: string) =>
    `${SESSION_COOKIE}=${sid}; path=/; max-age=${SESSION_MAX_AGE_S}; samesite=lax; httponly`;
  const clearCookie = `${SESSION_COOKIE}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=lax; httponly`;

  async function signIn(userId: number, oldSid: string | undefined, headers: Headers) {
    if (oldSid !== undefined) sessions.delete(oldSid);
    const sid = randomToken(32);
    sessions.set(sid, userId);
    headers.append('Set-Cookie', sessionCookie(sid));
  }

  return {
    store,
    service,
    sessions,
    async handle(request, cookies, requestId) {
      const url = new URL(request.url);
      const headers = headersFor(requestId);
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const sid = cookies[SESSION_COOKIE];
      const isApi = url.pathname.startsWith('/api/');
      const allowed = isApi ? 'POST' : 'GET, HEAD';
      if ((isApi && method !== 'POST') || (!isApi && method !== 'GET')) {
        headers.set('Allow', allowed);
        return json(405, { error: MESSAGES.methodNotAllowed }, headers);
      }
      try {
        if (isApi && isCrossSite(request, url.host)) {
          const failure = reviewFailure(reviewErrors.crossSite());
          return json(failure.status, failure.body, headers);
        }
        switch (url.pathname) {
          case '/login':
            return html(page('登录', '<h1>登录</h1><form id="login"></form>'), headers);
          case '/register':
            return html(page('注册', '<h1>注册</h1><form id="register"></form>'), headers);
          case '/': {
            const userId = sid === undefined ? undefined : sessions.get(sid);
            const found = await service.userById(userId);
            if (!found.ok) throw found.error;
            if (found.value === null) {
              if (sid !== undefined && sessions.delete(sid)) headers.append('Set-Cookie', clearCookie);
              return redirect('/login', headers);
            }
            return html(page('Assetloom', `<p>${escapeHtml(found.value.email)}</p>`), headers);
          }
          case '/api/auth/login':
          case '/api/auth/register': {
            const read = await readJsonBody(request, BODY_LIMIT);
            const body = read.ok ? read.value : undefined;
            const result =
              url.pathname === '/api/auth/login'
                ? await service.login(body, { ip: '127.0.0.1' })
                : await service.register(body);
            if (!result.ok) {
              const failure = reviewFailure(result.error);
              if (failure.retryAfter !== undefined) headers.set('Retry-After', String(failure.retryAfter));
              return json(failure.status, failure.body, headers);
            }
            await signIn(result.value.id, sid, headers);
            return json(200, { ok: true }, headers);
          }
          case '/api/auth/logout': {
            if (sid !== undefined) sessions.delete(sid);
            headers.append('Set-Cookie', clearCookie);
            return redirect('/login', headers);
          }
          default:
            return json(404, { error: MESSAGES.routeNotFound }, headers);
        }
      } catch (error) {
        const failure = reviewFailure(error);
        return json(failure.status, failure.body, headers);
      }
    },
  };
}
