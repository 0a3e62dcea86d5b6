import {
  DEFAULT_LANGUAGE,
  errorEntry,
  type FieldError,
  type FieldProblem,
  fieldError,
  type Language,
} from './messages.js';

/** Envelope error codes; the HTTP status always equals the envelope code. */
export type ErrorCode = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503 | 507;

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
  unsupportedEncoding: '不支持的内容编码',
  tooManyRequests: '请求过于频繁，请稍后再试',
  internal: '服务器内部错误',
  notReady: '服务未就绪',
  busy: '服务繁忙，请稍后再试',
  taskTooLarge: '任务规模超出上限',
  tooManyInFlight: '进行中的任务过多，请稍后再试',
  projectLimit: '工程数量已达上限',
  storageQuota: '存储空间已达上限',
  storageFull: '存储空间不足，请稍后再试',
} as const;

export type MessageKey = keyof typeof MESSAGES;

const ERROR_CODES: ReadonlySet<number> = new Set([
  400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 503, 507,
]);

export interface AssetloomErrorOptions {
  cause?: unknown;
  /** Seconds until a rate-limited caller may retry (429 only); sent as `Retry-After`. */
  retryAfter?: number;
  /** Diagnostic details such as validation errors; for logs, never sent to clients. */
  details?: unknown;
  /** The refused fields of a 400, sent as `data.errors` in the request's language (decision 0037). */
  fields?: readonly FieldProblem[];
  /** The limit a 409, 413 or 429 refusal met, sent as `data.limit` (decision 0052). */
  limit?: ErrorLimit;
}

/**
 * The limit a refusal met (the contract's `ErrorLimit`): its bound, its unit and, where known, the
 * request's own figure, so a client can say "at most 4096 px per side (this one: 5000)".
 */
export interface ErrorLimit {
  /** The largest allowed value. */
  max: number;
  /**
   * `bytes` (sizes and quotas), `side` (pixels of a picture's longer side), `pixels` (width ×
   * height, or × frames for a task), `scans` (a JPEG's), `ratio` (stored PNG bytes per uploaded
   * byte), `count` (projects, webhooks).
   */
  unit: 'bytes' | 'side' | 'pixels' | 'scans' | 'ratio' | 'count';
  /** The request's own value, when the server measured it. */
  actual?: number;
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
  readonly fields?: readonly FieldProblem[];
  readonly limit?: ErrorLimit;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AssetloomErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.retryAfter !== undefined) this.retryAfter = Math.max(1, Math.ceil(options.retryAfter));
    if (options.details !== undefined) this.details = options.details;
    if (options.fields !== undefined && options.fields.length > 0) this.fields = options.fields;
    if (options.limit !== undefined) this.limit = options.limit;
  }
}

export function isAssetloomError(value: unknown): value is AssetloomError {
  return value instanceof AssetloomError;
}

/** Factories for every error the domain raises. */
export const errors = {
  badRequest: (details?: unknown) => new AssetloomError(400, MESSAGES.badRequest, { details }),
  /** 400 参数错误 naming the refused fields (sent as `data.errors`); `details` goes to the log. */
  invalid: (fields: readonly FieldProblem[], details?: unknown) =>
    new AssetloomError(400, MESSAGES.badRequest, { fields, details: details ?? { fields } }),
  emptyPrompt: (details?: unknown) =>
    new AssetloomError(400, MESSAGES.emptyPrompt, {
      details,
      fields: [{ in: 'body', path: '/prompt', rule: 'notBlank' }],
    }),
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
  webhookLimit: (max?: number) =>
    new AssetloomError(
      409,
      MESSAGES.webhookLimit,
      max === undefined ? {} : { limit: { max, unit: 'count' } },
    ),
  webhookTargetRefused: (details?: unknown) =>
    new AssetloomError(403, MESSAGES.webhookTargetRefused, { details }),
  routeNotFound: () => new AssetloomError(404, MESSAGES.routeNotFound),
  methodNotAllowed: () => new AssetloomError(405, MESSAGES.methodNotAllowed),
  usernameTaken: (cause?: unknown) => new AssetloomError(409, MESSAGES.usernameTaken, { cause }),
  emailTaken: (cause?: unknown) => new AssetloomError(409, MESSAGES.emailTaken, { cause }),
  payloadTooLarge: (maxBytes?: number) =>
    new AssetloomError(
      413,
      MESSAGES.payloadTooLarge,
      maxBytes === undefined ? {} : { limit: { max: maxBytes, unit: 'bytes' } },
    ),
  unsupportedMediaType: () => new AssetloomError(415, MESSAGES.unsupportedMediaType),
  unsupportedEncoding: () => new AssetloomError(415, MESSAGES.unsupportedEncoding),
  tooManyRequests: (retryAfter: number) => new AssetloomError(429, MESSAGES.tooManyRequests, { retryAfter }),
  internal: (cause?: unknown) => new AssetloomError(500, MESSAGES.internal, { cause }),
  /** The readiness check failed (`details` names the failing checks, for the log). */
  notReady: (details?: unknown) => new AssetloomError(503, MESSAGES.notReady, { details }),
  /** 503 + Retry-After: the server sheds load (password hashing is at its bound). */
  busy: (retryAfter: number) => new AssetloomError(503, MESSAGES.busy, { retryAfter }),
  /** 413: the task asks for more pixels than one task may draw (TASK_MAX_PIXELS). */
  taskTooLarge: (details: { pixels: number; limit: number; inputPixels?: number }) =>
    new AssetloomError(413, MESSAGES.taskTooLarge, {
      details,
      limit: { max: details.limit, unit: 'pixels', actual: details.pixels },
    }),
  /** 429: the user's tasks in flight hold their share of the workers (USER_MAX_PIXELS_IN_FLIGHT). */
  tooManyInFlight: (retryAfter: number, details?: unknown) =>
    new AssetloomError(429, MESSAGES.tooManyInFlight, { retryAfter, details }),
  /** 429: the user has as many projects as allowed (USER_MAX_PROJECTS); deleting one frees a slot. */
  projectLimit: (details: { projects: number; limit: number }) =>
    new AssetloomError(429, MESSAGES.projectLimit, {
      retryAfter: 60,
      details,
      limit: { max: details.limit, unit: 'count', actual: details.projects },
    }),
  /** 413: the user's files take the storage allowed (USER_MAX_STORAGE_BYTES). */
  storageQuota: (details: { bytes: number; limit: number }) =>
    new AssetloomError(413, MESSAGES.storageQuota, {
      details,
      limit: { max: details.limit, unit: 'bytes', actual: details.bytes },
    }),
  /**
   * 507 + Retry-After: the server's disk (or database) is full, or below its free-space minimum
   * (STORAGE_MIN_FREE_BYTES): nothing was stored; try again once an operator made room (decision 0043).
   */
  storageFull: (cause?: unknown, retryAfter = 60) =>
    new AssetloomError(507, MESSAGES.storageFull, { cause, retryAfter }),
} as const;

/** The success envelope. */
export interface OkEnvelope<T> {
  code: 0;
  message: 'ok';
  data: T;
}

/** `data` of an error envelope (the contract's `ErrorDetails`). */
export interface ErrorDetails {
  /** A stable code per message, the same in every language (`ErrorReason` of the contract). */
  reason: string;
  /** The refused fields of a 400 from request validation. */
  errors?: FieldError[];
  /** The limit a 409, 413 or 429 refusal met. */
  limit?: ErrorLimit;
}

/**
 * The error envelope: `data` is `{reason, errors?}`, except on the 401 `未登录或 Token 已过期`, whose
 * `data` spec 000 fixes to null.
 */
export interface FailEnvelope {
  code: ErrorCode;
  message: string;
  data: ErrorDetails | null;
}

export function ok<T>(data: T): OkEnvelope<T> {
  return { code: 0, message: 'ok', data };
}

/** At most this many refused fields are listed (the contract's `maxItems`). */
export const MAX_FIELD_ERRORS = 20;

/** A reason for a message the catalogue lacks (a test keeps every message of core in it). */
const REASON_BY_CODE: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'route_not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  500: 'internal',
  503: 'not_ready',
  507: 'storage_full',
};

/**
 * The error envelope for anything thrown, in `language` (Chinese by default, decision 0037). An
 * AssetloomError keeps its code and its message (or that message's English text); anything else
 * becomes 500 服务器内部错误, so internal details never reach a client. `data` holds the message's
 * stable reason and, for a 400 that names fields, each field's problem in `language`.
 */
export function fail(err: unknown, language: Language = DEFAULT_LANGUAGE): FailEnvelope {
  const known = err instanceof AssetloomError && ERROR_CODES.has(err.code);
  const code = known ? err.code : 500;
  const chinese = known ? err.message : MESSAGES.internal;
  const entry = errorEntry(chinese);
  const message = entry === undefined ? chinese : entry[language];
  if (code === 401 && chinese === MESSAGES.unauthenticated) return { code, message, data: null };
  const data: ErrorDetails = { reason: entry?.reason ?? REASON_BY_CODE[code] ?? 'internal' };
  const fields = known ? err.fields : undefined;
  if (fields !== undefined && fields.length > 0) {
    data.errors = fields.slice(0, MAX_FIELD_ERRORS).map((field) => fieldError(field, language));
  }
  const limit = known ? err.limit : undefined;
  if (limit !== undefined && Number.isFinite(limit.max)) {
    data.limit = { max: limit.max, unit: limit.unit };
    if (limit.actual !== undefined && Number.isFinite(limit.actual)) data.limit.actual = limit.actual;
  }
  return { code, message, data };
}

/** Turns anything thrown into an AssetloomError (non-domain errors become 500 with the original as cause). */
export function toAssetloomError(err: unknown): AssetloomError {
  return err instanceof AssetloomError ? err : errors.internal(err);
}
