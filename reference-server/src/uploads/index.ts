import { statfs } from 'node:fs/promises';
import { errors, type Store } from '@assetloom/core';
import {
  createPngDecoder,
  createUploadService,
  type ImageDecoder,
  type UploadService,
} from '@assetloom/core/uploads';
import type { Logger } from 'pino';
import type { ServerConfig, UploadDecoderChoice } from '../config.js';
import { importOptional, isMissingPackage, SHARP_PACKAGES } from '../optional-deps.js';
import type { ObjectStorage } from '../storage/types.js';
import { processDecodeGate } from './decode-gate.js';

export { readRawBody } from './body.js';

type SharpDecoderModule = typeof import('./decoder.js');
const decoderModules = new Map<UploadDecoderChoice, Promise<SharpDecoderModule | null>>();

/**
 * sharp's decoder module, or null for the PNG-only decoder (issue #41: sharp is an optional peer
 * dependency). `sharp` without the package throws {@link MissingPackageError} naming the install line;
 * `auto` without it is null. Loaded once per choice.
 */
function sharpDecoderModule(choice: UploadDecoderChoice): Promise<SharpDecoderModule | null> {
  let loading = decoderModules.get(choice);
  if (!loading) {
    loading =
      choice === 'png'
        ? Promise.resolve(null)
        : choice === 'sharp'
          ? importOptional(SHARP_PACKAGES, () => import('./decoder.js'))
          : import('./decoder.js').catch((error: unknown) => {
              if (isMissingPackage(error, ['sharp'])) return null;
              throw error;
            });
    decoderModules.set(choice, loading);
  }
  return loading;
}

/**
 * Loads what reads uploads at start-up (UPLOAD_DECODER), so that a missing sharp stops the start
 * (`sharp`) or is named by one warning (`auto`) before the first upload. Returns what was chosen.
 */
export async function openUploadDecoder(
  config: Pick<ServerConfig, 'uploads'>,
  logger: Logger,
): Promise<'sharp' | 'png'> {
  const choice = config.uploads.decoder;
  const module = await sharpDecoderModule(choice);
  if (module === null && choice === 'auto')
    logger.warn(
      `[assetloom/server] uploads read PNG only: sharp is not installed (UPLOAD_DECODER=auto). For JPEG, WebP and GIF uploads install it beside @assetloom/server: ${SHARP_INSTALL}`,
    );
  return module === null ? 'png' : 'sharp';
}

const SHARP_INSTALL = `npm install ${Object.entries(SHARP_PACKAGES.packages)
  .map(([name, version]) => `${name}@${version}`)
  .join(' ')}`;

/**
 * PNG only (pure TypeScript). Another format answers 400 `图片无法读取` (image_unreadable: the
 * contract's envelope carries no free text) and the server's log names sharp's install line.
 */
function pngOnlyDecoder(logger: Logger): ImageDecoder {
  const png = createPngDecoder();
  return {
    decode(bytes, header, limits) {
      if (header.format !== 'png') {
        const message = `[assetloom/server] a ${header.format.toUpperCase()} upload was refused: this server reads PNG uploads only because sharp is not installed; install it beside @assetloom/server (${SHARP_INSTALL})`;
        logger.warn({ format: header.format }, message);
        return Promise.reject(new Error(message));
      }
      return png.decode(bytes, header, limits);
    },
  };
}

/** The decoder UPLOAD_DECODER names, loaded at its first decode (`openUploadDecoder` loads it at start). */
function decoderFor(uploads: ServerConfig['uploads'], logger: Logger): ImageDecoder {
  let made: Promise<ImageDecoder> | null = null;
  const decoder = () =>
    (made ??= sharpDecoderModule(uploads.decoder).then((module) =>
      module === null
        ? pngOnlyDecoder(logger)
        : module.createSharpDecoder({
            gate: processDecodeGate({
              concurrency: uploads.decodeConcurrency,
              maxPixels: uploads.decodeMaxPixels,
            }),
            timeoutSeconds: uploads.decodeTimeoutSeconds,
          }),
    ));
  return { decode: async (bytes, header, limits) => (await decoder()).decode(bytes, header, limits) };
}

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
    decoder: decoderFor(uploads, deps.logger),
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
