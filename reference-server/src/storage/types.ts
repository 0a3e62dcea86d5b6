/** Options of {@link ObjectStorage.signedUrl}. */
export interface SignedUrlOptions {
  /** Lifetime of the URL in seconds (1 to 604800); the storage's default (SIGNED_URL_TTL_SECONDS) otherwise. */
  ttlSeconds?: number;
  /**
   * Origin (and optional path prefix) the filesystem driver puts in front of `/files/<key>`, such as
   * the request origin `https://assets.example.com`. Ignored when PUBLIC_BASE_URL is configured and
   * by the S3 driver (its URLs point at the bucket).
   */
  baseUrl?: string;
}

/** An object read back from storage. */
/** Options of one put. */
export interface PutOptions {
  /** Aborting it stops the put before the object becomes visible (a cancelled task, issue #29). */
  signal?: AbortSignal;
}

export interface StoredObject {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * Where generated files live: a directory on the server (`fs`, the default) or an S3-compatible
 * bucket (`s3`). Keys follow {@link OBJECT_KEY_PATTERN}; an invalid key rejects with an
 * {@link ObjectStorageError} of code `invalid_key` before any I/O. Also satisfies the pipeline's
 * `StoragePort` (`put`).
 */
export interface ObjectStorage {
  readonly kind: 'fs' | 's3';
  /**
   * Stores `bytes` under `key` (replacing what was there), atomically: readers see the old or the new
   * object. With `options.signal` aborted before the object becomes visible, nothing is stored and the
   * put rejects (filesystem: checked before the write and before the rename into place; S3: the
   * upload request is aborted, and an object that landed anyway is deleted again).
   */
  put(key: string, bytes: Uint8Array, contentType: string, options?: PutOptions): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes the objects; keys that do not exist are ignored. */
  delete(keys: string[]): Promise<void>;
  /**
   * Deletes every object under the folder `prefix` (`projects/<pid>/` — a missing trailing slash is
   * added, so `projects/p1` never touches `projects/p10/`).
   */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * A temporary download URL. Filesystem driver: `<base>/files/<key>?e=<unix seconds>&token=<HMAC>`;
   * S3 driver: a presigned GET URL (`X-Amz-*` query parameters). Does not check that the object exists.
   */
  signedUrl(key: string, options?: SignedUrlOptions): Promise<string>;
  /** Start-up probe: the directory is writable / the bucket is reachable; rejects with a clear message otherwise. */
  check(): Promise<void>;
}

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
