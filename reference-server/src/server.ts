import { mkdir, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { hostname } from 'node:os';
import {
  type AssetService,
  createAssetService,
  createCharacterService,
  randomId,
  type Store,
} from '@assetloom/core';
import { createMemoryRateLimiter, createRequestValidator } from '@assetloom/core/http';
import { createEmbeddedStore } from '@assetloom/core/store/embedded';
import { characterIdentity } from '@assetloom/generator';
import type { ImageProvider, LlmConfig } from '@assetloom/pipeline';
import type { Logger } from 'pino';
import { createAssetApp } from './app.js';
import type { ServerConfig } from './config.js';
import { loadDocs } from './docs.js';
import { createImageProvider } from './image-provider.js';
import { createClientErrorHandler } from './internal/client-error.js';
import { ClosingResponse } from './internal/close-unread.js';
import { createStoreWriteHealth } from './internal/store-health.js';
import { createLogDestination, createLogger } from './logger.js';
import type { McpMount } from './mcp.js';
import { createMetricsHandler, isMetricsPath, ServerMetrics } from './metrics.js';
import { importOptional, MCP_PACKAGES, MONGODB_PACKAGES } from './optional-deps.js';
import { hashAdmissionFor, ScryptPasswordHasher } from './password.js';
import { combineApps, createReviewParts, type ReviewParts, type ReviewPartsOptions } from './review/setup.js';
import { directWriteRoot } from './storage/fs-writer.js';
import { type ObjectStorage, openObjectStorageDriver } from './storage/index.js';
import { loadStudio, studioConnectSources } from './studio.js';
import { createTaskNotifier, type TaskNotifier } from './tasks/notifier.js';
import { createPipelineThreadPool, type PipelineThreadPool } from './tasks/pipeline-threads.js';
import { attachProgressSocket, type ProgressSocket } from './tasks/progress-socket.js';
import { createGenerationWorker, type GenerationWorker } from './tasks/worker.js';
import { JwtTokenService } from './tokens.js';
import { openUploadDecoder, startUploadSweeper, uploadServiceFor } from './uploads/index.js';
import { SERVER_VERSION } from './version.js';
import { webhookDispatcherFor, webhookOutboxFor, webhookServiceFor } from './webhooks/index.js';

export interface StartOptions {
  /** The logger to use; one at `config.logging.level` on stdout by default. */
  logger?: Logger;
  /** A store to use instead of the one the configuration names (tests, embedding). */
  store?: Store;
  /** Options of the review helper mounted beside the asset API (its store, hasher, session store). */
  review?: Omit<ReviewPartsOptions, 'logger'>;
  /** Object storage to use instead of the one the configuration names. */
  storage?: ObjectStorage;
  /** Image provider for the in-process worker (the procedural one by default). */
  imageProvider?: ImageProvider;
}

/** A running server. */
export interface RunningServer {
  /** `http://host:port` as actually bound. */
  url: string;
  /** The Node HTTP server (its `request` listener is the combined app; the WebSocket upgrade is attached). */
  httpServer: Server;
  port: number;
  store: Store;
  storage: ObjectStorage;
  service: AssetService;
  logger: Logger;
  /** The in-process generation worker, or null with WORKER_IN_PROCESS=false. */
  worker: GenerationWorker | null;
  /** The WebSocket progress endpoint. */
  progress: ProgressSocket;
  /** The review helper (spec 001) served by the same listener: /, /login, /register, /api/auth/*. */
  review: ReviewParts;
  /** Prometheus metrics served at /metrics (METRICS_ENABLED), or null. */
  metrics: ServerMetrics | null;
  /**
   * Graceful shutdown: stops accepting connections, lets in-flight requests finish (at most
   * `config.http.shutdownGraceMs`), closes the remaining connections, then the store. Idempotent.
   */
  close(): Promise<void>;
}

/** Opens the store the configuration names: MongoDB when MONGODB_URI is set, else the embedded store. */
export async function openStore(config: ServerConfig): Promise<Store> {
  if (config.store.mongodbUri !== null) {
    const { createMongoStore } = await importOptional(
      MONGODB_PACKAGES,
      () => import('@assetloom/core/store/mongodb'),
    );
    return createMongoStore({ uri: config.store.mongodbUri, dbName: config.store.mongodbDb });
  }
  await mkdir(config.store.dataDir, { recursive: true });
  return createEmbeddedStore({ dir: config.store.dataDir });
}

/** The pipeline's LLM settings from the server configuration (null → template prompts). */
export function llmOf(config: ServerConfig): LlmConfig | null {
  return config.generation.llm === null
    ? null
    : {
        baseUrl: config.generation.llm.baseUrl,
        apiKey: config.generation.llm.apiKey,
        model: config.generation.llm.model,
        timeoutMs: config.generation.llm.timeoutMs,
      };
}

const MCP_MODULE: string = '@assetloom/mcp';

/** What the server uses of `@assetloom/mcp` (its `createMcpHttpHandler`). */
interface McpModule {
  createMcpHttpHandler(options: { allow: readonly string[]; maxRequestBodySize: number }): McpMount & {
    close(): Promise<void>;
  };
}

/** The MCP server mounted at /mcp (`@assetloom/mcp`, an optional peer), its folders checked first. */
async function openMcp(config: ServerConfig) {
  for (const folder of config.http.mcp.allowedFolders) {
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new Error(
        `[assetloom/server] MCP_ALLOWED_FOLDERS names ${folder}, which is not a folder: make it, or leave it out.`,
      );
    }
  }
  // By a name in a variable: the server builds (and its declarations type-check) without the package.
  const { createMcpHttpHandler } = (await importOptional(
    MCP_PACKAGES,
    () => import(MCP_MODULE),
  )) as McpModule;
  // a base64 picture of UPLOAD_MAX_BYTES (10 MiB by default) fits in one request
  return createMcpHttpHandler({
    allow: config.http.mcp.allowedFolders,
    maxRequestBodySize: Math.ceil(config.uploads.maxBytes * 1.4) + 64 * 1024,
  });
}

/** Opens the object storage the configuration names and checks it is usable. */
export async function openObjectStorage(config: ServerConfig): Promise<ObjectStorage> {
  const storage = await openObjectStorageDriver(config.storage);
  await storage.check();
  return storage;
}

/** Builds a generation worker from the configuration (used by the API process and worker-main). */
export function workerFor(
  config: ServerConfig,
  deps: {
    store: Store;
    storage: ObjectStorage;
    logger: Logger;
    notifier?: TaskNotifier;
    imageProvider?: ImageProvider;
    metrics?: ServerMetrics | null;
    /** Told about refused store writes of runs (the /ready check reports them). */
    onStoreWriteFailure?: (cause: unknown) => void;
  },
): GenerationWorker {
  return createGenerationWorker({
    store: deps.store,
    storage: deps.storage,
    logger: deps.logger,
    // The queue settings as read (concurrency, leaseMs, pollMs, maxAttempts, cancelCheckMs, eventBatchMs).
    ...config.queue,
    ...(deps.onStoreWriteFailure === undefined ? {} : { onStoreWriteFailure: deps.onStoreWriteFailure }),
    maxQualityRetries: config.generation.maxQualityRetries,
    llm: llmOf(config),
    ...(deps.notifier === undefined ? {} : { notifier: deps.notifier }),
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    webhooks: webhooksOf(config, deps.store, deps.logger),
    ...imageProviderOf(config, deps.imageProvider),
    ...(threadsOf(config, deps) ?? {}),
    // the pictures a task names, read from object storage for the pipeline (decision 0034)
    loadInputs: (() => {
      const uploads = uploadServiceFor(config, deps);
      return (task) => uploads.loadInputs(task.params);
    })(),
  });
}

/**
 * The pipeline threads of a worker (PIPELINE_THREADS > 0), unless a provider object was injected
 * (tests, embedders): a thread can only build its provider from the settings.
 */
function threadsOf(
  config: ServerConfig,
  deps: { imageProvider?: ImageProvider; logger: Logger; storage: ObjectStorage },
): { threads: PipelineThreadPool } | null {
  if (config.queue.pipelineThreads === 0 || deps.imageProvider !== undefined) return null;
  const log = deps.logger.child({ component: 'pipeline-threads' });
  // Files for a driver with a local folder (the filesystem driver) are written on the threads (decision 0026).
  const direct = directWriteRoot(deps.storage);
  return {
    threads: createPipelineThreadPool({
      size: config.queue.pipelineThreads,
      idleMs: config.queue.pipelineThreadIdleMs,
      imageProvider: config.generation.imageProvider ?? null,
      ...(direct === null ? {} : { files: { storage: deps.storage, settings: direct } }),
      onThreadError: (error) =>
        log.error({ err: error }, 'a pipeline thread died; its tasks are retried when their leases end'),
    }),
  };
}

/** A worker's webhook outbox and delivery loop (the outbox wakes the loop of the same process). */
function webhooksOf(config: ServerConfig, store: Store, logger: Logger) {
  const dispatcher = webhookDispatcherFor(config, {
    store,
    logger,
    owner: `${hostname()}:${process.pid}:webhooks:${randomId().slice(0, 8)}`,
  });
  return { dispatcher, outbox: webhookOutboxFor(store, () => dispatcher.wake()) };
}

/** Tasks claimable now (waiting for a worker, or whose lease ended), counted up to 1000. */
export async function queueDepthOf(store: Store): Promise<number> {
  return (await store.tasks.listClaimable(new Date(), 1000)).length;
}

/** The injected provider, else the one IMAGE_PROVIDER names (from the provider table). */
function imageProviderOf(
  config: ServerConfig,
  injected: ImageProvider | undefined,
): { imageProvider: ImageProvider } {
  return { imageProvider: injected ?? createImageProvider(config.generation.imageProvider) };
}

/**
 * Assembles the store, object storage, the Node-only ports, the domain service, the Koa app, the
 * WebSocket progress endpoint and (WORKER_IN_PROCESS) a generation worker, and listens.
 */
export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const logger =
    options.logger ?? createLogger(config.logging.level, createLogDestination(config.logging.flushMs));
  // The MCP server for coding agents (MCP_ENABLED) is loaded first: a missing package stops the start.
  const mcp = config.http.mcp.enabled ? await openMcp(config) : undefined;
  // What reads uploads (UPLOAD_DECODER): sharp missing stops the start when asked for, else is named once.
  await openUploadDecoder(config, logger);
  const store = options.store ?? (await openStore(config));
  try {
    await store.init();
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  let storage: ObjectStorage;
  try {
    storage = options.storage ?? (await openObjectStorage(config));
    // an injected storage is checked as the configured one is (the fs driver makes its folders there)
    if (options.storage !== undefined) await storage.check();
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  const notifier = createTaskNotifier();
  // Refused writes (a full disk) make /ready fail with their cause until a probe write succeeds.
  const storeHealth = createStoreWriteHealth(store);
  // The metrics read the progress socket and the worker, made below.
  let progressRef: ProgressSocket | undefined;
  let worker: GenerationWorker | null = null;
  const metrics = config.metrics.enabled
    ? new ServerMetrics('api', {
        queueDepth: () => queueDepthOf(store),
        websocketConnections: () => progressRef?.connections ?? 0,
        ...(config.queue.inProcess ? { workerActive: () => worker?.active ?? 0 } : {}),
      })
    : null;
  worker = config.queue.inProcess
    ? workerFor(config, {
        store,
        storage,
        logger,
        notifier,
        metrics,
        onStoreWriteFailure: (cause) => storeHealth.failed(cause),
        ...(options.imageProvider === undefined ? {} : { imageProvider: options.imageProvider }),
      })
    : null;

  // Uploaded pictures: their operations, the submission's checks, the project cascade, the sweep.
  const uploads = uploadServiceFor(config, { store, storage, logger });
  const stopSweeper = startUploadSweeper(uploads, config.uploads.sweepSeconds, logger);
  // One bound on password hashing for the process, shared by both apps (decision 0030).
  const admission = hashAdmissionFor(config.auth);
  // What the workers draw with: submissions naming inputs it cannot honour answer 400 (issue #37).
  const drawsWith = imageProviderOf(config, options.imageProvider)?.imageProvider;
  const service = createAssetService({
    ...(drawsWith === undefined
      ? {}
      : { imageProvider: { name: drawsWith.name, kind: drawsWith.kind, inputs: drawsWith.inputs } }),
    store,
    hasher: new ScryptPasswordHasher({ logN: config.auth.scryptLogN }),
    hashGate: admission.hashGate,
    budgets: config.limits,
    loginIpLimiter: admission.loginIpLimiter,
    registerIpLimiter: admission.registerIpLimiter,
    tokens: new JwtTokenService({
      secret: config.auth.jwtSecret,
      previousSecrets: config.auth.jwtPreviousSecrets,
      ttlSeconds: config.auth.tokenTtlSeconds,
    }),
    loginLimiter: createMemoryRateLimiter({
      limit: config.auth.loginMaxFailures,
      windowMs: config.auth.loginWindowSeconds * 1000,
    }),
    generateLimiter: createMemoryRateLimiter({
      limit: config.limits.generateMaxRequests,
      windowMs: config.limits.generateWindowSeconds * 1000,
    }),
    onBackgroundError: (err, { what, ...context }) => logger.warn({ err, ...context }, what),
    // A deleted project's running attempts in this process stop (threads and puts included) and
    // sweep what they wrote before the delete removes the rest (decision 0029); workers in other
    // processes notice within their cancel check and sweep after themselves.
    onProjectTasksCancelled: async (_projectId, taskIds) => {
      await worker?.cancel(taskIds);
    },
    userCacheMs: config.store.userCacheMs,
    llm: llmOf(config),
    uploads,
  });
  // Kept characters: their actions and turns are tasks through the service above (issue #40).
  const characters = createCharacterService({
    store,
    service,
    uploads,
    ...(drawsWith === undefined ? {} : { imageProvider: { name: drawsWith.name, kind: drawsWith.kind } }),
    // the built-in generator's rig: a prompt's character keeps its identity (decision 0055)
    rigIdentity: (request) => characterIdentity(request) as unknown as Record<string, unknown> | null,
  });
  const app = createAssetApp({
    service,
    characters,
    validator: createRequestValidator(),
    logger,
    version: SERVER_VERSION,
    bodyLimitBytes: config.http.bodyLimitBytes,
    secureCookies: config.http.secureCookies,
    trustProxy: config.http.trustProxy,
    urlsFromRequest: config.http.urlsFromRequest,
    cors: config.http.cors,
    ...(mcp === undefined ? {} : { mcp }),
    docs: () => loadDocs(),
    studio: () => loadStudio(),
    studioConnectSources: studioConnectSources(config),
    storage,
    signedUrlTtlSeconds: config.storage.signedUrlTtlSeconds,
    onTaskCreated: () => worker?.wake(),
    webhooks: webhookServiceFor(config, { store, onQueued: () => worker?.webhooks?.wake() }),
    readiness: {
      // One real round trip to the database (a read by id that finds nothing).
      database: async () => {
        await store.tasks.byId('readiness-probe');
        // After a refused write: a probe write, until one succeeds (a read passes on a full disk).
        await storeHealth.check();
      },
      // fs: a probe file written and removed; s3: HeadBucket.
      storage: () => storage.check(),
    },
    ...(metrics === null
      ? {}
      : {
          onRequestEnd: (method: string, route: string, status: number, seconds: number) =>
            metrics.observeRequest(method, route, status, seconds),
        }),
    onStoreWriteFailure: (cause) => storeHealth.failed(cause),
    uploads,
    // GET /api/v1/capabilities states what the workers draw with (decision 0050).
    ...(drawsWith === undefined ? {} : { provider: drawsWith }),
    onObjectsReleased: async (keys, projectId) => {
      if (keys.length > 0) await storage.delete(keys);
      // Files of attempts that never recorded their assets live under the same folder.
      await storage.deletePrefix(`projects/${projectId}/`);
    },
  });
  let review: ReviewParts;
  try {
    review = await createReviewParts(config, { hashAdmission: admission, ...options.review, logger });
  } catch (error) {
    storage.close?.();
    await store.close().catch(() => {});
    throw error;
  }

  // Timeouts are checked every second (Node's default is 30 s), so a request over requestTimeout or
  // headersTimeout gets its 408 close to the limit.
  const apps = combineApps(review.app.callback(), app.callback());
  const metricsHandler = metrics === null ? null : createMetricsHandler(metrics, config.metrics.token);
  const server: Server = createServer(
    { connectionsCheckingInterval: 1_000, ServerResponse: ClosingResponse },
    metricsHandler === null
      ? apps
      : (req, res) => (isMetricsPath(req.url) ? metricsHandler(req, res) : apps(req, res)),
  );
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Oversized headers (431), timeouts (408), unparsable requests (400): JSON with X-Request-Id.
  server.on('clientError', createClientErrorHandler(logger));
  const progress = attachProgressSocket(server, {
    service,
    store,
    logger,
    notifier,
    pollMs: config.queue.eventPollMs,
    trustProxy: config.http.trustProxy,
    urlsFromRequest: config.http.urlsFromRequest,
    allowedOrigins: socketCookieOrigins(config),
    signUrl: (key, baseUrl) =>
      storage.signedUrl(key, {
        ttlSeconds: config.storage.signedUrlTtlSeconds,
        ...(baseUrl === undefined ? {} : { baseUrl }),
      }),
  });
  progressRef = progress;

  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(config.http.port, config.http.host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
  } catch (error) {
    await progress.close().catch(() => {});
    storage.close?.();
    await store.close().catch(() => {});
    await review.close().catch(() => {});
    throw error;
  }
  worker?.start();
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  logger.info(
    {
      url,
      store: store.kind,
      storage: storage.kind,
      worker: worker === null ? 'off' : { owner: worker.owner, concurrency: config.queue.concurrency },
      version: SERVER_VERSION,
    },
    'listening',
  );
  // Buffered log lines (LOG_FLUSH_MS) would reach a supervisor waiting for this one a moment late.
  logger.flush();

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      logger.info({ inFlight: sockets.size }, 'shutting down');
      const drained = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      server.closeIdleConnections();
      // WebSocket streams are long-lived: close them now (1001) rather than wait out the grace.
      const streamsClosed = Promise.all([progress.close(), mcp?.close()]);
      const workerStopped = worker?.stop(config.http.shutdownGraceMs) ?? Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolveDeadline) => {
        timer = setTimeout(resolveDeadline, config.http.shutdownGraceMs);
        timer.unref();
      });
      await Promise.race([drained, deadline]);
      clearTimeout(timer);
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await drained;
      await streamsClosed;
      await workerStopped;
      stopSweeper();
      storage.close?.();
      await store.close();
      await review.close();
      logger.info('stopped');
    })();
    return closing;
  };

  return {
    url,
    httpServer: server,
    port: address.port,
    store,
    storage,
    service,
    logger,
    worker,
    progress,
    review,
    metrics,
    close,
  };
}

/**
 * Origins besides the server's own whose pages may open the progress WebSocket with the login
 * cookie: PUBLIC_BASE_URL's, and the CORS origins when CORS_CREDENTIALS lets their pages hold it.
 */
function socketCookieOrigins(config: ServerConfig): string[] {
  const origins = config.http.publicOrigin === null ? [] : [config.http.publicOrigin];
  const { cors } = config.http;
  if (cors.credentials && cors.origins !== '*') origins.push(...cors.origins);
  return origins;
}
