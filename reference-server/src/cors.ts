import cors from '@koa/cors';
import type Koa from 'koa';

/**
 * Cross-origin access to the API from pages of other origins (CORS_ORIGINS, CORS_CREDENTIALS,
 * CORS_MAX_AGE_SECONDS; issue #41). Off unless origins are listed.
 */
export interface CorsSettings {
  /** Exact origins (`https://app.example.com`, `http://localhost:5173`) whose pages may call the API, or `'*'` for any (never with credentials); empty: CORS off. */
  origins: readonly string[] | '*';
  /** `Access-Control-Allow-Credentials: true`: pages may send and receive cookies (the login cookie the WebSocket reads). */
  credentials: boolean;
  /** How long a browser may reuse a preflight answer (`Access-Control-Max-Age`); 0 sends none. */
  maxAgeSeconds: number;
}

/** The methods of the contract. */
const ALLOWED_METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH'];
/** What the SDK sends: the token, JSON and picture bodies, its request id, generate's key, the language. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Request-Id',
  'Idempotency-Key',
  'Accept-Language',
];
/**
 * What the SDK and pages read beyond the CORS-safelisted headers: the request id (errors quote it),
 * Retry-After (429/503 waits), the language of a message, why the server is not ready, and a file's
 * name and size.
 */
export const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'Retry-After',
  'Content-Language',
  'X-Not-Ready',
  'Content-Disposition',
  'Content-Length',
] as const;

/** Paths CORS applies to: the API (with register and login) and the signed file downloads its 302 leads to. */
const CORS_PREFIXES = ['/api/', '/auth/', '/files/'];

/**
 * Reads CORS_ORIGINS: a comma-separated list of exact origins (scheme, host, port — no path), or
 * `*` alone. Answers the value and what is wrong with it, each said as the fix.
 */
export function parseCorsOrigins(
  raw: string | undefined,
  credentials: boolean,
): { origins: readonly string[] | '*'; issues: string[] } {
  const entries = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.includes('*')) {
    if (entries.length > 1)
      return {
        origins: [],
        issues: ['lists "*" beside other origins: give "*" alone, or only exact origins'],
      };
    if (credentials) {
      return {
        origins: [],
        issues: [
          'is "*", which browsers refuse with credentials (CORS_CREDENTIALS=true): list the exact origins, e.g. https://app.example.com',
        ],
      };
    }
    return { origins: '*', issues: [] };
  }
  const origins: string[] = [];
  const issues: string[] = [];
  for (const entry of entries) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      // reported below
    }
    if (origin === undefined || origin !== entry.toLowerCase().replace(/\/$/, '')) {
      issues.push(
        `has "${entry}", which is not an origin: write scheme, host and port only, e.g. https://app.example.com or http://localhost:5173`,
      );
      continue;
    }
    origins.push(origin);
  }
  return { origins, issues };
}

/** Whether CORS is on (some origin is allowed). */
export function corsEnabled(settings: CorsSettings | undefined): settings is CorsSettings {
  return settings !== undefined && (settings.origins === '*' || settings.origins.length > 0);
}

/**
 * The CORS middleware of the asset app (@koa/cors): on the API, register/login and /files/ only —
 * never on /docs, /studio or the review helper. An allowed origin gets `Access-Control-Allow-Origin`
 * (its own value; `*` when any origin is allowed), `Vary: Origin`, the exposed headers, and on a
 * preflight a 204 with the methods, headers and `Access-Control-Max-Age`. Any other origin gets no
 * CORS header and its request is answered as usual (the browser then withholds the answer from the
 * page). Undefined when CORS is off.
 */
export function createCorsMiddleware<S>(settings: CorsSettings | undefined): Koa.Middleware<S> | undefined {
  if (!corsEnabled(settings)) return undefined;
  const any = settings.origins === '*';
  const allowed = new Set(any ? [] : settings.origins);
  const middleware = cors({
    origin: (ctx) => {
      if (any) return '*';
      const origin = ctx.get('Origin');
      return allowed.has(origin) ? origin : '';
    },
    credentials: settings.credentials,
    allowMethods: ALLOWED_METHODS,
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: [...CORS_EXPOSED_HEADERS],
    ...(settings.maxAgeSeconds > 0 ? { maxAge: settings.maxAgeSeconds } : {}),
  }) as unknown as Koa.Middleware<S>;
  return (ctx, next) => {
    const path = ctx.path.toLowerCase();
    return CORS_PREFIXES.some((prefix) => path.startsWith(prefix)) ? middleware(ctx, next) : next();
  };
}
