import type { Readable } from 'node:stream';
import type { ObjectStorage as ObjectStoragePort, OpenedObject as OpenedObjectOf } from '@assetloom/core';

export type {
  LocalRoot,
  PutOptions,
  SignatureProblem,
  SignedUrlOptions,
  SignedUrlVerifier,
  StoredObject,
} from '@assetloom/core';

/**
 * Where generated files live: a directory on the server (`fs`, the default) or an S3-compatible
 * bucket (`s3`). The one storage port of @assetloom/core (decision 0040), its opened objects
 * streaming as Node.js `Readable`s. Keys follow {@link OBJECT_KEY_PATTERN}; an invalid key rejects
 * with an {@link ObjectStorageError} of code `invalid_key` before any I/O. Filesystem driver's put:
 * checked before the write and before the rename into place; S3: the upload request is aborted, and
 * an object that landed anyway is deleted again. Its signed URLs: filesystem driver
 * `<base>/files/<key>?e=<unix seconds>&token=<HMAC>`, S3 driver a presigned GET URL (`X-Amz-*`).
 */
export type ObjectStorage = ObjectStoragePort<Readable>;

/** An object opened for streaming (the files router uses it); call `close()` or consume `stream()`. */
export type OpenedObject = OpenedObjectOf<Readable>;

/** What went wrong in an {@link ObjectStorage} call. */
export type ObjectStorageErrorCode =
  /** The key or prefix breaks the key rules. */
  | 'invalid_key'
  /** Another argument is unusable (bytes, content type, TTL, base URL). */
  | 'invalid_argument'
  /** The backing directory or bucket failed. */
  | 'io'
  /** A signed URL could not be produced. */
  | 'signing';

const OBJECT_STORAGE_ERROR = Symbol.for('assetloom.server.ObjectStorageError');

/** The one error class of the storage module; `cause` holds the underlying error. */
export class ObjectStorageError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[OBJECT_STORAGE_ERROR] === true
    );
  }
  readonly [OBJECT_STORAGE_ERROR] = true;
  override readonly name = 'ObjectStorageError';

  constructor(
    readonly code: ObjectStorageErrorCode,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(
      message.startsWith('[assetloom/server]') ? message : `[assetloom/server] ${message}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
  }
}
