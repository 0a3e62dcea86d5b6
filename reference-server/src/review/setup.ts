import { mkdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Clock,
  createMemoryRateLimiter,
  createReviewAuthService,
  type PasswordHasher,
  type ReviewAuthService,
  type ReviewStore,
} from '@assetloom/core/review';
import { createEmbeddedReviewStore } from '@assetloom/core/store/embedded';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import { type HashAdmission, hashAdmissionFor, ScryptPasswordHasher } from '../password.js';
import { createReviewApp, REVIEW_PATHS, type ReviewState } from './app.js';
import { createSessionStore, type KoaSessionStore } from './session-store.js';

/** Opens the review store the configuration names: MongoDB when MONGODB_URI is set, else NeDB files in DATA_DIR. */
export async function openReviewStore(config: ServerConfig): Promise<ReviewStore> {
  if (config.store.mongodbUri !== null) {
    const { createMongoReviewStore } = await import('@assetloom/core/store/mongodb');
    return createMongoReviewStore({ uri: config.store.mongodbUri, dbName: config.store.mongodbDb });
  }
  await mkdir(config.store.dataDir, { recursive: true });
  return createEmbeddedReviewStore({ dir: config.store.dataDir });
}

export interface ReviewPartsOptions {
  logger: Logger;
  /** A store instead of the one the configuration names (tests inject failing ones). */
  store?: ReviewStore;
  /** The password hasher (the server's scrypt hasher at `config.auth.scryptLogN` by default). */
  hasher?: PasswordHasher;
  /** Wraps the database-backed session store (tests inject one whose `set` fails). */
  sessionStore?: (store: KoaSessionStore) => KoaSessionStore;
  clock?: Clock;
  /** How often expired sessions are deleted (default hourly; 0 = never). */
  purgeEveryMs?: number;
  /**
   * The process's password-hash admission and per-address limiters, shared with the asset API
   * (startServer passes them); built from the configuration when absent.
   */
  hashAdmission?: HashAdmission;
}

export interface ReviewParts {
  app: Koa<ReviewState>;
  store: ReviewStore;
  service: ReviewAuthService;
  /** Stops the purge timer and closes the store. Idempotent. */
  close(): Promise<void>;
}

/**
 * Assembles the review helper: its store (initialised), the domain service with the server's scrypt
 * hasher and a login throttle (LOGIN_MAX_FAILURES per LOGIN_WINDOW_SECONDS, per e-mail + IP), the
 * database-backed session store, the Koa app, and an hourly purge of expired sessions.
 */
export async function createReviewParts(
  config: ServerConfig,
  options: ReviewPartsOptions,
): Promise<ReviewParts> {
  const clock = options.clock ?? { now: () => new Date() };
  const store = options.store ?? (await openReviewStore(config));
  try {
    await store.init();
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  const admission = options.hashAdmission ?? hashAdmissionFor(config.auth);
  const service = createReviewAuthService({
    store,
    hasher: options.hasher ?? new ScryptPasswordHasher({ logN: config.auth.scryptLogN }),
    clock,
    loginLimiter: createMemoryRateLimiter({
      limit: config.auth.loginMaxFailures,
      windowMs: config.auth.loginWindowSeconds * 1000,
      clock,
    }),
    loginIpLimiter: admission.loginIpLimiter,
    registerIpLimiter: admission.registerIpLimiter,
    hashGate: admission.hashGate,
  });
  const databaseSessions = createSessionStore(store.sessions, clock);
  const app = createReviewApp({
    service,
    sessionStore: options.sessionStore ? options.sessionStore(databaseSessions) : databaseSessions,
    logger: options.logger,
    secureCookies: config.http.secureCookies,
    trustProxy: config.http.trustProxy,
  });

  const purge = () =>
    store.sessions.purgeExpired(clock.now()).catch((err: unknown) => {
      options.logger.warn({ err }, 'purging expired review sessions failed');
      return 0;
    });
  void purge();
  const every = options.purgeEveryMs ?? 60 * 60 * 1000;
  const timer = every > 0 ? setInterval(purge, every) : undefined;
  timer?.unref();

  let closing: Promise<void> | undefined;
  return {
    app,
    store,
    service,
    close() {
      closing ??= (async () => {
        if (timer) clearInterval(timer);
        await store.close();
      })();
      return closing;
    },
  };
}

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Whether a request URL belongs to the review helper (its exact paths, any query). */
export function isReviewPath(url: string | undefined): boolean {
  if (url === undefined) return false;
  const end = url.search(/[?#]/);
  return REVIEW_PATHS.has(end === -1 ? url : url.slice(0, end));
}

/**
 * One Node request handler for both apps: the review helper's paths (/, /login, /register,
 * /api/auth/*, /assets/review-auth.*) go to `review`, everything else to `other` (the asset API).
 */
export function combineApps(review: NodeHandler, other: NodeHandler): NodeHandler {
  return (req, res) => (isReviewPath(req.url) ? review(req, res) : other(req, res));
}
