import {
  type AssetService,
  type AuthUser,
  createAssetService,
  createCharacterService,
  type Store,
} from '@assetloom/core';
import {
  createMemoryRateLimiter,
  createOperationTable,
  createRequestValidator,
  type OperationTable,
  type RequestValidator,
} from '@assetloom/core/http';
import { createEmbeddedStore } from '@assetloom/core/store/embedded';
import {
  createPngDecoder,
  createUploadService,
  type UploadLimits,
  type UploadService,
} from '@assetloom/core/uploads';
import { characterIdentity } from '@assetloom/generator';
import { createMemoryStorage, type MemoryStorage } from '@assetloom/pipeline';
import type { AssetMockOptions } from '../types.js';
import { createClock, type MockClock } from './clock.js';
import { createFastHasher, createOpaqueTokens, createUrlSigner, type UrlSigner } from './crypto.js';
import { createReviewMock, type ReviewMock } from './review.js';
import { createTaskRunner, type TaskRunner } from './task-runner.js';
import { createMockWebhooks, type MockWebhooks, type MockWebhooksConfig } from './webhooks.js';

/** Everything one life of the mock holds (a `reset()` builds a new one). */
export interface State {
  store: Store;
  service: AssetService;
  /** The asset API's operations over this state's service (core's table, as the server mounts it). */
  table: OperationTable;
  files: MemoryStorage;
  runner: TaskRunner;
  review: ReviewMock;
  clock: MockClock;
  signer: UrlSigner;
  seeded: { users: Record<string, number>; projects: Record<string, string> };
  /** The token of the latest `assetloom_token` cookie the mock set: what a browser would send on a WebSocket. */
  cookieToken: string | undefined;
  streams: Set<AbortController>;
  /** Webhook registration and delivery (core's, sending through the configured fetch). */
  webhooks: MockWebhooks;
}

/** The checked options a state is built from. */
export interface StateConfig {
  baseUrl: string;
  clockMode: 'real' | 'manual';
  stepMs: number;
  tokenTtl: number;
  urlTtl: number;
  bodyLimit: number;
  /** Upload limits (UploadLimits of @assetloom/core): bytes, sides, pixels, per-user bytes, lifetime. */
  uploads?: Partial<UploadLimits>;
  maxQualityRetries: number;
  limits: NonNullable<AssetMockOptions['limits']>;
  seed: AssetMockOptions['seed'];
  onError: (error: unknown, context: string) => void;
  /** Wakes the progress streams of a task (a pipeline event was stored). */
  notify: (taskId: string) => void;
  webhooks: MockWebhooksConfig;
}

let sharedValidator: RequestValidator | undefined;
/** Compiling every operation takes a while; the validator is stateless, so mocks share one. */
function validatorInstance(): RequestValidator {
  sharedValidator ??= createRequestValidator();
  return sharedValidator;
}

/** A signed `/files/` URL of the mock's origin. */
export async function signedUrl(s: State, config: StateConfig, key: string): Promise<string> {
  const expiresAt = Math.floor(s.clock.now().getTime() / 1000) + config.urlTtl;
  return `${config.baseUrl}/files/${key}?e=${expiresAt}&token=${await s.signer.token(key, expiresAt)}`;
}

export async function buildState(config: StateConfig): Promise<State> {
  const { limits } = config;
  const clock = createClock(config.clockMode);
  // While seeding, records are stamped a few milliseconds in the past, one apart in seed order, so
  // newest-first lists show the seed in a fixed order even when the clock stands still.
  let seedShiftMs = 0;
  const clockPort = {
    now: () => (seedShiftMs === 0 ? clock.now() : new Date(clock.now().getTime() - seedShiftMs)),
  };
  let uploadsLater: UploadService | undefined;
  const uploadsRef = (): UploadService => uploadsLater as UploadService;
  const store = createEmbeddedStore();
  await store.init();
  const hasher = createFastHasher();
  const tokens = createOpaqueTokens(() => clock.now().getTime(), config.tokenTtl);
  const service = createAssetService({
    store,
    hasher,
    tokens,
    clock: clockPort,
    loginLimiter: createMemoryRateLimiter({
      limit: limits.loginMaxFailures ?? 5,
      windowMs: (limits.loginWindowSeconds ?? 900) * 1000,
      clock: clockPort,
    }),
    generateLimiter: createMemoryRateLimiter({
      limit: limits.generateMaxRequests ?? 30,
      windowMs: (limits.generateWindowSeconds ?? 60) * 1000,
      clock: clockPort,
    }),
    uploads: {
      checkInputs: (user, params) => uploadsRef().checkInputs(user, params),
      pinInputs: (task, ids) => uploadsRef().pinInputs(task, ids),
      unpinInputs: (taskId, ids) => uploadsRef().unpinInputs(taskId, ids),
      releaseProject: (projectId) => uploadsRef().releaseProject(projectId),
    },
  });
  const files = createMemoryStorage();
  // Uploads in memory (decision 0034): the core's rules, the pipeline's PNG decoder (PNG only).
  const uploads = createUploadService({
    store,
    clock: clockPort,
    decoder: createPngDecoder(),
    objects: {
      put: (key, bytes, contentType) => files.put(key, bytes, contentType),
      get: async (key) => files.get(key) ?? null,
      delete: async (keys) => {
        for (const key of keys) (files.objects as Map<string, unknown>).delete(key);
      },
    },
    limits: config.uploads ?? {},
  });
  uploadsLater = uploads;
  const webhooks = createMockWebhooks(store, clock, config.webhooks, config.onError);
  const runner = createTaskRunner({
    webhooks: webhooks.outbox,
    store,
    storage: files,
    clock,
    loadInputs: (task) => uploads.loadInputs(task.params),
    stepMs: () => config.stepMs,
    maxQualityRetries: config.maxQualityRetries,
    notify: config.notify,
    onError: (error, taskId) => config.onError(error, `task ${taskId}`),
  });
  const review = await createReviewMock(hasher, clock);
  const seeded: State['seeded'] = { users: {}, projects: {} };
  const users = new Map<string, AuthUser>();
  for (const u of config.seed?.users ?? []) {
    const registered = await service.register({
      username: u.username,
      password: u.password,
      email: u.email ?? `${u.username}@example.com`,
    });
    const login = await service.login({ username: u.username, password: u.password }, { ip: 'seed' });
    users.set(u.username, await service.authenticate(login.token));
    seeded.users[u.username] = registered.id;
  }
  const seedProjects = config.seed?.projects ?? [];
  for (const [i, p] of seedProjects.entries()) {
    const owner = users.get(p.owner);
    if (owner === undefined) {
      throw new TypeError(
        `[assetloom/mock] seed project ${JSON.stringify(p.name)} names owner ${JSON.stringify(p.owner)}, who is not among seed.users.`,
      );
    }
    seedShiftMs = seedProjects.length - i;
    try {
      const created = await service.createProject(owner, {
        name: p.name,
        ...(p.style === undefined ? {} : { style: p.style }),
      });
      seeded.projects[p.name] = created.id;
    } finally {
      seedShiftMs = 0;
    }
  }
  tokens.clear(); // seeding logins are not the client's

  // The hooks run per request, once `state` below exists.
  const table = createOperationTable({
    service,
    validator: validatorInstance(),
    version: 'mock',
    bodyLimitBytes: config.bodyLimit,
    storage: {
      exists: async (key) => files.get(key) !== undefined,
      signedUrl: (key) => signedUrl(state, config, key),
    },
    onTaskCreated: () => runner.kick(),
    uploads,
    // Kept characters over the same service and store (issue #40): the built-in generator's rules.
    characters: createCharacterService({
      store,
      service,
      uploads,
      clock: clockPort,
      // a prompt's character keeps the rig's identity, as on the server (decision 0055)
      rigIdentity: (request) => characterIdentity(request) as unknown as Record<string, unknown> | null,
    }),
    webhooks: webhooks.service,
    onTokenIssued: (token) => {
      state.cookieToken = token;
    },
    onObjectsReleased: async (_keys, projectId) => {
      for (const key of files.keys()) {
        if (key.startsWith(`projects/${projectId}/`)) (files.objects as Map<string, unknown>).delete(key);
      }
    },
  });
  const state: State = {
    store,
    service,
    table,
    files,
    runner,
    review,
    clock,
    signer: createUrlSigner(),
    seeded,
    cookieToken: undefined,
    streams: new Set(),
    webhooks,
  };
  return state;
}
