import { routesOf } from '@assetloom/core/http';
import { assetApiDocument } from '@assetloom/openapi';
import { createControls } from './internal/controls.js';
import { createHttpHandlers } from './internal/http.js';
import { createProgressLink, createWaiters, mockWebSocketClass } from './internal/socket.js';
import { buildState, type State, type StateConfig } from './internal/state.js';
import type { AssetMock, AssetMockOptions, FailureRule, Latency } from './types.js';

export type {
  AssetMock,
  AssetMockControls,
  AssetMockOptions,
  FailureRule,
  Latency,
  MockSeed,
  MockSocket,
  MockWebSocketConstructor,
} from './types.js';

const DEFAULT_BASE = 'http://assetloom.mock';

function pageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return typeof origin === 'string' && /^https?:\/\//.test(origin) ? origin : undefined;
}

function positiveInt(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`[assetloom/mock] ${name} must be a number ≥ 0; got ${String(value)}.`);
  }
  return Math.floor(value);
}

function checkLatency(latency: Latency): Latency {
  if (typeof latency === 'number' && Number.isFinite(latency) && latency >= 0) return latency;
  if (
    typeof latency === 'object' &&
    latency !== null &&
    Number.isFinite(latency.min) &&
    Number.isFinite(latency.max) &&
    latency.min >= 0 &&
    latency.max >= latency.min
  ) {
    return latency;
  }
  throw new RangeError(
    '[assetloom/mock] latency must be a number of ms ≥ 0 or { min, max } with 0 ≤ min ≤ max.',
  );
}

/**
 * An msw mock of the Assetloom asset API (spec 000) and the review-helper authentication (spec 001)
 * that runs the real domain layer (@assetloom/core's service, validator, operation table and task
 * queue) over an in-memory store and the real @assetloom/pipeline, so it answers as the reference
 * server does: the Koa server and this mock are two thin transports over core's operation table.
 */
export function createAssetMock(options: AssetMockOptions = {}): AssetMock {
  const origin = pageOrigin();
  const baseUrl = (options.baseUrl ?? origin ?? DEFAULT_BASE).replace(/\/+$/, '');
  let parsedBase: URL;
  try {
    parsedBase = new URL(baseUrl);
  } catch (cause) {
    throw new TypeError(
      `[assetloom/mock] baseUrl must be an absolute http(s) URL such as http://127.0.0.1:8080; got ${JSON.stringify(baseUrl)}.`,
      { cause },
    );
  }
  if (parsedBase.protocol !== 'http:' && parsedBase.protocol !== 'https:') {
    throw new TypeError(`[assetloom/mock] baseUrl must use http or https; got ${parsedBase.protocol}`);
  }
  const scope = options.scope ?? (origin !== undefined && parsedBase.origin === origin ? 'api' : 'origin');
  const clockMode = options.clock ?? 'real';
  if (clockMode !== 'real' && clockMode !== 'manual') {
    throw new TypeError(`[assetloom/mock] clock must be 'real' or 'manual'; got ${String(clockMode)}.`);
  }
  let latency = checkLatency(options.latency ?? 0);
  const waiters = createWaiters();
  const config: StateConfig = {
    baseUrl,
    clockMode,
    stepMs: positiveInt(options.stepMs, 150, 'stepMs'),
    tokenTtl: positiveInt(options.tokenTtlSeconds, 86_400, 'tokenTtlSeconds') || 86_400,
    urlTtl: positiveInt(options.signedUrlTtlSeconds, 3600, 'signedUrlTtlSeconds') || 3600,
    bodyLimit: positiveInt(options.bodyLimitBytes, 65_536, 'bodyLimitBytes'),
    maxQualityRetries: positiveInt(options.maxQualityRetries, 2, 'maxQualityRetries'),
    limits: options.limits ?? {},
    ...(options.uploads === undefined ? {} : { uploads: options.uploads }),
    seed: options.seed,
    onError:
      options.onError ??
      ((error: unknown, context: string) => console.error(`[assetloom/mock] ${context}:`, error)),
    notify: waiters.notify,
    webhooks: {
      ...(options.webhooks?.fetch === undefined ? {} : { fetch: options.webhooks.fetch }),
      allowPrivateTargets: options.webhooks?.allowPrivateTargets === true,
      retryBaseMs: positiveInt(options.webhooks?.retryBaseMs, 10_000, 'webhooks.retryBaseMs') || 10_000,
      maxAttempts: positiveInt(options.webhooks?.maxAttempts, 10, 'webhooks.maxAttempts') || 10,
      timeoutMs: positiveInt(options.webhooks?.timeoutMs, 10_000, 'webhooks.timeoutMs') || 10_000,
    },
  };
  const routes = routesOf(assetApiDocument);
  const failures: Array<FailureRule & { left: number }> = [];
  const pendingHeaders = new Map<string, string[]>();

  let current: State | undefined;
  const build = () =>
    buildState(config).then((s) => {
      current = s;
      return s;
    });
  let statePromise = build();
  const rebuild = () => {
    statePromise = build();
    return statePromise;
  };
  const state = () => statePromise;
  const ready = statePromise.then(() => undefined);
  // An unhandled rejection here would crash Node; handlers report it as a 500 instead.
  ready.catch(() => undefined);

  const http = createHttpHandlers({ config, state, failures, latency: () => latency, routes }, scope);
  const link = createProgressLink({ config, state, wait: waiters.wait, pendingHeaders });
  const controls = createControls({
    ready,
    state,
    current: () => current,
    rebuild,
    stepMs: config.stepMs,
    routes,
    failures,
    pendingHeaders,
    setLatency: (next) => {
      latency = checkLatency(next);
    },
    WebSocket: mockWebSocketClass(pendingHeaders),
    baseUrl,
  });
  return { handlers: [...http, link], controls };
}

/**
 * msw intercepts WebSockets by patching the global `WebSocket` class, which Node 20 lacks. Call this
 * before `setupServer(...).listen()` on Node 20: it installs a placeholder class (only when there is
 * no global WebSocket) that msw then replaces. Connections that no handler takes fail with a clear error.
 */
export function installWebSocketGlobal(): void {
  const g = globalThis as { WebSocket?: unknown };
  if (g.WebSocket !== undefined) return;
  class UnmockedWebSocket {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSING = 2;
    static readonly CLOSED = 3;
    constructor(url: string | URL) {
      throw new Error(
        `[assetloom/mock] no real WebSocket in this process: ${String(url)} is not handled by the mock (check baseUrl).`,
      );
    }
  }
  g.WebSocket = UnmockedWebSocket;
}
