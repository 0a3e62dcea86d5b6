import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsObjectWriter } from '../../src/storage/fs-writer.js';
import { createFsStorage, type ObjectStorage } from '../../src/storage/index.js';
import { createS3Storage } from '../../src/storage/s3-storage.js';
import { filesUnder, PNG_1X1, SECRET, startS3rver, type TestS3, tempDir } from './helpers.js';

/**
 * A put whose signal aborts (its task was cancelled: the project was deleted, issue #29) leaves no
 * object behind, on every driver and in the pipeline threads' writer: aborted before it starts, or
 * while it runs (checked before the rename into place; S3: the upload is aborted, or the object
 * removed if it landed).
 */
const KEY = 'projects/p1/tasks/t1/sprite.png';
const big = new Uint8Array(8 * 1024 * 1024).fill(7);

describe('a put whose signal aborts leaves nothing', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let s3: TestS3;
  let fs: ObjectStorage;
  let bucket: ObjectStorage;

  beforeAll(async () => {
    dir = await tempDir('put-abort');
    s3 = await startS3rver('put-abort');
    fs = createFsStorage({ root: dir.path, secret: SECRET });
    await fs.check();
    bucket = createS3Storage({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      credentials: s3.credentials,
      forcePathStyle: true,
    });
  });
  afterAll(async () => {
    (bucket as { close?: () => void } | undefined)?.close?.();
    await s3?.close();
    await dir?.remove();
  });

  it.each(['fs', 's3'] as const)('%s driver: aborted before the put', async (kind) => {
    const storage = kind === 'fs' ? fs : bucket;
    const abort = new AbortController();
    abort.abort(new Error('cancelled'));
    await expect(storage.put(KEY, PNG_1X1, 'image/png', { signal: abort.signal })).rejects.toThrow(
      'cancelled',
    );
    expect(await storage.exists(KEY)).toBe(false);
  });

  it.each(['fs', 's3'] as const)('%s driver: aborted while the put runs', async (kind) => {
    const storage = kind === 'fs' ? fs : bucket;
    const key = `projects/p2/tasks/${kind}/sheet.png`;
    const abort = new AbortController();
    const put = storage.put(key, big, 'image/png', { signal: abort.signal });
    abort.abort(new Error('cancelled'));
    await expect(put).rejects.toThrow();
    expect(await storage.exists(key)).toBe(false);
    if (kind === 'fs') expect((await filesUnder(dir.path)).filter((f) => !f.includes('.probe'))).toEqual([]);
  });

  it("the pipeline threads' writer: aborted before, and while it runs", async () => {
    const writer = createFsObjectWriter({ root: dir.path, fsync: true });
    const before = new AbortController();
    before.abort(new Error('cancelled'));
    await expect(writer.put(KEY, PNG_1X1, 'image/png', before.signal)).rejects.toThrow('cancelled');
    const during = new AbortController();
    const put = writer.put('projects/p3/tasks/t/sheet.png', big, 'image/png', during.signal);
    during.abort(new Error('cancelled'));
    await expect(put).rejects.toThrow();
    expect(await fs.exists(KEY)).toBe(false);
    expect(await fs.exists('projects/p3/tasks/t/sheet.png')).toBe(false);
    // Without a signal (or not aborted) it writes as before.
    await writer.put(KEY, PNG_1X1, 'image/png', new AbortController().signal);
    expect(await fs.exists(KEY)).toBe(true);
  });
});
