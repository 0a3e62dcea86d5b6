import type { Store } from '@assetloom/core';
import { createUploadService, type UploadService } from '@assetloom/core/uploads';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import type { ObjectStorage } from '../storage/types.js';
import { createSharpDecoder } from './decoder.js';

export { readRawBody } from './body.js';
export { createSharpDecoder } from './decoder.js';

/** The upload service of a server or worker process: the store's uploads, the object storage, sharp. */
export function uploadServiceFor(
  config: Pick<ServerConfig, 'uploads'>,
  deps: { store: Store; storage: ObjectStorage; logger: Logger },
): UploadService {
  return createUploadService({
    store: deps.store,
    objects: {
      put: (key, bytes, contentType) => deps.storage.put(key, bytes, contentType),
      get: (key) => deps.storage.get(key),
      delete: (keys) => deps.storage.delete(keys),
    },
    decoder: createSharpDecoder(),
    limits: config.uploads,
    onBackgroundError: (err, { what, ...context }) => deps.logger.warn({ err, ...context }, what),
  });
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
