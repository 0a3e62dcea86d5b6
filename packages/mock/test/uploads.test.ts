import { decodePng, encodePng } from '@assetloom/pipeline';
import { type AssetClient, createAssetClient } from '@assetloom/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetMock } from '../src/index.js';

// Uploads on the mock (issue #31): kept in memory under the same rules as the server (the core's
// upload service), PNG decoded by the pipeline's codec; a picture pixelated through the same pipeline.

const BASE = 'http://uploads.mock.test';
const mock = createAssetMock({
  baseUrl: BASE,
  clock: 'manual',
  stepMs: 1000,
  uploads: { maxBytes: 200_000 },
  seed: {
    users: [
      { username: 'ada', password: 'secret123' },
      { username: 'bob', password: 'secret123' },
    ],
    projects: [{ owner: 'ada', name: 'Art' }],
  },
});
const server = setupServer(...mock.handlers);
const { controls } = mock;

let ada: AssetClient;
let bob: AssetClient;
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await controls.ready;
  ada = createAssetClient({ baseUrl: BASE, WebSocket: controls.WebSocket, retry: { limit: 0 } });
  bob = createAssetClient({ baseUrl: BASE, WebSocket: controls.WebSocket, retry: { limit: 0 } });
  if ((await ada.login({ username: 'ada', password: 'secret123' })).error) throw new Error('login');
  if ((await bob.login({ username: 'bob', password: 'secret123' })).error) throw new Error('login');
});
afterAll(async () => {
  await controls.close();
  server.close();
});

/** A 96 × 96 picture: a figure (a blue body, a skin-coloured head) on a flat light backdrop. */
function picture(): Uint8Array {
  const data = new Uint8Array(96 * 96 * 4);
  for (let y = 0; y < 96; y++) {
    for (let x = 0; x < 96; x++) {
      const body = x > 30 && x < 66 && y > 40 && y < 80;
      const head = x > 38 && x < 58 && y > 16 && y <= 40;
      data.set(
        body ? [40, 60, 160, 255] : head ? [230, 180, 140, 255] : [235, 235, 225, 255],
        (y * 96 + x) * 4,
      );
    }
  }
  return encodePng(data, 96, 96);
}

describe('uploads on the mock', () => {
  it('takes a PNG, answers its size, and pixelates it through the pipeline (strength 0)', async () => {
    const up = await ada.uploadImage(picture());
    if (up.error) throw up.error;
    expect(up.data).toMatchObject({ width: 96, height: 96, format: 'png', animated: false });
    const submitted = await ada.generate({
      projectId: controls.seeded.projects.Art as string,
      prompt: 'pixelate',
      assetType: 'sprite',
      params: { resolution: 32, image: { uploadId: up.data.uploadId, strength: 0 } },
    });
    if (submitted.error) throw submitted.error;
    await controls.advance(60_000);
    const task = await ada.GET('/api/v1/tasks/{taskId}', {
      params: { path: { taskId: submitted.data.taskId } },
    });
    expect(task.data, JSON.stringify(task.data)).toMatchObject({ status: 'completed' });
    const assets = await ada.GET('/api/v1/tasks/{taskId}/assets', {
      params: { path: { taskId: submitted.data.taskId } },
    });
    const sheet = assets.data?.assets.find((a) => a.format === 'png');
    expect(sheet).toMatchObject({ width: 32, height: 32 });
    const file = await ada.downloadAsset(sheet!);
    const image = decodePng(file.data!.bytes);
    if (!image.ok) throw new Error(image.error);
    expect(image.image.data[3]).toBe(0); // the light backdrop is gone
  });

  it('answers bad uploads and other users as the server does', async () => {
    const notImage = await ada.uploadImage(new TextEncoder().encode('hello'), { contentType: 'image/png' });
    expect(notImage.error).toMatchObject({ code: 400, message: '图片无法读取' });
    const tooBig = await ada.uploadImage(new Uint8Array(200_001).fill(1), { contentType: 'image/png' });
    expect(tooBig.error).toMatchObject({ code: 413, message: '图片过大' });
    const jpeg = await ada.uploadImage(
      Uint8Array.from([
        0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 4, 0, 4, 1, 1, 0x11, 0, 0xff, 0xda, 0, 2,
        1, 2, 3, 4,
      ]),
    );
    expect(jpeg.error).toMatchObject({ code: 400 }); // the mock decodes PNG only
    const mine = await ada.uploadImage(picture());
    const theirs = await bob.GET('/api/v1/uploads/{uploadId}', {
      params: { path: { uploadId: mine.data!.uploadId } },
    });
    expect(theirs.error).toMatchObject({ code: 403, message: '无权访问该上传' });
  });
});
