import createClient, { type Client } from 'openapi-fetch';
import type { Outcome } from './asset-client.js';
import { AssetloomApiError } from './errors.js';
import {
  type CookieJarLike,
  createDefaultJar,
  platformKeepsCookies,
  withCookieJar,
} from './internal/cookies.js';
import { type ApiResult, errorFromAnswer, errorFromThrown, fail, ok } from './internal/envelope.js';
import {
  createTransport,
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  type RetryOptions,
  validateTransportOptions,
} from './internal/transport.js';
import { isRecord, lateRequest } from './internal/util.js';
import type { ReviewAuthPaths, ReviewCredentials } from './types.js';

export interface ReviewAuthClientOptions<Throw extends boolean = false> {
  /** Origin of the review-helper app, e.g. `http://127.0.0.1:8080`; may be '' (same origin) in browsers. */
  baseUrl: string;
  fetch?: FetchLike;
  /**
   * Where the `review_sid` session cookie lives. `'auto'` (default): the browser keeps it (requests use
   * `credentials: 'include'`) in browsers and web workers, a tough-cookie jar elsewhere (Node, Deno, Bun).
   * `'browser'` or `'jar'` force one; pass your own jar (e.g. a tough-cookie `CookieJar`) to share it.
   */
  cookies?: 'auto' | 'browser' | 'jar' | CookieJarLike;
  /** Per-attempt timeout in ms (default 30 000); `false` for none. */
  timeoutMs?: number | false;
  /**
   * Retry policy. These endpoints are POSTs without an idempotency key, so only the timeout and the
   * `Retry-After` reporting apply; the option exists for symmetry with `createAssetClient`.
   */
  retry?: RetryOptions | false;
  throwOnError?: Throw;
}

export interface ReviewLogoutData {
  ok: true;
  /** Where the server redirected (`/login`); `undefined` in browsers, which hide redirect targets. */
  location: string | undefined;
}

export interface ReviewAuthClient<Throw extends boolean = false> {
  /** `POST /api/auth/login`: the session cookie is kept for the following calls. */
  login(
    credentials: ReviewCredentials,
    options?: { signal?: AbortSignal },
  ): Promise<Outcome<{ ok: true }, Throw>>;
  /** `POST /api/auth/register`: creates the user and logs in (session cookie kept). */
  register(
    credentials: ReviewCredentials,
    options?: { signal?: AbortSignal },
  ): Promise<Outcome<{ ok: true }, Throw>>;
  /** `POST /api/auth/logout`: the 302 to `/login` is not followed; it is reported as success. */
  logout(options?: { signal?: AbortSignal }): Promise<Outcome<ReviewLogoutData, Throw>>;
  /** The jar holding the session cookie, `undefined` when the browser keeps cookies. */
  cookieJar(): Promise<CookieJarLike | undefined>;
  /** The typed openapi-fetch client over the same fetch (cookies, timeout). */
  readonly raw: Client<ReviewAuthPaths>;
}

/**
 * Creates the client of the review-helper session authentication (spec 001).
 *
 * ```ts
 * const auth = createReviewAuthClient({ baseUrl: 'http://127.0.0.1:8080' });
 * const { error } = await auth.login({ email: 'ada@example.com', password: 'secret1' });
 * ```
 */
export function createReviewAuthClient<Throw extends boolean = false>(
  options: ReviewAuthClientOptions<Throw>,
): ReviewAuthClient<Throw> {
  if (!isRecord(options) || typeof options.baseUrl !== 'string') {
    throw new TypeError(
      "[assetloom/sdk] createReviewAuthClient needs { baseUrl: string }, e.g. 'http://127.0.0.1:8080'.",
    );
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new TypeError('[assetloom/sdk] fetch must be a function (Request) => Promise<Response>.');
  }
  validateTransportOptions(options);
  const cookies = options.cookies ?? 'auto';
  const useBrowser = cookies === 'browser' || (cookies === 'auto' && platformKeepsCookies());
  let jarPromise: Promise<CookieJarLike> | undefined;
  if (typeof cookies === 'object' && cookies !== null) {
    if (typeof cookies.getCookieString !== 'function' || typeof cookies.setCookie !== 'function') {
      throw new TypeError(
        '[assetloom/sdk] cookies must be a jar with getCookieString(url) and setCookie(cookie, url).',
      );
    }
    jarPromise = Promise.resolve(cookies);
  } else if (!['auto', 'browser', 'jar'].includes(cookies as string)) {
    throw new TypeError("[assetloom/sdk] cookies must be 'auto', 'browser', 'jar' or a cookie jar.");
  }
  const jar = () => {
    jarPromise ??= createDefaultJar();
    return jarPromise;
  };
  const baseFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Cookies are read and stored per attempt, below the retry layer.
  const transport = createTransport({
    fetch: useBrowser ? baseFetch : withCookieJar(baseFetch, jar),
    retry: options.retry,
    timeoutMs,
  });
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const raw = createClient<ReviewAuthPaths>({
    baseUrl,
    fetch: transport,
    Request: lateRequest,
    ...(useBrowser ? { credentials: 'include' as const } : {}),
  });
  const throwOnError = options.throwOnError === true;

  function finish<T>(result: ApiResult<T>): Outcome<T, Throw> {
    if (!throwOnError) return result as Outcome<T, Throw>;
    if (result.error) throw result.error;
    return result.data as Outcome<T, Throw>;
  }

  const readError = (body: Record<string, unknown>) =>
    typeof body.error === 'string' ? { code: undefined as unknown, message: body.error } : undefined;

  async function post(
    path: '/api/auth/login' | '/api/auth/register',
    credentials: ReviewCredentials,
    signal: AbortSignal | undefined,
  ): Promise<ApiResult<{ ok: true }>> {
    try {
      const out = await raw.POST(path, { body: credentials, ...(signal ? { signal } : {}) });
      const { response } = out;
      if (response.ok) {
        if (isRecord(out.data) && out.data.ok === true) return ok({ ok: true }, response);
        return fail(
          new AssetloomApiError({
            code: 'invalid_response',
            httpStatus: response.status,
            message: `[assetloom/sdk] POST ${path} answered HTTP ${response.status} without {ok: true}; check that baseUrl points at the review helper.`,
          }),
          response,
        );
      }
      return fail(reviewError(response, out.error, readError), response);
    } catch (error) {
      return fail(
        errorFromThrown(error, {
          method: 'POST',
          url: `${baseUrl}${path}`,
          requestId: undefined,
          signal,
          timeoutMs,
        }),
      );
    }
  }

  async function logout(callOptions: { signal?: AbortSignal } = {}): Promise<ApiResult<ReviewLogoutData>> {
    const { signal } = callOptions;
    try {
      const out = await raw.POST('/api/auth/logout', { redirect: 'manual', ...(signal ? { signal } : {}) });
      const { response } = out;
      // Browsers turn a manual redirect into an opaque answer (type 'opaqueredirect', status 0).
      if (response.type === 'opaqueredirect') return ok({ ok: true, location: undefined }, response);
      if ((response.status >= 300 && response.status < 400) || response.ok) {
        return ok({ ok: true, location: response.headers.get('location') ?? undefined }, response);
      }
      return fail(reviewError(response, out.error, readError), response);
    } catch (error) {
      return fail(
        errorFromThrown(error, {
          method: 'POST',
          url: `${baseUrl}/api/auth/logout`,
          requestId: undefined,
          signal,
          timeoutMs,
        }),
      );
    }
  }

  return {
    login: (credentials, callOptions) =>
      post('/api/auth/login', credentials, callOptions?.signal).then(finish),
    register: (credentials, callOptions) =>
      post('/api/auth/register', credentials, callOptions?.signal).then(finish),
    logout: (callOptions) => logout(callOptions).then(finish),
    cookieJar: async () => (useBrowser ? undefined : jar()),
    raw,
  };
}

/** spec 001 answers `{error}` with the HTTP status as the only code. */
function reviewError(
  response: Response,
  body: unknown,
  read: (body: Record<string, unknown>) => { code: unknown; message: unknown } | undefined,
): AssetloomApiError {
  return errorFromAnswer(response, body, undefined, (record) => {
    const parsed = read(record);
    return parsed ? { code: response.status, message: parsed.message } : undefined;
  });
}
