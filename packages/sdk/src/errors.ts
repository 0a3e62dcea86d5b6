import type { EnvelopeErrorCode, Task } from './types.js';

/** Failures detected on the client side rather than answered by the server in an envelope. */
export type ClientErrorCode =
  /**
   * The request never got an HTTP answer (DNS, refused connection, reset socket, CORS), or no progress
   * WebSocket could be opened for `events()` / `waitForTask({ transport: 'ws' })`.
   */
  | 'network_error'
  /** The attempt ran past its `timeoutMs`, the call past its `deadline`, or `waitForTask` past its `timeoutMs`. */
  | 'timeout'
  /** The caller's `AbortSignal` fired. */
  | 'aborted'
  /** The server answered something that is not the documented shape (not JSON, no envelope, wrong status). */
  | 'invalid_response'
  /** `getToken()` threw, so the request was not sent. */
  | 'token_unavailable'
  /** `waitForTask` saw the task end in status `failed`; `task` holds it and `message` its `error`. */
  | 'task_failed';

/**
 * One refused field of a 400 answer (`data.errors` of the envelope): where, which rule, and the
 * message to show beside that field.
 */
export interface FieldError {
  /** JSON pointer of the field in the request, e.g. `/password` or `/params/resolution`. */
  path: string;
  /** The rule it broke, e.g. `minLength`, `maximum`, `enum`, `type`, `required`. */
  rule: string;
  /** What to tell the user, in the language the request asked for (`Accept-Language`). */
  message: string;
  /** Where the field is: `body`, `query`, `path` or `header` (when the server said). */
  in?: 'body' | 'query' | 'path' | 'header';
  /**
   * The values accepted, for `enum`, `const`, `assetType` and `styleValue` (a `palette`, `artStyle`,
   * `lineWeight`, `lighting` or `tileable` the generator does not read: the values to offer instead).
   */
  allowed?: readonly (string | number | boolean | null)[];
  /** The bound broken (`minLength`, `maximum`, `maxItems`, …). */
  limit?: number;
}

/**
 * The bound a refusal met (`data.limit` of a 409, 413 or 429: webhooks per project, body and
 * upload sizes, picture sides and pixels, task pixels, quotas, projects per user).
 */
export interface ErrorLimit {
  /** The largest allowed value. */
  max: number;
  /**
   * `bytes` (sizes and quotas), `side` (pixels of a picture's longer side), `pixels` (width × height,
   * times frames for a task), `scans` (of a progressive JPEG), `ratio` (stored PNG bytes per uploaded
   * byte), `count` (projects, webhooks).
   */
  unit: 'bytes' | 'side' | 'pixels' | 'scans' | 'ratio' | 'count';
  /** The request's own value, when the server measured it. */
  actual?: number;
}

const LIMIT_UNITS: ReadonlySet<string> = new Set(['bytes', 'side', 'pixels', 'scans', 'ratio', 'count']);

function limitOf(data: Record<string, unknown> | null | undefined): ErrorLimit | undefined {
  const raw = data?.limit;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { max, unit, actual } = raw as Record<string, unknown>;
  if (typeof max !== 'number' || !Number.isFinite(max) || typeof unit !== 'string' || !LIMIT_UNITS.has(unit))
    return undefined;
  const limit: ErrorLimit = { max, unit: unit as ErrorLimit['unit'] };
  if (typeof actual === 'number' && Number.isFinite(actual)) limit.actual = actual;
  return limit;
}

function amount(value: number, unit: ErrorLimit['unit'], language: 'en' | 'zh', actual = false): string {
  const n = (v: number) =>
    v.toLocaleString(language === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: 2 });
  switch (unit) {
    case 'bytes': {
      const steps: Array<[number, string]> = [
        [1024 ** 3, 'GiB'],
        [1024 ** 2, 'MiB'],
        [1024, 'KiB'],
      ];
      for (const [size, name] of steps) if (value >= size) return `${n(value / size)} ${name}`;
      return language === 'zh' ? `${n(value)} 字节` : `${n(value)} bytes`;
    }
    case 'side':
      if (actual) return language === 'zh' ? `${n(value)} 像素` : `${n(value)} px`;
      return language === 'zh' ? `边长 ${n(value)} 像素` : `${n(value)} px per side`;
    case 'pixels':
      return value >= 1e6
        ? language === 'zh'
          ? `${n(value / 1e6)} 百万像素`
          : `${n(value / 1e6)} megapixels`
        : language === 'zh'
          ? `${n(value)} 像素`
          : `${n(value)} pixels`;
    case 'scans':
      return language === 'zh' ? `${n(value)} 次扫描` : `${n(value)} scans`;
    case 'ratio':
      return `${n(value)}×`;
    case 'count':
      return n(value);
  }
}

/**
 * A limit in words, for a message beside the server's: `at most 4,096 px per side; this one:
 * 5,000 px`, or `上限：边长 4,096 像素；本次：5,000 像素`.
 */
export function describeLimit(limit: ErrorLimit, language: 'en' | 'zh' = 'en'): string {
  const max = amount(limit.max, limit.unit, language);
  const actual = limit.actual === undefined ? undefined : amount(limit.actual, limit.unit, language, true);
  if (language === 'zh') return `上限：${max}${actual === undefined ? '' : `；本次：${actual}`}`;
  return `at most ${max}${actual === undefined ? '' : `; this one: ${actual}`}`;
}

/** Every `code` an {@link AssetloomApiError} can carry: the envelope codes plus the client-side ones. */
export type AssetloomErrorCode = EnvelopeErrorCode | ClientErrorCode;

export interface AssetloomApiErrorInit {
  code: AssetloomErrorCode;
  message: string;
  httpStatus?: number | undefined;
  requestId?: string | undefined;
  retryAfter?: number | undefined;
  task?: Task | undefined;
  /** The field-level reasons of a 400 (`data.errors`); empty when the answer had none. */
  errors?: readonly FieldError[] | undefined;
  /** The envelope's `data` of an error answer when it was an object (`null` otherwise). */
  data?: Record<string, unknown> | null | undefined;
  /** The request's method and URL, named in `toString()` and the stack's first line. */
  method?: string | undefined;
  url?: string | undefined;
  /** What usually causes this answer and what to do (see {@link AssetloomApiError.hint}). */
  hint?: string | undefined;
  cause?: unknown;
}

const brand = Symbol.for('@assetloom/sdk/AssetloomApiError');

/**
 * The one error class of @assetloom/sdk.
 *
 * For envelope errors `code` is the envelope code (400, 401, …) and `message` the server's message,
 * unchanged (Chinese by default, English when the client asked with `Accept-Language: en`), so it can
 * be shown to users; `errors` lists the fields a 400 refused. Client-side failures carry a string
 * `code` and a message that starts with `[assetloom/sdk]`. `toString()` and the first line of `stack`
 * (what Node prints for an uncaught error) also name the method, the URL and the status.
 */
export class AssetloomApiError extends Error {
  override readonly name = 'AssetloomApiError';
  readonly code: AssetloomErrorCode;
  /** The HTTP status of the answer, `undefined` when there was none (network error, timeout, abort). */
  readonly httpStatus: number | undefined;
  /** `X-Request-Id` of the answer, or the id the SDK sent when no answer came. Quote it in bug reports. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (`Retry-After` of a 429 or 503), when it said so. */
  readonly retryAfter: number | undefined;
  /** The failed task, for `code === 'task_failed'`. */
  readonly task: Task | undefined;
  /**
   * Each refused field of a 400 (`data.errors`: `{ path, rule, message }`, `path` a JSON pointer such
   * as `/params/resolution`). Empty when the server named no field.
   */
  readonly errors: readonly FieldError[];
  /** The envelope's `data` when the error answer carried an object (machine-readable details), else `null`. */
  readonly data: Record<string, unknown> | null;
  /** The request's method (`GET`, `POST`, …), when the error concerns one request. */
  readonly method: string | undefined;
  /** The request's URL, when the error concerns one request. */
  readonly url: string | undefined;
  /**
   * For answers whose usual cause lies on the client's side (a 401 to a request sent without a
   * token or with a stale one, a 415 to a request the SDK sent as JSON): `[assetloom/sdk] … this
   * usually means …`, in English. `message` stays the server's text (for your users); the hint is
   * for you, and `toString()` and the stack's first line end with it.
   */
  readonly hint: string | undefined;
  /** The bound a 409, 413 or 429 refusal met (`data.limit`), e.g. `{ max: 4096, unit: 'side', actual: 5000 }`. */
  readonly limit: ErrorLimit | undefined;
  declare readonly [brand]: true;

  constructor(init: AssetloomApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.task = init.task;
    this.errors = Object.freeze([...(init.errors ?? [])]);
    this.data = init.data ?? null;
    this.method = init.method;
    this.url = init.url;
    this.hint = init.hint;
    this.limit = limitOf(this.data);
    Object.defineProperty(this, brand, { value: true });
    // The stack's first line is what an uncaught error prints: make it say where the error came from.
    const stack = (this as { stack?: unknown }).stack;
    if (typeof stack === 'string') {
      const firstLine = stack.indexOf('\n');
      const frames = firstLine < 0 ? '' : stack.slice(firstLine);
      Object.defineProperty(this, 'stack', {
        value: `${this.toString()}${frames}`,
        writable: true,
        configurable: true,
      });
    }
  }

  /**
   * `AssetloomApiError: 参数错误 (400, POST http://127.0.0.1:8080/api/v1/projects, request 6f1…) — /name: …`:
   * the message, then the status, method, URL and request id, then each refused field, then the
   * {@link hint} when there is one.
   */
  override toString(): string {
    const where = [
      typeof this.code === 'number' ? String(this.code) : this.code,
      this.method !== undefined && this.url !== undefined ? `${this.method} ${this.url}` : this.url,
      this.requestId === undefined ? undefined : `request ${this.requestId}`,
    ].filter((part) => part !== undefined);
    const fields = this.errors.map((e) => `${e.path || '/'}: ${e.message}`).join('; ');
    const hint = this.hint === undefined ? '' : ` ${this.hint}`;
    const limit = this.limit === undefined ? '' : ` — ${describeLimit(this.limit)}`;
    return `${this.name}: ${this.message} (${where.join(', ')})${fields ? ` — ${fields}` : ''}${limit}${hint}`;
  }

  /** True for the codes the server answered in an envelope (numbers); false for client-side failures. */
  get isEnvelopeError(): boolean {
    return typeof this.code === 'number';
  }

  /**
   * `instanceof` that also holds across two copies of the SDK in one bundle (e.g. a CJS and an ESM
   * copy): it checks a registered symbol rather than the prototype chain.
   */
  static is(value: unknown): value is AssetloomApiError {
    return typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true;
  }
}
