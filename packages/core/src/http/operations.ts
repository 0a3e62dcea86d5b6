import type { AssetApiSchemas } from '@assetloom/openapi';
import { type CharacterService, characterErrors } from '../characters/service.js';
import { ID_PATTERN } from '../defaults.js';
import { AssetloomError, errors } from '../errors.js';
import type { JsonBodyResult } from '../json-body.js';
import { contentLanguage, languageOf } from '../messages.js';
import { isValidObjectKey } from '../object-keys.js';
import type { SigningStorage } from '../object-storage.js';
import type { AssetService } from '../service.js';
import { styleCatalog } from '../styles.js';
import type { StoredAssetView } from '../task-run.js';
import { ASSET_TYPES, type AuthUser } from '../types.js';
import { uploadErrors } from '../uploads/errors.js';
import { UPLOAD_DEFAULTS, type UploadBody, type UploadService } from '../uploads/service.js';
import type { OperationInputs, RawRequest, RequestValidator } from '../validation.js';
import type { WebhookService } from '../webhooks/service.js';
import type { RouteSpec } from './routes.js';

/** Where an operation reports what it rode over (the server: the request's pino logger). */
export interface OperationLog {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** What a transport tells the operations about the request beyond its input; per request. */
export interface OperationContext {
  /** Set by the table once the caller is authenticated (the server logs its id). */
  user?: AuthUser;
  readonly log: OperationLog;
  /** The client's address (rate-limit key of logins). */
  ip(): string;
  /** The origin signed URLs of this request use, when it has a usable one. */
  baseUrl(): string | undefined;
}

/** One request as a transport hands it over: nothing parsed yet but the path parameters. */
export interface OperationRequest {
  /** Path parameters by name, percent-decoded. */
  params: Record<string, string>;
  query: RawRequest['query'];
  headers: RawRequest['headers'];
  /** The `Authorization` header. */
  authorization: string | null | undefined;
  /** Reads the JSON body (the transport's strict reader over core's rules: 415, 413, 400). */
  readBody(limit: number): Promise<JsonBodyResult>;
  /**
   * Reads a raw body (an uploaded picture) of at most `limit` bytes with its Content-Type; more →
   * `too-large` (413). Transports without it answer 404 for the upload operation.
   */
  readRaw?(limit: number): Promise<RawBodyResult>;
}

/** A raw body as the transport read it. */
export type RawBodyResult =
  | { ok: true; value: UploadBody }
  | { ok: false; error: 'too-large' | 'malformed' | 'unsupported-encoding' };

/** What an operation answers: the status, the envelope's `data`, and headers to add (appended in order). */
export interface OperationAnswer {
  status: number;
  data: unknown;
  headers?: ReadonlyArray<readonly [name: string, value: string]>;
}

/** Runs one operation through every step: auth → id check → body → validation → service. */
export type OperationHandler = (request: OperationRequest, ctx: OperationContext) => Promise<OperationAnswer>;

type Operation<K extends keyof OperationInputs> = (
  input: OperationInputs[K],
  user: AuthUser,
  ctx: OperationContext,
) => Promise<OperationAnswer>;

/** The operations of the asset API by operationId (a transport mounts exactly these). */
export type Operations = { [K in keyof OperationInputs]?: Operation<K> };

export interface OperationTableDeps {
  service: AssetService;
  validator: RequestValidator;
  /** Reported by the health check. */
  version: string;
  /** Largest accepted request body (bytes); larger → 413. */
  bodyLimitBytes: number;
  /** Adds `Secure` to the token cookie (the server everywhere but development). */
  secureCookies?: boolean;
  /** Signs asset URLs and backs the download redirect; without it a download answers 404 接口不存在. */
  storage?: SigningStorage;
  /** Told about every newly created task (an in-process worker or the mock's task runner starts on it). */
  onTaskCreated?: (taskId: string) => void;
  /** Told about every token the login cookie carries (the mock's WebSocket reads it as a browser would). */
  onTokenIssued?: (token: string) => void;
  /** After a project deletion: the object keys it released; a failure is logged, the answer stands. */
  onObjectsReleased?: (keys: string[], projectId: string) => Promise<void>;
  /** Webhook registration and delivery log; without it the webhook operations answer 404 接口不存在. */
  webhooks?: WebhookService;
  /**
   * The checks of GET /api/v1/ready: each resolves when its dependency answers (the server pings
   * its database and its object storage). Without them (the mock, in memory) the table is ready.
   */
  readiness?: ReadinessChecks;
  /** Deadline of each readiness check in milliseconds (default 3000); a slower check fails. */
  readinessTimeoutMs?: number;
  /** Uploaded pictures (decision 0034); without it the upload operations answer 404 接口不存在. */
  uploads?: UploadService;
  /**
   * Whether a failure is a full storage (the server: ENOSPC, SQLite's "disk is full", MongoDB's
   * OutOfDiskSpace anywhere in the cause chain). The operations that store what a user sends
   * (`uploadImage`, `generate`) then answer 507 存储空间不足 with `Retry-After` (decision 0043)
   * instead of 500. Without it those failures stay 500.
   */
  isStorageFull?: (error: unknown) => boolean;
  /** Kept characters (issue #40); without it the character operations answer 404 接口不存在. */
  characters?: CharacterService;
  /**
   * What the configured image provider honours (GET /api/v1/capabilities, decision 0050); absent:
   * the built-in procedural generator's.
   */
  provider?: ProviderCapabilities;
}

/** What an image provider says of itself (the pipeline's `ImageProvider` fits it). */
export interface ProviderCapabilities {
  readonly name: string;
  readonly kind?: 'procedural' | 'model';
  readonly inputs?: { image?: boolean; mask?: boolean; references?: boolean };
}

/** The answer of GET /api/v1/capabilities (the contract's `Capabilities`). */
export type Capabilities = AssetApiSchemas['Capabilities'];

/** Largest `resolution` the contract accepts (its `Resolution` schema). */
const MAX_RESOLUTION = 1024;

/** The capabilities of a provider under the upload limits of a server (decision 0050). */
function capabilitiesOf(provider: ProviderCapabilities, uploads: UploadService | undefined): Capabilities {
  const limits = uploads?.limits ?? UPLOAD_DEFAULTS;
  const withUploads = uploads !== undefined;
  return {
    provider: { name: provider.name, kind: provider.kind ?? 'procedural' },
    // every type the API takes: each is drawn by the built-in generator, and a model provider's
    // pictures go through the same asset-type modules (tiles for a tileset or a level's art)
    assetTypes: [...ASSET_TYPES],
    inputs: {
      image: withUploads && provider.inputs?.image === true,
      mask: withUploads && provider.inputs?.mask === true,
      references: withUploads && provider.inputs?.references === true,
      pixelate: withUploads,
      paletteFrom: withUploads,
    },
    uploads: withUploads,
    limits: {
      maxResolution: MAX_RESOLUTION,
      maxUploadSide: limits.maxSide,
      maxUploadPixels: limits.maxPixels,
      maxUploadBytes: limits.maxBytes,
    },
  };
}

/** What GET /api/v1/ready checks. */
export interface ReadinessChecks {
  database: () => Promise<void>;
  storage: () => Promise<void>;
}

/** Runs one readiness check with a deadline: its duration, or why it failed. */
async function timedCheck(
  check: () => Promise<void>,
  timeoutMs: number,
): Promise<{ ok: true; ms: number } | { ok: false; ms: number; error: string }> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, ms: Date.now() - started };
  } catch (error) {
    return {
      ok: false,
      ms: Date.now() - started,
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

export interface OperationTable {
  /** The handler of a route, or undefined when the table has no operation for it (not mounted). */
  handler(route: RouteSpec): OperationHandler | undefined;
}

/** The httpOnly cookie holding the access token for the WebSocket endpoint. */
export const TOKEN_COOKIE = 'assetloom_token';

/**
 * The `Set-Cookie` value of the token cookie: `Path=/; HttpOnly; SameSite=Lax`, `Max-Age` the token
 * lifetime, `Secure` when asked. Written by hand: Koa's `ctx.cookies` refuses Secure cookies on a
 * plain-HTTP socket behind a TLS-terminating proxy unless the proxy is trusted.
 */
export function tokenCookie(token: string, maxAgeSeconds: number, secure = false): string {
  if (!/^[A-Za-z0-9._-]+$/.test(token)) {
    throw new TypeError('[assetloom/core] a token cookie value must be URL-safe (base64url and dots)');
  }
  const cookie = `${TOKEN_COOKIE}=${token}; Path=/; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; HttpOnly; SameSite=Lax`;
  return secure ? `${cookie}; Secure` : cookie;
}

/** The token of an `Authorization: Bearer <token>` header (any case, surrounding blanks allowed). */
export function bearerToken(header: string | null | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  return /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header)?.[1];
}

/** Path parameters that name a resource, with the error a malformed value answers. */
const RESOURCE_IDS: Record<string, () => AssetloomError> = {
  projectId: errors.projectNotFound,
  taskId: errors.taskNotFound,
  webhookId: errors.webhookNotFound,
  uploadId: uploadErrors.notFound,
  characterId: characterErrors.notFound,
};

function bodyError(failure: Exclude<JsonBodyResult, { ok: true }>['error'], limit: number): AssetloomError {
  if (failure === 'too-large') return errors.payloadTooLarge(limit);
  if (failure === 'unsupported-media-type') return errors.unsupportedMediaType();
  if (failure === 'unsupported-encoding') return errors.unsupportedEncoding();
  return errors.invalid([{ in: 'body', path: '', rule: 'json' }], { body: 'malformed JSON' });
}

/** An asset as the API answers it (the contract's `Asset`): the stored view and a freshly signed URL. */
export type SignedAsset = AssetApiSchemas['Asset'];

/** A task's assets (or a terminal event's) with a freshly signed URL each. */
export function signAssets(
  assets: ReadonlyArray<StoredAssetView>,
  sign: (key: string) => Promise<string>,
): Promise<SignedAsset[]> {
  return Promise.all(
    assets.map(async (a) => ({
      key: a.key,
      url: await sign(a.key),
      format: a.format,
      width: a.width,
      height: a.height,
      // Written by the pipeline in the contract's AssetMetadata shape (task-run.ts toAssetView).
      metadata: a.metadata as SignedAsset['metadata'],
    })),
  );
}

/**
 * `GET /api/v1/assets/download?key=…`: 400 for a key that breaks the key rules, 404 for no such
 * object, 500 when the storage cannot be asked or signs something unusable, else 302 to a freshly
 * signed URL (in `Location` and the envelope).
 */
export async function downloadAnswer(
  storage: SigningStorage,
  key: unknown,
  baseUrl: string | undefined,
): Promise<OperationAnswer> {
  if (typeof key !== 'string' || !isValidObjectKey(key)) {
    throw errors.badRequest({
      key: Array.isArray(key) ? 'repeated' : key === undefined ? 'missing' : 'invalid',
    });
  }
  let present: boolean;
  try {
    present = await storage.exists(key);
  } catch (error) {
    throw errors.internal(error);
  }
  if (!present) throw errors.assetNotFound();
  let url: string;
  try {
    url = await storage.signedUrl(key, baseUrl);
    if (typeof url !== 'string' || url.length === 0 || /[\r\n]/.test(url)) {
      throw new TypeError(
        `signedUrl returned ${typeof url === 'string' ? 'an unusable string' : typeof url}`,
      );
    }
  } catch (error) {
    throw errors.internal(error);
  }
  return { status: 302, data: { url }, headers: [['Location', url]] };
}

/**
 * The asset API's operation table, keyed by the contract's operationIds, and the one order of steps
 * every transport runs: authentication (401 before anything else), the shape of resource ids (404),
 * the body (415, 413, 400), the contract's validation (400), then the operation over the domain
 * service. Errors are thrown as AssetloomError; the transport writes them with `fail`.
 */
export function createOperationTable(deps: OperationTableDeps): OperationTable {
  const { service, validator } = deps;
  const secure = deps.secureCookies ?? false;
  const withCookie = (result: { token: string; expiresIn: number }): OperationAnswer => {
    deps.onTokenIssued?.(result.token);
    return {
      status: 200,
      data: result,
      headers: [['Set-Cookie', tokenCookie(result.token, result.expiresIn, secure)]],
    };
  };

  /** The webhook service once the project is known to be the caller's (404 / 403 otherwise). */
  const webhooksOf = async (user: AuthUser, projectId: string): Promise<WebhookService> => {
    if (deps.webhooks === undefined) throw errors.routeNotFound();
    await service.getProject(user, projectId);
    return deps.webhooks;
  };

  const charactersOf = (): CharacterService => {
    if (deps.characters === undefined) throw errors.routeNotFound();
    return deps.characters;
  };

  /** Runs a write of what the user sent; a full storage answers 507 (decision 0043), not 500. */
  async function namingFullStorage<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof AssetloomError) && deps.isStorageFull?.(error) === true) {
        throw errors.storageFull(error);
      }
      throw error;
    }
  }

  const capabilities = capabilitiesOf(
    deps.provider ?? { name: 'procedural', kind: 'procedural' },
    deps.uploads,
  );
  const operations: Operations = {
    getStyleCatalog: async ({ headers }) => ({
      status: 200,
      data: styleCatalog(languageOf(headers['accept-language'])),
      headers: [
        ['Content-Language', contentLanguage(languageOf(headers['accept-language']))],
        ['Vary', 'Accept-Language'],
      ],
    }),
    getCapabilities: async () => ({
      status: 200,
      data: capabilities,
      headers: [['Cache-Control', 'public, max-age=300']],
    }),
    getHealth: async () => ({
      status: 200,
      data: { status: 'ok', version: deps.version, time: new Date().toISOString() },
    }),
    getReadiness: async () => {
      const timeoutMs = deps.readinessTimeoutMs ?? 3000;
      const none = async () => {};
      const [database, storage] = await Promise.all([
        timedCheck(deps.readiness?.database ?? none, timeoutMs),
        timedCheck(deps.readiness?.storage ?? none, timeoutMs),
      ]);
      if (!database.ok || !storage.ok) throw errors.notReady({ database, storage });
      return {
        status: 200,
        data: {
          status: 'ready',
          checks: { database: { status: 'ok', ms: database.ms }, storage: { status: 'ok', ms: storage.ms } },
        },
      };
    },
    register: async ({ body }, _user, ctx) => ({
      status: 201,
      data: await service.register(body, { ip: ctx.ip() || 'unknown' }),
    }),
    login: async ({ body }, _user, ctx) =>
      withCookie(await service.login(body, { ip: ctx.ip() || 'unknown' })),
    getMe: async (_input, user) => ({ status: 200, data: await service.me(user) }),
    changePassword: async ({ body }, user) => withCookie(await service.changePassword(user, body)),
    listProjects: async ({ query }, user) => ({ status: 200, data: await service.listProjects(user, query) }),
    createProject: async ({ body }, user) => ({ status: 200, data: await service.createProject(user, body) }),
    getProject: async ({ params }, user) => ({
      status: 200,
      data: await service.getProject(user, params.projectId),
    }),
    updateProject: async ({ params, body }, user) => ({
      status: 200,
      data: await service.updateProject(user, params.projectId, body),
    }),
    deleteProject: async ({ params }, user, ctx) => {
      const { deletedKeys } = await service.deleteProject(user, params.projectId);
      await deps.webhooks?.deleteProject(params.projectId);
      if (deps.onObjectsReleased !== undefined) {
        await deps.onObjectsReleased(deletedKeys, params.projectId).catch((error: unknown) => {
          ctx.log.error({ err: error, keys: deletedKeys.length }, 'releasing stored objects failed');
        });
      }
      return { status: 200, data: null };
    },
    listProjectTasks: async ({ params, query }, user) => ({
      status: 200,
      data: await service.listProjectTasks(user, params.projectId, query),
    }),
    getProjectStyle: async ({ params }, user) => ({
      status: 200,
      data: await service.getStyle(user, params.projectId),
    }),
    replaceProjectStyle: async ({ params, body }, user) => ({
      status: 200,
      data: await service.putStyle(user, params.projectId, body),
    }),
    generate: async ({ body, headers }, user) => {
      const key = headers['idempotency-key'];
      const result = await namingFullStorage(() =>
        service.submitTask(user, body, typeof key === 'string' ? { idempotencyKey: key } : {}),
      );
      if (result.created) deps.onTaskCreated?.(result.taskId);
      return { status: 200, data: { taskId: result.taskId } };
    },
    getTask: async ({ params }, user) => ({ status: 200, data: await service.getTask(user, params.taskId) }),
    optimizePrompt: async ({ body, headers }, _user, ctx) => {
      // the sections' bodies in the caller's language; the markers are the spec's (decision 0037)
      const language = languageOf(headers['accept-language']);
      const result = await service.optimizePrompt(body, language);
      // A reason is given only when an LLM is configured and was not used.
      if (result.fallbackReason !== undefined) {
        ctx.log.warn({ reason: result.fallbackReason }, 'LLM unavailable; prompt built from the template');
      }
      return {
        status: 200,
        data: { prompt: result.prompt, rawText: result.rawText },
        headers: [
          ['X-Prompt-Source', result.source],
          ['Content-Language', contentLanguage(language)],
          ['Vary', 'Accept-Language'],
        ],
      };
    },
    getTaskAssets: async ({ params }, user, ctx) => {
      const records = await service.getTaskAssets(user, params.taskId);
      if (records.length === 0) return { status: 200, data: { assets: [] } };
      const storage = deps.storage;
      if (storage === undefined) throw errors.internal(new Error('no object storage'));
      const baseUrl = ctx.baseUrl();
      return {
        status: 200,
        data: { assets: await signAssets(records, (key) => storage.signedUrl(key, baseUrl)) },
      };
    },
    // A plain GET of the WebSocket path (no Upgrade header): the same checks as the upgrade, then 400.
    streamTaskProgress: async ({ params }, user) => {
      await service.getTask(user, params.taskId);
      throw errors.badRequest({ reason: 'this endpoint is a WebSocket: send an Upgrade request' });
    },
    listWebhooks: async ({ params }, user) => ({
      status: 200,
      data: await webhooksOf(user, params.projectId).then((w) => w.list(user, params.projectId)),
    }),
    createWebhook: async ({ params, body }, user) => ({
      status: 200,
      data: await webhooksOf(user, params.projectId).then((w) => w.create(user, params.projectId, body)),
    }),
    getWebhook: async ({ params }, user) => ({
      status: 200,
      data: await webhooksOf(user, params.projectId).then((w) =>
        w.get(user, params.projectId, params.webhookId),
      ),
    }),
    updateWebhook: async ({ params, body }, user) => ({
      status: 200,
      data: await webhooksOf(user, params.projectId).then((w) =>
        w.update(user, params.projectId, params.webhookId, body),
      ),
    }),
    deleteWebhook: async ({ params }, user) => {
      const w = await webhooksOf(user, params.projectId);
      await w.delete(user, params.projectId, params.webhookId);
      return { status: 200, data: null };
    },
    pingWebhook: async ({ params }, user) => ({
      status: 200,
      data: await webhooksOf(user, params.projectId).then((w) =>
        w.ping(user, params.projectId, params.webhookId),
      ),
    }),
    listWebhookDeliveries: async ({ params, query }, user) => ({
      status: 200,
      data: await webhooksOf(user, params.projectId).then((w) =>
        w.deliveries(user, params.projectId, params.webhookId, query),
      ),
    }),
    uploadImage: async ({ body }, user) => {
      const uploads = deps.uploads;
      if (uploads === undefined) throw errors.routeNotFound();
      return { status: 200, data: await namingFullStorage(() => uploads.upload(user, body)) };
    },
    getUpload: async ({ params }, user) => {
      if (deps.uploads === undefined) throw errors.routeNotFound();
      return { status: 200, data: await deps.uploads.get(user, params.uploadId) };
    },
    deleteUpload: async ({ params }, user) => {
      if (deps.uploads === undefined) throw errors.routeNotFound();
      await deps.uploads.delete(user, params.uploadId);
      return { status: 200, data: null };
    },
    listCharacters: async ({ params, query }, user) => ({
      status: 200,
      data: await charactersOf().list(user, params.projectId, query),
    }),
    createCharacter: async ({ params, body }, user) => {
      const { task, ...character } = await namingFullStorage(() =>
        charactersOf().create(user, params.projectId, body),
      );
      if (task.created) deps.onTaskCreated?.(task.taskId);
      return { status: 200, data: character };
    },
    getCharacter: async ({ params }, user) => ({
      status: 200,
      data: await charactersOf().get(user, params.characterId),
    }),
    updateCharacter: async ({ params, body }, user) => ({
      status: 200,
      data: await charactersOf().rename(user, params.characterId, body.name),
    }),
    deleteCharacter: async ({ params }, user) => {
      await charactersOf().delete(user, params.characterId);
      return { status: 200, data: null };
    },
    animateCharacter: async ({ params, body }, user) => {
      const task = await namingFullStorage(() => charactersOf().animate(user, params.characterId, body));
      if (task.created) deps.onTaskCreated?.(task.taskId);
      return { status: 200, data: { taskId: task.taskId } };
    },
    rotateCharacter: async ({ params, body }, user) => {
      const task = await namingFullStorage(() => charactersOf().rotate(user, params.characterId, body));
      if (task.created) deps.onTaskCreated?.(task.taskId);
      return { status: 200, data: { taskId: task.taskId } };
    },
    listCharacterTasks: async ({ params, query }, user) => ({
      status: 200,
      data: await charactersOf().tasks(user, params.characterId, query),
    }),
    downloadAsset: async ({ query }, _user, ctx) => {
      if (deps.storage === undefined) throw errors.routeNotFound();
      const storage = deps.storage;
      return downloadAnswer(
        {
          // A task's files answer only while the task exists and has completed (decision 0029).
          exists: async (key) => (await service.isDownloadable(key)) && (await storage.exists(key)),
          signedUrl: (key, baseUrl) => storage.signedUrl(key, baseUrl),
        },
        query.key,
        ctx.baseUrl(),
      );
    },
  };

  const table = operations as Record<string, Operation<keyof OperationInputs> | undefined>;
  const handlers = new Map<RouteSpec, OperationHandler>();

  function compile(route: RouteSpec, operation: Operation<keyof OperationInputs>): OperationHandler {
    const { operationId, authenticated, hasBody, rawBody, pathParams } = route;
    const idChecks = pathParams.flatMap((name) => {
      const notFound = RESOURCE_IDS[name];
      return notFound === undefined ? [] : [[name, notFound] as const];
    });
    return async (request, ctx) => {
      // Authentication first, so an anonymous caller learns nothing about bodies or ids.
      let user: AuthUser | undefined;
      if (authenticated) {
        user = await service.authenticate(bearerToken(request.authorization));
        ctx.user = user;
      }
      // Ids the server could never have issued answer 404 like unknown ones.
      for (const [name, notFound] of idChecks) {
        if (!ID_PATTERN.test(request.params[name] ?? '')) throw notFound();
      }
      let body: unknown;
      let raw: UploadBody | undefined;
      if (rawBody) {
        // an uploaded picture: its bytes as they came, bounded by the upload limit (decision 0034)
        if (request.readRaw === undefined || deps.uploads === undefined) throw errors.routeNotFound();
        const read = await request.readRaw(deps.uploads.limits.maxBytes);
        if (!read.ok) {
          if (read.error === 'unsupported-encoding') throw errors.unsupportedEncoding();
          throw read.error === 'too-large'
            ? uploadErrors.tooLarge({ limit: deps.uploads.limits.maxBytes })
            : uploadErrors.unreadable({ reason: 'the body could not be read' });
        }
        raw = read.value;
      } else if (hasBody) {
        const read = await request.readBody(deps.bodyLimitBytes);
        if (!read.ok) throw bodyError(read.error, deps.bodyLimitBytes);
        body = read.value;
      }
      // The validator reads only what the operation declares and never writes into its input.
      const input = validator.validate(operationId, {
        params: request.params,
        query: request.query,
        headers: request.headers,
        // a raw body is not JSON: the contract states no schema for it (the upload service reads it)
        body: raw === undefined ? body : {},
      }) as OperationInputs[keyof OperationInputs];
      return operation((raw === undefined ? input : { ...input, body: raw }) as never, user as AuthUser, ctx);
    };
  }

  return {
    handler(route) {
      let handler = handlers.get(route);
      if (handler === undefined) {
        const operation = table[route.operationId];
        if (operation === undefined) return undefined;
        handler = compile(route, operation);
        handlers.set(route, handler);
      }
      return handler;
    },
  };
}
