import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Store, StoreWriteError } from '@assetloom/core';
import { createEmbeddedStore } from '@assetloom/core/store/embedded';
import { injectMongoUri, uniqueDbName } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type RunningServer, startServer } from '../../src/server.js';
import {
  call,
  client,
  newUser,
  type StoreTarget,
  startTestServer,
  type TestServer,
  testEnv,
} from '../helpers.js';
import { manyScanJpeg, noiseJpeg, noisePng, pngVariants } from '../uploads/fixtures.js';

/**
 * The upload findings of the second audit (issue #37, decision 0043), each reproduced over real
 * sockets with the real decoder: a many-scan progressive JPEG (finding 1), concurrent uploads past
 * the quota and a noise JPEG stored 20× larger (finding 3), a full disk answering 500 (finding 6).
 */
const mongoUri = injectMongoUri('reference-server upload costs on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];

function upload(base: string, token: string, bytes: Uint8Array, type: string) {
  return call(base, 'POST', '/api/v1/uploads', { token, raw: bytes, headers: { 'content-type': type } });
}

describe('a JPEG with more scans than UPLOAD_JPEG_MAX_SCANS (finding 1)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ kind: 'embedded' });
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('is refused with 413 before it is decoded; one within the limit is read', async () => {
    const user = await newUser(server.url);
    // 200 valid scans of a small picture (decodes in ~70 ms: the test does not time anything)
    const many = await upload(server.url, user.token, manyScanJpeg(256, 256, 200), 'image/jpeg');
    expect(many.status).toBe(413);
    expect(many.body).toEqual({
      code: 413,
      message: 'JPEG 扫描次数过多，请另存为基线 JPEG 或 PNG',
      // the bound it met (decision 0052): UPLOAD_JPEG_MAX_SCANS
      data: { reason: 'image_too_many_scans', limit: { max: 64, unit: 'scans' } },
    });
    const english = await call(server.url, 'POST', '/api/v1/uploads', {
      token: user.token,
      raw: manyScanJpeg(256, 256, 200),
      headers: { 'content-type': 'image/jpeg', 'accept-language': 'en' },
    });
    expect(english.body.message).toMatch(/too many progressive scans: save it as a baseline JPEG or a PNG/);
    const fine = await upload(server.url, user.token, manyScanJpeg(256, 256, 40), 'image/jpeg');
    expect(fine.status).toBe(200);
    expect(fine.body.data).toMatchObject({ width: 256, height: 256, format: 'jpeg' });
  });
});

describe('a noise JPEG whose PNG would be UPLOAD_MAX_EXPANSION times larger (finding 3)', () => {
  it('answers 413 saying what to do; the same picture as a PNG is stored', async () => {
    const server = await startTestServer({ kind: 'embedded' });
    try {
      const user = await newUser(server.url);
      // 90 KB of JPEG that would be a 2.4 MB PNG (26×, after PNG filters)
      const refused = await upload(server.url, user.token, await noiseJpeg(1024, 1024, 10), 'image/jpeg');
      expect(refused.body).toEqual({
        code: 413,
        message: '图片存储后过大，请改传 PNG 或更小的图片',
        // the bound it met (decision 0052): UPLOAD_MAX_EXPANSION, and this picture's own ratio
        data: { reason: 'image_expands', limit: { max: 16, unit: 'ratio', actual: expect.any(Number) } },
      });
      expect(refused.body.data.limit.actual).toBeGreaterThan(16);
      const asPng = await upload(server.url, user.token, await noisePng(512, 512), 'image/png');
      expect(asPng.status).toBe(200);
    } finally {
      await server.destroy();
    }
  });
});

describe.each(targets)(
  'concurrent uploads against the quota on the %s store (finding 3)',
  (_name, target) => {
    const QUOTA = 2 * 1024 * 1024;

    async function storedBytes(server: TestServer, token: string, ids: string[]): Promise<number> {
      let total = 0;
      for (const id of ids) {
        const got = await call(server.url, 'GET', `/api/v1/uploads/${id}`, { token });
        if (got.status === 200) total += got.body.data.bytes as number;
      }
      return total;
    }

    it.skipIf(target === null)('10 at once never store more than USER_MAX_UPLOAD_BYTES', async () => {
      const server = await startTestServer(target as StoreTarget, { USER_MAX_UPLOAD_BYTES: String(QUOTA) });
      try {
        const user = await newUser(server.url);
        const picture = await noisePng(400, 400); // ~0.5 MB stored
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => upload(server.url, user.token, picture, 'image/png')),
        );
        const statuses = answers.map((a) => a.status);
        for (const status of statuses) expect([200, 413, 429]).toContain(status);
        const ids = answers.filter((a) => a.status === 200).map((a) => a.body.data.uploadId as string);
        expect(ids.length).toBeGreaterThan(0);
        expect(await storedBytes(server, user.token, ids)).toBeLessThanOrEqual(QUOTA);
        for (const a of answers.filter((x) => x.status === 429)) {
          expect(a.body.data.reason).toBe('uploads_in_flight');
          expect(a.headers.get('retry-after')).toBe('1');
        }
      } finally {
        await server.destroy();
      }
    });

    it.skipIf(target?.kind !== 'mongodb')(
      'nor 10 at once through two servers on one database (slots and reservations across processes)',
      async () => {
        const dbName = uniqueDbName('server_quota');
        const env = {
          USER_MAX_UPLOAD_BYTES: String(QUOTA),
          MONGODB_URI: mongoUri as string,
          MONGODB_DB: dbName,
        };
        const [a, b] = [
          await startTestServer(target as StoreTarget, env),
          await startTestServer(target as StoreTarget, env),
        ];
        try {
          const user = await newUser(a.url);
          const picture = await noisePng(400, 400);
          const answers = await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              upload((i % 2 === 0 ? a : b).url, user.token, picture, 'image/png'),
            ),
          );
          const ids = answers.filter((x) => x.status === 200).map((x) => x.body.data.uploadId as string);
          expect(ids.length).toBeGreaterThan(0);
          expect(await storedBytes(a, user.token, ids)).toBeLessThanOrEqual(QUOTA);
        } finally {
          await b.stop();
          await a.destroy();
        }
      },
    );
  },
);

describe('a full storage (finding 6)', () => {
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  let dataDir: string;
  let running: RunningServer;
  let full = false;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'assetloom-full-uploads-'));
    const loaded = loadConfig(testEnv({ DATA_DIR: dataDir, STORAGE_MIN_FREE_BYTES: '0' }));
    if (!loaded.ok) throw loaded.error;
    const store: Store = createEmbeddedStore({ dir: dataDir });
    // The store refuses its appends as NeDB does on a full disk.
    const uploads = store.uploads as NonNullable<Store['uploads']>;
    const insertUpload = uploads.insert.bind(uploads);
    uploads.insert = async (record) => {
      if (full) throw new StoreWriteError('uploads', enospc());
      return insertUpload(record);
    };
    const insertTask = store.tasks.insert.bind(store.tasks);
    store.tasks.insert = async (task) => {
      if (full) throw new StoreWriteError('tasks', enospc());
      return insertTask(task);
    };
    running = await startServer(loaded.value, { store });
  });
  afterAll(async () => {
    await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('uploads and generate answer 507 storage_full with Retry-After, not 500', async () => {
    const api = client(running.url);
    const user = await newUser(running.url);
    const project = await api.post('/api/v1/projects', { name: 'Full' }, { token: user.token });
    full = true;
    const uploaded = await upload(
      running.url,
      user.token,
      (await pngVariants())['rgba-8'] as Uint8Array,
      'image/png',
    );
    expect(uploaded.status).toBe(507);
    expect(uploaded.body).toEqual({
      code: 507,
      message: '存储空间不足，请稍后再试',
      data: { reason: 'storage_full' },
    });
    expect(Number(uploaded.headers.get('retry-after'))).toBeGreaterThan(0);
    const generated = await api.post(
      '/api/v1/generate',
      { projectId: project.body.data.id, prompt: 'a red slime', assetType: 'sprite' },
      { token: user.token },
    );
    expect(generated.status).toBe(507);
    expect(generated.body.data).toEqual({ reason: 'storage_full' });
    expect(Number(generated.headers.get('retry-after'))).toBeGreaterThan(0);
    full = false;
    expect(
      (await upload(running.url, user.token, (await pngVariants())['rgba-8'] as Uint8Array, 'image/png'))
        .status,
    ).toBe(200);
  });
});

/** Needs `mount` (root on Linux); skipped elsewhere, with the reason printed. */
function canMountTmpfs(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = join(tmpdir(), `assetloom-mount-probe-u-${process.pid}`);
  try {
    mkdirSync(probe, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const tmpfs = canMountTmpfs();
if (!tmpfs)
  console.warn('[upload-costs.test] no tmpfs mount (needs root on Linux): the real-disk case is skipped');

describe.skipIf(!tmpfs)('uploads below STORAGE_MIN_FREE_BYTES on a real disk (an 8 MB tmpfs)', () => {
  it('answer 507 once the picture would leave less free than the minimum', async () => {
    const mountPoint = await mkdtemp(join(tmpdir(), 'assetloom-tmpfs-u-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint]);
    let server: TestServer | undefined;
    try {
      server = await startTestServer(
        { kind: 'embedded' },
        { DATA_DIR: join(mountPoint, 'data'), STORAGE_MIN_FREE_BYTES: String(2 * 1024 * 1024) },
      );
      const user = await newUser(server.url);
      const picture = await noisePng(600, 600); // ~1.1 MB stored
      expect((await upload(server.url, user.token, picture, 'image/png')).status).toBe(200);
      // leave 3 MB free: storing ~1.1 MB more would pass the 2 MB minimum
      const stats = statfsSync(mountPoint);
      writeFileSync(
        join(mountPoint, 'filler'),
        Buffer.alloc(Math.max(0, stats.bavail * stats.bsize - 3 * 1024 * 1024)),
      );
      const refused = await upload(server.url, user.token, picture, 'image/png');
      expect(refused.status).toBe(507);
      expect(refused.body.data).toEqual({ reason: 'storage_full' });
      rmSync(join(mountPoint, 'filler'), { force: true });
      expect((await upload(server.url, user.token, picture, 'image/png')).status).toBe(200);
    } finally {
      await server?.stop();
      execFileSync('umount', ['-l', mountPoint]);
      await rm(mountPoint, { recursive: true, force: true });
    }
  });
});
