import {
  AssetloomError,
  type AssetService,
  type AuthUser,
  createAssetService,
  createEmbeddedStore,
  createMemoryRateLimiter,
  createRequestValidator,
  errors,
  fail,
  followTaskEvents,
  ID_PATTERN,
  ok,
  type RequestValidator,
  type Store,
  type TaskRecord,
  toAssetloomError,
} from '@assetloom/core';
import { assetApiDocument } from '@assetloom/openapi';
import { createMemoryStorage, type MemoryStorage, optimizePrompt } from '@assetloom/pipeline';
import { delay, type HttpHandler, http, type WebSocketHandler, ws } from 'msw';
import { readJsonBody } from './internal/body.js';
import { createClock, type MockClock, tick } from './internal/clock.js';
import {
  createFastHasher,
  createOpaqueTokens,
  createUrlSigner,
  type OpaqueTokenService,
  type UrlSigner,
} from './internal/crypto.js';
import { createReviewMock, REVIEW_PATHS, type ReviewMock } from './internal/review.js';
import { matchRoute, type RouteSpec, routesOf } from './internal/routes.js';
import { createTaskRuntime, type TaskRuntime } from './internal/runtime.js';

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

interface State {
  store: Store;
  service: AssetService;
  tokens: OpaqueTokenService;
  files: MemoryStorage;
  runtime: TaskRuntime;
  review: ReviewMock;
  clock: MockClock;
  signer: UrlSigner;
  seeded: { users: Record<string, number>; projects: Record<string, string> };
  /** The token of the latest `assetloom_token` cookie the mock set: what a browser would send on a WebSocket. */
  cookieToken: string | undefined;
  streams: Set<AbortController>;
}

const CLIENT_REQUEST_ID = /^[\x21-\x7E]{1,128}$/;
const OBJECT_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,1023}$/;
const DEFAULT_BASE = 'http://assetloom.mock';

let sharedValidator: RequestValidator | undefined;
/** Compiling every operation takes a while; the validator is stateless, so mocks share one. */
function validatorInstance(): RequestValidator {
  sharedValidator ??= createRequestValidator();
  return sharedValidator;
}

function isValidObjectKey(key: unknown): key is string {
  if (typeof key !== 'string' || !OBJECT_KEY_PATTERN.test(key)) return false;
  if (key.includes('//') || key.endsWith('/')) return false;
  return key.split('/').every((segment) => segment !== '.' && segment !== '..');
}

function pageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return typeof origin === 'string' && /^https?:\/\//.test(origin) ? origin : undefined;
}

function bearerToken(header: string | null): string | undefined {
  if (typeof header !== 'string') return undefined;
  return /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header)?.[1];
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
 * that runs the real domain layer (@assetloom/core's service, validator, task queue) over an
 * in-memory store and the real @assetloom/pipeline, so it answers as the reference server does.
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
  const stepMs = positiveInt(options.stepMs, 150, 'stepMs');
  const tokenTtl = positiveInt(options.tokenTtlSeconds, 86_400, 'tokenTtlSeconds') || 86_400;
  const urlTtl = positiveInt(options.signedUrlTtlSeconds, 3600, 'signedUrlTtlSeconds') || 3600;
  const bodyLimit = positiveInt(options.bodyLimitBytes, 65_536, 'bodyLimitBytes');
  const maxQualityRetries = positiveInt(options.maxQualityRetries, 2, 'maxQualityRetries');
  const limits = options.limits ?? {};
  let latency = checkLatency(options.latency ?? 0);
  const onError =
    options.onError ??
    ((error: unknown, context: string) => console.error(`[assetloom/mock] ${context}:`, error));
  const routes: RouteSpec[] = routesOf(assetApiDocument);
  const failures: Array<FailureRule & { left: number }> = [];
  const pendingHeaders = new Map<string, string[]>();
  const waiters = new Map<string, Set<() => void>>();

  function notify(taskId: string) {
    const set = waiters.get(taskId);
    if (set === undefined) return;
    waiters.delete(taskId);
    for (const wake of set) wake();
  }
  function waitForEvent(taskId: string, signal: AbortSignal, fallbackMs: number): Promise<void> {
    return new Promise((resolve) => {
      let set = waiters.get(taskId);
      if (set === undefined) {
        set = new Set();
        waiters.set(taskId, set);
      }
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        waiters.get(taskId)?.delete(done);
        resolve();
      };
      const timer = setTimeout(done, fallbackMs);
      signal.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  async function buildState(): Promise<State> {
    const clock = createClock(clockMode);
    // While seeding, records are stamped a few milliseconds in the past, one apart in seed order, so
    // newest-first lists show the seed in a fixed order even when the clock stands still.
    let seedShiftMs = 0;
    const clockPort = {
      now: () => (seedShiftMs === 0 ? clock.now() : new Date(clock.now().getTime() - seedShiftMs)),
    };
    const store = createEmbeddedStore();
    await store.init();
    const hasher = createFastHasher();
    const tokens = createOpaqueTokens(() => clock.now().getTime(), tokenTtl);
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
    });
    const files = createMemoryStorage();
    const runtime = createTaskRuntime({
      store,
      storage: files,
      clock,
      stepMs: () => stepMs,
      maxQualityRetries,
      notify,
      onError: (error, taskId) => onError(error, `task ${taskId}`),
    });
    const review = await createReviewMock(hasher, clock);
    const seeded: State['seeded'] = { users: {}, projects: {} };
    const users = new Map<string, AuthUser>();
    for (const u of options.seed?.users ?? []) {
      const registered = await service.register({
        username: u.username,
        password: u.password,
        email: u.email ?? `${u.username}@example.com`,
      });
      const login = await service.login({ username: u.username, password: u.password }, { ip: 'seed' });
      users.set(u.username, await service.authenticate(login.token));
      seeded.users[u.username] = registered.id;
    }
    const seedProjects = options.seed?.projects ?? [];
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
    return {
      store,
      service,
      tokens,
      files,
      runtime,
      review,
      clock,
      signer: createUrlSigner(),
      seeded,
      cookieToken: undefined,
      streams: new Set(),
    };
  }

  let current: State | undefined;
  let statePromise = buildState().then((s) => {
    current = s;
    return s;
  });
  const state = () => statePromise;
  const ready = statePromise.then(() => undefined);
  // An unhandled rejection here would crash Node; handlers report it as a 500 instead.
  ready.catch(() => undefined);

  async function signedUrl(s: State, key: string): Promise<string> {
    const expiresAt = Math.floor(s.clock.now().getTime() / 1000) + urlTtl;
    return `${baseUrl}/files/${key}?e=${expiresAt}&token=${await s.signer.token(key, expiresAt)}`;
  }

  function requestIdOf(request: Request): string {
    const given = request.headers.get('x-request-id');
    return given !== null && CLIENT_REQUEST_ID.test(given) ? given : globalThis.crypto.randomUUID();
  }

  function baseHeaders(requestId: string): Headers {
    return new Headers({
      'X-Request-Id': requestId,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    });
  }

  function envelope(status: number, body: unknown, headers: Headers, head: boolean): Response {
    headers.set('Content-Type', 'application/json; charset=utf-8');
    return new Response(head ? null : JSON.stringify(body), { status, headers });
  }

  function takeFailure(method: string, pathname: string, operationId: string | undefined) {
    const index = failures.findIndex(
      (f) =>
        (f.method === undefined || f.method.toUpperCase() === method) &&
        (f.operationId === undefined || f.operationId === operationId) &&
        (f.path === undefined || (typeof f.path === 'string' ? f.path === pathname : f.path.test(pathname))),
    );
    if (index < 0) return undefined;
    const rule = failures[index] as FailureRule & { left: number };
    rule.left--;
    if (rule.left <= 0) failures.splice(index, 1);
    return rule;
  }

  async function applyLatency() {
    const ms =
      typeof latency === 'number' ? latency : latency.min + Math.random() * (latency.max - latency.min);
    if (ms > 0) await delay(ms);
  }

  type Handler = (args: {
    s: State;
    input: {
      params: Record<string, unknown>;
      query: Record<string, unknown>;
      headers: Record<string, unknown>;
      body: unknown;
    };
    // biome-ignore lint/suspicious/noExplicitAny: validated input is typed by the validator per operation
    body: any;
    user: AuthUser;
    headers: Headers;
  }) => Promise<{ status?: number; data: unknown }>;

  const handlers: Record<string, Handler> = {
    getHealth: async () => ({
      data: { status: 'ok', version: 'mock', time: new Date().toISOString() },
    }),
    register: async ({ s, body }) => ({ status: 201, data: await s.service.register(body) }),
    login: async ({ s, body, headers }) => {
      const result = await s.service.login(body, { ip: '127.0.0.1' });
      headers.append('Set-Cookie', tokenCookie(result.token, result.expiresIn));
      s.cookieToken = result.token;
      return { data: result };
    },
    getMe: async ({ s, user }) => ({ data: await s.service.me(user) }),
    changePassword: async ({ s, user, body, headers }) => {
      const result = await s.service.changePassword(user, body);
      headers.append('Set-Cookie', tokenCookie(result.token, result.expiresIn));
      s.cookieToken = result.token;
      return { data: result };
    },
    listProjects: async ({ s, user, input }) => ({
      data: await s.service.listProjects(user, input.query as { page: number; pageSize: number }),
    }),
    createProject: async ({ s, user, body }) => ({ data: await s.service.createProject(user, body) }),
    getProject: async ({ s, user, input }) => ({
      data: await s.service.getProject(user, input.params.projectId as string),
    }),
    updateProject: async ({ s, user, input, body }) => ({
      data: await s.service.updateProject(user, input.params.projectId as string, body),
    }),
    deleteProject: async ({ s, user, input }) => {
      const projectId = input.params.projectId as string;
      await s.service.deleteProject(user, projectId);
      for (const key of s.files.keys()) {
        if (key.startsWith(`projects/${projectId}/`)) (s.files.objects as Map<string, unknown>).delete(key);
      }
      return { data: null };
    },
    listProjectTasks: async ({ s, user, input }) => ({
      data: await s.service.listProjectTasks(
        user,
        input.params.projectId as string,
        input.query as { page: number; pageSize: number },
      ),
    }),
    getProjectStyle: async ({ s, user, input }) => ({
      data: await s.service.getStyle(user, input.params.projectId as string),
    }),
    replaceProjectStyle: async ({ s, user, input, body }) => ({
      data: await s.service.putStyle(user, input.params.projectId as string, body),
    }),
    generate: async ({ s, user, body, input }) => {
      const key = input.headers['idempotency-key'];
      const result = await s.service.submitTask(
        user,
        body,
        typeof key === 'string' ? { idempotencyKey: key } : {},
      );
      if (result.created) s.runtime.kick();
      return { data: { taskId: result.taskId } };
    },
    getTask: async ({ s, user, input }) => ({
      data: await s.service.getTask(user, input.params.taskId as string),
    }),
    optimizePrompt: async ({ body, headers }) => {
      const result = await optimizePrompt(
        {
          tags: body.tags,
          assetType: body.assetType,
          ...(typeof body.prompt === 'string' ? { prompt: body.prompt } : {}),
          ...(typeof body.userNote === 'string' ? { userNote: body.userNote } : {}),
        },
        { llm: null },
      );
      headers.set('X-Prompt-Source', result.source);
      return { data: { prompt: result.prompt, rawText: result.rawText } };
    },
    getTaskAssets: async ({ s, user, input }) => {
      const records = await s.service.getTaskAssets(user, input.params.taskId as string);
      const assets = await Promise.all(
        records.map(async (a) => ({
          key: a.key,
          url: await signedUrl(s, a.key),
          format: a.format,
          width: a.width,
          height: a.height,
          metadata: a.metadata,
        })),
      );
      return { data: { assets } };
    },
    streamTaskProgress: async ({ s, user, input }) => {
      await s.service.getTask(user, input.params.taskId as string);
      throw errors.badRequest({ reason: 'this endpoint is a WebSocket: send an Upgrade request' });
    },
  };

  function tokenCookie(token: string, maxAge: number): string {
    return `assetloom_token=${token}; Path=/; Max-Age=${Math.max(0, Math.floor(maxAge))}; HttpOnly; SameSite=Lax`;
  }

  async function serveDownload(s: State, request: Request, url: URL, headers: Headers, head: boolean) {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      headers.set('Allow', 'GET, HEAD');
      throw errors.methodNotAllowed();
    }
    const keys = url.searchParams.getAll('key');
    const key = keys[0];
    if (keys.length !== 1 || !isValidObjectKey(key)) {
      throw errors.badRequest({
        key: keys.length > 1 ? 'repeated' : keys.length === 0 ? 'missing' : 'invalid',
      });
    }
    if (s.files.get(key) === undefined) throw errors.assetNotFound();
    const location = await signedUrl(s, key);
    headers.set('Location', location);
    headers.set('Cache-Control', 'no-store');
    return envelope(302, ok({ url: location }), headers, head);
  }

  async function serveFile(s: State, request: Request, url: URL, headers: Headers, head: boolean) {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      headers.set('Allow', 'GET, HEAD');
      throw errors.methodNotAllowed();
    }
    let key: string;
    try {
      key = decodeURIComponent(url.pathname.slice('/files/'.length));
    } catch {
      throw errors.assetNotFound();
    }
    if (!isValidObjectKey(key)) throw errors.assetNotFound();
    const nowSeconds = Math.floor(s.clock.now().getTime() / 1000);
    const e = url.searchParams.get('e');
    if (!(await s.signer.verify(key, e, url.searchParams.get('token'), nowSeconds))) throw errors.forbidden();
    const file = s.files.get(key);
    if (file === undefined) throw errors.assetNotFound();
    headers.set('Cache-Control', `private, max-age=${Math.max(0, Number(e) - nowSeconds)}`);
    headers.set('Content-Security-Policy', "default-src 'none'; sandbox");
    headers.set('Content-Disposition', `inline; filename="${key.slice(key.lastIndexOf('/') + 1)}"`);
    headers.set('Content-Type', file.contentType);
    headers.set('Content-Length', String(file.bytes.byteLength));
    return new Response(head ? null : file.bytes.slice(), { status: 200, headers });
  }

  async function serveAsset(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const requestId = requestIdOf(request);
    const headers = baseHeaders(requestId);
    const head = request.method === 'HEAD';
    const method = request.method.toUpperCase();
    try {
      const s = await state();
      const found = matchRoute(routes, method, url.pathname);
      const operationId = found !== null && 'match' in found ? found.match.route.operationId : undefined;
      const failure = takeFailure(method, url.pathname, operationId);
      if (failure !== undefined) {
        if (failure.status === 'network') return Response.error();
        throw failure.status === 429 ? errors.tooManyRequests(failure.retryAfter ?? 1) : errors.internal();
      }
      if (url.pathname === '/api/v1/assets/download')
        return await serveDownload(s, request, url, headers, head);
      if (url.pathname.startsWith('/files/')) return await serveFile(s, request, url, headers, head);
      if (url.pathname === '/docs/asset-api.json') {
        if (method !== 'GET' && method !== 'HEAD') {
          headers.set('Allow', 'GET, HEAD');
          throw errors.methodNotAllowed();
        }
        headers.set('Cache-Control', 'no-cache');
        return envelope(200, assetApiDocument, headers, head);
      }
      if (found === null) throw errors.routeNotFound();
      if ('allow' in found) {
        headers.set('Allow', found.allow.join(', '));
        if (method === 'OPTIONS') return envelope(200, ok(null), headers, head);
        throw errors.methodNotAllowed();
      }
      const { route, params } = found.match;
      const handler = handlers[route.operationId];
      if (handler === undefined) throw errors.routeNotFound();
      let user: AuthUser | undefined;
      if (route.authenticated) {
        user = await s.service.authenticate(bearerToken(request.headers.get('authorization')));
      }
      for (const name of route.pathParams) {
        const notFound =
          name === 'projectId' ? errors.projectNotFound : name === 'taskId' ? errors.taskNotFound : undefined;
        if (notFound !== undefined && !ID_PATTERN.test(params[name] ?? '')) throw notFound();
      }
      let body: unknown;
      if (route.hasBody) {
        const read = await readJsonBody(request, bodyLimit);
        if (!read.ok) {
          if (read.error === 'too-large') throw errors.payloadTooLarge();
          if (read.error === 'unsupported-media-type') throw errors.unsupportedMediaType();
          throw errors.badRequest({ body: 'malformed JSON' });
        }
        body = read.value;
      }
      const query: Record<string, string | string[]> = {};
      for (const name of new Set(url.searchParams.keys())) {
        const all = url.searchParams.getAll(name);
        query[name] = all.length === 1 ? (all[0] as string) : all;
      }
      const input = validatorInstance().validate(route.operationId, {
        params: { ...params },
        query,
        headers: request.headers,
        body,
      }) as Parameters<Handler>[0]['input'];
      const result = await handler({ s, input, body: input.body, user: user as AuthUser, headers });
      headers.set('Cache-Control', 'no-store');
      return envelope(result.status ?? 200, ok(result.data), headers, head);
    } catch (err) {
      const failure = toAssetloomError(err);
      if (failure.code === 500 && !(err instanceof AssetloomError && err.cause === undefined)) {
        onError(failure.cause ?? err, `${method} ${url.pathname}`);
      }
      if (failure.retryAfter !== undefined) headers.set('Retry-After', String(failure.retryAfter));
      headers.delete('Location');
      return envelope(failure.code, fail(failure), headers, head);
    }
  }

  async function serve(request: Request, cookies: Record<string, string>): Promise<Response> {
    await applyLatency();
    const url = new URL(request.url);
    if (REVIEW_PATHS.has(url.pathname)) {
      const requestId = requestIdOf(request);
      try {
        const s = await state();
        const failure = takeFailure(request.method.toUpperCase(), url.pathname, undefined);
        if (failure?.status === 'network') return Response.error();
        if (failure !== undefined) {
          const headers = baseHeaders(requestId);
          if (failure.status === 429) headers.set('Retry-After', String(failure.retryAfter ?? 1));
          headers.set('Content-Type', 'application/json; charset=utf-8');
          const message = failure.status === 429 ? '尝试次数过多，请稍后再试' : '服务器内部错误';
          return new Response(JSON.stringify({ error: message }), { status: failure.status, headers });
        }
        return await s.review.handle(request, cookies, requestId);
      } catch (error) {
        onError(error, `${request.method} ${url.pathname}`);
        return new Response(JSON.stringify({ error: '服务器内部错误' }), {
          status: 500,
          headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': requestId },
        });
      }
    }
    return serveAsset(request);
  }

  // --- the progress WebSocket (msw's ws API) ---
  const wsBase = baseUrl.replace(/^http/, 'ws');
  const link = ws.link(`${wsBase}/api/v1/tasks/:taskId/ws`);

  async function present(s: State, event: object): Promise<object> {
    const e = event as { result?: { assets?: unknown } };
    if (!e.result || !Array.isArray(e.result.assets)) return event;
    const assets = await Promise.all(
      (
        e.result.assets as Array<{
          key: string;
          format: string;
          width: number;
          height: number;
          metadata: object;
        }>
      ).map(async (a) => ({
        key: a.key,
        url: await signedUrl(s, a.key),
        format: a.format,
        width: a.width,
        height: a.height,
        metadata: a.metadata,
      })),
    );
    return { ...event, result: { assets } };
  }

  type Client = {
    url: URL;
    send(data: string): void;
    close(code?: number, reason?: string): void;
    addEventListener(type: 'close', listener: () => void): void;
  };

  async function stream(client: Client, taskIdParam: string, bearer: string | undefined) {
    const s = await state();
    const abort = new AbortController();
    s.streams.add(abort);
    client.addEventListener('close', () => abort.abort());
    let task: TaskRecord;
    let since = 0;
    try {
      // The server refuses these upgrades with the HTTP envelope; a WebSocket API cannot refuse
      // after the fact, so the mock closes with 4000 + the status (4401, 4403, 4404, 4400).
      const user = await s.service.authenticate(bearer ?? s.cookieToken);
      if (!ID_PATTERN.test(taskIdParam)) throw errors.taskNotFound();
      await s.service.getTask(user, taskIdParam);
      const sinceRaw = client.url.searchParams.getAll('since');
      if (sinceRaw.length > 1) throw errors.badRequest({ since: 'given more than once' });
      if (sinceRaw.length === 1) {
        if (!/^\d{1,15}$/.test(sinceRaw[0] as string))
          throw errors.badRequest({ since: 'must be an integer ≥ 0' });
        since = Number(sinceRaw[0]);
      }
      const record = await s.store.tasks.byId(taskIdParam);
      if (record === null) throw errors.taskNotFound();
      task = record;
    } catch (error) {
      const failure = toAssetloomError(error);
      s.streams.delete(abort);
      client.close(4000 + failure.code, failure.message);
      return;
    }
    try {
      const items = followTaskEvents(s.store, task.id, {
        since,
        pollMs: 250,
        wait: (ms, signal) => waitForEvent(task.id, signal, ms),
        now: () => s.clock.now(),
        signal: abort.signal,
      });
      for await (const item of items) {
        if (item.kind === 'deleted') {
          client.close(4404, 'task deleted');
          return;
        }
        if (item.kind === 'ended') {
          client.close(1000, 'task ended');
          return;
        }
        client.send(JSON.stringify(await present(s, item.event as object)));
        if (item.terminal) {
          await tick(); // msw delivers a sent message on a later microtask; close after it
          client.close(1000, 'task ended');
          return;
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) {
        onError(error, `progress stream of task ${task.id}`);
        client.close(1011, 'internal error');
      }
    } finally {
      s.streams.delete(abort);
    }
  }

  const wsHandler = link.addEventListener('connection', ({ client, params }) => {
    const key = client.url.href;
    const queue = pendingHeaders.get(key);
    const bearer = queue?.shift();
    if (queue !== undefined && queue.length === 0) pendingHeaders.delete(key);
    const taskId = String(params.taskId ?? '');
    void stream(client as unknown as Client, taskId, bearer === '' ? undefined : bearer).catch(
      (error: unknown) => {
        onError(error, 'progress stream');
        client.close(1011, 'internal error');
      },
    );
  });

  const httpHandlers: HttpHandler[] =
    scope === 'origin'
      ? [http.all(`${baseUrl}/*`, ({ request, cookies }) => serve(request, cookies))]
      : [
          ...['/api/*', '/auth/*', '/files/*', '/docs/asset-api.json', '/login', '/register'].map((p) =>
            http.all(`${baseUrl}${p}`, ({ request, cookies }) => serve(request, cookies)),
          ),
        ];

  // A WebSocket class for Node clients: msw's interceptor sees no headers, so the Authorization
  // header the SDK passes rides beside the connection (first in, first out per URL).
  const MockWebSocket = function MockWebSocket(
    url: string,
    protocols?: string | string[],
    init?: { headers?: Record<string, string> },
  ) {
    const Global = (globalThis as { WebSocket?: new (u: string | URL, p?: string | string[]) => WebSocket })
      .WebSocket;
    if (Global === undefined) {
      throw new TypeError(
        '[assetloom/mock] there is no global WebSocket for msw to intercept; on Node 20 call installWebSocketGlobal() before server.listen().',
      );
    }
    const href = new URL(String(url)).href;
    let auth: string | undefined;
    for (const [name, value] of Object.entries(init?.headers ?? {})) {
      if (name.toLowerCase() === 'authorization') auth = bearerToken(value);
    }
    const queue = pendingHeaders.get(href) ?? [];
    queue.push(auth ?? '');
    pendingHeaders.set(href, queue);
    return new Global(url, protocols);
  } as unknown as MockWebSocketConstructor;

  async function settle(s: State) {
    for (let i = 0; i < 10_000; i++) {
      await tick();
      if (!s.runtime.busy) {
        await tick();
        if (!s.runtime.busy) return;
      }
    }
  }

  async function taskEnded(s: State, taskId: string | undefined): Promise<boolean> {
    if (taskId === undefined) return s.runtime.active === 0;
    const task = await s.store.tasks.byId(taskId);
    return task === null || task.status === 'completed' || task.status === 'failed';
  }

  const controls: AssetMockControls = {
    ready,
    now: () => current?.clock.now() ?? new Date(),
    async advance(ms) {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        throw new RangeError(`[assetloom/mock] advance(ms) needs a number ≥ 0; got ${String(ms)}.`);
      }
      const s = await state();
      if (s.clock.mode === 'real') {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return;
      }
      const target = s.clock.now().getTime() + ms;
      await settle(s);
      for (;;) {
        const due = s.clock.nextDue();
        if (due === undefined || due > target) break;
        s.clock.moveTo(due);
        await settle(s);
      }
      s.clock.moveTo(target);
      await settle(s);
    },
    async runToCompletion(taskId) {
      const s = await state();
      await settle(s);
      for (let round = 0; round < 100_000; round++) {
        if (await taskEnded(s, taskId)) return;
        if (s.clock.mode === 'manual') {
          const due = s.clock.nextDue();
          if (due === undefined) {
            await settle(s);
            if (s.clock.nextDue() === undefined && !(await taskEnded(s, taskId)) && s.runtime.active === 0) {
              throw new Error(
                `[assetloom/mock] runToCompletion: ${taskId === undefined ? 'no task' : `task ${taskId}`} is running; was it submitted to this mock?`,
              );
            }
            continue;
          }
          s.clock.moveTo(due);
          await settle(s);
        } else {
          await new Promise((resolve) => setTimeout(resolve, Math.max(5, Math.min(stepMs, 50))));
        }
      }
    },
    failNext(rule) {
      if (rule === null || typeof rule !== 'object' || ![429, 500, 'network'].includes(rule.status)) {
        throw new TypeError(
          "[assetloom/mock] failNext needs { status: 429 | 500 | 'network' } and optionally operationId, path, method, times.",
        );
      }
      if (rule.operationId !== undefined && !routes.some((r) => r.operationId === rule.operationId)) {
        throw new TypeError(
          `[assetloom/mock] failNext: unknown operationId ${JSON.stringify(rule.operationId)} (see asset-api.yaml).`,
        );
      }
      failures.push({ ...rule, left: Math.max(1, Math.floor(rule.times ?? 1)) });
    },
    rejectQualityNext(n = 1) {
      if (current !== undefined) current.runtime.rejectQualityNext(n);
      else void state().then((s) => s.runtime.rejectQualityNext(n));
    },
    failGenerationNext(n = 1, message = '[assetloom/mock] injected image provider failure') {
      if (current !== undefined) current.runtime.failGenerationNext(n, message);
      else void state().then((s) => s.runtime.failGenerationNext(n, message));
    },
    setLatency(next) {
      latency = checkLatency(next);
    },
    async reset() {
      const old = await state();
      for (const a of old.streams) a.abort();
      await old.runtime.stop();
      failures.length = 0;
      pendingHeaders.clear();
      statePromise = buildState().then((s) => {
        current = s;
        return s;
      });
      await statePromise;
      await old.store.close().catch(() => undefined);
      await old.review.store.close().catch(() => undefined);
    },
    async close() {
      const s = await state();
      for (const a of s.streams) a.abort();
      await s.runtime.stop();
    },
    get store() {
      return requireState().store;
    },
    get files() {
      return requireState().files;
    },
    get reviewSessions() {
      return requireState().review.sessions;
    },
    get seeded() {
      return requireState().seeded;
    },
    WebSocket: MockWebSocket,
    baseUrl,
  };

  function requireState(): State {
    if (current === undefined) {
      throw new Error('[assetloom/mock] the mock is still starting; await controls.ready first.');
    }
    return current;
  }

  return { handlers: [...httpHandlers, wsHandler], controls };
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
