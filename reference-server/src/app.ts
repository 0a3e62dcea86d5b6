import { performance } from 'node:perf_hooks';
import {
  AssetloomError,
  type AssetService,
  type AuthUser,
  type CharacterService,
  errors,
  fail,
  MESSAGES,
  ok,
  StoreWriteError,
} from '@assetloom/core';
import {
  contentLanguage,
  createOperationTable,
  languageOf,
  type OperationContext,
  type OperationHandler,
  type OperationRequest,
  type OperationTableDeps,
  type RequestValidator,
  routesOf,
} from '@assetloom/core/http';
import type { WebhookService } from '@assetloom/core/webhooks';
import { assetApiDocument, type OpenApiDocument } from '@assetloom/openapi';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import { type CorsSettings, createCorsMiddleware } from './cors.js';
import type { DocFiles } from './docs.js';
import { readJsonBody } from './internal/body.js';
import { okEnvelope } from './internal/json.js';
import { requestIdFrom } from './internal/request-id.js';
import { RequestState } from './internal/request-state.js';
import { isStorageFull, STORAGE_FULL } from './internal/storage-full.js';
import { createMcpMiddleware, MCP_PATH, type McpMount } from './mcp.js';
import { createFilesRouter, FILES_PATH_PREFIX, type ObjectStorage, requestBaseUrl } from './storage/index.js';
import { createStudioMiddleware, STUDIO_PREFIX, type StudioFiles } from './studio.js';
import { readRawBody } from './uploads/body.js';

/** What {@link createAssetApp} needs; `startServer` builds these from the configuration. */
export interface AssetAppDeps {
  service: AssetService;
  /** Kept characters (issue #40); without it their operations answer 404. */
  characters?: CharacterService;
  validator: RequestValidator;
  logger: Logger;
  /** Reported by the health check. */
  version: string;
  /** Largest accepted request body (bytes); larger → 413. */
  bodyLimitBytes: number;
  /** Adds `Secure` to the login cookie (everywhere but development). */
  secureCookies: boolean;
  /** Trust `X-Forwarded-For` for the client IP (rate limits key on it). */
  trustProxy?: boolean;
  /**
   * Whether signed and asset URLs may take their origin from the request (Host; X-Forwarded-Host
   * behind a trusted proxy) when the storage has no PUBLIC_BASE_URL. Default true; the server passes
   * false in production, where URLs are then root-relative.
   */
  urlsFromRequest?: boolean;
  /** The Redoc pages served under /docs (a loader is called once, on the first /docs request). */
  docs?: DocFiles | (() => Promise<DocFiles>);
  /** The contract whose operations are routed; the bundled asset API document by default. */
  document?: OpenApiDocument;
  /**
   * Called after a project deletion with the object keys it released and the project id (the
   * server removes the objects and the project's folder from object storage).
   */
  onObjectsReleased?: (keys: string[], projectId: string) => Promise<void>;
  /**
   * Object storage: signs the URLs of GET /api/v1/tasks/:taskId/assets, and backs the download
   * redirect and (filesystem driver) the signed /files/* route. Without it those routes answer 404.
   */
  storage?: ObjectStorage;
  /** Lifetime of signed URLs in seconds (SIGNED_URL_TTL_SECONDS); the storage's default otherwise. */
  signedUrlTtlSeconds?: number;
  /** Told about every newly created task (an in-process worker starts on it at once). */
  onTaskCreated?: (taskId: string) => void;
  /** Webhook registration and delivery log (the table's webhook operations answer 404 without it). */
  webhooks?: WebhookService;
  /** The web studio served at /studio (packages/studio's build; a loader is called once, on first use). */
  studio?: StudioFiles | (() => Promise<StudioFiles>);
  /** Origins besides the server's own the studio may connect to (the S3 bucket of signed URLs). */
  studioConnectSources?: readonly string[];
  /**
   * Told about every answered request (the server's Prometheus metrics): `route` is the route
   * template of the contract (`/api/v1/tasks/:taskId`), `/docs`, `/studio`, `/files/` or `unmatched`.
   */
  onRequestEnd?: (method: string, route: string, status: number, seconds: number) => void;
  /** The checks of GET /api/v1/ready (database ping, object storage reachable); ready without them. */
  readiness?: OperationTableDeps['readiness'];
  /** Told when a request failed because the store refused a write (the /ready check reports it). */
  onStoreWriteFailure?: (cause: unknown) => void;
  /** Uploaded pictures (POST /api/v1/uploads; decision 0034); those routes answer 404 without it. */
  uploads?: OperationTableDeps['uploads'];
  /** What the configured image provider honours (GET /api/v1/capabilities); the procedural one's without it. */
  provider?: OperationTableDeps['provider'];
  /** Cross-origin access for pages of other origins (CORS_ORIGINS …); none without it. */
  cors?: CorsSettings;
  /** The MCP server for coding agents at /mcp (MCP_ENABLED): 404 there without it. */
  mcp?: McpMount;
}

/** The per-request state the middleware shares (a {@link RequestState}). */
export interface AssetState {
  readonly requestId: string;
  /** The request's logger (bound to its request id; made on first use). */
  readonly log: Logger;
  user?: AuthUser;
}

/** The Content-Type of every envelope. */
const JSON_TYPE = 'application/json; charset=utf-8';

type AppContext = Koa.ParameterizedContext<AssetState>;

/**
 * One request as the operation table sees it (both its request and its context, in one object per
 * request): Koa's parsed path parameters, query and headers, the body read on demand by the strict
 * reader, and the user the table authenticated, kept on `ctx.state` for the request line.
 */
class KoaOperationCall implements OperationRequest, OperationContext {
  readonly params: Record<string, string>;
  readonly #ctx: AppContext;
  readonly #urlsFromRequest: boolean;

  constructor(ctx: AppContext, urlsFromRequest: boolean) {
    this.#ctx = ctx;
    this.#urlsFromRequest = urlsFromRequest;
    this.params = (ctx as unknown as { params?: Record<string, string> }).params ?? {};
  }
  get query() {
    return this.#ctx.query;
  }
  get headers() {
    return this.#ctx.headers;
  }
  get authorization() {
    return this.#ctx.req.headers.authorization;
  }
  readBody(limit: number) {
    return readJsonBody(this.#ctx.req, limit);
  }
  readRaw(limit: number) {
    return readRawBody(this.#ctx.req, limit);
  }
  get user() {
    return this.#ctx.state.user;
  }
  set user(user: AuthUser | undefined) {
    this.#ctx.state.user = user;
  }
  get log() {
    return this.#ctx.state.log;
  }
  ip() {
    return this.#ctx.ip;
  }
  baseUrl() {
    return this.#urlsFromRequest ? requestBaseUrl(this.#ctx) : undefined;
  }
}

/** Maps an HTTP status raised by Koa or a middleware (http-errors) to the envelope error. */
function fromHttpStatus(status: number): AssetloomError {
  switch (status) {
    case 404:
      return errors.routeNotFound();
    case 405:
    case 501:
      return errors.methodNotAllowed();
    case 413:
      return errors.payloadTooLarge();
    case 415:
      return errors.unsupportedMediaType();
    default:
      return status >= 400 && status < 500 ? errors.badRequest() : errors.internal();
  }
}

/** Whether `path` starts with the lower-case `prefix`, ignoring case (as @koa/router matches). */
function hasPrefixFolded(path: string, prefix: string): boolean {
  return path.length >= prefix.length && path.slice(0, prefix.length).toLowerCase() === prefix;
}

/** A bounded label for a request's route: the router's template, else the part of the app it reached. */
function routeLabel(ctx: AppContext): string {
  const matched = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  const path = ctx.path;
  if (path === '/docs' || path.startsWith('/docs/')) return '/docs';
  if (path === STUDIO_PREFIX || path.startsWith(`${STUDIO_PREFIX}/`)) return STUDIO_PREFIX;
  if (hasPrefixFolded(path, FILES_PATH_PREFIX)) return FILES_PATH_PREFIX;
  return 'unmatched';
}

/** A refused write of the store (the embedded store's failed append, or a full storage). */
function isStoreWriteFailure(cause: unknown): boolean {
  return cause instanceof StoreWriteError || isStorageFull(cause);
}

/** `database=storage-full, storage=timeout`: the failed readiness checks and a word for why. */
function notReadyReasons(details: unknown): string {
  const checks = (details ?? {}) as Record<string, { ok?: boolean; error?: string } | undefined>;
  return Object.entries(checks)
    .filter(([, check]) => check?.ok === false)
    .map(([name, check]) => {
      const error = check?.error ?? '';
      const reason =
        error === STORAGE_FULL || isStorageFull(error)
          ? 'storage-full'
          : /no answer within/.test(error)
            ? 'timeout'
            : 'failed';
      return `${name}=${reason}`;
    })
    .join(', ');
}

function toEnvelopeError(err: unknown): AssetloomError {
  if (err instanceof AssetloomError) return err;
  const status = (err as { status?: unknown; expose?: unknown } | null)?.status;
  if (typeof status === 'number' && (err as { expose?: unknown }).expose === true)
    return fromHttpStatus(status);
  return errors.internal(err);
}

/**
 * The Koa app of the asset API (spec 000): a thin adapter that mounts @assetloom/core's operation
 * table (auth → ids → body → validation → service) on the routes of the OpenAPI document and
 * writes its answers. Every response, errors, unknown routes (404) and wrong methods (405)
 * included, is the envelope `{code, message, data}`. Mountable alone: it holds no process-wide state.
 */
export function createAssetApp(deps: AssetAppDeps): Koa<AssetState> {
  const document = deps.document ?? assetApiDocument;
  const app = new Koa<AssetState>({ proxy: deps.trustProxy ?? false });
  app.silent = true;

  let docsPromise: Promise<DocFiles> | undefined;
  const docs = (): Promise<DocFiles> | undefined => {
    if (deps.docs === undefined) return undefined;
    if (typeof deps.docs !== 'function') return Promise.resolve(deps.docs);
    docsPromise ??= deps.docs().catch((error: unknown) => {
      docsPromise = undefined;
      throw error;
    });
    return docsPromise;
  };

  const urlsFromRequest = deps.urlsFromRequest ?? true;
  const ttl = deps.signedUrlTtlSeconds === undefined ? {} : { ttlSeconds: deps.signedUrlTtlSeconds };
  const storage = deps.storage;
  const table = createOperationTable({
    service: deps.service,
    validator: deps.validator,
    version: deps.version,
    bodyLimitBytes: deps.bodyLimitBytes,
    secureCookies: deps.secureCookies,
    ...(storage === undefined
      ? {}
      : {
          storage: {
            exists: (key) => storage.exists(key),
            signedUrl: (key, baseUrl) =>
              storage.signedUrl(key, baseUrl === undefined ? ttl : { ...ttl, baseUrl }),
          },
        }),
    ...(deps.onTaskCreated === undefined ? {} : { onTaskCreated: deps.onTaskCreated }),
    ...(deps.onObjectsReleased === undefined ? {} : { onObjectsReleased: deps.onObjectsReleased }),
    ...(deps.webhooks === undefined ? {} : { webhooks: deps.webhooks }),
    ...(deps.readiness === undefined ? {} : { readiness: deps.readiness }),
    ...(deps.uploads === undefined ? {} : { uploads: deps.uploads }),
    ...(deps.characters === undefined ? {} : { characters: deps.characters }),
    ...(deps.provider === undefined ? {} : { provider: deps.provider }),
    // A full disk under an upload or a submission answers 507 with Retry-After (decision 0043).
    isStorageFull,
  });

  // --- outermost: request id, logging, headers and the envelope for every failure ---
  app.use(async (ctx, next) => {
    const started = performance.now();
    const requestId = requestIdFrom(ctx.req.headers['x-request-id']);
    ctx.state = new RequestState(requestId, deps.logger);
    // Fixed, valid header values: set on the Node response directly (Koa's ctx.set would only
    // forward them after its own checks).
    const res = ctx.res;
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    let failure: AssetloomError | undefined;
    try {
      await next();
      // A CORS preflight is answered 204 without a body (cors.ts); /mcp answers on the raw response.
      if (
        ctx.respond !== false &&
        (ctx.body === undefined || ctx.body === null) &&
        !(ctx.method === 'OPTIONS' && ctx.status === 204)
      ) {
        if (ctx.method === 'OPTIONS' && ctx.status === 200) {
          ctx.body = ok(null);
        } else {
          throw fromHttpStatus(ctx.status === 200 ? 404 : ctx.status);
        }
      }
    } catch (err) {
      failure = toEnvelopeError(err);
      ctx.status = failure.code;
      // The spec's Chinese message, or its English text when the request prefers English (decision 0037).
      const language = languageOf(ctx.req.headers['accept-language']);
      ctx.body = fail(failure, language);
      ctx.set('Content-Language', contentLanguage(language));
      ctx.vary('Accept-Language');
      if (failure.retryAfter !== undefined) ctx.set('Retry-After', String(failure.retryAfter));
      if (failure.code === 503 && failure.message === MESSAGES.notReady) {
        // Which checks failed and why, in words safe to show: database=storage-full, storage=timeout…
        const reasons = notReadyReasons(failure.details);
        if (reasons !== '') ctx.set('X-Not-Ready', reasons);
      }
      if (failure.code === 500 && isStoreWriteFailure(failure.cause))
        deps.onStoreWriteFailure?.(failure.cause);
      // A full disk under the database: the readiness check probes writes until one succeeds.
      if (failure.code === 507 && failure.cause instanceof StoreWriteError)
        deps.onStoreWriteFailure?.(failure.cause);
    } finally {
      const ms = Math.round((performance.now() - started) * 100) / 100;
      // The request line goes through the root logger with the request id as a field: most
      // requests then never make a child logger.
      const line = {
        reqId: requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms,
        userId: ctx.state.user?.id,
      };
      deps.onRequestEnd?.(ctx.method, routeLabel(ctx), ctx.status, ms / 1000);
      if (failure !== undefined && failure.code === 500) {
        deps.logger.error({ ...line, err: failure.cause ?? failure }, 'request failed');
      } else if (failure?.code === 507) {
        deps.logger.warn({ ...line, err: failure.cause ?? failure }, 'storage full');
      } else if (failure?.code === 503 && failure.retryAfter === undefined) {
        // The readiness check: which dependency failed, and why, for the operator.
        deps.logger.warn({ ...line, checks: failure.details }, 'not ready');
      } else if (failure?.details !== undefined) {
        deps.logger.info({ ...line, validation: failure.details }, 'request rejected');
      } else {
        deps.logger.info(line, 'request completed');
      }
    }
  });

  // --- CORS for pages of other origins: the API, register/login and /files/ (cors.ts) ---
  const corsMiddleware = createCorsMiddleware<AssetState>(deps.cors);
  if (corsMiddleware !== undefined) app.use(corsMiddleware);

  // --- paths beside the operations: the API reference (HTML) and object storage ---
  // One middleware looks at the path once and enters the part it belongs to; every other request
  // goes straight on to the operations. Paths match case-insensitively where the storage routers do.
  const besides: [accepts: (path: string) => boolean, middleware: Koa.Middleware<AssetState>][] = [
    [(path) => path === '/docs' || path.startsWith('/docs/'), serveDocs],
  ];
  if (deps.studio !== undefined) {
    const connectSources = deps.studioConnectSources ?? [];
    besides.push([
      (path) => path === STUDIO_PREFIX || path.startsWith(`${STUDIO_PREFIX}/`),
      createStudioMiddleware(deps.studio, { connectSources }) as Koa.Middleware<AssetState>,
    ]);
  }
  if (deps.mcp !== undefined) {
    besides.push([(path) => path === MCP_PATH, createMcpMiddleware<AssetState>(deps.mcp, deps.service)]);
  }
  // A driver that serves its own signed URLs (the filesystem driver) gets /files/*; S3's point at the bucket.
  if (deps.storage?.open !== undefined && deps.storage.urlVerifier !== undefined) {
    besides.push([
      (path) => hasPrefixFolded(path, FILES_PATH_PREFIX),
      createFilesRouter(deps.storage).routes() as Koa.Middleware<AssetState>,
    ]);
  }
  app.use((ctx, next) => {
    const path = ctx.path;
    for (const [accepts, middleware] of besides) if (accepts(path)) return middleware(ctx, next);
    return next();
  });

  async function serveDocs(ctx: AppContext, next: Koa.Next): Promise<void> {
    if (ctx.path === '/docs/asset-api.json') {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return methodNotAllowedForDocs(ctx);
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = document;
      return;
    }
    const loading = docs();
    if (loading === undefined) return next();
    const files = await loading.catch((error: unknown) => {
      throw errors.internal(error);
    });
    const file = files.get(ctx.path);
    if (file === undefined) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return methodNotAllowedForDocs(ctx);
    ctx.set('Cache-Control', 'no-cache');
    if (file.csp !== undefined) ctx.set('Content-Security-Policy', file.csp);
    ctx.type = file.contentType;
    ctx.body = file.body;
  }

  // --- the operations of the OpenAPI document, as the table answers them ---
  const router = new Router<AssetState>();
  for (const route of routesOf(document)) {
    const handler = table.handler(route);
    if (handler !== undefined) router[route.method](route.routerPath, operation(handler));
  }
  app.use(router.routes());
  app.use(router.allowedMethods());

  function methodNotAllowedForDocs(ctx: AppContext): never {
    ctx.set('Allow', 'GET, HEAD');
    throw errors.methodNotAllowed();
  }

  function operation(handler: OperationHandler): Koa.Middleware<AssetState> {
    return async (ctx) => {
      const call = new KoaOperationCall(ctx, urlsFromRequest);
      const answer = await handler(call, call);
      ctx.status = answer.status;
      if (answer.headers !== undefined) for (const [name, value] of answer.headers) ctx.append(name, value);
      // no-store unless the operation says how long its answer keeps (GET /api/v1/capabilities).
      if (!ctx.res.hasHeader('Cache-Control')) ctx.res.setHeader('Cache-Control', 'no-store');
      ctx.res.setHeader('Content-Type', JSON_TYPE);
      // Text, or for frozen data its remembered bytes (internal/json.ts): either way Koa neither
      // stringifies nor looks the type up, as the Content-Type is set.
      ctx.body = okEnvelope(answer.data);
    };
  }

  return app;
}
