import { AssetloomError } from '../errors.js';
import {
  DEFAULT_LANGUAGE,
  errorEntry,
  type FieldError,
  type FieldProblem,
  fieldError,
  type Language,
} from '../messages.js';

/**
 * The messages of spec 001 and the decisions in openapi/review-auth.yaml, exactly. Every error of
 * the review-helper endpoints is JSON `{error}` with one of these and the HTTP status beside it.
 */
export const REVIEW_MESSAGES = {
  /** 400: the body lacks a string e-mail or password (or is not a JSON object). */
  required: '邮箱和密码为必填项',
  /** 400: the e-mail lacks `@` or `.` (or is longer than 254 characters). */
  invalidEmail: '邮箱格式不正确',
  /** 400: the password is shorter than 6 bytes (UTF-8). */
  passwordTooShort: '密码长度至少为 6 位',
  /** 401: unknown e-mail or wrong password — one message for both. */
  badCredentials: '邮箱或密码错误',
  /** 403: a cross-site request (CSRF defence). */
  crossSite: '请求来源不被允许',
  /** 409: the e-mail is already registered. */
  emailTaken: '该邮箱已被注册',
  /** 429: too many failed logins for this e-mail from this address. */
  tooManyAttempts: '登录尝试过于频繁，请稍后再试',
  /** 500: the user lookup failed at login. */
  server: '服务器错误',
  /** 500: the session could not be saved. */
  sessionSave: '会话保存失败',
  /** 500: hashing the password failed. */
  hashing: '密码加密失败',
  /** 500: inserting the user failed. */
  insert: '注册失败',
  /** 429: too many registrations from one address (issue #29). */
  tooManyRegistrations: '注册过于频繁，请稍后再试',
  /** 503: password hashing is at its bound; retry after Retry-After seconds (issue #29). */
  busy: '服务繁忙，请稍后再试',
} as const;

export type ReviewMessageKey = keyof typeof REVIEW_MESSAGES;
export type ReviewMessage = (typeof REVIEW_MESSAGES)[ReviewMessageKey];

/**
 * Factories for every review-helper error. They are the package's one error class,
 * {@link AssetloomError}: `code` is the HTTP status, `message` the Chinese text the client sees,
 * `cause` the underlying failure (for logs only).
 */
export const reviewErrors = {
  required: (details?: unknown, fields?: readonly FieldProblem[]) =>
    new AssetloomError(
      400,
      REVIEW_MESSAGES.required,
      fields === undefined ? { details } : { details, fields },
    ),
  invalidEmail: () =>
    new AssetloomError(400, REVIEW_MESSAGES.invalidEmail, {
      fields: [{ in: 'body', path: '/email', rule: 'format', format: 'email' }],
    }),
  passwordTooShort: (minBytes: number) =>
    new AssetloomError(400, REVIEW_MESSAGES.passwordTooShort, {
      fields: [{ in: 'body', path: '/password', rule: 'minLength', limit: minBytes }],
    }),
  badCredentials: () => new AssetloomError(401, REVIEW_MESSAGES.badCredentials),
  crossSite: () => new AssetloomError(403, REVIEW_MESSAGES.crossSite),
  emailTaken: (cause?: unknown) => new AssetloomError(409, REVIEW_MESSAGES.emailTaken, { cause }),
  tooManyAttempts: (retryAfter: number) =>
    new AssetloomError(429, REVIEW_MESSAGES.tooManyAttempts, { retryAfter }),
  server: (cause?: unknown) => new AssetloomError(500, REVIEW_MESSAGES.server, { cause }),
  sessionSave: (cause?: unknown) => new AssetloomError(500, REVIEW_MESSAGES.sessionSave, { cause }),
  hashing: (cause?: unknown) => new AssetloomError(500, REVIEW_MESSAGES.hashing, { cause }),
  insert: (cause?: unknown) => new AssetloomError(500, REVIEW_MESSAGES.insert, { cause }),
  tooManyRegistrations: (retryAfter: number) =>
    new AssetloomError(429, REVIEW_MESSAGES.tooManyRegistrations, { retryAfter }),
  busy: (retryAfter: number) => new AssetloomError(503, REVIEW_MESSAGES.busy, { retryAfter }),
} as const;

/**
 * The `{error}` body of a review-helper error response, with its stable `reason` and, on a 400, the
 * refused fields (decision 0037).
 */
export interface ReviewErrorBody {
  error: string;
  reason: string;
  errors?: FieldError[];
}

const KNOWN: ReadonlySet<string> = new Set(Object.values(REVIEW_MESSAGES));

/** The `{error, reason}` body of a review-helper message (spec 001's Chinese one, or its English text). */
export function reviewErrorBody(message: string, language: Language = DEFAULT_LANGUAGE): ReviewErrorBody {
  const entry = errorEntry(message, 'review');
  return entry === undefined
    ? { error: message, reason: 'server_error' }
    : { error: entry[language], reason: entry.reason };
}

/**
 * The HTTP status and `{error, reason, errors?}` body for anything thrown, in `language` (Chinese
 * by default): a review error keeps its status and message; anything else becomes 500 服务器错误,
 * so internal details never reach a client.
 */
export function reviewFailure(
  err: unknown,
  language: Language = DEFAULT_LANGUAGE,
): { status: number; body: ReviewErrorBody; retryAfter?: number } {
  if (err instanceof AssetloomError && KNOWN.has(err.message)) {
    const body = reviewErrorBody(err.message, language);
    if (err.fields !== undefined) body.errors = err.fields.map((field) => fieldError(field, language));
    return err.retryAfter === undefined
      ? { status: err.code, body }
      : { status: err.code, body, retryAfter: err.retryAfter };
  }
  return { status: 500, body: reviewErrorBody(REVIEW_MESSAGES.server, language) };
}
