import createClient, {
  type Client,
  type FetchOptions,
  type MaybeOptionalInit,
  mergeHeaders,
} from 'openapi-fetch';
import type {
  HttpMethod,
  PathsWithMethod,
  RequiredKeysOf,
  SuccessResponseJSON,
} from 'openapi-typescript-helpers';
import { AssetloomApiError, type AssetloomErrorCode } from './errors.js';
import {
  type ApiResult,
  errorFromAnswer,
  errorFromThrown,
  fail,
  fromEnvelope,
  ok,
} from './internal/envelope.js';
import {
  followSocket,
  isTerminal,
  resolveWebSocket,
  type SocketEnd,
  socketUrl,
  type WebSocketConstructor,
} from './internal/socket.js';
import {
  createTransport,
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  mergeRetry,
  type RetryOptions,
  type RetryWaitEvent,
  validateTransportOptions,
} from './internal/transport.js';
import { isRecord, lateRequest, randomUuid, resolveUrl, sleep } from './internal/util.js';
import { overallProgress, taskStageOf, taskStatusOf } from './progress.js';
import type {
  AnimateCharacterRequest,
  AssetApiPaths,
  Capabilities,
  ChangePasswordData,
  ChangePasswordRequest,
  Character,
  CharacterList,
  CreateCharacterRequest,
  GenerateRequest,
  LoginData,
  LoginRequest,
  PipelineProgress,
  ProjectListItem,
  RotateCharacterRequest,
  StyleCatalog,
  Task,
  TaskList,
  TaskListItem,
  Upload,
} from './types.js';
import {
  bytesOf,
  progressBody,
  sniffImageType,
  streamsRequests,
  type UploadProgress,
  type UploadSource,
} from './upload.js';

type Paths = AssetApiPaths;

/** Paths that do not answer the JSON envelope: use `downloadAsset()` for files and `waitForTask()` for the WebSocket. */
export type NonEnvelopePath = '/api/v1/assets/download' | '/files/{key}' | '/api/v1/tasks/{taskId}/ws';

/** The paths callable with `M` that answer the `{code, message, data}` envelope. */
export type EnvelopePath<M extends HttpMethod> = Exclude<PathsWithMethod<Paths, M>, NonEnvelopePath>;

/** The `data` of the success envelope of `M P`. */
export type EnvelopeData<P extends keyof Paths, M extends HttpMethod> =
  // biome-ignore lint/suspicious/noExplicitAny: the constraint of openapi-typescript-helpers' SuccessResponseJSON
  Paths[P][M] extends Record<string | number, any>
    ? SuccessResponseJSON<Paths[P][M]> extends infer E
      ? E extends { data: infer D }
        ? D
        : never
      : never
    : never;

/** As in openapi-fetch: the init argument is optional unless the operation has required params or a body. */
type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];

/** Per-call options on top of openapi-fetch's (`params`, `body`, `headers`, `signal`, …). */
export interface CallOptions {
  /** Per-attempt timeout in ms for this call; `false` for none. */
  timeoutMs?: number | false;
  /**
   * The most this call may take in all, in ms: every attempt, every backoff and every `Retry-After`
   * wait included. A wait that would end past it is not started (the last answer comes back, a 429
   * with `error.retryAfter`); an attempt still under way is stopped (`code: 'timeout'`).
   */
  deadline?: number;
  /** Retry options merged over the client's for this call; `false` for a single attempt. */
  retry?: RetryOptions | false;
  /** Sent as `X-Request-Id` (1-128 visible ASCII). A fresh UUID by default, the same across retries. */
  requestId?: string;
  signal?: AbortSignal;
}

/** `data` in the throwing style, the {@link ApiResult} union otherwise. */
export type Outcome<T, Throw extends boolean> = Throw extends true ? T : ApiResult<T>;

type EnvelopeMethod<M extends HttpMethod, Throw extends boolean> = <
  P extends EnvelopePath<M>,
  I extends MaybeOptionalInit<Paths[P], M>,
>(
  url: P,
  ...init: InitParam<I & CallOptions>
) => Promise<Outcome<EnvelopeData<P, M>, Throw>>;

export type TokenSource = () => string | undefined | null | Promise<string | undefined | null>;

/** Something the SDK thinks you should know although the call goes on (see `onWarning`). */
export interface AssetloomWarning {
  /**
   * `no_websocket`: `waitForTask` polls because no progress WebSocket could be opened, so `onEvent`
   * is not called; `long_wait`: a retry waits 5 s or more (a 429's `Retry-After`) and no
   * `retry.onWait` hook is there to show it.
   */
  code: 'no_websocket' | 'long_wait';
  message: string;
}

/** A language tag for `Accept-Language`: `'en'` and `'zh'` are the languages the server answers in. */
export type AssetloomLanguage = 'en' | 'zh' | 'zh-CN' | (string & {});

export interface AssetClientOptions<Throw extends boolean = false> {
  /** Origin (and optional prefix) of the API, e.g. `http://127.0.0.1:8080`. May be relative in browsers ('' = same origin). */
  baseUrl: string;
  /** A fixed token (or use `login()`). */
  token?: string;
  /** Called before each authenticated request when no token is stored (e.g. read from your own store). */
  getToken?: TokenSource;
  /** The fetch to send requests with (tests inject one; defaults to globalThis.fetch). */
  fetch?: FetchLike;
  /**
   * The WebSocket constructor `waitForTask` uses. Default: the `ws` package in Node (an optional
   * peer dependency, imported on first use; it sends `Authorization: Bearer`), the global
   * `WebSocket` in browsers (which sends the httpOnly `assetloom_token` cookie set at login).
   */
  WebSocket?: WebSocketConstructor;
  /** Retry policy; `false` for single attempts. Defaults: 2 retries, 300 ms base, full jitter, Retry-After ≤ 60 s honoured. */
  retry?: RetryOptions | false;
  /** Per-attempt timeout in ms (default 30 000); `false` for none. */
  timeoutMs?: number | false;
  /** Opt-in throwing style: methods resolve to `data` and reject with {@link AssetloomApiError}. */
  throwOnError?: Throw;
  /** Default total deadline of every call in ms (see `CallOptions.deadline`). Default: none. */
  deadline?: number;
  /**
   * The language of the server's messages, sent as `Accept-Language` with every API call: `'en'`
   * for English, `'zh'` for Chinese (the server's default). Any language tag may be given; the
   * server answers in English or Chinese. A function is asked before each call (a UI language that
   * changes). An `Accept-Language` in `headers`, or in a call's own headers, wins.
   */
  language?: AssetloomLanguage | (() => AssetloomLanguage | undefined);
  /**
   * `credentials` of every API call's request (not of file downloads). `'include'` lets a page send
   * and keep cookies across origins — a server with `CORS_CREDENTIALS=true` and the page's origin in
   * `CORS_ORIGINS`: the login cookie then also opens the progress WebSocket from that page. Default:
   * the fetch default (`'same-origin'`).
   */
  credentials?: RequestCredentials;
  /**
   * Headers sent with every API call (not with file downloads); a function is asked before each
   * call. A call's own `headers` win.
   */
  headers?: HeadersInit | (() => HeadersInit | undefined);
  /** Where warnings go (default `console.warn` of the message); each kind is reported once per client. */
  onWarning?: (warning: AssetloomWarning) => void;
}

export interface EventsOptions {
  /** Stops the stream: the loop ends with an error of code `aborted`. */
  signal?: AbortSignal;
  /** Only events after this `seq` (e.g. the last one you saw before a reload). Default 0: all of them. */
  since?: number;
}

export interface PaginateOptions {
  /** Items per request, 1-100 (default 100: fewest round trips). */
  pageSize?: number;
  signal?: AbortSignal;
  timeoutMs?: number | false;
  retry?: RetryOptions | false;
}

export interface WaitForTaskOptions {
  signal?: AbortSignal;
  /** Called with the task on the first poll and whenever its status, stage, progress or retryCount changes. */
  onProgress?: (task: Task) => void;
  /** Give up after this many ms (an error with code `timeout`). Default: wait until the task ends. */
  timeoutMs?: number;
  /** First delay between polls in ms (default 1000); it grows ×1.5 while nothing changes. */
  pollIntervalMs?: number;
  /** Upper bound of the delay between polls in ms (default 5000). */
  maxPollIntervalMs?: number;
  /** Called with every PipelineProgress event when the WebSocket stream is used. */
  onEvent?: (event: PipelineProgress) => void;
  /**
   * How progress is observed. `'auto'` (default): the WebSocket stream
   * (`/api/v1/tasks/:taskId/ws`, reconnecting with `?since=` after a drop), falling back to polling
   * when no socket can be opened; `'ws'`: the stream only; `'poll'`: polling only.
   */
  transport?: 'auto' | 'ws' | 'poll';
}

export interface GenerateOptions extends CallOptions {
  /** Sent as `Idempotency-Key` and reused on every retry. Default: a fresh UUID per `generate()` call. */
  idempotencyKey?: string;
}

export interface GenerateResult {
  taskId: string;
  /** The key that was sent: keep it to resubmit safely after a crash (same key → same task for 24 h). */
  idempotencyKey: string;
}

/** Options of {@link AssetClient.uploadImage}. */
export interface UploadImageOptions extends CallOptions {
  /** The content type to declare; default: read from the bytes (PNG, JPEG, WebP, GIF). */
  contentType?: string;
  /**
   * Called as the bytes go out (Node, Deno, Bun: chunk by chunk, the upload then sent once without
   * retries, as a stream cannot be sent again; elsewhere once, when the whole body was sent).
   */
  onProgress?: (progress: UploadProgress) => void;
}

/** Options of {@link AssetClient.getStyleCatalog}. */
export interface StyleCatalogOptions extends CallOptions {
  /**
   * `Accept-Language` of this call (`'en'` for English descriptions, `'zh-CN'` for Chinese); default:
   * the client's `language` (or an `Accept-Language` in its `headers`), else the server's default (Chinese).
   */
  language?: string;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  timeoutMs?: number | false;
  retry?: RetryOptions | false;
}

export interface DownloadedAsset {
  bytes: Uint8Array;
  /** `Content-Type` of the file (`application/octet-stream` when the server sent none). */
  contentType: string;
  /** The URL the bytes finally came from (after redirects). */
  url: string;
}

/** An asset from `GET /api/v1/tasks/{taskId}/assets`, or just its key. */
export type AssetRef = string | { key: string; url?: string };

export interface AssetClient<Throw extends boolean = false> {
  GET: EnvelopeMethod<'get', Throw>;
  POST: EnvelopeMethod<'post', Throw>;
  PUT: EnvelopeMethod<'put', Throw>;
  PATCH: EnvelopeMethod<'patch', Throw>;
  DELETE: EnvelopeMethod<'delete', Throw>;
  /** The underlying openapi-fetch client (auth, retries and timeouts applied, envelope not unwrapped). */
  readonly raw: Client<Paths>;
  /** The token sent as `Authorization: Bearer`, if one is stored. */
  readonly token: string | undefined;
  /** Stores (or with `undefined` forgets) the token. */
  setToken(token: string | undefined): void;
  /** `POST /auth/login`; on success the token is stored and sent with every later call. */
  login(body: LoginRequest, options?: CallOptions): Promise<Outcome<LoginData, Throw>>;
  /** Forgets the stored token (spec 000 has no server-side logout; tokens expire after `expiresIn` s). */
  logout(): void;
  /** `PUT /api/v1/auth/password` (never retried: a repeat would fail on the old password); stores the fresh token. */
  changePassword(
    body: ChangePasswordRequest,
    options?: CallOptions,
  ): Promise<Outcome<ChangePasswordData, Throw>>;
  /** Every project of the caller, newest first, page after page. Throws {@link AssetloomApiError}. */
  paginate(path: '/api/v1/projects', options?: PaginateOptions): AsyncIterableIterator<ProjectListItem>;
  /** Every task of a project, newest first, page after page. Throws {@link AssetloomApiError}. */
  paginate(
    path: '/api/v1/projects/{projectId}/tasks',
    options: PaginateOptions & { projectId: string },
  ): AsyncIterableIterator<TaskListItem>;
  /** `POST /api/v1/generate` with an `Idempotency-Key`, retried safely with the same key. */
  generate(body: GenerateRequest, options?: GenerateOptions): Promise<Outcome<GenerateResult, Throw>>;
  /**
   * Polls `GET /api/v1/tasks/{taskId}` with backoff until the task is `completed` (→ the task) or
   * `failed` (→ an error with code `task_failed`, the task in `error.task`).
   */
  waitForTask(taskId: string, options?: WaitForTaskOptions): Promise<Outcome<Task, Throw>>;
  /**
   * The task's PipelineProgress events as they happen, over its WebSocket (a drop reconnects with
   * `?since=` the last seq, so none is lost or repeated): `for await (const event of api.events(taskId))`.
   * Earlier events are replayed first; the loop ends after the terminal event (format_adapter
   * completed, or a failure). Throws {@link AssetloomApiError} (the task is read over HTTP first, so
   * 401/403/404 come as they would from `GET`; `network_error` when no WebSocket can be opened).
   */
  events(taskId: string, options?: EventsOptions): AsyncIterableIterator<PipelineProgress>;
  /**
   * `GET /api/v1/styles/catalog` (public): what the style keys accept — the named palettes with their
   * colours, the art styles, and every known key with its values (`null`: any text) and description
   * (in `options.language`, else the client's `language`).
   */
  getStyleCatalog(options?: StyleCatalogOptions): Promise<Outcome<StyleCatalog, Throw>>;
  /**
   * `GET /api/v1/capabilities` (public): what the server's configured image provider honours — its
   * name and kind, the asset types, the image inputs (`image` redraw, `mask` inpaint, `references`)
   * and the limits to name in messages. Offer only what it can do (decision 0050).
   */
  getCapabilities(options?: CallOptions): Promise<Outcome<Capabilities, Throw>>;
  /** The bytes of a generated file: its signed URL while valid, else `GET /api/v1/assets/download?key=`. */
  downloadAsset(asset: AssetRef, options?: DownloadOptions): Promise<Outcome<DownloadedAsset, Throw>>;
  /**
   * `POST /api/v1/uploads`: a picture (a Blob or File, bytes, or a file path in Node) for
   * `params.image`, `mask`, `references` or `paletteFrom` of a later `generate()`. Answers
   * `{ uploadId, width, height, format, … }`; a picture the server cannot read is a 400, one too
   * large a 413 (see the contract).
   */
  uploadImage(source: UploadSource, options?: UploadImageOptions): Promise<Outcome<Upload, Throw>>;
  /**
   * Kept characters (issue #40): made once from a prompt or an upload with a style and a size, then
   * animated and turned by tasks drawn with their stored identity. `animate` and `rotate` answer a
   * task id for {@link AssetClient.waitForTask}; `create` answers the character, whose `baseTaskId`
   * draws its base view.
   */
  readonly characters: CharacterMethods<Throw>;
}

/** {@link AssetClient.characters}: the character endpoints by name. */
export interface CharacterMethods<Throw extends boolean = false> {
  /** `POST /api/v1/projects/{projectId}/characters`. */
  create(
    projectId: string,
    body: CreateCharacterRequest,
    options?: CallOptions,
  ): Promise<Outcome<Character, Throw>>;
  /** `GET /api/v1/projects/{projectId}/characters`: one page, newest first. */
  list(
    projectId: string,
    page?: { page?: number; pageSize?: number },
    options?: CallOptions,
  ): Promise<Outcome<CharacterList, Throw>>;
  /** `GET /api/v1/characters/{characterId}`. */
  get(characterId: string, options?: CallOptions): Promise<Outcome<Character, Throw>>;
  /** `PUT /api/v1/characters/{characterId}`: a new name; the identity never changes. */
  rename(characterId: string, name: string, options?: CallOptions): Promise<Outcome<Character, Throw>>;
  /** `DELETE /api/v1/characters/{characterId}` (its tasks stay with the project). */
  delete(characterId: string, options?: CallOptions): Promise<Outcome<null, Throw>>;
  /** `POST /api/v1/characters/{characterId}/animate`: an action as a task. */
  animate(
    characterId: string,
    body: AnimateCharacterRequest,
    options?: CallOptions,
  ): Promise<Outcome<{ taskId: string }, Throw>>;
  /** `POST /api/v1/characters/{characterId}/rotate`: 4 or 8 directions as a task. */
  rotate(
    characterId: string,
    body?: RotateCharacterRequest,
    options?: CallOptions,
  ): Promise<Outcome<{ taskId: string }, Throw>>;
  /**
   * `GET /api/v1/characters/{characterId}/tasks`: one page of the tasks made through the character
   * (its base view, animate and rotate tasks), newest first; each names it in `characterId`.
   */
  tasks(
    characterId: string,
    page?: { page?: number; pageSize?: number },
    options?: CallOptions,
  ): Promise<Outcome<TaskList, Throw>>;
}

/** Endpoints without `security` (no token is attached, even when one is stored). */
const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  '/api/v1/health',
  '/api/v1/styles/catalog',
  '/api/v1/capabilities',
  '/auth/register',
  '/auth/login',
  '/api/v1/assets/download',
  '/files/{key}',
]);

const NO_SOCKET_HINT = 'In Node 20 install `ws` or pass { WebSocket } to createAssetClient';
const REQUEST_ID_RE = /^[\x21-\x7e]{1,128}$/;
const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;

/**
 * Creates the typed client of the asset generation API (spec 000).
 *
 * ```ts
 * const api = createAssetClient({ baseUrl: 'http://127.0.0.1:8080' });
 * await api.login({ username: 'ada', password: 'secret1' });
 * const { data, error } = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } });
 * ```
 */
export function createAssetClient<Throw extends boolean = false>(
  options: AssetClientOptions<Throw>,
): AssetClient<Throw> {
  if (!isRecord(options) || typeof options.baseUrl !== 'string') {
    throw new TypeError(
      "[assetloom/sdk] createAssetClient needs { baseUrl: string }, e.g. 'http://127.0.0.1:8080'.",
    );
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new TypeError('[assetloom/sdk] fetch must be a function (Request) => Promise<Response>.');
  }
  if (options.getToken !== undefined && typeof options.getToken !== 'function') {
    throw new TypeError(
      '[assetloom/sdk] getToken must be a function returning the token (or a promise of it).',
    );
  }
  validateTransportOptions(options);
  checkDeadline(options.deadline);
  if (
    options.headers !== undefined &&
    (options.headers === null ||
      (typeof options.headers !== 'object' && typeof options.headers !== 'function'))
  ) {
    throw new TypeError(
      '[assetloom/sdk] headers must be headers (an object, a Headers) or a function returning them.',
    );
  }
  checkLanguage(options.language);
  if (
    options.credentials !== undefined &&
    !['omit', 'same-origin', 'include'].includes(options.credentials as string)
  ) {
    throw new TypeError(
      `[assetloom/sdk] credentials must be 'omit', 'same-origin' or 'include'; got ${JSON.stringify(options.credentials)}.`,
    );
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const throwOnError = options.throwOnError === true;
  const clientRetry = options.retry;
  const clientTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let token = typeof options.token === 'string' && options.token !== '' ? options.token : undefined;

  const isRetryable = (request: Request) =>
    !(
      request.method === 'PUT' && new URL(request.url, 'http://x').pathname.endsWith('/api/v1/auth/password')
    );
  const warned = new Set<AssetloomWarning['code']>();
  const warn = (warning: AssetloomWarning) => {
    if (warned.has(warning.code)) return;
    warned.add(warning.code);
    if (options.onWarning) options.onWarning(warning);
    else globalThis.console?.warn(warning.message);
  };
  // A wait of 5 s or more with no onWait hook to show it (a 429 inside generate() waited a minute in silence).
  const onUnobservedWait = (event: RetryWaitEvent) => {
    if (event.delayMs < 5000) return;
    const cause = event.status === undefined ? event.reason : `HTTP ${event.status}`;
    warn({
      code: 'long_wait',
      message: `[assetloom/sdk] ${event.method} ${event.url} answered ${cause}: waiting ${Math.round(event.delayMs / 1000)} s to retry. retry.onWait shows such waits, a deadline bounds them.`,
    });
  };
  const makeTransport = (
    retry: RetryOptions | false | undefined,
    timeoutMs: number | false,
    deadlineAt?: number,
  ) => createTransport({ fetch: options.fetch, retry, timeoutMs, isRetryable, deadlineAt, onUnobservedWait });
  const transport = makeTransport(clientRetry, clientTimeout);
  const transportFor = (call: {
    retry?: RetryOptions | false;
    timeoutMs?: number | false;
    deadlineAt?: number;
  }) => {
    if (call.retry === undefined && call.timeoutMs === undefined && call.deadlineAt === undefined)
      return transport;
    validateTransportOptions(call);
    return makeTransport(
      mergeRetry(clientRetry, call.retry),
      call.timeoutMs ?? clientTimeout,
      call.deadlineAt,
    );
  };
  const defaultHeaders = (): HeadersInit | undefined =>
    typeof options.headers === 'function' ? options.headers() : options.headers;
  const languageHeader = (): Record<string, string> | undefined => {
    const language = typeof options.language === 'function' ? options.language() : options.language;
    return typeof language === 'string' && language.trim() !== ''
      ? { 'Accept-Language': language }
      : undefined;
  };

  // `fetch` (the transport calls globalThis.fetch per request) and `Request` are looked up when a
  // request is made, never kept from here: msw may be started after the client is made (issue #41).
  const raw = createClient<Paths>({
    baseUrl,
    fetch: transport,
    Request: lateRequest,
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
  });
  raw.use({
    async onRequest({ request, schemaPath }) {
      if (PUBLIC_PATHS.has(schemaPath) || request.headers.has('authorization')) return undefined;
      let bearer = token;
      if (bearer === undefined && options.getToken) {
        try {
          bearer = (await options.getToken()) ?? undefined;
        } catch (error) {
          throw new AssetloomApiError({
            code: 'token_unavailable',
            message: `[assetloom/sdk] getToken() threw, so ${request.method} ${schemaPath} was not sent; fix the token source or call login().`,
            requestId: request.headers.get('x-request-id') ?? undefined,
            cause: error,
          });
        }
      }
      if (typeof bearer !== 'string' || bearer === '') return undefined;
      request.headers.set('authorization', `Bearer ${bearer}`);
      return request;
    },
  });

  function finish<T>(result: ApiResult<T>): Outcome<T, Throw> {
    if (!throwOnError) return result as Outcome<T, Throw>;
    if (result.error) throw result.error;
    return result.data as Outcome<T, Throw>;
  }

  async function call<T>(
    method: string,
    path: string,
    init: Record<string, unknown> = {},
  ): Promise<ApiResult<T>> {
    const { timeoutMs, retry, requestId: givenId, deadline, ...rest } = isRecord(init) ? init : {};
    const requestId = typeof givenId === 'string' && REQUEST_ID_RE.test(givenId) ? givenId : randomUuid();
    const callerSignal = rest.signal instanceof AbortSignal ? rest.signal : undefined;
    const effectiveTimeout = (timeoutMs as number | false | undefined) ?? clientTimeout;
    const place = { method, url: `${baseUrl}${fillPath(path, rest.params)}` };
    const deadlineMs = (deadline as number | undefined) ?? options.deadline;
    checkDeadline(deadline);
    let expiry: { controller: AbortController; timer: ReturnType<typeof setTimeout>; ms: number } | undefined;
    try {
      let signal = callerSignal;
      let deadlineAt: number | undefined;
      if (deadlineMs !== undefined) {
        const controller = new AbortController();
        const timer = setTimeout(
          () => controller.abort(new DOMException(`deadline of ${deadlineMs} ms`, 'TimeoutError')),
          Math.min(deadlineMs, 2_147_483_647),
        );
        expiry = { controller, timer, ms: deadlineMs };
        deadlineAt = Date.now() + deadlineMs;
        signal = callerSignal ? AbortSignal.any([callerSignal, controller.signal]) : controller.signal;
      }
      const fetch = transportFor({
        retry: retry as RetryOptions | false | undefined,
        timeoutMs: timeoutMs as number | false | undefined,
        ...(deadlineAt === undefined ? {} : { deadlineAt }),
      });
      const headers = mergeHeaders(
        languageHeader(),
        defaultHeaders() as FetchOptions<unknown>['headers'],
        { 'X-Request-Id': requestId },
        rest.headers as FetchOptions<unknown>['headers'],
      );
      // What went out (after the token was attached), for the hint of a 401 or 415.
      const sent = { authorization: false, json: false };
      const observe = {
        onRequest({ request }: { request: Request }) {
          sent.authorization = request.headers.has('authorization');
          sent.json = /^application\/json\b/i.test(request.headers.get('content-type') ?? '');
          return undefined;
        },
      };
      const out = await (raw.request as (m: string, p: string, i: object) => Promise<{ response: Response }>)(
        method,
        path,
        { ...rest, ...(signal ? { signal } : {}), headers, fetch, middleware: [observe] },
      );
      return fromEnvelope<T>(out, requestId, {
        ...place,
        hint: (code) => hintFor(code, { path, sent }),
      });
    } catch (error) {
      return fail(
        errorFromThrown(error, {
          ...place,
          requestId,
          signal: callerSignal,
          timeoutMs: effectiveTimeout,
          deadline: expiry && { signal: expiry.controller.signal, ms: expiry.ms },
        }),
      );
    } finally {
      if (expiry) clearTimeout(expiry.timer);
    }
  }

  const method =
    (name: string) =>
    (path: string, init?: Record<string, unknown>): Promise<unknown> =>
      call(name, path, init).then(finish);

  async function login(body: LoginRequest, callOptions?: CallOptions) {
    const result = await call<LoginData>('POST', '/auth/login', { ...callOptions, body });
    if (result.data && typeof result.data.token === 'string') token = result.data.token;
    return finish(result);
  }

  async function getStyleCatalog(catalogOptions: StyleCatalogOptions = {}) {
    const { language, ...callOptions } = isRecord(catalogOptions) ? catalogOptions : {};
    if (language !== undefined && (typeof language !== 'string' || language.trim() === '')) {
      throw new TypeError("[assetloom/sdk] getStyleCatalog's language must be a language tag such as 'en'.");
    }
    const headers = language === undefined ? undefined : { 'Accept-Language': language };
    return finish(
      await call<StyleCatalog>('GET', '/api/v1/styles/catalog', {
        ...callOptions,
        ...(headers ? { headers } : {}),
      }),
    );
  }

  async function getCapabilities(callOptions?: CallOptions) {
    return finish(await call<Capabilities>('GET', '/api/v1/capabilities', { ...callOptions }));
  }

  async function changePassword(body: ChangePasswordRequest, callOptions?: CallOptions) {
    const result = await call<ChangePasswordData>('PUT', '/api/v1/auth/password', { ...callOptions, body });
    if (result.data && typeof result.data.token === 'string') token = result.data.token;
    return finish(result);
  }

  async function* paginate(
    path: string,
    paginateOptions: PaginateOptions & { projectId?: string } = {},
  ): AsyncGenerator<ProjectListItem | TaskListItem> {
    const { pageSize = 100, projectId, signal, timeoutMs, retry } = paginateOptions;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
      throw new RangeError(
        `[assetloom/sdk] pageSize must be an integer from 1 to 100; got ${String(pageSize)}.`,
      );
    }
    const isTasks = path === '/api/v1/projects/{projectId}/tasks';
    if (!isTasks && path !== '/api/v1/projects') {
      throw new TypeError(
        `[assetloom/sdk] paginate() knows '/api/v1/projects' and '/api/v1/projects/{projectId}/tasks'; got '${path}'.`,
      );
    }
    if (isTasks && (typeof projectId !== 'string' || projectId === '')) {
      throw new TypeError(
        "[assetloom/sdk] paginate('/api/v1/projects/{projectId}/tasks') needs { projectId }.",
      );
    }
    // Pages are offsets over a newest-first list: an item created meanwhile pushes others one page on,
    // so ids already yielded are skipped rather than repeated.
    const seen = new Set<string>();
    for (let page = 1; ; page++) {
      const result = await call<{ total: number; projects?: ProjectListItem[]; tasks?: TaskListItem[] }>(
        'GET',
        path,
        {
          params: { path: isTasks ? { projectId } : undefined, query: { page, pageSize } },
          signal,
          timeoutMs,
          retry,
        },
      );
      if (result.error) throw result.error;
      const items = (isTasks ? result.data.tasks : result.data.projects) ?? [];
      if (!Array.isArray(items)) {
        throw new AssetloomApiError({
          code: 'invalid_response',
          httpStatus: result.response.status,
          message: `[assetloom/sdk] GET ${path} answered data without a list; check that baseUrl points at an Assetloom API.`,
        });
      }
      for (const item of items) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        yield item;
      }
      const total = typeof result.data.total === 'number' ? result.data.total : 0;
      if (items.length < pageSize || page * pageSize >= total) return;
    }
  }

  async function uploadImage(source: UploadSource, uploadOptions: UploadImageOptions = {}) {
    const { contentType, onProgress, ...rest } = uploadOptions;
    let bytes: Uint8Array;
    try {
      bytes = await bytesOf(source);
    } catch (error) {
      return finish<Upload>(
        fail(new AssetloomApiError({ code: 400, message: (error as Error).message, cause: error })),
      );
    }
    const type =
      contentType ??
      (typeof Blob !== 'undefined' && source instanceof Blob && source.type.startsWith('image/')
        ? source.type
        : sniffImageType(bytes));
    const stream = onProgress && streamsRequests() ? progressBody(bytes, onProgress) : null;
    const result = await call<Upload>('POST', '/api/v1/uploads', {
      ...rest,
      ...(stream ? { retry: false, duplex: 'half' } : {}),
      body: stream ?? bytes,
      bodySerializer: (b: unknown) => b,
      headers: { 'content-type': type },
    });
    if (!stream) onProgress?.({ loaded: bytes.byteLength, total: bytes.byteLength });
    return finish<Upload>(result);
  }

  const character = (characterId: string) => ({ path: { characterId } });
  const characterMethods: CharacterMethods<Throw> = {
    create: async (projectId, body, callOptions = {}) =>
      finish(
        await call<Character>('POST', '/api/v1/projects/{projectId}/characters', {
          ...callOptions,
          body,
          params: { path: { projectId } },
        }),
      ),
    list: async (projectId, page = {}, callOptions = {}) =>
      finish(
        await call<CharacterList>('GET', '/api/v1/projects/{projectId}/characters', {
          ...callOptions,
          params: { path: { projectId }, query: page },
        }),
      ),
    get: async (characterId, callOptions = {}) =>
      finish(
        await call<Character>('GET', '/api/v1/characters/{characterId}', {
          ...callOptions,
          params: character(characterId),
        }),
      ),
    rename: async (characterId, name, callOptions = {}) =>
      finish(
        await call<Character>('PUT', '/api/v1/characters/{characterId}', {
          ...callOptions,
          body: { name },
          params: character(characterId),
        }),
      ),
    delete: async (characterId, callOptions = {}) =>
      finish(
        await call<null>('DELETE', '/api/v1/characters/{characterId}', {
          ...callOptions,
          params: character(characterId),
        }),
      ),
    animate: async (characterId, body, callOptions = {}) =>
      finish(
        await call<{ taskId: string }>('POST', '/api/v1/characters/{characterId}/animate', {
          ...callOptions,
          body,
          params: character(characterId),
        }),
      ),
    rotate: async (characterId, body = {}, callOptions = {}) =>
      finish(
        await call<{ taskId: string }>('POST', '/api/v1/characters/{characterId}/rotate', {
          ...callOptions,
          body,
          params: character(characterId),
        }),
      ),
    tasks: async (characterId, page = {}, callOptions = {}) =>
      finish(
        await call<TaskList>('GET', '/api/v1/characters/{characterId}/tasks', {
          ...callOptions,
          params: { ...character(characterId), query: page },
        }),
      ),
  };

  async function generate(body: GenerateRequest, generateOptions: GenerateOptions = {}) {
    const { idempotencyKey = randomUuid(), ...rest } = generateOptions;
    if (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY_RE.test(idempotencyKey)) {
      return finish<GenerateResult>(
        fail(
          new AssetloomApiError({
            code: 400,
            message:
              '[assetloom/sdk] idempotencyKey must be 1-255 visible ASCII characters (no spaces); the task was not submitted.',
          }),
        ),
      );
    }
    const result = await call<{ taskId: string }>('POST', '/api/v1/generate', {
      ...rest,
      body,
      params: { header: { 'Idempotency-Key': idempotencyKey } },
    });
    if (result.error) return finish<GenerateResult>(result);
    return finish<GenerateResult>(ok({ taskId: result.data.taskId, idempotencyKey }, result.response));
  }

  async function waitForTask(taskId: string, waitOptions: WaitForTaskOptions = {}) {
    const {
      signal,
      onProgress,
      timeoutMs,
      pollIntervalMs = 1000,
      maxPollIntervalMs = 5000,
      transport: mode = 'auto',
    } = waitOptions;
    if (mode !== 'auto' && mode !== 'poll' && mode !== 'ws') {
      throw new TypeError(
        `[assetloom/sdk] waitForTask transport must be 'auto', 'ws' or 'poll'; got '${String(mode)}'.`,
      );
    }
    for (const [name, value] of [
      ['pollIntervalMs', pollIntervalMs],
      ['maxPollIntervalMs', maxPollIntervalMs],
      ['timeoutMs', timeoutMs ?? 1],
    ] as const) {
      if (typeof value !== 'number' || !(value > 0)) {
        throw new RangeError(
          `[assetloom/sdk] waitForTask ${name} must be a positive number of ms; got ${String(value)}.`,
        );
      }
    }
    const deadline = new AbortController();
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => deadline.abort(), timeoutMs);
    const stop = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
    const ended = (response?: Response): ApiResult<Task> | undefined => {
      if (signal?.aborted) {
        return fail(
          new AssetloomApiError({
            code: 'aborted',
            message: `[assetloom/sdk] waitForTask(${taskId}) was aborted by the caller's signal.`,
            cause: signal.reason,
          }),
          response,
        );
      }
      if (deadline.signal.aborted) {
        return fail(
          new AssetloomApiError({
            code: 'timeout',
            message: `[assetloom/sdk] task ${taskId} did not finish within ${timeoutMs} ms; call waitForTask again to keep waiting.`,
          }),
          response,
        );
      }
      return undefined;
    };
    const outcome = (task: Task, response: Response): ApiResult<Task> =>
      task.status === 'failed'
        ? fail(
            new AssetloomApiError({
              code: 'task_failed',
              message: task.error ?? `[assetloom/sdk] task ${taskId} failed without a reason.`,
              httpStatus: response.status,
              requestId: response.headers.get('x-request-id') ?? undefined,
              task,
            }),
            response,
          )
        : ok(task, response);
    try {
      if (mode !== 'poll') {
        const streamed = await waitOverSocket(taskId, stop, waitOptions.onEvent, onProgress, outcome, ended);
        if (streamed !== 'unavailable') return finish(streamed);
        if (mode === 'auto') {
          warn({
            code: 'no_websocket',
            message: `[assetloom/sdk] waitForTask(${taskId}): no progress WebSocket opened, so it polls${waitOptions.onEvent ? ' and onEvent is not called' : ''}. ${NO_SOCKET_HINT}; transport: 'poll' polls without this warning.`,
          });
        }
        if (mode === 'ws') {
          return finish<Task>(
            fail(
              new AssetloomApiError({
                code: 'network_error',
                message: `[assetloom/sdk] could not open the progress WebSocket of task ${taskId}. ${NO_SOCKET_HINT}, or use transport 'auto' or 'poll'.`,
              }),
            ),
          );
        }
      }
      let interval = pollIntervalMs;
      let last: string | undefined;
      for (;;) {
        const result = await call<Task>('GET', '/api/v1/tasks/{taskId}', {
          params: { path: { taskId } },
          signal: stop,
        });
        if (result.error) return finish(ended(result.response) ?? result);
        const task = result.data;
        const fingerprint = `${task.status}|${task.stage}|${task.progress}|${task.retryCount}`;
        const changed = fingerprint !== last;
        last = fingerprint;
        if (changed) onProgress?.(task);
        if (task.status === 'completed') return finish(ok(task, result.response));
        if (task.status === 'failed') {
          return finish<Task>(
            fail(
              new AssetloomApiError({
                code: 'task_failed',
                message: task.error ?? `[assetloom/sdk] task ${taskId} failed without a reason.`,
                httpStatus: result.response.status,
                requestId: result.response.headers.get('x-request-id') ?? undefined,
                task,
              }),
              result.response,
            ),
          );
        }
        interval = changed ? pollIntervalMs : Math.min(maxPollIntervalMs, interval * 1.5);
        try {
          await sleep(Math.min(interval, maxPollIntervalMs), stop);
        } catch {
          return finish(ended()!);
        }
      }
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  /**
   * Follows the WebSocket stream: reads the task first (auth, ownership, already ended), then the
   * events, reconnecting with `?since=<last seq>` after a drop (at most 5 times in a row). Answers
   * 'unavailable' when no socket could be opened at all, so the caller can poll instead.
   */
  async function waitOverSocket(
    taskId: string,
    stop: AbortSignal,
    onEvent: ((event: PipelineProgress) => void) | undefined,
    onProgress: ((task: Task) => void) | undefined,
    outcome: (task: Task, response: Response) => ApiResult<Task>,
    ended: (response?: Response) => ApiResult<Task> | undefined,
  ): Promise<ApiResult<Task> | 'unavailable'> {
    const read = () =>
      call<Task>('GET', '/api/v1/tasks/{taskId}', { params: { path: { taskId } }, signal: stop });
    const first = await read();
    if (first.error) return ended(first.response) ?? first;
    const snapshot: Task = { ...first.data };
    onProgress?.({ ...snapshot });
    if (snapshot.status === 'completed' || snapshot.status === 'failed')
      return outcome(snapshot, first.response);
    const socket = await resolveWebSocket(options.WebSocket);
    if (socket === null) return 'unavailable';
    // A token source that throws: the cookie may still do; the server answers 401 otherwise.
    const bearer = await currentToken();
    let headers: Record<string, string> | undefined;
    if (socket.headers) headers = bearer ? { authorization: `Bearer ${bearer}` } : {};
    let since = 0;
    let everOpened = false;
    for (let drops = 0; drops <= 5; ) {
      const end = await followSocket(
        socket.ctor,
        socketUrl(baseUrl, taskId, since),
        headers,
        stop,
        (event) => {
          everOpened = true;
          since = Math.max(since, event.seq);
          onEvent?.(event);
          snapshot.stage = taskStageOf(event.stage);
          snapshot.progress = overallProgress(event);
          if (typeof event.retryCount === 'number') snapshot.retryCount = event.retryCount;
          snapshot.status = taskStatusOf(event.stage);
          onProgress?.({ ...snapshot });
        },
      );
      if (end.kind === 'aborted') return ended() as ApiResult<Task>;
      if (end.kind === 'terminal' || end.kind === 'closed') {
        const final = await read();
        if (final.error) return ended(final.response) ?? final;
        if (final.data.status === 'completed' || final.data.status === 'failed') {
          onProgress?.(final.data);
          return outcome(final.data, final.response);
        }
        drops++;
      } else if (end.kind === 'unavailable' && !everOpened && drops === 0) {
        return 'unavailable';
      } else {
        drops++;
      }
      try {
        await sleep(Math.min(4000, 250 * 2 ** drops), stop);
      } catch {
        return ended() as ApiResult<Task>;
      }
    }
    return 'unavailable';
  }

  async function* events(
    taskId: string,
    eventOptions: EventsOptions = {},
  ): AsyncGenerator<PipelineProgress, void, undefined> {
    const { signal, since: from = 0 } = eventOptions;
    if (typeof taskId !== 'string' || taskId === '') {
      throw new TypeError('[assetloom/sdk] events(taskId) needs the taskId that generate() answered.');
    }
    if (!Number.isInteger(from) || from < 0) {
      throw new RangeError(
        `[assetloom/sdk] events() since must be a seq (an integer ≥ 0); got ${String(from)}.`,
      );
    }
    const url = `${baseUrl}/api/v1/tasks/${encodeURIComponent(taskId)}/ws`;
    const aborted = () =>
      new AssetloomApiError({
        code: 'aborted',
        message: `[assetloom/sdk] events(${taskId}) was aborted by the caller's signal.`,
        method: 'GET',
        url,
        cause: signal?.reason,
      });
    // Authentication, ownership and existence answer over HTTP first, as GET would.
    const read = () =>
      call<Task>('GET', '/api/v1/tasks/{taskId}', {
        params: { path: { taskId } },
        ...(signal ? { signal } : {}),
      });
    const first = await read();
    if (first.error) throw first.error;
    const socket = await resolveWebSocket(options.WebSocket);
    const unavailable = (cause?: unknown) =>
      new AssetloomApiError({
        code: 'network_error',
        message: `[assetloom/sdk] events(${taskId}) could not open the progress WebSocket ${url}. ${NO_SOCKET_HINT}.`,
        method: 'GET',
        url,
        cause,
      });
    if (socket === null) throw unavailable();
    let headers: Record<string, string> | undefined;
    if (socket.headers) {
      const bearer = await currentToken();
      headers = bearer ? { authorization: `Bearer ${bearer}` } : {};
    }
    const stop = new AbortController();
    const stopSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    let since = from;
    let opened = false;
    try {
      for (let drops = 0; ; ) {
        const queue: PipelineProgress[] = [];
        let end: SocketEnd | undefined;
        let wake: (() => void) | undefined;
        void followSocket(socket.ctor, socketUrl(baseUrl, taskId, since), headers, stopSignal, (event) => {
          queue.push(event);
          wake?.();
        }).then((how) => {
          end = how;
          wake?.();
        });
        for (;;) {
          const event = queue.shift();
          if (event !== undefined) {
            opened = true;
            if (event.seq <= since) continue; // already yielded before a reconnect
            since = event.seq;
            yield event;
            if (isTerminal(event)) return;
            continue;
          }
          if (end !== undefined) break;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
        const how = end as SocketEnd;
        if (how.kind === 'aborted' || signal?.aborted) throw aborted();
        if (how.kind === 'unavailable' && !opened && drops === 0) throw unavailable(how.cause);
        if (how.kind === 'closed' || how.kind === 'terminal') {
          // Closed cleanly without a terminal event we saw: the task ended before; nothing more comes.
          const task = await read();
          if (task.error) throw task.error;
          if (task.data.status === 'completed' || task.data.status === 'failed') return;
        }
        if (++drops > 5) throw unavailable();
        try {
          await sleep(Math.min(4000, 250 * 2 ** drops), stopSignal);
        } catch {
          throw aborted();
        }
      }
    } finally {
      stop.abort();
    }
  }

  /** The stored token, else `getToken()`'s (undefined when it throws: the cookie may still do). */
  async function currentToken(): Promise<string | undefined> {
    if (token !== undefined || !options.getToken) return token;
    try {
      return (await options.getToken()) ?? undefined;
    } catch {
      return undefined;
    }
  }

  async function downloadAsset(asset: AssetRef, downloadOptions: DownloadOptions = {}) {
    const key = typeof asset === 'string' ? asset : isRecord(asset) ? asset.key : undefined;
    if (typeof key !== 'string' || key === '') {
      return finish<DownloadedAsset>(
        fail(
          new AssetloomApiError({
            code: 400,
            message: '[assetloom/sdk] downloadAsset needs an asset { key, url } or a non-empty key.',
          }),
        ),
      );
    }
    const { signal, timeoutMs, retry } = downloadOptions;
    const fetch = transportFor({ retry, timeoutMs });
    const byKey = `${baseUrl}/api/v1/assets/download?key=${encodeURIComponent(key)}`;
    const signed = typeof asset === 'object' && typeof asset.url === 'string' ? asset.url : undefined;
    const urls = signed && !isExpired(signed) ? [resolveUrl(signed, baseUrl), byKey] : [byKey];
    let result: ApiResult<DownloadedAsset> | undefined;
    for (const url of urls) {
      result = await fetchBytes(fetch, url, signal, timeoutMs ?? clientTimeout);
      // A signed URL that stopped working (expired or revoked: 403/404) gets one more try by key.
      if (
        !(
          result.error &&
          url !== byKey &&
          (result.error.httpStatus === 403 || result.error.httpStatus === 404)
        )
      ) {
        break;
      }
    }
    return finish(result!);
  }

  return {
    GET: method('GET') as EnvelopeMethod<'get', Throw>,
    POST: method('POST') as EnvelopeMethod<'post', Throw>,
    PUT: method('PUT') as EnvelopeMethod<'put', Throw>,
    PATCH: method('PATCH') as EnvelopeMethod<'patch', Throw>,
    DELETE: method('DELETE') as EnvelopeMethod<'delete', Throw>,
    raw,
    get token() {
      return token;
    },
    setToken(next: string | undefined) {
      token = typeof next === 'string' && next !== '' ? next : undefined;
    },
    login,
    logout() {
      token = undefined;
    },
    changePassword,
    paginate: paginate as AssetClient<Throw>['paginate'],
    generate,
    waitForTask,
    events,
    downloadAsset,
    uploadImage,
    getStyleCatalog,
    characters: characterMethods,
    getCapabilities,
  };
}

/**
 * The usual cause of a 401 or 415 when it lies with the client (issue #41: a 415 from the mock, in
 * Chinese, said nothing of msw having rebuilt the request without its headers).
 */
function hintFor(
  code: AssetloomErrorCode,
  { path, sent }: { path: string; sent: { authorization: boolean; json: boolean } },
): string | undefined {
  if (code === 415 && sent.json) {
    return '[assetloom/sdk] The SDK sent this request as JSON, but it reached the server without its Content-Type: this usually means something rebuilt the request on the way and dropped its headers (a `fetch` option that makes a new Request without them, a proxy, or a fetch interceptor or polyfill). Pass requests on as they are.';
  }
  if (code !== 401 || PUBLIC_PATHS.has(path)) return undefined;
  if (!sent.authorization) {
    return '[assetloom/sdk] No token was sent: this usually means login() was not called (or did not succeed) on this client. Call login() first, or pass { token } or { getToken } to createAssetClient.';
  }
  return '[assetloom/sdk] The server refused the token this client sent: this usually means it expired (login answers expiresIn, in seconds), or it was issued by another server or before a restart (a server without JWT_SECRET makes a new secret at each start; a mock made again forgets its users and tokens). Log in again.';
}

/** Rejects a language that is neither a non-empty language tag nor a function (at creation). */
function checkLanguage(language: unknown): void {
  if (language === undefined || typeof language === 'function') return;
  if (typeof language !== 'string' || !/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(language)) {
    throw new TypeError(
      `[assetloom/sdk] language must be a language tag such as 'en' or 'zh' (or a function returning one); got ${JSON.stringify(language)}.`,
    );
  }
}

/** Rejects a deadline that is not a positive number of ms (at creation and per call). */
function checkDeadline(deadline: unknown): void {
  if (deadline === undefined) return;
  if (typeof deadline !== 'number' || !(deadline > 0)) {
    throw new RangeError(
      `[assetloom/sdk] deadline must be a positive number of ms (every attempt and wait of a call); got ${String(deadline)}.`,
    );
  }
}

/** `/api/v1/tasks/{taskId}` with `params.path` filled in, for error messages (the answer's URL wins). */
function fillPath(path: string, params: unknown): string {
  const values = isRecord(params) && isRecord(params.path) ? params.path : {};
  return path.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeURIComponent(String(values[name])),
  );
}

/** True when a signed URL's `e` (unix seconds) is less than 5 s away. Unparsable URLs count as valid. */
function isExpired(url: string, now: number = Date.now()): boolean {
  const match = /[?&]e=(\d+)/.exec(url);
  if (!match) return false;
  return Number(match[1]) * 1000 < now + 5000;
}

/**
 * Downloads without custom headers or credentials: the download endpoint is public and its redirect
 * may lead to another origin (an S3 bucket), where an `Authorization` or `X-Request-Id` header would
 * break the presigned request or force a CORS preflight.
 */
async function fetchBytes(
  fetch: FetchLike,
  url: string,
  signal: AbortSignal | undefined,
  timeoutMs: number | false,
): Promise<ApiResult<DownloadedAsset>> {
  try {
    const response = await fetch(
      new Request(url, { method: 'GET', redirect: 'follow', signal: signal ?? null }),
    );
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: reported as invalid_response below
      }
      return fail(errorFromAnswer(response, body, undefined), response);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
    return ok({ bytes, contentType, url: response.url || url }, response);
  } catch (error) {
    return fail(errorFromThrown(error, { method: 'GET', url, requestId: undefined, signal, timeoutMs }));
  }
}
