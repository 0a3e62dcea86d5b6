import { join } from 'node:path';
import { ConfigError, type ConfigIssue, type NodeEnv } from '../config-error.js';
import { importOptional, S3_PACKAGES } from '../optional-deps.js';
import { createFsStorage, type FsObjectStorage } from './fs-storage.js';
import type { S3ObjectStorage } from './s3-storage.js';
import {
  deriveFilesSigningSecret,
  FileUrlSigner,
  MAX_SIGNED_URL_TTL_SECONDS,
  MIN_FILES_SIGNING_SECRET_BYTES,
  normalizeBaseUrl,
} from './signing.js';

/** The validated object-storage configuration (see {@link loadStorageConfig}). */
export type StorageConfig = FsStorageConfig | S3StorageConfig;

/** 16 MiB: below it the filesystem storage reports itself full (a sheet's files are a few MiB). */
export const DEFAULT_MIN_FREE_BYTES = 16 * 1024 * 1024;

interface CommonStorageConfig {
  /** Lifetime of signed URLs (SIGNED_URL_TTL_SECONDS, default 3600). */
  signedUrlTtlSeconds: number;
}

export interface FsStorageConfig extends CommonStorageConfig {
  driver: 'fs';
  /** DATA_DIR/objects. */
  root: string;
  /** The HMAC secret of download tokens: FILES_SIGNING_SECRET, else HKDF of JWT_SECRET. */
  signingSecret: Uint8Array;
  /** True when the secret was derived from JWT_SECRET. */
  signingSecretDerived: boolean;
  /**
   * Keys being retired: FILES_SIGNING_SECRET_PREVIOUS, or (secret derived) the keys derived from
   * JWT_SECRET_PREVIOUS. URLs they signed verify until they expire; nothing new is signed with them.
   */
  previousSigningSecrets: Uint8Array[];
  /** PUBLIC_BASE_URL without trailing slash, or null (signed URLs then use the request origin). */
  publicBaseUrl: string | null;
  /** STORAGE_MIN_FREE_BYTES: below this many free bytes the check (and /ready) fails with "storage full". */
  minFreeBytes: number;
}

export interface S3StorageConfig extends CommonStorageConfig {
  driver: 's3';
  bucket: string;
  endpoint: string | null;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
  /** S3_PUBLIC_ENDPOINT: the endpoint presigned URLs carry; null → `endpoint`. */
  publicEndpoint: string | null;
}

/** What the storage configuration takes from the server configuration (`loadConfig`). */
export interface StorageConfigBase {
  nodeEnv: NodeEnv;
  /** Absolute DATA_DIR. */
  dataDir: string;
  jwtSecret: string;
  /** JWT_SECRET_PREVIOUS, already validated by loadConfig (the derived files keys of a rotation). */
  jwtPreviousSecrets?: readonly string[];
  /** Already validated by loadConfig (1 to 604800); read from the environment when absent. */
  signedUrlTtlSeconds?: number;
}

export type StorageConfigResult =
  | { ok: true; value: StorageConfig; warnings: string[] }
  | { ok: false; error: ConfigError };

type Env = Record<string, string | undefined>;

const BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION_PATTERN = /^[a-z0-9-]{1,32}$/;

/**
 * Reads STORAGE_DRIVER (fs | s3, default fs) and the driver's variables. Never throws: every
 * problem is collected into one ConfigError, the same as the server's `loadConfig`.
 *
 * fs: PUBLIC_BASE_URL, FILES_SIGNING_SECRET (≥ 32 bytes; derived from JWT_SECRET with HKDF when absent).
 * s3: S3_BUCKET (required), S3_ENDPOINT, S3_REGION (default us-east-1), S3_ACCESS_KEY_ID and
 * S3_SECRET_ACCESS_KEY (both or neither: the AWS default credential chain), S3_FORCE_PATH_STYLE
 * (default true when S3_ENDPOINT is set, else false), S3_PUBLIC_ENDPOINT (the origin presigned URLs
 * carry when clients reach the bucket by another name; S3_ENDPOINT by default).
 */
export function loadStorageConfig(env: Env, base: StorageConfigBase): StorageConfigResult {
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  const raw = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const value = raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    issues.push({ variable: name, message: `must be true or false (got "${value}")` });
    return fallback;
  };

  let signedUrlTtlSeconds = base.signedUrlTtlSeconds ?? 3600;
  if (base.signedUrlTtlSeconds === undefined) {
    const ttl = raw('SIGNED_URL_TTL_SECONDS');
    if (ttl !== undefined) {
      if (/^\d+$/.test(ttl) && Number(ttl) >= 1 && Number(ttl) <= MAX_SIGNED_URL_TTL_SECONDS) {
        signedUrlTtlSeconds = Number(ttl);
      } else {
        issues.push({
          variable: 'SIGNED_URL_TTL_SECONDS',
          message: `must be an integer from 1 to ${MAX_SIGNED_URL_TTL_SECONDS} (got "${ttl}")`,
        });
      }
    }
  }

  const driver = (raw('STORAGE_DRIVER') ?? 'fs').toLowerCase();
  let value: StorageConfig | undefined;

  if (driver === 'fs') {
    const publicBaseRaw = raw('PUBLIC_BASE_URL');
    let publicBaseUrl: string | null = null;
    if (publicBaseRaw !== undefined) {
      publicBaseUrl = normalizeBaseUrl(publicBaseRaw);
      if (publicBaseUrl === null) {
        issues.push({
          variable: 'PUBLIC_BASE_URL',
          message: `must be an absolute http(s) URL without query, fragment or credentials, e.g. https://assets.example.com (got "${publicBaseRaw}")`,
        });
      }
    } else if (base.nodeEnv === 'production') {
      warnings.push(
        'PUBLIC_BASE_URL is not set: in production signed download URLs are root-relative (/files/…) and never take a request header; set PUBLIC_BASE_URL to the public origin of this server for absolute URLs',
      );
    }
    const secretRaw = raw('FILES_SIGNING_SECRET');
    let signingSecret: Uint8Array | undefined;
    if (secretRaw !== undefined) {
      const bytes = Buffer.byteLength(secretRaw, 'utf8');
      if (bytes < MIN_FILES_SIGNING_SECRET_BYTES) {
        issues.push({
          variable: 'FILES_SIGNING_SECRET',
          message: `must be at least ${MIN_FILES_SIGNING_SECRET_BYTES} bytes long (got ${bytes}); e.g. \`openssl rand -base64 48\``,
        });
      } else if (secretRaw === base.jwtSecret) {
        issues.push({
          variable: 'FILES_SIGNING_SECRET',
          message: 'must differ from JWT_SECRET (leave it unset to derive a separate key from JWT_SECRET)',
        });
      } else {
        signingSecret = new Uint8Array(Buffer.from(secretRaw, 'utf8'));
      }
    }
    const previousRaw = (raw('FILES_SIGNING_SECRET_PREVIOUS') ?? '')
      .split(',')
      .map((secret) => secret.trim())
      .filter((secret) => secret !== '');
    const previousSigningSecrets: Uint8Array[] = [];
    for (const [index, secret] of previousRaw.entries()) {
      const bytes = Buffer.byteLength(secret, 'utf8');
      if (bytes < MIN_FILES_SIGNING_SECRET_BYTES) {
        issues.push({
          variable: 'FILES_SIGNING_SECRET_PREVIOUS',
          message: `secret ${index + 1} must be at least ${MIN_FILES_SIGNING_SECRET_BYTES} bytes long (got ${bytes})`,
        });
      } else {
        previousSigningSecrets.push(new Uint8Array(Buffer.from(secret, 'utf8')));
      }
    }
    // A derived key rotates with JWT_SECRET: the keys of the retiring JWT secrets stay valid with them.
    if (secretRaw === undefined) {
      for (const previous of base.jwtPreviousSecrets ?? []) {
        previousSigningSecrets.push(deriveFilesSigningSecret(previous));
      }
    }
    const minFreeRaw = raw('STORAGE_MIN_FREE_BYTES');
    let minFreeBytes = DEFAULT_MIN_FREE_BYTES;
    if (minFreeRaw !== undefined) {
      if (/^\d{1,15}$/.test(minFreeRaw)) minFreeBytes = Number(minFreeRaw);
      else
        issues.push({
          variable: 'STORAGE_MIN_FREE_BYTES',
          message: `must be a whole number of bytes, 0 for no minimum (got "${minFreeRaw}")`,
        });
    }
    value = {
      driver: 'fs',
      signedUrlTtlSeconds,
      minFreeBytes,
      root: join(base.dataDir, 'objects'),
      signingSecret: signingSecret ?? deriveFilesSigningSecret(base.jwtSecret),
      signingSecretDerived: secretRaw === undefined,
      previousSigningSecrets,
      publicBaseUrl,
    };
  } else if (driver === 's3') {
    const bucket = raw('S3_BUCKET');
    if (bucket === undefined) {
      issues.push({ variable: 'S3_BUCKET', message: 'is required when STORAGE_DRIVER=s3' });
    } else if (!BUCKET_PATTERN.test(bucket) || bucket.includes('..')) {
      issues.push({
        variable: 'S3_BUCKET',
        message: `must be a bucket name of 3-63 lower-case letters, digits, "." or "-" (got "${bucket}")`,
      });
    }
    const endpointRaw = raw('S3_ENDPOINT');
    let endpoint: string | null = null;
    if (endpointRaw !== undefined) {
      endpoint = normalizeBaseUrl(endpointRaw);
      if (endpoint === null) {
        issues.push({
          variable: 'S3_ENDPOINT',
          message: `must be an absolute http(s) URL such as http://127.0.0.1:9000 (got "${endpointRaw}")`,
        });
      }
    }
    const region = raw('S3_REGION') ?? 'us-east-1';
    if (!REGION_PATTERN.test(region)) {
      issues.push({ variable: 'S3_REGION', message: `must look like us-east-1 (got "${region}")` });
    }
    const accessKeyId = raw('S3_ACCESS_KEY_ID');
    const secretAccessKey = raw('S3_SECRET_ACCESS_KEY');
    if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
      issues.push({
        variable: accessKeyId === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY',
        message:
          'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS default credential chain',
      });
    }
    const publicEndpointRaw = raw('S3_PUBLIC_ENDPOINT');
    let publicEndpoint: string | null = null;
    if (publicEndpointRaw !== undefined) {
      publicEndpoint = normalizeBaseUrl(publicEndpointRaw);
      if (publicEndpoint === null) {
        issues.push({
          variable: 'S3_PUBLIC_ENDPOINT',
          message: `must be an absolute http(s) URL such as https://assets.example.com (got "${publicEndpointRaw}")`,
        });
      }
    }
    const forcePathStyle = bool('S3_FORCE_PATH_STYLE', endpointRaw !== undefined);
    if (raw('PUBLIC_BASE_URL') !== undefined) {
      warnings.push(
        'PUBLIC_BASE_URL does not apply to STORAGE_DRIVER=s3: presigned URLs point at the bucket (S3_PUBLIC_ENDPOINT sets their origin)',
      );
    }
    value = {
      driver: 's3',
      signedUrlTtlSeconds,
      bucket: bucket ?? '',
      endpoint,
      region,
      credentials:
        accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : null,
      forcePathStyle,
      publicEndpoint,
    };
  } else {
    issues.push({ variable: 'STORAGE_DRIVER', message: `must be fs or s3 (got "${driver}")` });
  }

  if (issues.length > 0 || value === undefined) return { ok: false, error: new ConfigError(issues) };
  return { ok: true, value, warnings };
}

/** Options of {@link createObjectStorage} that tests and embedders may set. */
export interface CreateObjectStorageOptions {
  /** The clock in milliseconds (default Date.now). */
  now?: () => number;
}

/**
 * Builds the filesystem driver (synchronous: it needs nothing optional). Call `check()` on the
 * result at start-up. {@link openObjectStorageDriver} builds either driver.
 */
export function createObjectStorage(
  config: FsStorageConfig,
  options: CreateObjectStorageOptions = {},
): FsObjectStorage {
  const clock = options.now === undefined ? {} : { now: options.now };
  return createFsStorage({
    root: config.root,
    secret: new FileUrlSigner(config.signingSecret, config.previousSigningSecrets),
    publicBaseUrl: config.publicBaseUrl,
    defaultTtlSeconds: config.signedUrlTtlSeconds,
    minFreeBytes: config.minFreeBytes,
    ...clock,
  });
}

/**
 * Builds the driver a {@link StorageConfig} names. The S3 driver loads `@aws-sdk/client-s3` and
 * `@aws-sdk/s3-request-presigner` (optional peer dependencies) only here: when they are not
 * installed it rejects with a MissingPackageError naming the install command.
 */
export async function openObjectStorageDriver(
  config: StorageConfig,
  options: CreateObjectStorageOptions = {},
): Promise<FsObjectStorage | S3ObjectStorage> {
  if (config.driver === 'fs') return createObjectStorage(config, options);
  const { createS3Storage } = await importOptional(S3_PACKAGES, () => import('./s3-storage.js'));
  return createS3Storage({
    bucket: config.bucket,
    endpoint: config.endpoint,
    region: config.region,
    credentials: config.credentials,
    forcePathStyle: config.forcePathStyle,
    publicEndpoint: config.publicEndpoint,
    defaultTtlSeconds: config.signedUrlTtlSeconds,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
}
