/**
 * The object storage port: where generated files and uploaded pictures live (decision 0040).
 *
 * One port for every package. The pipeline writes through `put` alone and declares only that
 * (`StoragePort` of @assetloom/pipeline, which this port extends); the operation table checks and
 * signs keys through {@link SigningStorage}, a view of this port with the URL lifetime bound by the
 * transport; the server's filesystem and S3 drivers implement the whole port. What only some
 * drivers can do is an optional member with its own type, so a caller asks `storage.open !==
 * undefined` and TypeScript narrows: nothing sniffs a driver's kind or casts to reach a method.
 *
 * `Stream` is the type of an opened object's byte stream: a Node.js `Readable` on the server (this
 * package runs in browsers too and names no platform stream).
 */
import type { StoragePort, StoredObject } from '@assetloom/pipeline';

export type { StoredObject };

/** Options of one {@link ObjectStorage.put}. */
export interface PutOptions {
  /** Aborting it stops the put before the object becomes visible (a cancelled task, issue #29). */
  signal?: AbortSignal;
}

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

/** An object opened for streaming ({@link ObjectStorage.open}); call `close()` or consume it. */
export interface OpenedObject<Stream = unknown> {
  size: number;
  contentType: string;
  /** A strong ETag from the object's SHA-256 when known, else a weak one. */
  etag: string;
  lastModified: Date;
  /** The bytes as a stream; the object closes when the stream ends or is destroyed. */
  stream(): Stream;
  /** All the bytes at once (closes the object). */
  read(): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Why a signed URL was refused. */
export type SignatureProblem = 'missing' | 'malformed' | 'expired' | 'mismatch';

/**
 * Capability of a driver that serves its own signed URLs (the filesystem driver's
 * `/files/<key>?e=<unix seconds>&token=<HMAC>`): the files router checks each URL through it.
 */
export interface SignedUrlVerifier {
  /** The clock the driver signs with (milliseconds). */
  now(): number;
  /** Checks the raw query values `e` and `token` for `key` at `nowSeconds`: the expiry, or why not. */
  verify(
    key: string,
    e: unknown,
    token: unknown,
    nowSeconds: number,
  ): { ok: true; expiresAt: number } | { ok: false; problem: SignatureProblem };
}

/**
 * Capability of a driver whose objects are plain files under a local folder, laid out so that
 * another thread can write an object there with the same result as `put` (the server's pipeline
 * threads do: storage/fs-writer.ts). Only the storage whose `put` is {@link LocalRoot.put} may be
 * written past: a wrapper with a put of its own (a test's held or failing put) is written through
 * its put.
 */
export interface LocalRoot {
  /** The absolute folder. */
  readonly root: string;
  /** Whether each object is flushed to disk before it becomes visible. */
  readonly fsync: boolean;
  /** The put that writing into the folder directly stands for. */
  readonly put: ObjectStorage['put'];
}

/**
 * Where generated files live. Keys follow `OBJECT_KEY_PATTERN`; a driver rejects an invalid key
 * before any I/O. Satisfies the pipeline's `StoragePort` (`put`).
 */
export interface ObjectStorage<Stream = unknown> extends StoragePort {
  /** The driver: `fs` and `s3` in the server. */
  readonly kind: string;
  /**
   * Stores `bytes` under `key` (replacing what was there), atomically: readers see the old or the new
   * object. With `options.signal` aborted before the object becomes visible, nothing is stored and the
   * put rejects.
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
  /** A temporary download URL; does not check that the object exists. */
  signedUrl(key: string, options?: SignedUrlOptions): Promise<string>;
  /** Start-up and readiness probe: the storage is usable; rejects with a clear message otherwise. */
  check(): Promise<void>;

  // --- capabilities: present on the drivers that have them ---

  /** Releases the driver's connections (the S3 client's sockets). */
  close?(): void;
  /** Opens an object for streaming, or null when there is none (the filesystem driver). */
  open?(key: string): Promise<OpenedObject<Stream> | null>;
  /** Checks the driver's own signed URLs, which it serves itself (the filesystem driver). */
  readonly urlVerifier?: SignedUrlVerifier;
  /** The local folder another thread may write objects into directly (the filesystem driver). */
  readonly localRoot?: LocalRoot;
}

/**
 * What the operation table needs of object storage: whether a key exists, and a URL signed for the
 * request's origin (`baseUrl`, when the transport knows one). The transport binds the URL lifetime
 * (the server: `signingView` of its storage module).
 */
export interface SigningStorage {
  exists: ObjectStorage['exists'];
  signedUrl(key: string, baseUrl: string | undefined): Promise<string>;
}
