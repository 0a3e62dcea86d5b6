import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  type AssetService,
  createAssetService,
  createEmbeddedStore,
  createMemoryRateLimiter,
  createRequestValidator,
  type Store,
} from '@assetloom/core';
import type { Logger } from 'pino';
import { createAssetApp } from './app.js';
import type { ServerConfig } from './config.js';
import { loadDocs } from './internal/docs.js';
import { ScryptPasswordHasher } from './internal/password.js';
import { JwtTokenService } from './internal/tokens.js';
import { createLogger } from './logger.js';
import { combineApps, createReviewParts, type ReviewParts, type ReviewPartsOptions } from './review/setup.js';
import { SERVER_VERSION } from './version.js';

export interface StartOptions {
  /** The logger to use; one at `config.logLevel` on stdout by default. */
  logger?: Logger;
  /** A store to use instead of the one the configuration names (tests, embedding). */
  store?: Store;
  /** Options of the review helper mounted beside the asset API (its store, hasher, session store). */
  review?: Omit<ReviewPartsOptions, 'logger'>;
}

/** A running server. */
export interface RunningServer {
  /** `http://host:port` as actually bound. */
  url: string;
  port: number;
  store: Store;
  service: AssetService;
  logger: Logger;
  /** The review helper (spec 001) served by the same listener: /, /login, /register, /api/auth/*. */
  review: ReviewParts;
  /**
   * Graceful shutdown: stops accepting connections, lets in-flight requests finish (at most
   * `config.shutdownGraceMs`), closes the remaining connections, then the store. Idempotent.
   */
  close(): Promise<void>;
}

/** Opens the store the configuration names: MongoDB when MONGODB_URI is set, else the embedded store. */
export async function openStore(config: ServerConfig): Promise<Store> {
  if (config.mongodbUri !== null) {
    const { createMongoStore } = await import('@assetloom/core/mongodb');
    return createMongoStore({ uri: config.mongodbUri, dbName: config.mongodbDb });
  }
  await mkdir(config.dataDir, { recursive: true });
  return createEmbeddedStore({ dir: config.dataDir });
}

/** Assembles the store, the Node-only ports, the domain service and the Koa app, and listens. */
export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const store = options.store ?? (await openStore(config));
  try {
    await store.init();
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }

  const service = createAssetService({
    store,
    hasher: new ScryptPasswordHasher({ logN: config.scryptLogN }),
    tokens: new JwtTokenService({ secret: config.jwtSecret, ttlSeconds: config.tokenTtlSeconds }),
    loginLimiter: createMemoryRateLimiter({
      limit: config.loginMaxFailures,
      windowMs: config.loginWindowSeconds * 1000,
    }),
    generateLimiter: createMemoryRateLimiter({
      limit: config.generateMaxRequests,
      windowMs: config.generateWindowSeconds * 1000,
    }),
  });
  const app = createAssetApp({
    service,
    validator: createRequestValidator(),
    logger,
    version: SERVER_VERSION,
    bodyLimitBytes: config.bodyLimitBytes,
    secureCookies: config.secureCookies,
    trustProxy: config.trustProxy,
    docs: () => loadDocs(),
  });
  let review: ReviewParts;
  try {
    review = await createReviewParts(config, { ...options.review, logger });
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }

  const server: Server = createServer(combineApps(review.app.callback(), app.callback()));
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
  } catch (error) {
    await store.close().catch(() => {});
    await review.close().catch(() => {});
    throw error;
  }
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  logger.info({ url, store: store.kind, version: SERVER_VERSION }, 'listening');

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      logger.info({ inFlight: sockets.size }, 'shutting down');
      const drained = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolveDeadline) => {
        timer = setTimeout(resolveDeadline, config.shutdownGraceMs);
        timer.unref();
      });
      await Promise.race([drained, deadline]);
      clearTimeout(timer);
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await drained;
      await store.close();
      await review.close();
      logger.info('stopped');
    })();
    return closing;
  };

  return { url, port: address.port, store, service, logger, review, close };
}
