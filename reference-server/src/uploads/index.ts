import { statfs } from 'node:fs/promises';
import { errors, type Store } from '@assetloom/core';
import { createUploadService, type UploadService } from '@assetloom/core/uploads';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import type { ObjectStorage } from '../storage/types.js';
import { processDecodeGate } from './decode-gate.js';
import { createSharpDecoder } from './decoder.js';

export { readRawBody } from './body.js';
export { createSharpDecoder } from './decoder.js';

/** The upload service of a server or worker process: the store's uploads, the object storage, sharp. */
export function uploadServiceFor(
  config: Pick<ServerConfig, 'uploads' | 'storage'>,
  deps: { store: Store; storage: ObjectStorage; logger: Logger },
): UploadService {
  const { uploads } = config;
  const root = deps.storage.localRoot?.root;
  const minFree = config.storage.driver === 'fs' ? config.storage.minFreeBytes : 0;
  return createUploadService({
    store: deps.store,
    objects: {
      put: (key, bytes, contentType) => deps.storage.put(key, bytes, contentType),
      get: (key) => deps.storage.get(key),
      delete: (keys) => deps.storage.delete(keys),
      ...(root === undefined || minFree <= 0
        ? {}
        : { ensureRoom: (bytes: number) => ensureRoom(root, minFree, bytes) }),
    },
    decoder: createSharpDecoder({
      gate: processDecodeGate({ concurrency: uploads.decodeConcurrency, maxPixels: uploads.decodeMaxPixels }),
      timeoutSeconds: uploads.decodeTimeoutSeconds,
    }),
    limits: uploads,
    onBackgroundError: (err, { what, ...context }) => deps.logger.warn({ err, ...context }, what),
  });
}

/**
 * Refuses (507 存储空间不足) an upload that would leave fewer than STORAGE_MIN_FREE_BYTES free on the
 * objects' volume (decision 0043): one statfs, no probe write.
 */
async function ensureRoom(root: string, minFree: number, bytes: number): Promise<void> {
  const stats = await statfs(root);
  const free = stats.bavail * stats.bsize;
  if (free - bytes < minFree) {
    throw errors.storageFull(
      new Error(
        `storage full: ${free} bytes free under ${root}, ${bytes} more would pass STORAGE_MIN_FREE_BYTES (${minFree})`,
      ),
    );
  }
}

/**
 * Sweeps uploads no task uses once their lifetime ended, every `everySeconds` (unref'd: it never
 * keeps the process alive). Returns the stop function.
 */
export function startUploadSweeper(uploads: UploadService, everySeconds: number, logger: Logger): () => void {
  if (everySeconds <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    uploads
      .sweep()
      .then((removed) => {
        if (removed > 0) logger.info({ removed }, 'idle uploads swept');
      })
      .catch((err: unknown) => logger.warn({ err }, 'sweeping idle uploads failed'))
      .finally(() => {
        running = false;
      });
  }, everySeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
