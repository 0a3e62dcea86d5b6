import { performance } from 'node:perf_hooks';
import {
  AssetloomError,
  type AssetService,
  type AuthUser,
  errors,
  fail,
  ID_PATTERN,
  MESSAGES,
  ok,
  type RequestValidator,
} from '@assetloom/core';
import { assetApiDocument, type OpenApiDocument } from '@assetloom/openapi';
import { type LlmConfig, optimizePrompt } from '@assetloom/pipeline';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import { readJsonBody } from './internal/body.js';
import { tokenCookie } from './internal/cookies.js';
import type { DocFiles } from './internal/docs.js';
import { okEnvelope } from './internal/json.js';
import { requestIdFrom } from './internal/request-id.js';
import { RequestState } from './internal/request-state.js';
import { type RouteSpec, routesOf } from './internal/routes.js';
import {
  createDownloadRouter,
  createFilesRouter,
  DOWNLOAD_PATH,
  FILES_PATH_PREFIX,
  type ObjectStorage,
  requestBaseUrl,
} from './storage/index.js';

/** What {@link createAssetApp} needs; `startServer` builds these from the configuration. */
export interface AssetAppDeps {
  service: AssetService;
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
  /** The prompt optimizer's LLM (LLM_* settings); null or absent → the template. */
  llm?: LlmConfig | null;
  /** Told about every newly created task (an in-process worker starts on it at once). */
  onTaskCreated?: (taskId: string) => void;
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

/** The validated, normalized input of one request. */
interface OperationInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

interface HandlerArgs {
  input: OperationInput;
  // biome-ignore lint/suspicious/noExplicitAny: validated input is typed by the validator per operation
  body: any;
  user: AuthUser;
  ctx: AppContext;
}

type Handler = (args: HandlerArgs) => Promise<{ status?: number; data: unknown }>;

/** Path parameters that name a resource, with the error a malformed or unknown value answers. */
const RESOURCE_IDS: Record<string, () => AssetloomError> = {
  projectId: errors.projectNotFound,
  taskId: errors.taskNotFound,
};

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

function toEnvelopeError(err: unknown): AssetloomError {
  if (err instanceof AssetloomError) return err;
  const status = (err as { status?: unknown; expose?: unknown } | null)?.status;
  if (typeof status === 'number' && (err as { expose?: unknown }).expose === true)
    return fromHttpStatus(status);
  return errors.internal(err);
}

function bearerToken(header: string | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/**
 * The Koa app of the asset API (spec 000): HTTP ↔ domain-service glue. Routes come from the
 * OpenAPI document (operationId → handler); every request is validated by core's validator; every
 * response, errors, unknown routes (404) and wrong methods (405) included, is the envelope
 * `{code, message, data}`. Mountable alone: it holds no process-wide state.
 */
export function createAssetApp(deps: AssetAppDeps): Koa<AssetState> {
  const { service, validator } = deps;
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

  const handlers: Record<string, Handler> = {
    getHealth: async () => ({
      data: { status: 'ok', version: deps.version, time: new Date().toISOString() },
    }),
    register: async ({ body }) => ({ status: 201, data: await service.register(body) }),
    login: async ({ body, ctx }) => {
      const result = await service.login(body, { ip: ctx.ip || 'unknown' });
      ctx.append('Set-Cookie', tokenCookie(result.token, result.expiresIn, deps.secureCookies));
      return { data: result };
    },
    getMe: async ({ user }) => ({ data: await service.me(user) }),
    changePassword: async ({ user, body, ctx }) => {
      const result = await service.changePassword(user, body);
      ctx.append('Set-Cookie', tokenCookie(result.token, result.expiresIn, deps.secureCookies));
      return { data: result };
    },
    listProjects: async ({ user, input }) => ({
      data: await service.listProjects(user, input.query as { page: number; pageSize: number }),
    }),
    createProject: async ({ user, body }) => ({ data: await service.createProject(user, body) }),
    getProject: async ({ user, input }) => ({
      data: await service.getProject(user, input.params.projectId as string),
    }),
    updateProject: async ({ user, input, body }) => ({
      data: await service.updateProject(user, input.params.projectId as string, body),
    }),
    deleteProject: async ({ user, input, ctx }) => {
      const projectId = input.params.projectId as string;
      const { deletedKeys } = await service.deleteProject(user, projectId);
      if (deps.onObjectsReleased !== undefined) {
        await deps.onObjectsReleased(deletedKeys, projectId).catch((error: unknown) => {
          ctx.state.log.error({ err: error, keys: deletedKeys.length }, 'releasing stored objects failed');
        });
      }
      return { data: null };
    },
    listProjectTasks: async ({ user, input }) => ({
      data: await service.listProjectTasks(
        user,
        input.params.projectId as string,
        input.query as { page: number; pageSize: number },
      ),
    }),
    getProjectStyle: async ({ user, input }) => ({
      data: await service.getStyle(user, input.params.projectId as string),
    }),
    replaceProjectStyle: async ({ user, input, body }) => ({
      data: await service.putStyle(user, input.params.projectId as string, body),
    }),
    generate: async ({ user, body, input }) => {
      const key = input.headers['idempotency-key'];
      const result = await service.submitTask(
        user,
        body,
        typeof key === 'string' ? { idempotencyKey: key } : {},
      );
      if (result.created) deps.onTaskCreated?.(result.taskId);
      return { data: { taskId: result.taskId } };
    },
    getTask: async ({ user, input }) => ({
      data: await service.getTask(user, input.params.taskId as string),
    }),
    optimizePrompt: async ({ body, ctx }) => {
      const result = await optimizePrompt(
        {
          tags: body.tags,
          assetType: body.assetType,
          ...(typeof body.prompt === 'string' ? { prompt: body.prompt } : {}),
          ...(typeof body.userNote === 'string' ? { userNote: body.userNote } : {}),
        },
        { llm: deps.llm ?? null },
      );
      ctx.set('X-Prompt-Source', result.source);
      if (result.fallbackReason !== undefined && deps.llm) {
        ctx.state.log.warn(
          { reason: result.fallbackReason },
          'LLM unavailable; prompt built from the template',
        );
      }
      return { data: { prompt: result.prompt, rawText: result.rawText } };
    },
    getTaskAssets: async ({ user, input, ctx }) => {
      const records = await service.getTaskAssets(user, input.params.taskId as string);
      const storage = deps.storage;
      if (records.length > 0 && storage === undefined) throw errors.internal(new Error('no object storage'));
      const baseUrl = requestBaseUrl(ctx);
      const assets = await Promise.all(
        records.map(async (a) => ({
          key: a.key,
          url: await (storage as ObjectStorage).signedUrl(a.key, {
            ...(deps.signedUrlTtlSeconds === undefined ? {} : { ttlSeconds: deps.signedUrlTtlSeconds }),
            ...(baseUrl === undefined ? {} : { baseUrl }),
          }),
          format: a.format,
          width: a.width,
          height: a.height,
          metadata: a.metadata,
        })),
      );
      return { data: { assets } };
    },
    // A plain GET of the WebSocket path (no Upgrade header): the same checks as the upgrade, then 400.
    streamTaskProgress: async ({ user, input }) => {
      await service.getTask(user, input.params.taskId as string);
      throw errors.badRequest({ reason: 'this endpoint is a WebSocket: send an Upgrade request' });
    },
  };

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
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.method === 'OPTIONS' && ctx.status === 200) {
          ctx.body = ok(null);
        } else {
          throw fromHttpStatus(ctx.status === 200 ? 404 : ctx.status);
        }
      }
    } catch (err) {
      failure = toEnvelopeError(err);
      ctx.status = failure.code;
      ctx.body = fail(failure);
      if (failure.retryAfter !== undefined) ctx.set('Retry-After', String(failure.retryAfter));
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
      if (failure !== undefined && failure.code === 500) {
        deps.logger.error({ ...line, err: failure.cause ?? failure }, 'request failed');
      } else if (failure?.details !== undefined) {
        deps.logger.info({ ...line, validation: failure.details }, 'request rejected');
      } else {
        deps.logger.info(line, 'request completed');
      }
    }
  });

  // --- paths beside the operations: the API reference (HTML) and object storage ---
  // One middleware looks at the path once and enters the part it belongs to; every other request
  // goes straight on to the operations. Paths match case-insensitively where the storage routers do.
  const besides: [accepts: (path: string) => boolean, middleware: Koa.Middleware<AssetState>][] = [
    [(path) => path === '/docs' || path.startsWith('/docs/'), serveDocs],
  ];
  if (deps.storage !== undefined) {
    const storage = deps.storage;
    if (storage.kind === 'fs' && 'open' in storage) {
      besides.push([
        (path) => hasPrefixFolded(path, FILES_PATH_PREFIX),
        createFilesRouter(
          storage as Parameters<typeof createFilesRouter>[0],
        ).routes() as Koa.Middleware<AssetState>,
      ]);
    }
    besides.push([
      // the path itself, with or without a trailing slash (the router is not strict)
      (path) => hasPrefixFolded(path, DOWNLOAD_PATH) && path.length <= DOWNLOAD_PATH.length + 1,
      createDownloadRouter(storage, {
        ...(deps.signedUrlTtlSeconds === undefined ? {} : { ttlSeconds: deps.signedUrlTtlSeconds }),
      }).routes() as Koa.Middleware<AssetState>,
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
    ctx.type = file.contentType;
    ctx.body = file.body;
  }

  // --- the operations of the OpenAPI document ---
  const router = new Router<AssetState>();
  for (const route of routesOf(document)) {
    const handler = handlers[route.operationId];
    if (handler === undefined) continue;
    router[route.method](route.routerPath, operation(route, handler));
  }
  app.use(router.routes());
  app.use(router.allowedMethods());

  function methodNotAllowedForDocs(ctx: AppContext): never {
    ctx.set('Allow', 'GET, HEAD');
    throw errors.methodNotAllowed();
  }

  function operation(route: RouteSpec, handler: Handler): Koa.Middleware<AssetState> {
    return async (ctx) => {
      const params = (ctx as unknown as { params: Record<string, string> }).params ?? {};
      // Authentication first, so an anonymous caller learns nothing about bodies or ids.
      let user: AuthUser | undefined;
      if (route.authenticated) {
        user = await service.authenticate(bearerToken(ctx.get('Authorization') || undefined));
        ctx.state.user = user;
      }
      // Ids the server could never have issued answer 404 like unknown ones.
      for (const name of route.pathParams) {
        const notFound = RESOURCE_IDS[name];
        if (notFound !== undefined && !ID_PATTERN.test(params[name] ?? '')) throw notFound();
      }
      let body: unknown;
      if (route.hasBody) {
        const read = await readJsonBody(ctx.req, deps.bodyLimitBytes);
        if (!read.ok) {
          if (read.error === 'too-large') throw errors.payloadTooLarge();
          if (read.error === 'unsupported-media-type') throw errors.unsupportedMediaType();
          throw errors.badRequest({ body: 'malformed JSON' });
        }
        body = read.value;
      }
      // The validator reads only what the operation declares and never writes into its input.
      const input = validator.validate(route.operationId, {
        params,
        query: ctx.query,
        headers: ctx.headers,
        body,
      }) as OperationInput;
      const result = await handler({
        input,
        body: input.body,
        user: user as AuthUser,
        ctx,
      });
      ctx.status = result.status ?? 200;
      ctx.res.setHeader('Cache-Control', 'no-store');
      ctx.res.setHeader('Content-Type', JSON_TYPE);
      // Text, or for frozen data its remembered bytes (internal/json.ts): either way Koa neither
      // stringifies nor looks the type up, as the Content-Type is set.
      ctx.body = okEnvelope(result.data);
    };
  }

  return app;
}

/** The messages used by the HTTP layer itself (re-exported for tests and second apps). */
export const HTTP_MESSAGES = {
  routeNotFound: MESSAGES.routeNotFound,
  methodNotAllowed: MESSAGES.methodNotAllowed,
  payloadTooLarge: MESSAGES.payloadTooLarge,
  unsupportedMediaType: MESSAGES.unsupportedMediaType,
} as const;
