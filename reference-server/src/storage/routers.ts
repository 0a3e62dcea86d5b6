import { type AssetloomError, errors, fail, ok, toAssetloomError } from '@assetloom/core';
import { downloadAnswer, isValidObjectKey } from '@assetloom/core/http';
import Router from '@koa/router';
import type Koa from 'koa';
import { normalizeBaseUrl } from './signing.js';
import type { ObjectStorage, OpenedObject } from './types.js';

/** Where the routers report failures: the request's logger (`ctx.state.log`) wins when the app set one. */
export interface StorageRouteLogger {
  error(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
}

export interface FilesRouterOptions {
  /** Used when the request carries no `ctx.state.log`. */
  logger?: StorageRouteLogger;
}

export interface DownloadRouterOptions {
  /** Used when the request carries no `ctx.state.log`. */
  logger?: StorageRouteLogger;
  /** Lifetime of the URL redirected to (seconds); the storage's default (SIGNED_URL_TTL_SECONDS) otherwise. */
  ttlSeconds?: number;
  /**
   * Whether the URL may take its origin from the request (Host) when the storage has no
   * PUBLIC_BASE_URL (default true; false in production: the URL is then root-relative).
   */
  urlsFromRequest?: boolean;
}

export const FILES_PATH_PREFIX = '/files/';
export const DOWNLOAD_PATH = '/api/v1/assets/download';

const ALLOWED = 'GET, HEAD';
/** Files up to this size are read at once; larger ones are streamed. */
const BUFFERED_MAX_BYTES = 1024 * 1024;

/**
 * The origin signed URLs of a request should use: protocol and Host header (or
 * X-Forwarded-Host/-Proto when the app trusts its proxy) when it is a plain http(s) origin,
 * else undefined (the URL is then root-relative). PUBLIC_BASE_URL, when configured, wins in the driver.
 */
export function requestBaseUrl(ctx: Koa.Context | Koa.ParameterizedContext): string | undefined {
  const host = ctx.host;
  const protocol = ctx.protocol;
  if (
    typeof host !== 'string' ||
    !/^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/.test(host)
  ) {
    return undefined;
  }
  if (protocol !== 'http' && protocol !== 'https') return undefined;
  return normalizeBaseUrl(`${protocol}://${host}`) ?? undefined;
}

/**
 * Serves `GET|HEAD /files/<key>?e=<unix seconds>&token=<HMAC>` from a driver that serves its own
 * signed URLs (capabilities `open` and `urlVerifier`: the filesystem driver).
 * Checks, in order: the key (malformed or leaving the root → 404 资源不存在), the credential
 * (missing, malformed, tampered or expired → 403 无权访问该资源; constant-time comparison), then
 * the object (absent → 404). Errors are the `{code, message, data}` envelope of @assetloom/core.
 */
export function createFilesRouter(storage: ObjectStorage, options: FilesRouterOptions = {}): Router {
  const open = storage?.open?.bind(storage);
  const verifier = storage?.urlVerifier;
  if (open === undefined || verifier === undefined) {
    throw new TypeError(
      '[assetloom/server] createFilesRouter needs the filesystem storage driver; with STORAGE_DRIVER=s3 the files are served by the bucket, so do not mount /files',
    );
  }
  const router = new Router();
  router.all('/files/{*key}', async (ctx) => {
    try {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
        ctx.set('Allow', ALLOWED);
        throw errors.methodNotAllowed();
      }
      const key = keyFromPath(ctx.path.slice(FILES_PATH_PREFIX.length));
      if (key === null) throw errors.assetNotFound();
      const nowSeconds = Math.floor(verifier.now() / 1000);
      const verdict = verifier.verify(key, ctx.query.e, ctx.query.token, nowSeconds);
      if (!verdict.ok) throw errors.forbidden();
      let opened: OpenedObject | null;
      try {
        opened = await open(key);
      } catch (error) {
        throw errors.internal(error);
      }
      if (opened === null) throw errors.assetNotFound();

      const maxAge = Math.max(0, verdict.expiresAt - nowSeconds);
      ctx.status = 200;
      ctx.set('Cache-Control', `private, max-age=${maxAge}`);
      ctx.set('ETag', opened.etag);
      ctx.set('Last-Modified', opened.lastModified.toUTCString());
      securityHeaders(ctx);
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      ctx.set('Content-Disposition', `inline; filename="${key.slice(key.lastIndexOf('/') + 1)}"`);
      if (ctx.fresh) {
        await opened.close();
        ctx.status = 304;
        // A body that is not null keeps an enclosing envelope middleware from answering 404; Koa sends none for 304.
        ctx.body = '';
        return;
      }
      if (ctx.method === 'HEAD') {
        await opened.close();
        ctx.body = ''; // Koa sends no body for HEAD; Content-Length is set below.
      } else if (opened.size <= BUFFERED_MAX_BYTES) {
        // Small files (sprites, atlases) in one read: cheaper than a stream.
        const bytes = await opened.read();
        ctx.body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } else {
        // The stream is destroyed (and the file closed) by Koa when the response ends.
        ctx.body = opened.stream();
      }
      // Set as stored: Koa's `ctx.type` would append a charset of its own.
      ctx.set('Content-Type', opened.contentType);
      if (!Buffer.isBuffer(ctx.body)) ctx.length = opened.size;
    } catch (error) {
      respondWithError(ctx, error, options.logger, 'serving a stored file failed');
    }
  });
  return router;
}

/**
 * `GET /api/v1/assets/download?key=<object key>` → 302 with `Location:` a freshly signed URL
 * (both drivers). 400 参数错误 when `key` is missing, repeated or not a valid key; 404 资源不存在
 * when there is no such object; 500 服务器内部错误 when the storage cannot be asked or the link
 * cannot be signed. Public: object keys embed random project and task ids and act as capabilities.
 */
export function createDownloadRouter(storage: ObjectStorage, options: DownloadRouterOptions = {}): Router {
  const router = new Router();
  router.all(DOWNLOAD_PATH, async (ctx) => {
    try {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
        ctx.set('Allow', ALLOWED);
        throw errors.methodNotAllowed();
      }
      const baseUrl = options.urlsFromRequest === false ? undefined : requestBaseUrl(ctx);
      // The download operation of @assetloom/core's table (the app mounts it from there).
      const answer = await downloadAnswer(
        {
          exists: (key) => storage.exists(key),
          signedUrl: (key, base) =>
            storage.signedUrl(key, {
              ...(options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds }),
              ...(base === undefined ? {} : { baseUrl: base }),
            }),
        },
        ctx.query.key,
        baseUrl,
      );
      const { url } = answer.data as { url: string };
      ctx.status = 302;
      ctx.set('Location', url);
      ctx.set('Cache-Control', 'no-store');
      securityHeaders(ctx);
      ctx.body = ok({ url });
    } catch (error) {
      respondWithError(ctx, error, options.logger, 'producing a download link failed');
    }
  });
  return router;
}

/**
 * The key a `/files/` path names, or null. The path is percent-decoded once, so a key's slashes may
 * come as `/` or as `%2F` (a client that sends the key as one path parameter encodes them); the
 * result must then be a valid object key: malformed escapes, `\`, NUL, `..`, `.` and empty
 * segments, a leading slash or anything the key rules refuse give null (404), whatever the encoding.
 */
export function keyFromPath(rawPath: string): string | null {
  if (rawPath.length === 0 || rawPath.length > 3 * 1024) return null;
  let key: string;
  try {
    key = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  return isValidObjectKey(key) ? key : null;
}

function securityHeaders(ctx: Koa.Context | Koa.ParameterizedContext): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
}

function respondWithError(
  ctx: Koa.ParameterizedContext,
  error: unknown,
  fallback: StorageRouteLogger | undefined,
  what: string,
): void {
  const failure: AssetloomError = toAssetloomError(error);
  if (failure.code === 500) {
    const log = (ctx.state as { log?: StorageRouteLogger } | undefined)?.log ?? fallback;
    log?.error({ err: failure.cause ?? failure, path: ctx.path }, what);
  }
  ctx.status = failure.code;
  ctx.remove('ETag');
  ctx.remove('Last-Modified');
  ctx.remove('Content-Disposition');
  ctx.remove('Content-Security-Policy');
  ctx.set('Cache-Control', 'no-store');
  securityHeaders(ctx);
  ctx.body = fail(failure);
}
