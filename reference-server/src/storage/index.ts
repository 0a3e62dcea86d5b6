/**
 * Object storage for generated files: a filesystem driver (default) and an S3-compatible driver
 * behind one port, signed download URLs, and the two routers that serve them.
 *
 * Wiring (server.ts / app.ts):
 *
 * ```ts
 * import { createDownloadRouter, createFilesRouter, loadStorageConfig, openObjectStorageDriver } from './storage/index.js';
 *
 * // start-up, after loadConfig(): every problem in one ConfigError, like loadConfig
 * const loaded = loadStorageConfig(process.env, base); // base: nodeEnv, dataDir, jwtSecret, jwtPreviousSecrets, signedUrlTtlSeconds (loadConfig passes them)
 * if (!loaded.ok) throw loaded.error;
 * for (const warning of loaded.warnings) logger.warn(warning);
 * const storage = await openObjectStorageDriver(loaded.value);
 * await storage.check(); // the folder is writable / the bucket answers; a clear ObjectStorageError otherwise
 *
 * // createAssetApp: mount after the outermost (request id / log / envelope) middleware and BEFORE the
 * // OpenAPI router, so /files/* and the download redirect never reach the 404/405 of the document routes
 * if (storage.open !== undefined && storage.urlVerifier !== undefined) app.use(createFilesRouter(storage).routes());
 * app.use(createDownloadRouter(storage).routes());
 *
 * // the pipeline writes through the same object (it satisfies the pipeline's StoragePort: put(key, bytes, contentType))
 * runPipeline({ ..., storage });
 *
 * // GET /api/v1/tasks/:taskId/assets: a fresh URL per asset, origin of the request unless PUBLIC_BASE_URL is set
 * url: await storage.signedUrl(asset.key, { baseUrl: requestBaseUrl(ctx) })
 *
 * // deleting a project (AssetAppDeps.onObjectsReleased): the listed keys, then the whole folder
 * onObjectsReleased: async (keys) => { await storage.delete(keys); },
 * // and/or: await storage.deletePrefix(`projects/${projectId}/`);
 *
 * // shutdown: the drivers that hold connections (S3) have close
 * storage.close?.();
 * ```
 *
 * The routers answer their own errors with @assetloom/core's envelope (`fail(errors.*)`) and log
 * 500s through `ctx.state.log` when the app set it, so they work inside createAssetApp and alone.
 * Both handle HEAD and answer 405 (Allow: GET, HEAD) to other methods. The download redirect's
 * body is the envelope `{code: 0, message: 'ok', data: {url}}` (the enclosing app's middleware
 * requires a body).
 */

export { isValidObjectKey, OBJECT_KEY_PATTERN, objectKeyProblem } from '@assetloom/core/http';
export {
  type CreateObjectStorageOptions,
  createObjectStorage,
  type FsStorageConfig,
  loadStorageConfig,
  openObjectStorageDriver,
  type S3StorageConfig,
  type StorageConfig,
  type StorageConfigBase,
  type StorageConfigResult,
} from './config.js';
export { createFsStorage, type FsObjectStorage, type FsStorageOptions } from './fs-storage.js';
export { assertObjectKey, assertObjectPrefix } from './keys.js';
export {
  createDownloadRouter,
  createFilesRouter,
  DOWNLOAD_PATH,
  type DownloadRouterOptions,
  FILES_PATH_PREFIX,
  type FilesRouterOptions,
  keyFromPath,
  requestBaseUrl,
  type StorageRouteLogger,
} from './routers.js';
// createS3Storage is not re-exported: this barrel is on the embedded default path, and the S3
// driver's module imports @aws-sdk (an optional peer); openObjectStorageDriver loads it on demand.
export type { S3ObjectStorage, S3StorageOptions } from './s3-storage.js';
export {
  assertTtlSeconds,
  deriveFilesSigningSecret,
  FileUrlSigner,
  MAX_SIGNED_URL_TTL_SECONDS,
  MIN_FILES_SIGNING_SECRET_BYTES,
  normalizeBaseUrl,
  type SignatureProblem,
} from './signing.js';
export {
  type LocalRoot,
  type ObjectStorage,
  ObjectStorageError,
  type ObjectStorageErrorCode,
  type OpenedObject,
  type PutOptions,
  type SignedUrlOptions,
  type SignedUrlVerifier,
  type StoredObject,
} from './types.js';
