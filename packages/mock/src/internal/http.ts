import { AssetloomError, errors, fail, toAssetloomError } from '@assetloom/core';
import {
  contentLanguage,
  isValidObjectKey,
  languageOf,
  matchRoute,
  type OperationContext,
  type OperationRequest,
  okEnvelopeText,
  type RouteSpec,
} from '@assetloom/core/http';
import { REVIEW_MESSAGES } from '@assetloom/core/review';
import { assetApiDocument } from '@assetloom/openapi';
import { delay, type HttpHandler, http } from 'msw';
import type { FailureRule, Latency } from '../types.js';
import { readJsonBody, readRawBody } from './body.js';
import { REVIEW_PATHS } from './review.js';
import type { State, StateConfig } from './state.js';

/** What the HTTP adapter shares with the rest of the mock. */
export interface HttpContext {
  config: StateConfig;
  state(): Promise<State>;
  failures: Array<FailureRule & { left: number }>;
  latency(): Latency;
  routes: readonly RouteSpec[];
}

const CLIENT_REQUEST_ID = /^[\x21-\x7E]{1,128}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

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

function respond(status: number, text: string, headers: Headers, head: boolean): Response {
  headers.set('Content-Type', JSON_TYPE);
  return new Response(head ? null : text, { status, headers });
}

function onlyGetOrHead(request: Request, headers: Headers): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    headers.set('Allow', 'GET, HEAD');
    throw errors.methodNotAllowed();
  }
}

/**
 * The msw side of the asset API: routing from the contract, then core's operation table (the same
 * steps and answers as the Koa server), plus what is not an operation of the table: the signed
 * `/files/` bytes, the contract document, the review helper, injected failures and latency.
 */
export function createHttpHandlers(ctx: HttpContext, scope: 'origin' | 'api'): HttpHandler[] {
  const { config, failures, routes } = ctx;

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

  async function serveFile(s: State, request: Request, url: URL, headers: Headers, head: boolean) {
    onlyGetOrHead(request, headers);
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
    const headers = baseHeaders(requestIdOf(request));
    const head = request.method === 'HEAD';
    const method = request.method.toUpperCase();
    try {
      const s = await ctx.state();
      const found = matchRoute(routes, method, url.pathname);
      const failure = takeFailure(
        method,
        url.pathname,
        found !== null && 'match' in found ? found.match.route.operationId : undefined,
      );
      if (failure !== undefined) {
        if (failure.status === 'network') return Response.error();
        throw failure.status === 429 ? errors.tooManyRequests(failure.retryAfter ?? 1) : errors.internal();
      }
      if (url.pathname.startsWith('/files/')) return await serveFile(s, request, url, headers, head);
      if (url.pathname === '/docs/asset-api.json') {
        onlyGetOrHead(request, headers);
        headers.set('Cache-Control', 'no-cache');
        return respond(200, JSON.stringify(assetApiDocument), headers, head);
      }
      if (found === null) throw errors.routeNotFound();
      if ('allow' in found) {
        headers.set('Allow', found.allow.join(', '));
        if (method === 'OPTIONS') return respond(200, okEnvelopeText(null), headers, head);
        throw errors.methodNotAllowed();
      }
      const handler = s.table.handler(found.match.route);
      if (handler === undefined) throw errors.routeNotFound();
      const call: OperationRequest & OperationContext = {
        params: found.match.params,
        query: url.searchParams,
        headers: request.headers,
        authorization: request.headers.get('authorization'),
        readBody: (limit) => readJsonBody(request, limit),
        readRaw: (limit) => readRawBody(request, limit),
        log: {
          warn: () => undefined,
          error: (fields, message) => config.onError(fields.err ?? fields, message),
        },
        ip: () => '127.0.0.1',
        baseUrl: () => undefined,
      };
      const answer = await handler(call, call);
      for (const [name, value] of answer.headers ?? []) headers.append(name, value);
      // no-store unless the operation says how long its answer keeps (GET /api/v1/capabilities).
      if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
      return respond(answer.status, okEnvelopeText(answer.data), headers, head);
    } catch (err) {
      const failure = toAssetloomError(err);
      if (failure.code === 500 && !(err instanceof AssetloomError && err.cause === undefined)) {
        config.onError(failure.cause ?? err, `${method} ${url.pathname}`);
      }
      if (failure.retryAfter !== undefined) headers.set('Retry-After', String(failure.retryAfter));
      // In the request's language, as the reference server answers (decision 0037).
      const language = languageOf(request.headers.get('accept-language'));
      headers.set('Content-Language', contentLanguage(language));
      headers.set('Vary', 'Accept-Language');
      return respond(failure.code, JSON.stringify(fail(failure, language)), headers, head);
    }
  }

  async function serve(request: Request, cookies: Record<string, string>): Promise<Response> {
    const latency = ctx.latency();
    const ms =
      typeof latency === 'number' ? latency : latency.min + Math.random() * (latency.max - latency.min);
    if (ms > 0) await delay(ms);
    const url = new URL(request.url);
    if (!REVIEW_PATHS.has(url.pathname)) return serveAsset(request);
    const requestId = requestIdOf(request);
    try {
      const s = await ctx.state();
      const failure = takeFailure(request.method.toUpperCase(), url.pathname, undefined);
      if (failure?.status === 'network') return Response.error();
      if (failure !== undefined) {
        const headers = baseHeaders(requestId);
        if (failure.status === 429) headers.set('Retry-After', String(failure.retryAfter ?? 1));
        const message = failure.status === 429 ? REVIEW_MESSAGES.tooManyAttempts : REVIEW_MESSAGES.server;
        return respond(failure.status, JSON.stringify({ error: message }), headers, false);
      }
      return await s.review.handle(request, cookies, requestId);
    } catch (error) {
      config.onError(error, `${request.method} ${url.pathname}`);
      return new Response(JSON.stringify({ error: REVIEW_MESSAGES.server }), {
        status: 500,
        headers: { 'Content-Type': JSON_TYPE, 'X-Request-Id': requestId },
      });
    }
  }

  const { baseUrl } = config;
  return scope === 'origin'
    ? [http.all(`${baseUrl}/*`, ({ request, cookies }) => serve(request, cookies))]
    : ['/api/*', '/auth/*', '/files/*', '/docs/asset-api.json', '/login', '/register'].map((p) =>
        http.all(`${baseUrl}${p}`, ({ request, cookies }) => serve(request, cookies)),
      );
}
