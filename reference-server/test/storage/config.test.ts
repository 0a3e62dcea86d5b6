import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import {
  deriveFilesSigningSecret,
  FileUrlSigner,
  loadStorageConfig,
  openObjectStorageDriver,
  type StorageConfigBase,
} from '../../src/storage/index.js';
import { PNG_1X1, SECRET, tempDir } from './helpers.js';

const base: StorageConfigBase = { nodeEnv: 'test', dataDir: '/srv/assetloom/data', jwtSecret: SECRET };

describe('loadStorageConfig', () => {
  it('defaults to the filesystem driver under DATA_DIR/objects, 3600 s, a secret derived from JWT_SECRET', () => {
    const loaded = loadStorageConfig({}, base);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok || loaded.value.driver !== 'fs') throw new Error('expected the fs driver');
    expect(loaded.value.root).toBe(join('/srv/assetloom/data', 'objects'));
    expect(loaded.value.signedUrlTtlSeconds).toBe(3600);
    expect(loaded.value.publicBaseUrl).toBeNull();
    expect(loaded.value.signingSecretDerived).toBe(true);
    expect(
      Buffer.from(loaded.value.signingSecret).equals(Buffer.from(deriveFilesSigningSecret(SECRET))),
    ).toBe(true);
    expect(Buffer.from(loaded.value.signingSecret).toString('utf8')).not.toBe(SECRET);
    expect(loaded.warnings).toEqual([]);
  });

  it('takes SIGNED_URL_TTL_SECONDS from the server config, or from the environment when absent', () => {
    const fromServer = loadStorageConfig(
      { SIGNED_URL_TTL_SECONDS: '5' },
      { ...base, signedUrlTtlSeconds: 90 },
    );
    expect(fromServer.ok && fromServer.value.signedUrlTtlSeconds).toBe(90);
    const fromEnv = loadStorageConfig({ SIGNED_URL_TTL_SECONDS: '120' }, base);
    expect(fromEnv.ok && fromEnv.value.signedUrlTtlSeconds).toBe(120);
  });

  it('reads FILES_SIGNING_SECRET and PUBLIC_BASE_URL', () => {
    const secret = 'f'.repeat(40);
    const loaded = loadStorageConfig(
      {
        STORAGE_DRIVER: ' FS ',
        FILES_SIGNING_SECRET: secret,
        PUBLIC_BASE_URL: 'https://assets.example.com/',
      },
      base,
    );
    if (!loaded.ok || loaded.value.driver !== 'fs') throw new Error('expected the fs driver');
    expect(Buffer.from(loaded.value.signingSecret).toString('utf8')).toBe(secret);
    expect(loaded.value.signingSecretDerived).toBe(false);
    expect(loaded.value.publicBaseUrl).toBe('https://assets.example.com');
  });

  it('warns in production when signed URLs would follow the Host header', () => {
    const loaded = loadStorageConfig({}, { ...base, nodeEnv: 'production' });
    expect(loaded.ok && loaded.warnings.join('\n')).toMatch(/PUBLIC_BASE_URL is not set/);
  });

  it('reads the S3 variables; path style by default with a custom endpoint', () => {
    const loaded = loadStorageConfig(
      {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'assetloom-assets',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'AKIA',
        S3_SECRET_ACCESS_KEY: 'secret',
      },
      base,
    );
    expect(loaded).toEqual({
      ok: true,
      warnings: [],
      value: {
        driver: 's3',
        signedUrlTtlSeconds: 3600,
        bucket: 'assetloom-assets',
        endpoint: 'http://127.0.0.1:9000',
        region: 'eu-west-1',
        credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
        forcePathStyle: true,
        publicEndpoint: null,
      },
    });
    const aws = loadStorageConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'assets' }, base);
    expect(aws.ok && aws.value.driver === 's3' && aws.value).toMatchObject({
      endpoint: null,
      region: 'us-east-1',
      credentials: null,
      forcePathStyle: false,
    });
    const forced = loadStorageConfig(
      { STORAGE_DRIVER: 's3', S3_BUCKET: 'assets', S3_FORCE_PATH_STYLE: 'yes' },
      base,
    );
    expect(forced.ok && forced.value.driver === 's3' && forced.value.forcePathStyle).toBe(true);
  });

  const problems: [string, { env: Record<string, string>; variables: string[] }][] = [
    ['an unknown driver', { env: { STORAGE_DRIVER: 'gcs' }, variables: ['STORAGE_DRIVER'] }],
    [
      'a short signing secret',
      { env: { FILES_SIGNING_SECRET: 'short' }, variables: ['FILES_SIGNING_SECRET'] },
    ],
    ['the JWT secret reused', { env: { FILES_SIGNING_SECRET: SECRET }, variables: ['FILES_SIGNING_SECRET'] }],
    [
      'a base URL with a query',
      { env: { PUBLIC_BASE_URL: 'https://x.example/?a=1' }, variables: ['PUBLIC_BASE_URL'] },
    ],
    [
      'a relative base URL',
      { env: { PUBLIC_BASE_URL: 'assets.example.com' }, variables: ['PUBLIC_BASE_URL'] },
    ],
    ['a TTL of 0', { env: { SIGNED_URL_TTL_SECONDS: '0' }, variables: ['SIGNED_URL_TTL_SECONDS'] }],
    [
      'a TTL over 7 days',
      { env: { SIGNED_URL_TTL_SECONDS: '604801' }, variables: ['SIGNED_URL_TTL_SECONDS'] },
    ],
    ['s3 without a bucket', { env: { STORAGE_DRIVER: 's3' }, variables: ['S3_BUCKET'] }],
    [
      'several S3 problems at once',
      {
        env: {
          STORAGE_DRIVER: 's3',
          S3_BUCKET: 'Bad_Bucket',
          S3_ENDPOINT: 'ftp://x',
          S3_REGION: 'EU WEST',
          S3_ACCESS_KEY_ID: 'AKIA',
          S3_FORCE_PATH_STYLE: 'maybe',
        },
        variables: ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'],
      },
    ],
  ];
  it.each(problems)('reports %s in one ConfigError', (_name, { env, variables }) => {
    const loaded = loadStorageConfig(env, base);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.error).toBeInstanceOf(ConfigError);
    expect(loaded.error.issues.map((issue) => issue.variable).sort()).toEqual([...variables].sort());
    expect(loaded.error.message).toMatch(/^\[assetloom\/server\] invalid configuration:/);
    expect(loaded.error.message).toMatch(/Fix the environment variables above/);
  });
});

describe('openObjectStorageDriver', () => {
  it('builds a working filesystem driver whose URLs carry the configured lifetime and secret', async () => {
    const dir = await tempDir('config');
    try {
      const loaded = loadStorageConfig(
        { PUBLIC_BASE_URL: 'http://127.0.0.1:8080' },
        { ...base, dataDir: dir.path, signedUrlTtlSeconds: 600 },
      );
      if (!loaded.ok) throw loaded.error;
      const now = 1_800_000_000_000;
      const storage = await openObjectStorageDriver(loaded.value, { now: () => now });
      expect(storage.kind).toBe('fs');
      await storage.check();
      await storage.put('projects/p1/a.png', PNG_1X1, 'image/png');
      expect(await storage.exists('projects/p1/a.png')).toBe(true);
      const url = new URL(await storage.signedUrl('projects/p1/a.png'));
      expect(url.origin).toBe('http://127.0.0.1:8080');
      expect(url.searchParams.get('e')).toBe('1800000600');
      const signer = new FileUrlSigner(deriveFilesSigningSecret(SECRET));
      expect(url.searchParams.get('token')).toBe(signer.token('projects/p1/a.png', 1_800_000_600));
    } finally {
      await dir.remove();
    }
  });
});
