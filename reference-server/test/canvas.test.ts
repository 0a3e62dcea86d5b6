import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodePng, encodePng } from '@assetloom/pipeline';
import { type AssetClient, createAssetClient } from '@assetloom/sdk';
import { injectMongoUri } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type StoreTarget, startTestServer, type TestServer, uniqueName } from './helpers.js';

/**
 * `params.width` / `params.height` (issue #28) through the real server: a background or UI piece on a
 * canvas of its own (320 × 180, 480 × 270 …) completes with a PNG of that size, on the built-in generator
 * and on an image model; a button's four states and a panel are drawn at the canvas asked for, and words
 * that do not fit it fail the task saying the size they need; bad sizes and sizes for other asset types
 * answer 400 参数错误 in the envelope; the dedupe key tells sizes apart.
 */
const mongoUri = injectMongoUri('reference-server canvas suite on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];

function api(server: TestServer): AssetClient<true> {
  return createAssetClient({
    baseUrl: server.url,
    WebSocket: WebSocket as unknown as NonNullable<Parameters<typeof createAssetClient>[0]['WebSocket']>,
    throwOnError: true,
  });
}

describe.each(targets)('canvas sizes through the real server on the %s store', (_name, target) => {
  let server: TestServer;
  let sdk: AssetClient<true>;
  let projectId: string;
  const post = (body: unknown) =>
    fetch(`${server.url}/api/v1/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sdk.token}` },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    if (target === null) return;
    server = await startTestServer(target);
    sdk = api(server);
    const username = uniqueName('canvas');
    await sdk.POST('/auth/register', { body: { username, password: 'secret-pass' } });
    await sdk.login({ username, password: 'secret-pass' });
    projectId = (await sdk.POST('/api/v1/projects', { body: { name: 'Screens' } })).id;
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it.skipIf(target === null)('a 320 × 180 background completes and its PNG is 320 × 180', async () => {
    const { taskId } = await sdk.generate({
      projectId,
      prompt: 'a sunny meadow with hills',
      assetType: 'background',
      params: { width: 320, height: 180 },
    });
    const task = await sdk.waitForTask(taskId, { transport: 'ws' });
    expect(task.status, task.error ?? '').toBe('completed');
    expect(task.params).toEqual({ resolution: 64, format: 'spritesheet', width: 320, height: 180 });
    const { assets } = await sdk.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    const png = assets.find((a) => a.format === 'png')!;
    expect([png.width, png.height]).toEqual([320, 180]);
    expect(png.metadata).toMatchObject({ frameWidth: 320, frameHeight: 180, frameCount: 1, directions: 1 });
    const decoded = decodePng((await sdk.downloadAsset(png)).bytes);
    expect(decoded.ok && [decoded.image.width, decoded.image.height]).toEqual([320, 180]);
  });

  it.skipIf(target === null)(
    'a start button asked at 96 × 48 (individual files) completes with its four states, each a 96 × 48 PNG',
    async () => {
      const { taskId } = await sdk.generate({
        projectId,
        prompt: 'a start button',
        assetType: 'ui',
        params: { width: 96, height: 48, format: 'individual' },
      });
      const task = await sdk.waitForTask(taskId, { transport: 'poll' });
      expect(task.status, task.error ?? '').toBe('completed');
      expect(task.params).toMatchObject({ width: 96, height: 48, format: 'individual' });
      const { assets } = await sdk.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
      // one file a state, named by it; its frame index gives the states' order
      const pngs = assets
        .filter((a) => a.format === 'png')
        .sort((a, b) => Number(a.metadata.frameIndex) - Number(b.metadata.frameIndex));
      expect(pngs.map((a) => a.key.slice(a.key.lastIndexOf('/') + 1))).toEqual([
        'ui-button_normal.png',
        'ui-button_hover.png',
        'ui-button_pressed.png',
        'ui-button_disabled.png',
      ]);
      for (const png of pngs) {
        expect([png.width, png.height], png.key).toEqual([96, 48]);
        expect(png.metadata, png.key).toMatchObject({ frameWidth: 96, frameHeight: 48, frameCount: 4 });
        expect(png.metadata.nineSlice, png.key).toMatchObject({
          left: expect.any(Number),
          right: expect.any(Number),
          top: expect.any(Number),
          bottom: expect.any(Number),
        });
        const decoded = decodePng((await sdk.downloadAsset(png)).bytes);
        expect(decoded.ok && [decoded.image.width, decoded.image.height], png.key).toEqual([96, 48]);
      }
      // the words it was named by are on it
      expect(pngs[0]!.metadata.interpretation).toMatchObject({ text: { text: 'START' } });
    },
  );

  it.skipIf(target === null)(
    'a wooden dialog panel asked at 96 × 48 is one 96 × 48 piece with 9-slice data',
    async () => {
      const { taskId } = await sdk.generate({
        projectId,
        prompt: 'a wooden dialog panel',
        assetType: 'ui',
        params: { width: 96, height: 48 },
      });
      const task = await sdk.waitForTask(taskId, { transport: 'poll' });
      expect(task.status, task.error ?? '').toBe('completed');
      const { assets } = await sdk.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
      const png = assets.find((a) => a.format === 'png')!;
      expect([png.width, png.height]).toEqual([96, 48]);
      expect(png.metadata).toMatchObject({ frameWidth: 96, frameHeight: 48, frameCount: 1, uiKind: 'panel' });
      expect(png.metadata.nineSlice).toBeDefined();
      const decoded = decodePng((await sdk.downloadAsset(png)).bytes);
      expect(decoded.ok && [decoded.image.width, decoded.image.height]).toEqual([96, 48]);
    },
  );

  it.skipIf(target === null)(
    'words that do not fit the canvas asked for fail the task saying the size they need',
    async () => {
      const { taskId } = await sdk.generate({
        projectId,
        prompt: 'a button that says "Continue"',
        assetType: 'ui',
        params: { width: 48, height: 16 },
      });
      const task = await sdk
        .waitForTask(taskId, { transport: 'poll' })
        .catch((e: { task?: { status: string; error?: string | null } }) => {
          if (e.task) return e.task;
          throw e;
        });
      expect(task.status).toBe('failed');
      expect(task.error).toContain('"Continue" need 76 × 16 px');
      expect(task.error).toContain('48 × 16');
    },
  );

  it.skipIf(target === null)('bad sizes, and sizes for other asset types, answer 400 参数错误', async () => {
    const bad: [string, Record<string, unknown>][] = [
      ['background', { width: 15, height: 180 }],
      ['background', { width: 320, height: 1025 }],
      ['background', { width: 0 }],
      ['background', { width: -320 }],
      ['ui', { width: 320.5, height: 180 }],
      ['ui', { width: '320', height: '180' }],
      ['background', { width: null }],
      ['background', { height: [180] }],
      ['background', { width: 2 ** 53 }],
      ['sprite', { width: 320, height: 180 }],
      ['animation', { width: 64 }],
      ['tileset', { height: 64 }],
    ];
    for (const [assetType, params] of bad) {
      const res = await post({ projectId, prompt: 'a beach', assetType, params });
      const label = `${assetType} ${JSON.stringify(params)}`;
      expect(res.status, label).toBe(400);
      expect(await res.json(), label).toEqual({
        code: 400,
        message: '参数错误',
        data: expect.objectContaining({ reason: 'invalid_request' }),
      });
    }
    // numbers JSON can write but no integer is: 1e400 (Infinity once parsed), 320.0000000001
    for (const raw of ['1e400', '-1e400', '320.0000000001', '1.8e2']) {
      const res = await fetch(`${server.url}/api/v1/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${sdk.token}` },
        body: `{"projectId":"${projectId}","prompt":"a beach","assetType":"background","params":{"width":${raw},"height":180}}`,
      });
      const answer = await res.json();
      if (raw === '1.8e2') {
        // 1.8e2 is the integer 180 written otherwise: accepted
        expect(res.status, raw).toBe(200);
        continue;
      }
      expect(res.status, raw).toBe(400);
      expect(answer, raw).toEqual({
        code: 400,
        message: '参数错误',
        data: expect.objectContaining({ reason: 'invalid_request' }),
      });
    }
  });

  it.skipIf(target === null)('the dedupe key tells sizes apart and keeps one task per size', async () => {
    const submit = (params: Record<string, unknown>) =>
      sdk.generate({ projectId, prompt: 'a harbour at dusk', assetType: 'background', params });
    // submitted together, while the first still runs
    const [a, b, c, d, e] = await Promise.all([
      submit({ width: 320, height: 180 }),
      submit({ width: 320, height: 180 }),
      submit({ width: 480, height: 270 }),
      submit({}),
      submit({ width: 320, resolution: 180 }),
    ]);
    expect(b.taskId).toBe(a.taskId);
    // width 320 with resolution 180 is the same canvas, but another resolution: another task
    expect(new Set([a.taskId, c.taskId, d.taskId, e.taskId]).size).toBe(4);
    const square = await sdk.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: d.taskId } } });
    expect(square.params).toEqual({ resolution: 64, format: 'spritesheet' });
    // let them end before the server stops (how they end is the generator's business, not this test's)
    for (const { taskId } of [a, c, d, e])
      await sdk.waitForTask(taskId, { transport: 'poll' }).catch(() => undefined);
  });
});

describe('a 480 × 270 background on an image model (IMAGE_PROVIDER=a1111, a loopback AUTOMATIC1111)', () => {
  it('asks the model for a wide picture and stores a 480 × 270 PNG', async () => {
    // answers txt2img with a scene of the size asked, in fat pixels (2.8 px) as a model would
    const asked: Array<{ width: number; height: number }> = [];
    const fake = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.url !== '/sdapi/v1/txt2img') {
          res.end(
            JSON.stringify({ progress: 0, eta_relative: 0, state: {}, current_image: null, textinfo: null }),
          );
          return;
        }
        const { width, height } = JSON.parse(Buffer.concat(chunks).toString()) as {
          width: number;
          height: number;
        };
        asked.push({ width, height });
        const data = new Uint8Array(width * height * 4);
        for (let y = 0; y < height; y++)
          for (let x = 0; x < width; x++) {
            const row = Math.floor(y / 2.8) / (height / 2.8);
            const c = row < 0.5 ? [110, 170, 230] : row < 0.75 ? [70, 130, 70] : [90, 160, 60];
            data.set([c[0]!, c[1]!, c[2]!, 255], (y * width + x) * 4);
          }
        const png = Buffer.from(encodePng(data, width, height)).toString('base64');
        res.end(JSON.stringify({ images: [png], parameters: {}, info: '{}' }));
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const server = await startTestServer(
      { kind: 'embedded' },
      { WORKER_POLL_MS: '20', IMAGE_PROVIDER: 'a1111', A1111_URL: url, IMAGE_TIMEOUT_MS: '20000' },
    );
    try {
      const sdk = api(server);
      const username = uniqueName('model');
      await sdk.POST('/auth/register', { body: { username, password: 'secret-pass' } });
      await sdk.login({ username, password: 'secret-pass' });
      const projectId = (await sdk.POST('/api/v1/projects', { body: { name: 'Wide' } })).id;
      const { taskId } = await sdk.generate({
        projectId,
        prompt: 'a meadow under a blue sky',
        assetType: 'background',
        params: { width: 480, height: 270 },
      });
      const task = await sdk.waitForTask(taskId, { transport: 'poll' });
      expect(task.status).toBe('completed');
      expect(asked).toHaveLength(1);
      expect(asked[0]!.width / asked[0]!.height).toBeGreaterThan(1.5);
      const { assets } = await sdk.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
      const png = assets.find((a) => a.format === 'png')!;
      expect([png.width, png.height]).toEqual([480, 270]);
      const decoded = decodePng((await sdk.downloadAsset(png)).bytes);
      expect(decoded.ok && [decoded.image.width, decoded.image.height]).toEqual([480, 270]);
    } finally {
      await server.destroy();
      fake.closeAllConnections();
      await new Promise<void>((r) => fake.close(() => r()));
    }
  });
});
