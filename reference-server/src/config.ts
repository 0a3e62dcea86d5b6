import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError, type ConfigIssue, type NodeEnv } from './config-error.js';
import { type CorsSettings, parseCorsOrigins } from './cors.js';
import { type ImageProviderSettings, readImageProviderSettings } from './image-provider.js';
import {
  type BoolSettingName,
  boolSetting,
  type IntSettingName,
  intSetting,
  type TextSettingName,
  textSetting,
} from './settings.js';
import { loadStorageConfig, type StorageConfig } from './storage/config.js';

export { ConfigError, type ConfigIssue, type NodeEnv };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Webhook delivery settings. */
export interface WebhookSettings {
  /**
   * Let webhooks target loopback, private, link-local and other non-public addresses
   * (WEBHOOK_ALLOW_PRIVATE_TARGETS, default false; refused with NODE_ENV=production). Development and tests only.
   */
  allowPrivateTargets: boolean;
  /**
   * An egress allowlist of webhook hosts (WEBHOOK_ALLOWED_HOSTS, comma-separated host names or IP
   * literals, `*.example.com` for subdomains; default empty: any host the address rules allow).
   */
  allowedHosts: string[];
  /** One delivery attempt's deadline (WEBHOOK_TIMEOUT_MS, default 10000). */
  timeoutMs: number;
  /** Attempts before a delivery is given up (WEBHOOK_MAX_ATTEMPTS, default 10). */
  maxAttempts: number;
  /** The first retry's delay, doubled on each next one, with jitter (WEBHOOK_RETRY_BASE_MS, default 10000). */
  retryBaseMs: number;
  /** How often an idle worker looks for due deliveries (WEBHOOK_POLL_MS, default 1000). */
  pollMs: number;
  /** Test pings per user and minute (WEBHOOK_PINGS_PER_MINUTE, default 10). */
  pingsPerMinute: number;
  /** Days settled deliveries stay in the delivery log (WEBHOOK_LOG_RETENTION_DAYS, default 30; 0 keeps them). */
  logRetentionDays: number;
}

/**
 * The validated server configuration (from the environment, see {@link loadConfig}), grouped by
 * concern: each group is read once and handed down whole to what it configures (decision 0041).
 * The variables, their defaults and bounds are defined in settings.ts; docs/deployment.md lists them.
 */
export interface ServerConfig {
  nodeEnv: NodeEnv;
  /** The HTTP listener and what requests may assume (HOST, PORT, BODY_LIMIT_BYTES, TRUST_PROXY, PUBLIC_BASE_URL, SHUTDOWN_GRACE_MS, CORS_*). */
  http: HttpSettings;
  /** LOG_LEVEL, LOG_FLUSH_MS. */
  logging: LoggingSettings;
  /** The database: embedded (DATA_DIR) or MongoDB (MONGODB_URI, MONGODB_DB), and USER_CACHE_MS. */
  store: StoreSettings;
  /** Tokens, password hashing and the login and registration limits (JWT_*, TOKEN_TTL_SECONDS, SCRYPT_COST, LOGIN_*, REGISTER_*, PASSWORD_HASH_*). */
  auth: AuthSettings;
  /** Per-user budgets (decision 0032; 0 turns one off) and the submission rate limit (TASK_MAX_PIXELS, USER_MAX_*, GENERATE_*). */
  limits: LimitSettings;
  /** Uploaded pictures (decision 0034): UPLOAD_MAX_BYTES, UPLOAD_MAX_SIDE, UPLOAD_MAX_PIXELS, USER_MAX_UPLOAD_BYTES (0 for no per-user limit), UPLOAD_TTL_SECONDS, UPLOAD_SWEEP_SECONDS. */
  uploads: UploadSettings;
  /** Object storage (STORAGE_DRIVER fs | s3, SIGNED_URL_TTL_SECONDS and the driver's variables; see storage/config.ts). */
  storage: StorageConfig;
  /** The task queue and its workers (WORKER_*, PIPELINE_THREADS, TASK_*, EVENT_BATCH_MS, EVENT_POLL_MS). */
  queue: QueueSettings;
  /** What draws a task: quality retries, the prompt optimizer (LLM_*), the image generator (IMAGE_PROVIDER …). */
  generation: GenerationSettings;
  /** Webhook delivery (WEBHOOK_* variables). */
  webhooks: WebhookSettings;
  /** Prometheus metrics (METRICS_ENABLED, METRICS_TOKEN, METRICS_PORT); off by default. */
  metrics: MetricsSettings;
}

export interface HttpSettings {
  /** TCP port; 0 picks a free port (tests). */
  port: number;
  host: string;
  bodyLimitBytes: number;
  /** Trust `X-Forwarded-For` for the client IP (only behind a proxy you control). */
  trustProxy: boolean;
  /**
   * The origin of PUBLIC_BASE_URL (`https://assets.example.com`), or null. Signed URLs of the
   * filesystem driver use it, and the WebSocket accepts the token cookie from pages of it.
   */
  publicOrigin: string | null;
  /**
   * Whether signed and asset URLs may take their origin from the request (Host, or X-Forwarded-Host
   * behind a trusted proxy) when PUBLIC_BASE_URL is unset: outside production only. In production
   * they use PUBLIC_BASE_URL or are root-relative — never a request header (issue #29).
   */
  urlsFromRequest: boolean;
  /** Whether the login cookie carries `Secure` (everywhere but development). */
  secureCookies: boolean;
  /** Milliseconds to wait for in-flight requests on shutdown before closing connections. */
  shutdownGraceMs: number;
  /** Cross-origin access from pages of other origins (CORS_ORIGINS, CORS_CREDENTIALS, CORS_MAX_AGE_SECONDS); off by default. */
  cors: CorsSettings;
  /** The MCP server at /mcp (MCP_ENABLED, MCP_ALLOWED_FOLDERS); off by default. */
  mcp: McpSettings;
}

export interface McpSettings {
  enabled: boolean;
  /** Absolute folders the MCP tools may write into and read pictures from; empty: none. */
  allowedFolders: string[];
}

export interface LoggingSettings {
  level: LogLevel;
  /**
   * How often buffered log lines are written out (LOG_FLUSH_MS, default 100). Lines are gathered
   * in memory and written 4 KB at a time or every this many milliseconds, whichever comes first,
   * and on exit; 0 writes every line at once (synchronously).
   */
  flushMs: number;
}

export interface StoreSettings {
  /** Folder of the embedded store (absolute). Used when `mongodbUri` is null. */
  dataDir: string;
  mongodbUri: string | null;
  mongodbDb: string;
  /** How long a request may trust a user record read before (USER_CACHE_MS, default 1000; 0: always read). */
  userCacheMs: number;
}

export interface AuthSettings {
  /** HS256 secret (≥ 32 bytes). */
  jwtSecret: string;
  /**
   * Secrets tokens signed before a key rotation are still accepted with (JWT_SECRET_PREVIOUS,
   * comma-separated, each ≥ 32 bytes); new tokens are always signed with `jwtSecret`.
   */
  jwtPreviousSecrets: string[];
  /** True when no JWT_SECRET was given and one was generated (development only). */
  jwtSecretGenerated: boolean;
  tokenTtlSeconds: number;
  /** log2 of the scrypt cost N. 17 (OWASP) by default; lower values only outside production. */
  scryptLogN: number;
  /** Failed logins per username + IP allowed within `loginWindowSeconds`. */
  loginMaxFailures: number;
  loginWindowSeconds: number;
  /** Failed logins per client IP across usernames (both apps) within `loginWindowSeconds` (LOGIN_IP_MAX_FAILURES). */
  loginIpMaxFailures: number;
  /** Registrations per client IP (both apps) within `registerWindowSeconds` (REGISTER_IP_MAX). */
  registerIpMax: number;
  registerWindowSeconds: number;
  /** Password hashes (scrypt) running at once in this process (PASSWORD_HASH_CONCURRENCY). */
  passwordHashConcurrency: number;
  /** Password hashes waiting at most, per lane (PASSWORD_HASH_QUEUE); beyond → 503 + Retry-After. */
  passwordHashQueue: number;
  /** A waiting hash is refused with 503 after this many ms (PASSWORD_HASH_MAX_WAIT_MS). */
  passwordHashMaxWaitMs: number;
  /** Hashes one client IP may have waiting (PASSWORD_HASH_PER_CLIENT); more that would wait → 429. */
  passwordHashPerClient: number;
}

export interface LimitSettings {
  /** TASK_MAX_PIXELS: width × height × frames one task may draw (413). */
  taskMaxPixels: number;
  /** USER_MAX_PIXELS_IN_FLIGHT: pixels of one user's running and saving tasks together (429). */
  userMaxPixelsInFlight: number;
  /** USER_MAX_PROJECTS: projects one user may have (429). */
  userMaxProjects: number;
  /** USER_MAX_STORAGE_BYTES: object storage one user's completed tasks may take (413). */
  userMaxStorageBytes: number;
  /** Task submissions per user allowed within `generateWindowSeconds`. */
  generateMaxRequests: number;
  generateWindowSeconds: number;
}

export interface UploadSettings {
  maxBytes: number;
  maxSide: number;
  maxPixels: number;
  userMaxBytes: number;
  ttlSeconds: number;
  /** UPLOAD_JPEG_MAX_SCANS: scans a JPEG may have (413 before decoding). */
  maxJpegScans: number;
  /** UPLOAD_MAX_EXPANSION: the stored PNG at most this many times the upload's bytes (413); 0 off. */
  maxExpansion: number;
  /** UPLOAD_USER_IN_FLIGHT: uploads of one user processed at once, across processes (429). */
  userInFlight: number;
  /**
   * Pictures decoded at once in this process: UPLOAD_DECODE_CONCURRENCY capped so that libuv's pool
   * (UV_THREADPOOL_SIZE) keeps PASSWORD_HASH_CONCURRENCY + 2 threads for the rest.
   */
  decodeConcurrency: number;
  /** UPLOAD_DECODE_MAX_PIXELS: pixels of the pictures decoded at once in this process. */
  decodeMaxPixels: number;
  /** UPLOAD_DECODE_TIMEOUT_SECONDS: each libvips operation of a decode. */
  decodeTimeoutSeconds: number;
  /**
   * UPLOAD_DECODER: `sharp` (every format; the optional peer must be installed), `png` (PNG only, pure
   * TypeScript) or `auto` (sharp when installed, else png with a start-up warning) — issue #41.
   */
  decoder: UploadDecoderChoice;
  /** How often idle uploads past their lifetime are swept (UPLOAD_SWEEP_SECONDS; 0: never). */
  sweepSeconds: number;
}

/** The queue and its workers; a generation worker takes these fields as they are (workerFor). */
export interface QueueSettings {
  /** Run generation workers inside the API process (WORKER_IN_PROCESS, default true). */
  inProcess: boolean;
  /** Tasks one worker process runs at once (WORKER_CONCURRENCY, default 2). */
  concurrency: number;
  /**
   * Worker threads that draw a worker process's tasks (PIPELINE_THREADS, default `auto`: one per
   * core, at least 1 and at most WORKER_CONCURRENCY; 0 draws on the event loop).
   */
  pipelineThreads: number;
  /**
   * A pipeline thread beyond the first that has run nothing for this long is ended
   * (PIPELINE_THREAD_IDLE_MS, default 30000; 0 never; decision 0077).
   */
  pipelineThreadIdleMs: number;
  /** How long a task claim lasts without renewal (TASK_LEASE_MS, default 30000); renewed every third of it. */
  leaseMs: number;
  /** How often an idle worker looks for claimable tasks (WORKER_POLL_MS, default 500). */
  pollMs: number;
  /** Attempts before a task whose workers keep dying is failed (TASK_MAX_ATTEMPTS, default 3). */
  maxAttempts: number;
  /**
   * While tasks run, how often a worker checks that they still exist (TASK_CANCEL_CHECK_MS, default
   * 1000; 0 off): a project deleted through another process stops its runs within this time.
   */
  cancelCheckMs: number;
  /** A worker writes a task's progress events arriving within this many ms together (EVENT_BATCH_MS, default 25; 0: each at once). */
  eventBatchMs: number;
  /** How often a WebSocket stream reads new events from the store (EVENT_POLL_MS, default 200). */
  eventPollMs: number;
  /** Tasks one user may have running at once across the workers (USER_MAX_RUNNING_TASKS, default 1; 0: no cap). */
  userMaxRunning: number;
  /** Seconds of drawing an attempt may use (TASK_ATTEMPT_CPU_SECONDS, default 120; 0: no limit). */
  attemptCpuSeconds: number;
  /** Seconds a built-in attempt may take end to end (TASK_ATTEMPT_WALL_SECONDS, default 600; 0: no limit). */
  attemptWallSeconds: number;
}

export interface GenerationSettings {
  /** Quality retries per attempt (MAX_QUALITY_RETRIES, default 2). */
  maxQualityRetries: number;
  /** The OpenAI-compatible chat-completions endpoint for prompt optimization; null → template. */
  llm: LlmSettings | null;
  /** The image generator (IMAGE_PROVIDER procedural | openai | comfyui | a1111; see image-provider.ts). */
  imageProvider: ImageProviderSettings;
}

/** Where and how the Prometheus exposition is served. */
export interface MetricsSettings {
  /** Serve GET /metrics (METRICS_ENABLED, default false). */
  enabled: boolean;
  /** Bearer token a scrape must send (METRICS_TOKEN); required in production when enabled. */
  token: string | null;
  /** The worker process's metrics listener port on HOST (METRICS_PORT, default 9464; 0 picks one). */
  workerPort: number;
}

/** Bytes a METRICS_TOKEN must have at least. */
export const MIN_METRICS_TOKEN_BYTES = 16;

/** LLM settings from LLM_BASE_URL, LLM_API_KEY, LLM_MODEL and LLM_TIMEOUT_MS. */
export interface LlmSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export type ConfigResult =
  | { ok: true; value: ServerConfig; warnings: string[] }
  | { ok: false; error: ConfigError };

/** The OWASP scrypt cost (N = 2^17, r = 8, p = 1). */
export const OWASP_SCRYPT_LOG_N = 17;
export const MIN_JWT_SECRET_BYTES = 32;

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

class Reader {
  readonly issues: ConfigIssue[] = [];
  constructor(private readonly env: Env) {}

  raw(name: string): string | undefined {
    const value = this.env[name];
    if (value === undefined) return undefined;
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }

  /** An integer setting, its default and bounds from the definitions (settings.ts). */
  int(name: IntSettingName): number {
    const { fallback, min, max } = intSetting(name);
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) {
      this.issues.push({
        variable: name,
        message: `must be an integer from ${min} to ${max} (got "${value}")`,
      });
      return fallback;
    }
    const parsed = Number(value);
    if (parsed < min || parsed > max) {
      this.issues.push({
        variable: name,
        message: `must be an integer from ${min} to ${max} (got ${value})`,
      });
      return fallback;
    }
    return parsed;
  }

  /** A string setting, its default from the definitions (settings.ts) when unset or blank. */
  text(name: TextSettingName): string {
    return this.raw(name) ?? textSetting(name);
  }

  /** A boolean setting, its default from the definitions (settings.ts). */
  bool(name: BoolSettingName): boolean {
    const fallback = boolSetting(name);
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    this.issues.push({ variable: name, message: `must be true or false (got "${value}")` });
    return fallback;
  }
}

/**
 * Reads and validates the server configuration from environment variables. Never throws: every
 * problem is collected into one {@link ConfigError} so the operator sees them all at once.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): ConfigResult {
  const read = new Reader(env);
  const warnings: string[] = [];

  const nodeEnvRaw = read.text('NODE_ENV');
  let nodeEnv: NodeEnv = 'development';
  if (nodeEnvRaw === 'development' || nodeEnvRaw === 'test' || nodeEnvRaw === 'production') {
    nodeEnv = nodeEnvRaw;
  } else {
    read.issues.push({
      variable: 'NODE_ENV',
      message: `must be development, test or production (got "${nodeEnvRaw}")`,
    });
  }
  const production = nodeEnv !== 'development';

  const port = read.int('PORT');
  const host = read.text('HOST');
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(host)) {
    read.issues.push({ variable: 'HOST', message: `is not a host name or IP address (got "${host}")` });
  }

  const dataDir = resolve(cwd, read.text('DATA_DIR'));

  const mongodbUri = read.raw('MONGODB_URI') ?? null;
  if (mongodbUri !== null && !/^mongodb(\+srv)?:\/\/.+/.test(mongodbUri)) {
    read.issues.push({ variable: 'MONGODB_URI', message: 'must start with mongodb:// or mongodb+srv://' });
  }
  const mongodbDb = read.text('MONGODB_DB');
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(mongodbDb)) {
    read.issues.push({
      variable: 'MONGODB_DB',
      message: 'must be 1-63 letters, digits, "_" or "-"',
    });
  }

  let jwtSecret = read.raw('JWT_SECRET');
  let jwtSecretGenerated = false;
  if (jwtSecret === undefined) {
    if (production) {
      read.issues.push({
        variable: 'JWT_SECRET',
        message: `is required when NODE_ENV=${nodeEnv}; set at least ${MIN_JWT_SECRET_BYTES} random bytes, e.g. \`openssl rand -base64 48\``,
      });
    } else {
      jwtSecret = randomBytes(48).toString('base64url');
      jwtSecretGenerated = true;
      warnings.push(
        'JWT_SECRET is not set: using a random secret for this process (development only); tokens will not survive a restart',
      );
    }
  } else if (Buffer.byteLength(jwtSecret, 'utf8') < MIN_JWT_SECRET_BYTES) {
    read.issues.push({
      variable: 'JWT_SECRET',
      message: `must be at least ${MIN_JWT_SECRET_BYTES} bytes long (got ${Buffer.byteLength(jwtSecret, 'utf8')})`,
    });
  }

  const jwtPreviousSecrets = (read.raw('JWT_SECRET_PREVIOUS') ?? '')
    .split(',')
    .map((secret) => secret.trim())
    .filter((secret) => secret !== '');
  for (const [index, secret] of jwtPreviousSecrets.entries()) {
    if (Buffer.byteLength(secret, 'utf8') < MIN_JWT_SECRET_BYTES) {
      read.issues.push({
        variable: 'JWT_SECRET_PREVIOUS',
        message: `secret ${index + 1} must be at least ${MIN_JWT_SECRET_BYTES} bytes long (got ${Buffer.byteLength(secret, 'utf8')})`,
      });
    } else if (secret === jwtSecret) {
      read.issues.push({
        variable: 'JWT_SECRET_PREVIOUS',
        message: `secret ${index + 1} equals JWT_SECRET; list only the secrets being retired`,
      });
    }
  }

  const metricsEnabled = read.bool('METRICS_ENABLED');
  const metricsToken = read.raw('METRICS_TOKEN') ?? null;
  const metricsPort = read.int('METRICS_PORT');
  if (metricsToken !== null && Buffer.byteLength(metricsToken, 'utf8') < MIN_METRICS_TOKEN_BYTES) {
    read.issues.push({
      variable: 'METRICS_TOKEN',
      message: `must be at least ${MIN_METRICS_TOKEN_BYTES} bytes long; e.g. \`openssl rand -hex 24\``,
    });
  } else if (metricsEnabled && metricsToken === null && nodeEnv === 'production') {
    read.issues.push({
      variable: 'METRICS_TOKEN',
      message:
        'is required when METRICS_ENABLED=true and NODE_ENV=production (scrapes send Authorization: Bearer <token>)',
    });
  }

  const tokenTtlSeconds = read.int('TOKEN_TTL_SECONDS');
  const bodyLimitBytes = read.int('BODY_LIMIT_BYTES');

  const logLevelRaw = (read.raw('LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info')).toLowerCase();
  let logLevel: LogLevel = 'info';
  if ((LOG_LEVELS as readonly string[]).includes(logLevelRaw)) {
    logLevel = logLevelRaw as LogLevel;
  } else {
    read.issues.push({ variable: 'LOG_LEVEL', message: `must be one of ${LOG_LEVELS.join(', ')}` });
  }

  const maxQualityRetries = read.int('MAX_QUALITY_RETRIES');
  const signedUrlTtlSeconds = read.int('SIGNED_URL_TTL_SECONDS');

  const scryptLogN = read.int('SCRYPT_COST');
  if (nodeEnv === 'production' && scryptLogN < OWASP_SCRYPT_LOG_N) {
    read.issues.push({
      variable: 'SCRYPT_COST',
      message: `must be at least ${OWASP_SCRYPT_LOG_N} (OWASP) in production; lower costs are for tests only`,
    });
  } else if (scryptLogN < OWASP_SCRYPT_LOG_N) {
    warnings.push(
      `SCRYPT_COST=${scryptLogN} is below the OWASP cost ${OWASP_SCRYPT_LOG_N}: use it for tests only`,
    );
  }

  const loginMaxFailures = read.int('LOGIN_MAX_FAILURES');
  const loginWindowSeconds = read.int('LOGIN_WINDOW_SECONDS');
  const loginIpMaxFailures = read.int('LOGIN_IP_MAX_FAILURES');
  const registerIpMax = read.int('REGISTER_IP_MAX');
  const registerWindowSeconds = read.int('REGISTER_WINDOW_SECONDS');
  const passwordHashConcurrency = read.int('PASSWORD_HASH_CONCURRENCY');
  const passwordHashQueue = read.int('PASSWORD_HASH_QUEUE');
  const passwordHashMaxWaitMs = read.int('PASSWORD_HASH_MAX_WAIT_MS');
  const passwordHashPerClient = read.int('PASSWORD_HASH_PER_CLIENT');
  // libuv's pool: logins (scrypt) and I/O keep PASSWORD_HASH_CONCURRENCY + 2 of its threads (decision 0043).
  const threadPoolSize = read.int('UV_THREADPOOL_SIZE');
  const decodeConcurrencyWanted = read.int('UPLOAD_DECODE_CONCURRENCY');
  const poolCap = threadPoolSize - passwordHashConcurrency - 2;
  // and a core is left to the rest (logins hash on a core of their own while pictures decode)
  const decodeConcurrency = Math.max(
    1,
    Math.min(decodeConcurrencyWanted, poolCap, availableParallelism() - 1),
  );
  if (decodeConcurrencyWanted > Math.max(1, poolCap)) {
    warnings.push(
      `UPLOAD_DECODE_CONCURRENCY=${decodeConcurrencyWanted} lowered to ${decodeConcurrency}: libuv's pool has ${threadPoolSize} threads (UV_THREADPOOL_SIZE) and logins and I/O keep ${passwordHashConcurrency + 2}; start with the assetloom-server bin (it sets 8) or raise UV_THREADPOOL_SIZE`,
    );
  }
  const uploads = {
    maxBytes: read.int('UPLOAD_MAX_BYTES'),
    maxSide: read.int('UPLOAD_MAX_SIDE'),
    maxPixels: read.int('UPLOAD_MAX_PIXELS'),
    userMaxBytes: read.int('USER_MAX_UPLOAD_BYTES'),
    ttlSeconds: read.int('UPLOAD_TTL_SECONDS'),
    maxJpegScans: read.int('UPLOAD_JPEG_MAX_SCANS'),
    maxExpansion: read.int('UPLOAD_MAX_EXPANSION'),
    userInFlight: read.int('UPLOAD_USER_IN_FLIGHT'),
    decodeConcurrency,
    decodeMaxPixels: read.int('UPLOAD_DECODE_MAX_PIXELS'),
    decodeTimeoutSeconds: read.int('UPLOAD_DECODE_TIMEOUT_SECONDS'),
    decoder: uploadDecoderOf(read.raw('UPLOAD_DECODER'), read.issues),
  };
  const uploadSweepSeconds = read.int('UPLOAD_SWEEP_SECONDS');
  const budgets = {
    // 512 px × 512 px × 8 directions × 16 frames (~320 MB at its peak); 1024 px 8 × 16 (~710 MB) is refused.
    taskMaxPixels: read.int('TASK_MAX_PIXELS'),
    userMaxPixelsInFlight: read.int('USER_MAX_PIXELS_IN_FLIGHT'),
    userMaxProjects: read.int('USER_MAX_PROJECTS'),
    userMaxStorageBytes: read.int('USER_MAX_STORAGE_BYTES'),
  };
  const generateMaxRequests = read.int('GENERATE_MAX_REQUESTS');
  const generateWindowSeconds = read.int('GENERATE_WINDOW_SECONDS');
  const trustProxy = read.bool('TRUST_PROXY');
  const shutdownGraceMs = read.int('SHUTDOWN_GRACE_MS');
  const corsCredentials = read.bool('CORS_CREDENTIALS');
  const corsOrigins = parseCorsOrigins(read.raw('CORS_ORIGINS'), corsCredentials);
  for (const message of corsOrigins.issues) read.issues.push({ variable: 'CORS_ORIGINS', message });
  const cors: CorsSettings = {
    origins: corsOrigins.origins,
    credentials: corsCredentials,
    maxAgeSeconds: read.int('CORS_MAX_AGE_SECONDS'),
  };
  const mcp: McpSettings = {
    enabled: read.bool('MCP_ENABLED'),
    allowedFolders: (read.raw('MCP_ALLOWED_FOLDERS') ?? '')
      .split(',')
      .map((folder) => folder.trim())
      .filter((folder) => folder !== ''),
  };
  for (const folder of mcp.allowedFolders) {
    if (!isAbsolute(folder)) {
      read.issues.push({
        variable: 'MCP_ALLOWED_FOLDERS',
        message: `must list absolute folders (got "${folder}")`,
      });
    }
  }

  const workerInProcess = read.bool('WORKER_IN_PROCESS');
  const workerConcurrency = read.int('WORKER_CONCURRENCY');
  const pipelineThreadsRaw = read.raw('PIPELINE_THREADS');
  // One pipeline thread per core, at most one per concurrent task (decision 0026: the event loop's
  // work is short and I/O-bound; with a thread on every core reads stay within ~13 ms at p99).
  const autoThreads = Math.max(1, Math.min(workerConcurrency, availableParallelism()));
  let pipelineThreads = autoThreads;
  if (pipelineThreadsRaw !== undefined && pipelineThreadsRaw.toLowerCase() !== 'auto') {
    if (/^\d+$/.test(pipelineThreadsRaw) && Number(pipelineThreadsRaw) <= 64) {
      pipelineThreads = Number(pipelineThreadsRaw);
    } else {
      read.issues.push({
        variable: 'PIPELINE_THREADS',
        message: `must be auto or an integer from 0 (draw on the event loop) to 64 (got "${pipelineThreadsRaw}")`,
      });
    }
  }
  const pipelineThreadIdleMs = read.int('PIPELINE_THREAD_IDLE_MS');
  const taskLeaseMs = read.int('TASK_LEASE_MS');
  const workerPollMs = read.int('WORKER_POLL_MS');
  const taskMaxAttempts = read.int('TASK_MAX_ATTEMPTS');
  const userMaxRunning = read.int('USER_MAX_RUNNING_TASKS');
  const attemptCpuSeconds = read.int('TASK_ATTEMPT_CPU_SECONDS');
  const attemptWallSeconds = read.int('TASK_ATTEMPT_WALL_SECONDS');
  const taskCancelCheckMs = read.int('TASK_CANCEL_CHECK_MS');
  const eventBatchMs = read.int('EVENT_BATCH_MS');
  const userCacheMs = read.int('USER_CACHE_MS');
  const eventPollMs = read.int('EVENT_POLL_MS');
  const webhooks: WebhookSettings = {
    allowPrivateTargets: read.bool('WEBHOOK_ALLOW_PRIVATE_TARGETS'),
    allowedHosts: (read.raw('WEBHOOK_ALLOWED_HOSTS') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
    timeoutMs: read.int('WEBHOOK_TIMEOUT_MS'),
    maxAttempts: read.int('WEBHOOK_MAX_ATTEMPTS'),
    retryBaseMs: read.int('WEBHOOK_RETRY_BASE_MS'),
    pollMs: read.int('WEBHOOK_POLL_MS'),
    pingsPerMinute: read.int('WEBHOOK_PINGS_PER_MINUTE'),
    logRetentionDays: read.int('WEBHOOK_LOG_RETENTION_DAYS'),
  };
  if (webhooks.allowPrivateTargets && nodeEnv === 'production') {
    read.issues.push({
      variable: 'WEBHOOK_ALLOW_PRIVATE_TARGETS',
      message: 'must not be true when NODE_ENV=production (it lets webhooks reach internal addresses)',
    });
  }
  for (const entry of webhooks.allowedHosts) {
    if (!/^(\*\.)?[A-Za-z0-9.:[\]_-]+$/.test(entry) || entry.startsWith('*.*') || entry.length > 253) {
      read.issues.push({
        variable: 'WEBHOOK_ALLOWED_HOSTS',
        message: `must list host names or IP literals (optionally *.domain), separated by commas; ${JSON.stringify(entry)} is not one`,
      });
    }
  }
  const logFlushMs = read.int('LOG_FLUSH_MS');

  const llmKey = read.raw('LLM_API_KEY');
  const llmBaseUrl = read.text('LLM_BASE_URL');
  const llmModel = read.text('LLM_MODEL');
  const llmTimeoutMs = read.int('LLM_TIMEOUT_MS');
  if (!/^https?:\/\/[^\s]+$/.test(llmBaseUrl)) {
    read.issues.push({
      variable: 'LLM_BASE_URL',
      message: 'must be an http(s) URL such as https://api.openai.com/v1',
    });
  }
  const llm: LlmSettings | null =
    llmKey === undefined
      ? null
      : { baseUrl: llmBaseUrl.replace(/\/+$/, ''), apiKey: llmKey, model: llmModel, timeoutMs: llmTimeoutMs };

  const imageProviderRead = readImageProviderSettings(env, cwd);
  read.issues.push(...imageProviderRead.issues);

  let storage: StorageConfig | undefined;
  if (jwtSecret !== undefined) {
    const loadedStorage = loadStorageConfig(env, {
      nodeEnv,
      dataDir,
      jwtSecret,
      jwtPreviousSecrets,
      signedUrlTtlSeconds,
    });
    if (loadedStorage.ok) {
      storage = loadedStorage.value;
      warnings.push(...loadedStorage.warnings);
    } else {
      read.issues.push(...loadedStorage.error.issues);
    }
  }

  if (read.issues.length > 0 || jwtSecret === undefined || storage === undefined) {
    return { ok: false, error: new ConfigError(read.issues) };
  }
  return {
    ok: true,
    warnings,
    value: {
      nodeEnv,
      http: {
        port,
        host,
        bodyLimitBytes,
        trustProxy,
        publicOrigin: publicOriginOf(read.raw('PUBLIC_BASE_URL')),
        urlsFromRequest: nodeEnv !== 'production',
        secureCookies: nodeEnv !== 'development',
        shutdownGraceMs,
        cors,
        mcp,
      },
      logging: { level: logLevel, flushMs: logFlushMs },
      store: { dataDir, mongodbUri, mongodbDb, userCacheMs },
      auth: {
        jwtSecret,
        jwtSecretGenerated,
        jwtPreviousSecrets,
        tokenTtlSeconds,
        scryptLogN,
        loginMaxFailures,
        loginWindowSeconds,
        loginIpMaxFailures,
        registerIpMax,
        registerWindowSeconds,
        passwordHashConcurrency,
        passwordHashQueue,
        passwordHashMaxWaitMs,
        passwordHashPerClient,
      },
      limits: { ...budgets, generateMaxRequests, generateWindowSeconds },
      uploads: { ...uploads, sweepSeconds: uploadSweepSeconds },
      storage,
      queue: {
        inProcess: workerInProcess,
        concurrency: workerConcurrency,
        pipelineThreads,
        pipelineThreadIdleMs,
        leaseMs: taskLeaseMs,
        pollMs: workerPollMs,
        maxAttempts: taskMaxAttempts,
        cancelCheckMs: taskCancelCheckMs,
        eventBatchMs,
        eventPollMs,
        userMaxRunning,
        attemptCpuSeconds,
        attemptWallSeconds,
      },
      generation: { maxQualityRetries, llm, imageProvider: imageProviderRead.value },
      webhooks,
      metrics: { enabled: metricsEnabled, token: metricsToken, workerPort: metricsPort },
    },
  };
}

/** The origin (scheme, host, port) of a PUBLIC_BASE_URL value, or null when unset or unusable. */
/** What reads uploaded pictures (UPLOAD_DECODER). */
export type UploadDecoderChoice = 'auto' | 'sharp' | 'png';

function uploadDecoderOf(raw: string | undefined, issues: ConfigIssue[]): UploadDecoderChoice {
  const value = (raw ?? 'auto').trim().toLowerCase();
  if (value === 'auto' || value === 'sharp' || value === 'png') return value;
  issues.push({ variable: 'UPLOAD_DECODER', message: `must be auto, sharp or png (got "${raw}")` });
  return 'auto';
}

function publicOriginOf(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}
