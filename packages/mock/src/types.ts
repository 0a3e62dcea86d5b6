import type { Store } from '@assetloom/core';
import type { MemoryStorage } from '@assetloom/pipeline';
import type { HttpHandler, WebSocketHandler } from 'msw';

/** Users and projects the mock starts with (and returns to on `reset()`). */
export interface MockSeed {
  users?: ReadonlyArray<{ username: string; password: string; email?: string }>;
  /** Each project belongs to a seeded user, named by `owner` (a username). */
  projects?: ReadonlyArray<{ owner: string; name: string; style?: Record<string, string> }>;
}

/** Extra time before every answer: a fixed number of ms, or a random value in `[min, max]`. */
export type Latency = number | { min: number; max: number };

export interface AssetMockOptions {
  seed?: MockSeed;
  /** Real time added before every HTTP answer (msw `delay`); 0 by default. */
  latency?: Latency;
  /**
   * The origin the mock answers for, e.g. `http://127.0.0.1:8080`. Default: the page's origin in
   * browsers, `http://assetloom.mock` elsewhere.
   */
  baseUrl?: string;
  /**
   * `'real'` (default): tasks advance by themselves, `stepMs` wall-clock ms per pipeline event.
   * `'manual'`: time stands still until `controls.advance(ms)` or `controls.runToCompletion()`.
   */
  clock?: 'real' | 'manual';
  /** Ms of (real or virtual) time between two pipeline events of a task (default 150). */
  stepMs?: number;
  /**
   * Which paths the mock answers. `'origin'` (default when `baseUrl` is not the page's origin):
   * every path of the origin, so unknown routes get the server's 404 envelope. `'api'` (default on
   * the page's own origin): only `/api/`, `/auth/`, `/files/` and the review-helper paths, so a dev
   * server keeps serving the page and its modules.
   */
  scope?: 'origin' | 'api';
  /** Token lifetime in seconds (default 86 400, as the server). */
  tokenTtlSeconds?: number;
  /** Signed file URL lifetime in seconds (default 3600, as the server). */
  signedUrlTtlSeconds?: number;
  /** Largest accepted JSON body in bytes (default 65 536, as the server). */
  bodyLimitBytes?: number;
  /**
   * Uploads (`POST /api/v1/uploads`, kept in memory): the server's limits by default (10 MiB, 4096 px a
   * side, 16 777 216 pixels, 256 MiB per user, 24 h). The mock decodes PNG only (any colour type,
   * interlaced); other formats answer 400 as a picture it cannot read.
   */
  uploads?: {
    maxBytes?: number;
    maxSide?: number;
    maxPixels?: number;
    userMaxBytes?: number;
    ttlSeconds?: number;
  };
  /** Quality retries per task (default 2, as the server). */
  maxQualityRetries?: number;
  /** Rate limits (defaults as the server: 5 failed logins / 900 s, 30 submissions / 60 s). */
  limits?: {
    loginMaxFailures?: number;
    loginWindowSeconds?: number;
    generateMaxRequests?: number;
    generateWindowSeconds?: number;
  };
  /** Told about unexpected errors inside the mock (default: console.error). */
  onError?: (error: unknown, context: string) => void;
  /**
   * Webhook delivery. Registered webhooks receive signed task events and pings as from the server
   * (core's outbox and dispatcher), sent with `fetch` (default: the global fetch when sending).
   * Loopback, private and localhost targets are refused as on the server unless `allowPrivateTargets`;
   * retries follow the mock's clock.
   */
  webhooks?: {
    fetch?: typeof fetch;
    allowPrivateTargets?: boolean;
    /** First retry delay in ms, doubled on each next one (default 10 000). */
    retryBaseMs?: number;
    /** Attempts before a delivery is given up (default 10). */
    maxAttempts?: number;
    /** One attempt's deadline in real ms (default 10 000). */
    timeoutMs?: number;
  };
}

/** One injected failure: the next matching request answers it instead of being served. */
export interface FailureRule {
  /** An operationId of asset-api.yaml (`generate`, `getTask`, `downloadAsset`, `getSignedFile`, …). */
  operationId?: string;
  /** A path (`/api/v1/generate`) or a RegExp over the path. */
  path?: string | RegExp;
  /** Only this method (any by default). */
  method?: string;
  /** The answer: an envelope error with this status, or a network failure (`'network'`). */
  status: 429 | 500 | 'network';
  /** Seconds for `Retry-After` (429 only; default 1). */
  retryAfter?: number;
  /** How many matching requests fail (default 1). */
  times?: number;
}

/** The socket `controls.WebSocket` returns (msw's WebSocket, typed as the SDK uses it). */
export interface MockSocket {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason?: string }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** A Node client's WebSocket constructor that carries `Authorization` through msw's interceptor. */
export type MockWebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
  options?: { headers?: Record<string, string> },
) => MockSocket;

export interface AssetMockControls {
  /** Resolves once the seed is loaded (every handler waits for it too). */
  readonly ready: Promise<void>;
  /** The mock's current time (virtual under `clock: 'manual'`). */
  now(): Date;
  /**
   * Lets `ms` of time pass: under the manual clock, tasks move through every pipeline event due by
   * then; under the real clock this simply waits.
   */
  advance(ms: number): Promise<void>;
  /** Runs a task (or every running task) to its end, advancing virtual time as needed. */
  runToCompletion(taskId?: string): Promise<void>;
  /** The next matching request(s) fail with the given status. */
  failNext(rule: FailureRule): void;
  /** The next `n` generated images are blank, so the real quality supervisor rejects them. */
  rejectQualityNext(n?: number): void;
  /** The next `n` image generations throw (the task fails with the pipeline's provider error). */
  failGenerationNext(n?: number, message?: string): void;
  setLatency(latency: Latency): void;
  /** Forgets everything (users, projects, tasks, files, tokens, sessions, injected failures) and re-seeds. */
  reset(): Promise<void>;
  /** Stops running tasks and closes open progress streams. */
  close(): Promise<void>;
  /** The in-memory store (core's `Store` port) for assertions. */
  readonly store: Store;
  /** The generated files by key. */
  readonly files: MemoryStorage;
  /** The review-helper sessions (session id → user id). */
  readonly reviewSessions: ReadonlyMap<string, number>;
  /** Ids of the seeded users (by username) and projects (by name). */
  readonly seeded: { users: Record<string, number>; projects: Record<string, string> };
  /** Pass to `createAssetClient({ WebSocket })` in Node so the progress stream carries the Bearer token. */
  readonly WebSocket: MockWebSocketConstructor;
  /** The base URL the mock answers (no trailing slash). */
  readonly baseUrl: string;
}

export interface AssetMock {
  /** msw handlers: pass to `setupServer(...handlers)` (msw/node) or `setupWorker(...handlers)` (msw/browser). */
  handlers: Array<HttpHandler | WebSocketHandler>;
  controls: AssetMockControls;
}
