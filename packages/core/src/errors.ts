/** Envelope error codes; the HTTP status always equals the envelope code. */
export type ErrorCode = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503;

/** The messages the spec (and openapi/asset-api.yaml) fixes, in one place. */
export const MESSAGES = {
  badRequest: '参数错误',
  unauthenticated: '未登录或 Token 已过期',
  forbidden: '无权访问该资源',
  projectForbidden: '无权访问该工程',
  taskForbidden: '无权访问该任务',
  projectNotFound: '工程不存在',
  taskNotFound: '任务不存在',
  assetNotFound: '资源不存在',
  webhookNotFound: 'Webhook 不存在',
  webhookTargetRefused: '不允许的 Webhook 地址',
  webhookLimit: 'Webhook 数量已达上限',
  routeNotFound: '接口不存在',
  methodNotAllowed: '请求方法不允许',
  usernameTaken: '用户名已被注册',
  emailTaken: '邮箱已被注册',
  wrongOldPassword: '原密码不正确',
  emptyPrompt: 'prompt 不能为空',
  badCredentials: '用户名或密码错误',
  payloadTooLarge: '请求体过大',
  unsupportedMediaType: '请求体必须是 JSON',
  tooManyRequests: '请求过于频繁，请稍后再试',
  internal: '服务器内部错误',
  notReady: '服务未就绪',
  busy: '服务繁忙，请稍后再试',
  taskTooLarge: '任务规模超出上限',
  tooManyInFlight: '进行中的任务过多，请稍后再试',
  projectLimit: '工程数量已达上限',
  storageQuota: '存储空间已达上限',
} as const;

export type MessageKey = keyof typeof MESSAGES;

const ERROR_CODES: ReadonlySet<number> = new Set([400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 503]);

export interface AssetloomErrorOptions {
  cause?: unknown;
  /** Seconds until a rate-limited caller may retry (429 only); sent as `Retry-After`. */
  retryAfter?: number;
  /** Diagnostic details such as validation errors; for logs, never sent to clients. */
  details?: unknown;
}

/**
 * The one error class of the domain layer. `code` is the envelope code and the HTTP status;
 * `message` is the client-facing message (one of MESSAGES for everything the service throws).
 */
const ASSETLOOM_ERROR = Symbol.for('assetloom.core.AssetloomError');

export class AssetloomError extends Error {
  /**
   * `instanceof` works across copies of this package (the ESM and CJS builds, or the "." and
   * "./mongodb" entries of the CJS build) through a registered brand.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[ASSETLOOM_ERROR] === true
    );
  }
  readonly [ASSETLOOM_ERROR] = true;
  override readonly name = 'AssetloomError';
  readonly retryAfter?: number;
  readonly details?: unknown;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AssetloomErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.retryAfter !== undefined) this.retryAfter = Math.max(1, Math.ceil(options.retryAfter));
    if (options.details !== undefined) this.details = options.details;
  }
}

export function isAssetloomError(value: unknown): value is AssetloomError {
  return value instanceof AssetloomError;
}

/** Factories for every error the domain raises. */
export const errors = {
  badRequest: (details?: unknown) => new AssetloomError(400, MESSAGES.badRequest, { details }),
  emptyPrompt: (details?: unknown) => new AssetloomError(400, MESSAGES.emptyPrompt, { details }),
  wrongOldPassword: () => new AssetloomError(400, MESSAGES.wrongOldPassword),
  unauthenticated: () => new AssetloomError(401, MESSAGES.unauthenticated),
  badCredentials: () => new AssetloomError(401, MESSAGES.badCredentials),
  forbidden: () => new AssetloomError(403, MESSAGES.forbidden),
  projectForbidden: () => new AssetloomError(403, MESSAGES.projectForbidden),
  taskForbidden: () => new AssetloomError(403, MESSAGES.taskForbidden),
  projectNotFound: () => new AssetloomError(404, MESSAGES.projectNotFound),
  taskNotFound: () => new AssetloomError(404, MESSAGES.taskNotFound),
  assetNotFound: () => new AssetloomError(404, MESSAGES.assetNotFound),
  webhookNotFound: () => new AssetloomError(404, MESSAGES.webhookNotFound),
  /** A webhook URL whose target the SSRF guard refuses (`details` says why, for the log). */
  webhookLimit: () => new AssetloomError(409, MESSAGES.webhookLimit),
  webhookTargetRefused: (details?: unknown) =>
    new AssetloomError(403, MESSAGES.webhookTargetRefused, { details }),
  routeNotFound: () => new AssetloomError(404, MESSAGES.routeNotFound),
  methodNotAllowed: () => new AssetloomError(405, MESSAGES.methodNotAllowed),
  usernameTaken: (cause?: unknown) => new AssetloomError(409, MESSAGES.usernameTaken, { cause }),
  emailTaken: (cause?: unknown) => new AssetloomError(409, MESSAGES.emailTaken, { cause }),
  payloadTooLarge: () => new AssetloomError(413, MESSAGES.payloadTooLarge),
  unsupportedMediaType: () => new AssetloomError(415, MESSAGES.unsupportedMediaType),
  tooManyRequests: (retryAfter: number) => new AssetloomError(429, MESSAGES.tooManyRequests, { retryAfter }),
  internal: (cause?: unknown) => new AssetloomError(500, MESSAGES.internal, { cause }),
  /** The readiness check failed (`details` names the failing checks, for the log). */
  notReady: (details?: unknown) => new AssetloomError(503, MESSAGES.notReady, { details }),
  /** 503 + Retry-After: the server sheds load (password hashing is at its bound). */
  busy: (retryAfter: number) => new AssetloomError(503, MESSAGES.busy, { retryAfter }),
  /** 413: the task asks for more pixels than one task may draw (TASK_MAX_PIXELS). */
  taskTooLarge: (details?: unknown) => new AssetloomError(413, MESSAGES.taskTooLarge, { details }),
  /** 429: the user's tasks in flight hold their share of the workers (USER_MAX_PIXELS_IN_FLIGHT). */
  tooManyInFlight: (retryAfter: number, details?: unknown) =>
    new AssetloomError(429, MESSAGES.tooManyInFlight, { retryAfter, details }),
  /** 429: the user has as many projects as allowed (USER_MAX_PROJECTS); deleting one frees a slot. */
  projectLimit: (details?: unknown) =>
    new AssetloomError(429, MESSAGES.projectLimit, { retryAfter: 60, details }),
  /** 413: the user's files take the storage allowed (USER_MAX_STORAGE_BYTES). */
  storageQuota: (details?: unknown) => new AssetloomError(413, MESSAGES.storageQuota, { details }),
} as const;

/** The success envelope. */
export interface OkEnvelope<T> {
  code: 0;
  message: 'ok';
  data: T;
}

/** The error envelope (`data` is always null). */
export interface FailEnvelope {
  code: ErrorCode;
  message: string;
  data: null;
}

export function ok<T>(data: T): OkEnvelope<T> {
  return { code: 0, message: 'ok', data };
}

/**
 * The error envelope for anything thrown. An AssetloomError keeps its code and message; anything
 * else becomes 500 服务器内部错误, so internal details never reach a client.
 */
export function fail(err: unknown): FailEnvelope {
  if (err instanceof AssetloomError && ERROR_CODES.has(err.code)) {
    return { code: err.code, message: err.message, data: null };
  }
  return { code: 500, message: MESSAGES.internal, data: null };
}

/** Turns anything thrown into an AssetloomError (non-domain errors become 500 with the original as cause). */
export function toAssetloomError(err: unknown): AssetloomError {
  return err instanceof AssetloomError ? err : errors.internal(err);
}
