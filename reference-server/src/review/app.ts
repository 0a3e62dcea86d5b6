import { performance } from 'node:perf_hooks';
import { MESSAGES } from '@assetloom/core';
import {
  AssetloomError,
  contentLanguage,
  type Language,
  languageOf,
  REVIEW_ROUTE_PATHS,
  type ReviewAuthService,
  reviewErrorBody,
  reviewErrors,
  reviewFailure,
} from '@assetloom/core/review';
import Koa from 'koa';
import createSession from 'koa-session';
import type { Logger } from 'pino';
import { readJsonBody } from '../internal/body.js';
import { requestIdFrom } from '../internal/request-id.js';
import { RequestState } from '../internal/request-state.js';
import { isCrossSite } from './csrf.js';
import {
  CONTENT_SECURITY_POLICY,
  errorPage,
  ICON_PATH,
  ICON_SVG,
  landingPage,
  loginPage,
  PAGE_SCRIPT,
  registerPage,
  SCRIPT_PATH,
  STYLE_PATH,
  STYLESHEET,
} from './pages.js';
import { type KoaSessionStore, newSessionId, SESSION_COOKIE, SESSION_MAX_AGE_MS } from './session-store.js';

/** What {@link createReviewApp} needs; `createReviewParts` builds these from the server configuration. */
export interface ReviewAppDeps {
  service: ReviewAuthService;
  /** koa-session's external store (see `createSessionStore`); only the id travels in the cookie. */
  sessionStore: KoaSessionStore;
  logger: Logger;
  /** Adds `Secure` to the session cookie (everywhere but development). */
  secureCookies: boolean;
  /** Trust `X-Forwarded-*` for the client IP, protocol and host. */
  trustProxy?: boolean;
  /** Largest accepted JSON body in bytes (default 16 KiB; a maximal e-mail and password fit in 2 KiB). */
  bodyLimitBytes?: number;
  /** Session lifetime, rolling (default 7 days). */
  sessionMaxAgeMs?: number;
  /** Session ids (default 32 random bytes, base64url). */
  genid?: () => string;
}

export interface ReviewState {
  readonly requestId: string;
  readonly log: Logger;
}

/** The language of a request's answers: its `Accept-Language` (decision 0037). */
function languageOfRequest(ctx: {
  req: { headers: Record<string, string | string[] | undefined> };
}): Language {
  return languageOf(ctx.req.headers['accept-language']);
}

type ReviewContext = Koa.ParameterizedContext<ReviewState>;

/** The parts of koa-session's Session the app uses. */
interface SessionHandle {
  user_id?: unknown;
  regenerate(): Promise<void> | undefined;
  manuallyCommit(): Promise<void> | undefined;
}

type Kind = 'page' | 'api' | 'asset';
type Handler = (ctx: ReviewContext) => Promise<void>;
interface Route {
  kind: Kind;
  methods: Partial<Record<'GET' | 'POST', Handler>>;
}

/** The paths this app answers; everything else belongs to the asset API when both are mounted. */
export const REVIEW_PATHS: ReadonlySet<string> = new Set([
  ...REVIEW_ROUTE_PATHS,
  SCRIPT_PATH,
  STYLE_PATH,
  ICON_PATH,
]);

const METHOD_NOT_ALLOWED = MESSAGES.methodNotAllowed;
const DEFAULT_BODY_LIMIT = 16 * 1024;

function sessionOf(ctx: ReviewContext): SessionHandle | null {
  return (ctx as unknown as { session: SessionHandle | null }).session;
}

function setSession(ctx: ReviewContext, value: Record<string, unknown> | null): void {
  (ctx as unknown as { session: Record<string, unknown> | null }).session = value;
}

/**
 * The review helper's Koa app (spec 001): the login, registration and landing pages and the JSON
 * endpoints, with koa-session over a server-side store, a CSRF check on every POST, and the login
 * throttle of the domain service. Mountable alone, or beside the asset API with `combineApps`.
 */
export function createReviewApp(deps: ReviewAppDeps): Koa<ReviewState> {
  const { service } = deps;
  const bodyLimit = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const app = new Koa<ReviewState>({ proxy: deps.trustProxy ?? false });
  app.silent = true;

  const session = createSession(
    {
      key: SESSION_COOKIE,
      store: deps.sessionStore as never,
      genid: deps.genid ?? newSessionId,
      maxAge: deps.sessionMaxAgeMs ?? SESSION_MAX_AGE_MS,
      rolling: true,
      renew: false,
      autoCommit: false,
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.secureCookies,
      signed: false,
      overwrite: true,
    },
    app as never,
  );

  /** Runs `inner` with the session loaded (koa-session reads the store first). */
  const withSession =
    (inner: Handler): Handler =>
    (ctx) =>
      session(ctx, () => inner(ctx));

  function json(ctx: ReviewContext, status: number, body: unknown): void {
    ctx.status = status;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  }

  function fail(ctx: ReviewContext, error: unknown): void {
    const failure = reviewFailure(error, languageOfRequest(ctx));
    if (failure.status >= 500) {
      const cause = error instanceof AssetloomError ? (error.cause ?? error) : error;
      ctx.state.log.error({ err: cause, answer: failure.body.error }, 'review request failed');
    }
    if (failure.retryAfter !== undefined) ctx.set('Retry-After', String(failure.retryAfter));
    json(ctx, failure.status, failure.body);
  }

  async function readBody(ctx: ReviewContext): Promise<unknown> {
    const read = await readJsonBody(ctx.req, bodyLimit);
    return read.ok ? read.value : undefined;
  }

  /** Puts `user_id` into a fresh session under a new id; false (after answering 500) if it cannot be saved. */
  async function signIn(ctx: ReviewContext, userId: number): Promise<boolean> {
    try {
      setSession(ctx, { user_id: userId });
      await sessionOf(ctx)?.regenerate();
      return true;
    } catch (err) {
      clearCookie(ctx);
      fail(ctx, reviewErrors.sessionSave(err));
      return false;
    }
  }

  function clearCookie(ctx: ReviewContext): void {
    ctx.cookies.set(SESSION_COOKIE, '', {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.secureCookies,
      expires: new Date(0),
      overwrite: true,
    });
  }

  /** Saves a rolling refresh (or a removal) after a page; a failure is logged, the page still shows. */
  async function commit(ctx: ReviewContext, handle: SessionHandle | null): Promise<void> {
    try {
      await handle?.manuallyCommit();
    } catch (err) {
      ctx.state.log.warn({ err }, 'review session refresh failed');
    }
  }

  /** A page in the request's language. */
  function page(ctx: ReviewContext, html: (language: Language) => string): void {
    const language = languageOfRequest(ctx);
    ctx.status = 200;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html(language);
  }

  const routes: Record<string, Route> = {
    '/login': {
      kind: 'page',
      methods: {
        GET: withSession(async (ctx) => {
          const handle = sessionOf(ctx);
          page(ctx, loginPage);
          await commit(ctx, handle);
        }),
      },
    },
    '/register': {
      kind: 'page',
      methods: {
        GET: withSession(async (ctx) => {
          const handle = sessionOf(ctx);
          page(ctx, registerPage);
          await commit(ctx, handle);
        }),
      },
    },
    '/': {
      kind: 'page',
      methods: {
        GET: withSession(async (ctx) => {
          const handle = sessionOf(ctx);
          const found = await service.userById(handle?.user_id);
          if (!found.ok) throw found.error;
          if (found.value === null) {
            // No session, or one naming a user that no longer exists: start again at the login page.
            if (handle?.user_id !== undefined) setSession(ctx, null);
            ctx.set('Cache-Control', 'no-store');
            ctx.redirect('/login');
          } else {
            const email = found.value.email;
            page(ctx, (language) => landingPage(email, language));
          }
          await commit(ctx, handle);
        }),
      },
    },
    '/api/auth/login': {
      kind: 'api',
      methods: {
        POST: withSession(async (ctx) => {
          const result = await service.login(await readBody(ctx), { ip: ctx.ip || 'unknown' });
          if (!result.ok) return fail(ctx, result.error);
          if (await signIn(ctx, result.value.id)) json(ctx, 200, { ok: true });
        }),
      },
    },
    '/api/auth/register': {
      kind: 'api',
      methods: {
        POST: withSession(async (ctx) => {
          const result = await service.register(await readBody(ctx), { ip: ctx.ip || 'unknown' });
          if (!result.ok) return fail(ctx, result.error);
          ctx.state.log.info({ userId: result.value.id }, 'review user registered');
          if (await signIn(ctx, result.value.id)) json(ctx, 200, { ok: true });
        }),
      },
    },
    '/api/auth/logout': {
      kind: 'api',
      methods: {
        POST: async (ctx) => {
          try {
            await session(ctx, async () => {
              const handle = sessionOf(ctx);
              setSession(ctx, null);
              await handle?.manuallyCommit();
            });
          } catch (err) {
            // The store failed: still end the browser's session, and try the server side once more.
            ctx.state.log.error({ err }, 'review logout could not destroy the session');
            const sid = ctx.cookies.get(SESSION_COOKIE);
            if (sid) await deps.sessionStore.destroy(sid).catch(() => undefined);
            clearCookie(ctx);
          }
          ctx.set('Cache-Control', 'no-store');
          ctx.redirect('/login');
        },
      },
    },
    [SCRIPT_PATH]: {
      kind: 'asset',
      methods: {
        GET: async (ctx) => {
          ctx.type = 'text/javascript; charset=utf-8';
          ctx.set('Cache-Control', 'no-cache');
          ctx.body = PAGE_SCRIPT;
        },
      },
    },
    [ICON_PATH]: {
      kind: 'asset',
      methods: {
        GET: async (ctx) => {
          ctx.type = 'image/svg+xml';
          ctx.set('Cache-Control', 'public, max-age=86400');
          ctx.body = ICON_SVG;
        },
      },
    },
    [STYLE_PATH]: {
      kind: 'asset',
      methods: {
        GET: async (ctx) => {
          ctx.type = 'text/css; charset=utf-8';
          ctx.set('Cache-Control', 'no-cache');
          ctx.body = STYLESHEET;
        },
      },
    },
  };

  app.use(async (ctx) => {
    const started = performance.now();
    const requestId = requestIdFrom(ctx.get('X-Request-Id') || undefined);
    ctx.state = new RequestState(requestId, deps.logger, { app: 'review' });
    ctx.set('X-Request-Id', requestId);
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (deps.secureCookies) ctx.cookies.secure = true;

    const route = routes[ctx.path];
    // Pages and messages follow Accept-Language (decision 0037).
    const language = languageOfRequest(ctx);
    if (route?.kind !== 'asset') {
      ctx.set('Content-Language', contentLanguage(language));
      ctx.vary('Accept-Language');
    }
    try {
      if (route === undefined) {
        json(ctx, 404, reviewErrorBody(MESSAGES.routeNotFound, language));
        return;
      }
      const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
      const handler = route.methods[method as 'GET' | 'POST'];
      if (handler === undefined) {
        const allowed = Object.keys(route.methods).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
        ctx.set('Allow', allowed.join(', '));
        json(ctx, 405, reviewErrorBody(METHOD_NOT_ALLOWED, language));
        return;
      }
      if (method === 'POST' && isCrossSite(ctx)) {
        fail(ctx, reviewErrors.crossSite());
        return;
      }
      await handler(ctx);
    } catch (err) {
      if (route?.kind === 'page') {
        ctx.state.log.error({ err }, 'review page failed');
        ctx.status = 500;
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = errorPage(language);
      } else {
        fail(ctx, err);
      }
    } finally {
      // The request line goes through the root logger with the ids as fields: no child per request.
      const line = {
        reqId: requestId,
        app: 'review',
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      };
      if (ctx.status >= 500) deps.logger.error(line, 'request completed');
      else deps.logger.info(line, 'request completed');
    }
  });

  return app;
}
