import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  type DeleteObjectsCommandOutput,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentTypeFromKey, isValidContentType } from './internal/content-type.js';
import { assertPutArguments } from './internal/put-arguments.js';
import { assertObjectKey, assertObjectPrefix } from './keys.js';
import { assertTtlSeconds } from './signing.js';
import { type ObjectStorage, ObjectStorageError, type SignedUrlOptions, type StoredObject } from './types.js';

/** Options of {@link createS3Storage} (the S3_* environment variables). */
export interface S3StorageOptions {
  bucket: string;
  /** Endpoint of an S3-compatible service (MinIO, R2, s3rver…); AWS when absent. */
  endpoint?: string | null;
  region?: string;
  /** Static credentials; the AWS default credential chain when absent. */
  credentials?: { accessKeyId: string; secretAccessKey: string } | null;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which most S3-compatible services need. */
  forcePathStyle?: boolean;
  /**
   * The endpoint presigned URLs carry when clients reach the bucket by another name than the server
   * does (a MinIO container `http://minio:9000` behind `https://assets.example.com`); `endpoint` by
   * default. Only signing uses it: the server never connects to it.
   */
  publicEndpoint?: string | null;
  /** Lifetime of presigned URLs when the caller gives none (seconds, default 3600, at most 7 days). */
  defaultTtlSeconds?: number;
  /** The clock, in milliseconds: presigned URLs are dated with it (tests move it). */
  now?: () => number;
  /** Keys per DeleteObjects call (1 to 1000, default 1000). */
  batchSize?: number;
  /** A ready client (its configuration then wins over the fields above except `bucket`). */
  client?: S3Client;
}

/** The S3 driver: has the `close` capability (the client's sockets); no `open`, `urlVerifier` or `localRoot` (the bucket serves its presigned URLs). */
export interface S3ObjectStorage extends ObjectStorage {
  readonly kind: 's3';
  readonly bucket: string;
  readonly client: S3Client;
  /** Closes the client's sockets. */
  close(): void;
}

const DEFAULT_TTL_SECONDS = 3600;
/** DeleteObjects takes at most 1000 keys per call. */
const DELETE_BATCH = 1000;

/**
 * Objects in an S3-compatible bucket (`@aws-sdk/client-s3` v3). Signed URLs are presigned GET URLs
 * carrying `X-Amz-*` query parameters (not the filesystem driver's `e` and `token`); the server's
 * download redirect works the same over both drivers.
 */
export function createS3Storage(options: S3StorageOptions): S3ObjectStorage {
  const bucket = options.bucket;
  const defaultTtl = assertTtlSeconds(options.defaultTtlSeconds ?? DEFAULT_TTL_SECONDS);
  const now = options.now ?? Date.now;
  const batchSize = options.batchSize ?? DELETE_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > DELETE_BATCH) {
    throw new ObjectStorageError(
      'invalid_argument',
      `batchSize must be an integer from 1 to ${DELETE_BATCH}`,
    );
  }
  const config: S3ClientConfig = {
    region: options.region ?? 'us-east-1',
    forcePathStyle: options.forcePathStyle ?? false,
    // Checksums only where S3 requires them: S3-compatible services vary in what they accept.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  };
  if (options.endpoint !== undefined && options.endpoint !== null) config.endpoint = options.endpoint;
  if (options.credentials !== undefined && options.credentials !== null) {
    config.credentials = options.credentials;
  }
  const client = options.client ?? new S3Client(config);
  // Presigning is local (no request is sent): a second client differing only in its endpoint.
  const signingClient =
    options.publicEndpoint === undefined || options.publicEndpoint === null || options.client !== undefined
      ? client
      : new S3Client({ ...config, endpoint: options.publicEndpoint });

  const fail = (what: string, error: unknown): ObjectStorageError =>
    new ObjectStorageError('io', `S3 ${what} (bucket ${JSON.stringify(bucket)}) failed: ${describe(error)}`, {
      cause: error,
    });

  async function deleteBatch(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += batchSize) {
      const batch = keys.slice(start, start + batchSize);
      let result: DeleteObjectsCommandOutput;
      try {
        result = await client.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      } catch (error) {
        throw fail(`deleting ${batch.length} object(s)`, error);
      }
      const failed = (result.Errors ?? []).filter((entry) => entry.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        const first = failed[0];
        throw new ObjectStorageError(
          'io',
          `S3 could not delete ${failed.length} object(s) from bucket ${JSON.stringify(bucket)}, first ${JSON.stringify(first?.Key)}: ${first?.Code ?? 'unknown'} ${first?.Message ?? ''}`.trim(),
        );
      }
    }
  }

  return {
    kind: 's3',
    bucket,
    client,

    async put(key, bytes, contentType, options) {
      assertPutArguments(key, bytes, contentType);
      const signal = options?.signal;
      signal?.throwIfAborted();
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: bytes,
            ContentType: contentType,
            ContentLength: bytes.byteLength,
          }),
          signal === undefined ? {} : { abortSignal: signal },
        );
      } catch (error) {
        if (signal?.aborted) {
          // The request was cut, but the bucket may have stored the object first: remove it.
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => undefined);
          throw signal.reason;
        }
        throw fail(`put of ${JSON.stringify(key)}`, error);
      }
      if (signal?.aborted) {
        // Cancelled while the upload finished: the object must not outlive the cancel.
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => undefined);
        throw signal.reason;
      }
    },

    async get(key): Promise<StoredObject | null> {
      assertObjectKey(key);
      try {
        const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (response.Body === undefined) return null;
        const bytes = await response.Body.transformToByteArray();
        const contentType = isValidContentType(response.ContentType)
          ? response.ContentType
          : contentTypeFromKey(key);
        return { bytes, contentType };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw fail(`get of ${JSON.stringify(key)}`, error);
      }
    },

    async exists(key) {
      assertObjectKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw fail(`head of ${JSON.stringify(key)}`, error);
      }
    },

    async delete(keys) {
      if (!Array.isArray(keys))
        throw new ObjectStorageError('invalid_argument', 'delete needs an array of keys');
      for (const key of keys) assertObjectKey(key);
      await deleteBatch([...new Set(keys)]);
    },

    async deletePrefix(prefix) {
      const folder = assertObjectPrefix(prefix);
      // Each page is deleted before the next listing, so the listing always restarts at the front:
      // no continuation token can point at a key that is already gone.
      let previousFirst: string | undefined;
      for (;;) {
        let page: ListObjectsV2CommandOutput;
        try {
          page = await client.send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: folder, MaxKeys: DELETE_BATCH }),
          );
        } catch (error) {
          throw fail(`listing ${JSON.stringify(folder)}`, error);
        }
        const keys = (page.Contents ?? [])
          .map((entry) => entry.Key)
          .filter((key): key is string => typeof key === 'string' && key.startsWith(folder));
        if (keys.length === 0) return;
        if (keys[0] === previousFirst) {
          throw new ObjectStorageError(
            'io',
            `S3 keeps listing ${JSON.stringify(keys[0])} under ${JSON.stringify(folder)} after deleting it (bucket ${JSON.stringify(bucket)}); check the delete permission`,
          );
        }
        previousFirst = keys[0];
        await deleteBatch(keys);
      }
    },

    async signedUrl(key, options: SignedUrlOptions = {}) {
      assertObjectKey(key);
      const ttl = assertTtlSeconds(options.ttlSeconds ?? defaultTtl);
      try {
        return await getSignedUrl(signingClient, new GetObjectCommand({ Bucket: bucket, Key: key }), {
          expiresIn: ttl,
          signingDate: new Date(now()),
        });
      } catch (error) {
        throw new ObjectStorageError(
          'signing',
          `presigning ${JSON.stringify(key)} failed: ${describe(error)}`,
          {
            cause: error,
          },
        );
      }
    },

    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        throw new ObjectStorageError(
          'io',
          `the S3 bucket ${JSON.stringify(bucket)} is not reachable: ${describe(error)}; check S3_BUCKET, S3_ENDPOINT, S3_REGION, the credentials and S3_FORCE_PATH_STYLE`,
          { cause: error },
        );
      }
    },

    close() {
      client.destroy();
      if (signingClient !== client) signingClient.destroy();
    },
  };
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: unknown; $metadata?: { httpStatusCode?: unknown } } | null;
  if (e?.name === 'NoSuchBucket') return false;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode;
  const text = error.message && error.message !== 'UnknownError' ? error.message : error.name;
  return typeof status === 'number' ? `${text} (HTTP ${status})` : text;
}
