import { MESSAGES } from '@assetloom/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDownloadRouter,
  loadStorageConfig,
  ObjectStorageError,
  openObjectStorageDriver,
  type S3ObjectStorage,
} from '../../src/storage/index.js';
import { createS3Storage } from '../../src/storage/s3-storage.js';
import { envelopeOf, PNG_1X1, rawRequest, serveRouters, startS3rver, type TestS3 } from './helpers.js';

let s3: TestS3;
let storage: S3ObjectStorage;

beforeAll(async () => {
  s3 = await startS3rver();
  storage = createS3Storage({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    credentials: s3.credentials,
    forcePathStyle: true,
  });
});
afterAll(async () => {
  storage?.close();
  await s3?.close();
});

describe('S3 driver against s3rver on 127.0.0.1', () => {
  it('check() reaches the bucket; a missing bucket gets a clear start-up error', async () => {
    await storage.check();
    const missing = createS3Storage({
      bucket: 'no-such-bucket',
      endpoint: s3.endpoint,
      credentials: s3.credentials,
      forcePathStyle: true,
    });
    try {
      await expect(missing.check()).rejects.toMatchObject({
        code: 'io',
        message: expect.stringMatching(/S3 bucket "no-such-bucket" is not reachable.*check S3_BUCKET/),
      });
    } finally {
      missing.close();
    }
  });

  it('puts, gets, checks and deletes objects with their content type', async () => {
    const key = 'projects/p1/tasks/t1/sprite.png';
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, PNG_1X1, 'image/png');
    await storage.put(
      'projects/p1/tasks/t1/sprite.tres',
      new TextEncoder().encode('[gd]'),
      'text/plain; charset=utf-8',
    );
    expect(await storage.exists(key)).toBe(true);
    const got = await storage.get(key);
    expect(got?.contentType).toBe('image/png');
    expect(Buffer.from(got?.bytes ?? []).equals(Buffer.from(PNG_1X1))).toBe(true);
    expect((await storage.get('projects/p1/tasks/t1/sprite.tres'))?.contentType).toBe(
      'text/plain; charset=utf-8',
    );

    await storage.delete([key, 'projects/p1/tasks/t1/never.png']);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.exists('projects/p1/tasks/t1/sprite.tres')).toBe(true);
    await storage.delete([]);
  });

  it('deletePrefix removes every object of a folder (in several delete batches) and nothing beside it', async () => {
    const keys = Array.from({ length: 25 }, (_, i) => `projects/px/tasks/t${i % 3}/f${i}.png`);
    await Promise.all(keys.map((key) => storage.put(key, PNG_1X1, 'image/png')));
    await storage.put('projects/px0/keep.png', PNG_1X1, 'image/png');
    await storage.put('projects/px.png', PNG_1X1, 'image/png');
    // Small delete batches prove the batching. (Truncated listings cannot be tried here: s3rver
    // encrypts its continuation tokens with single DES, which OpenSSL 3 refuses, and answers 500.)
    const paged = createS3Storage({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      credentials: s3.credentials,
      forcePathStyle: true,
      batchSize: 7,
    });
    try {
      await paged.deletePrefix('projects/px');
      for (const key of keys) expect(await storage.exists(key), key).toBe(false);
      expect(await storage.exists('projects/px0/keep.png')).toBe(true);
      expect(await storage.exists('projects/px.png')).toBe(true);
    } finally {
      paged.close();
    }
    await expect(storage.deletePrefix('')).rejects.toMatchObject({ code: 'invalid_key' });
  });

  it('a presigned GET URL downloads with plain fetch; an expired one is refused', async () => {
    const key = 'projects/p2/tasks/t1/sprite.png';
    await storage.put(key, PNG_1X1, 'image/png');
    const url = new URL(await storage.signedUrl(key, { ttlSeconds: 300 }));
    expect(url.origin).toBe(s3.endpoint);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // The fs driver's parameters are not used by S3.
    expect(url.searchParams.has('e')).toBe(false);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(PNG_1X1))).toBe(true);

    const past = createS3Storage({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      credentials: s3.credentials,
      forcePathStyle: true,
      now: () => Date.now() - 2 * 3_600_000,
    });
    try {
      const expired = await fetch(await past.signedUrl(key, { ttlSeconds: 60 }));
      expect(expired.status).toBe(403);
      expect(await expired.text()).toMatch(/expired/i);
    } finally {
      past.close();
    }
    // (s3rver checks the expiry of presigned URLs but does not implement SigV4 signature checks,
    // so tampering is not provable here; real S3 and MinIO refuse a changed signature.)
  });

  it('refuses bad keys and arguments before any request', async () => {
    await expect(storage.put('../x', PNG_1X1, 'image/png')).rejects.toMatchObject({ code: 'invalid_key' });
    await expect(storage.get('/etc/passwd')).rejects.toMatchObject({ code: 'invalid_key' });
    await expect(storage.put('a.png', PNG_1X1, 'image/png\r\nx: y')).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(storage.signedUrl('a.png', { ttlSeconds: 604_801 })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(storage.delete(['ok.png', 'bad//key'])).rejects.toBeInstanceOf(ObjectStorageError);
  });

  it('an unreachable endpoint surfaces as io errors naming the bucket', async () => {
    const closed = await serveRouters();
    const endpoint = closed.url;
    await closed.close();
    const unreachable = createS3Storage({
      bucket: s3.bucket,
      endpoint,
      credentials: s3.credentials,
      forcePathStyle: true,
    });
    try {
      await expect(unreachable.put('projects/p3/a.png', PNG_1X1, 'image/png')).rejects.toMatchObject({
        code: 'io',
        message: expect.stringContaining(`bucket "${s3.bucket}"`),
      });
      await expect(unreachable.exists('projects/p3/a.png')).rejects.toBeInstanceOf(ObjectStorageError);
      await expect(unreachable.check()).rejects.toThrow(/is not reachable/);
      // Presigning is local: it still works, the redirect then points at the configured endpoint.
      expect(await unreachable.signedUrl('projects/p3/a.png')).toMatch(/^http:\/\/127\.0\.0\.1:/);
    } finally {
      unreachable.close();
    }
  });

  it('the download redirect works over S3 too: 302 to the presigned URL, which serves the bytes', async () => {
    const key = 'projects/p4/tasks/t1/sprite.png';
    await storage.put(key, PNG_1X1, 'image/png');
    const app = await serveRouters(createDownloadRouter(storage));
    try {
      const redirect = await rawRequest(app.port, `/api/v1/assets/download?key=${key}`);
      expect(redirect.status).toBe(302);
      const location = redirect.headers.location ?? '';
      expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/${key}?`)).toBe(true);
      const followed = await fetch(`${app.url}/api/v1/assets/download?key=${key}`);
      expect(followed.status).toBe(200);
      expect(Buffer.from(await followed.arrayBuffer()).equals(Buffer.from(PNG_1X1))).toBe(true);

      const missing = await rawRequest(app.port, '/api/v1/assets/download?key=projects/p4/none.png');
      expect(missing.status).toBe(404);
      expect(envelopeOf(missing)).toEqual({
        code: 404,
        message: MESSAGES.assetNotFound,
        data: { reason: 'asset_not_found' },
      });

      // A segment longer than 127 characters is not a key on any driver (the issue-14 500 on fs).
      const long = await rawRequest(app.port, `/api/v1/assets/download?key=projects/p4/${'a'.repeat(256)}`);
      expect(long.status).toBe(400);
      expect(envelopeOf(long)).toEqual({
        code: 400,
        message: MESSAGES.badRequest,
        data: expect.objectContaining({ reason: 'invalid_request' }),
      });
    } finally {
      await app.close();
    }
  });

  it('openObjectStorageDriver builds the S3 driver from STORAGE_DRIVER=s3', async () => {
    const loaded = loadStorageConfig(
      {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      },
      { nodeEnv: 'test', dataDir: '/unused', jwtSecret: 'x'.repeat(32), signedUrlTtlSeconds: 900 },
    );
    if (!loaded.ok) throw loaded.error;
    const built = await openObjectStorageDriver(loaded.value);
    try {
      expect(built.kind).toBe('s3');
      await built.check();
      await built.put('projects/p5/a.png', PNG_1X1, 'image/png');
      const url = new URL(await built.signedUrl('projects/p5/a.png'));
      expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
      expect((await fetch(url)).status).toBe(200);
    } finally {
      if (built.kind === 's3') built.close();
    }
  });
});
