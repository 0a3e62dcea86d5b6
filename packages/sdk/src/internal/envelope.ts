import { isTimeoutError } from 'ky';
import { AssetloomApiError, type AssetloomErrorCode, type FieldError } from '../errors.js';
import type { EnvelopeErrorCode } from '../types.js';
import { describe, isRecord, parseRetryAfter } from './util.js';

/** What every call of the result style resolves to: typed `data`, or a typed `error`. */
export type ApiResult<T> =
  | { data: T; error: undefined; response: Response }
  | { data: undefined; error: AssetloomApiError; response: Response | undefined };

const ENVELOPE_CODES: ReadonlySet<number> = new Set<EnvelopeErrorCode>([
  400, 401, 403, 404, 405, 409, 413, 415, 429, 500,
]);

export function isEnvelopeCode(value: unknown): value is EnvelopeErrorCode {
  return typeof value === 'number' && ENVELOPE_CODES.has(value);
}

export function ok<T>(data: T, response: Response): ApiResult<T> {
  return { data, error: undefined, response };
}

export function fail<T>(error: AssetloomApiError, response?: Response): ApiResult<T> {
  return { data: undefined, error, response };
}

export function requestIdOf(response: Response | undefined, sent: string | undefined): string | undefined {
  return response?.headers.get('x-request-id') ?? sent;
}

function retryAfterOf(response: Response): number | undefined {
  if (response.status !== 429 && response.status !== 503) return undefined;
  return parseRetryAfter(response.headers.get('retry-after'));
}

/** The method and URL of the request an answer belongs to (the URL of the answer wins when it has one). */
export interface RequestPlace {
  method?: string | undefined;
  url?: string | undefined;
  /** The likely cause of an error answer with this code, when the caller knows one (see `AssetloomApiError.hint`). */
  hint?: ((code: AssetloomErrorCode) => string | undefined) | undefined;
}

const FIELD_PLACES: ReadonlySet<string> = new Set(['body', 'query', 'path', 'header']);

/**
 * `data.errors` of an error envelope: the items shaped `{path, rule, message}` (strings), with
 * their `in`, `allowed` and `limit` when present; others dropped. An answer without the list (servers before field-level errors) gives `[]`.
 */
export function fieldErrorsOf(data: unknown): FieldError[] {
  if (!isRecord(data) || !Array.isArray(data.errors)) return [];
  const out: FieldError[] = [];
  for (const item of data.errors) {
    if (!isRecord(item) || typeof item.message !== 'string') continue;
    const field: FieldError = {
      path: typeof item.path === 'string' ? item.path : '',
      rule: typeof item.rule === 'string' ? item.rule : '',
      message: item.message,
    };
    if (typeof item.in === 'string' && FIELD_PLACES.has(item.in)) field.in = item.in as FieldError['in'];
    if (Array.isArray(item.allowed)) {
      field.allowed = item.allowed.filter(
        (v): v is string | number | boolean | null =>
          v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
      );
    }
    if (typeof item.limit === 'number') field.limit = item.limit;
    out.push(field);
  }
  return out;
}

/** An error for a non-2xx answer whose body has been parsed (JSON when it was JSON, else text). */
export function errorFromAnswer(
  response: Response,
  body: unknown,
  requestId: string | undefined,
  read: (body: Record<string, unknown>) => { code: unknown; message: unknown } | undefined = readEnvelope,
  place: RequestPlace = {},
): AssetloomApiError {
  const common = {
    httpStatus: response.status,
    requestId: requestIdOf(response, requestId),
    retryAfter: retryAfterOf(response),
    method: place.method,
    url: response.url || place.url,
  };
  const parsed = isRecord(body) ? read(body) : undefined;
  if (parsed && typeof parsed.message === 'string') {
    const code: AssetloomErrorCode = isEnvelopeCode(parsed.code) ? parsed.code : 'invalid_response';
    const data = isRecord(body) && isRecord(body.data) ? body.data : null;
    return new AssetloomApiError({
      ...common,
      code,
      message: parsed.message,
      data,
      errors: fieldErrorsOf(data),
      hint: place.hint?.(code),
    });
  }
  return new AssetloomApiError({
    ...common,
    code: 'invalid_response',
    message: `[assetloom/sdk] ${describeRequest(response)} answered HTTP ${response.status} without the documented error body; check that baseUrl points at an Assetloom server (a proxy may have answered).`,
  });
}

function readEnvelope(body: Record<string, unknown>): { code: unknown; message: unknown } | undefined {
  if (!('code' in body) || !('message' in body)) return undefined;
  return { code: body.code, message: body.message };
}

function describeRequest(response: Response): string {
  return response.url ? `${new URL(response.url).pathname}` : 'the server';
}

/**
 * Unwraps `{code: 0, message: 'ok', data}` of a 2xx answer, or turns an error envelope into an
 * {@link AssetloomApiError}. Anything else is `invalid_response`.
 */
export function fromEnvelope<T>(
  out: { data?: unknown; error?: unknown; response: Response },
  requestId: string | undefined,
  place: RequestPlace = {},
): ApiResult<T> {
  const { response } = out;
  if (!response.ok)
    return fail(errorFromAnswer(response, out.error, requestId, readEnvelope, place), response);
  const body = out.data;
  if (isRecord(body) && body.code === 0 && 'data' in body) return ok(body.data as T, response);
  return fail(
    new AssetloomApiError({
      code: 'invalid_response',
      httpStatus: response.status,
      requestId: requestIdOf(response, requestId),
      method: place.method,
      url: response.url || place.url,
      message: `[assetloom/sdk] ${describeRequest(response)} answered HTTP ${response.status} without the {code: 0, message, data} envelope; check that baseUrl points at an Assetloom API.`,
    }),
    response,
  );
}

export interface ThrownContext {
  method: string;
  url: string;
  requestId: string | undefined;
  signal: AbortSignal | undefined;
  timeoutMs: number | false;
  /** The call's total deadline: its signal fires when the `ms` across every attempt and wait ran out. */
  deadline?: { signal: AbortSignal; ms: number } | undefined;
}

/** Maps anything thrown while a request was under way to an {@link AssetloomApiError}. */
export function errorFromThrown(error: unknown, context: ThrownContext): AssetloomApiError {
  if (AssetloomApiError.is(error)) return error;
  const where = `${context.method} ${context.url}`;
  const common = { requestId: context.requestId, cause: error, method: context.method, url: context.url };
  if (context.signal?.aborted) {
    const reason = context.signal.reason as { name?: unknown } | undefined;
    if (reason?.name === 'TimeoutError') {
      return new AssetloomApiError({
        ...common,
        code: 'timeout',
        message: `[assetloom/sdk] ${where} was stopped by the caller's timeout signal.`,
      });
    }
    return new AssetloomApiError({
      ...common,
      code: 'aborted',
      message: `[assetloom/sdk] ${where} was aborted by the caller's signal.`,
    });
  }
  if (context.deadline?.signal.aborted) {
    return new AssetloomApiError({
      ...common,
      code: 'timeout',
      message: `[assetloom/sdk] ${where} did not complete within its deadline of ${context.deadline.ms} ms (every attempt and wait included); raise deadline or check the server.`,
    });
  }
  if (isTimeoutError(error)) {
    return new AssetloomApiError({
      ...common,
      code: 'timeout',
      message: `[assetloom/sdk] ${where} got no answer within ${context.timeoutMs} ms; raise timeoutMs or check the server.`,
    });
  }
  if (error instanceof SyntaxError) {
    return new AssetloomApiError({
      ...common,
      code: 'invalid_response',
      message: `[assetloom/sdk] ${where} answered a body that is not valid JSON (${error.message}); check that baseUrl points at an Assetloom API.`,
    });
  }
  if ((error as { name?: unknown } | null)?.name === 'AbortError') {
    return new AssetloomApiError({
      ...common,
      code: 'aborted',
      message: `[assetloom/sdk] ${where} was aborted.`,
    });
  }
  return new AssetloomApiError({
    ...common,
    code: 'network_error',
    message: `[assetloom/sdk] ${where} failed before an answer arrived (${describe(error)}); check baseUrl and the network.`,
  });
}
