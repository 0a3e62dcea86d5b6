import { createAssetClient } from '@assetloom/sdk';
import { injectMongoUri } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type StoreTarget, startTestServer, type TestServer, uniqueName } from './helpers.js';
import { pngSize } from './task-helpers.js';

/**
 * The README walk-through through the SDK against a real server: register, log in, create a
 * project, generate, waitForTask over the WebSocket (Bearer header through `ws`), list the assets and
 * download a real PNG.
 */
const mongoUri = injectMongoUri('reference-server SDK walk-through on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];

describe.each(targets)('SDK walk-through on the %s store', (_name, target) => {
  let server: TestServer;
  beforeAll(async () => {
    if (target !== null) server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it.skipIf(target === null)(
    'generates a sprite and downloads the PNG, following progress over the WebSocket',
    async () => {
      const api = createAssetClient({
        baseUrl: server.url,
        WebSocket: WebSocket as unknown as NonNullable<Parameters<typeof createAssetClient>[0]['WebSocket']>,
        throwOnError: true,
      });
      const username = uniqueName('sdk');
      await api.POST('/auth/register', { body: { username, password: 'secret-pass' } });
      await api.login({ username, password: 'secret-pass' });
      const project = await api.POST('/api/v1/projects', { body: { name: 'Walk-through' } });
      const { taskId } = await api.generate({
        projectId: project.id,
        prompt: 'a brave knight',
        assetType: 'sprite',
        params: { resolution: 32 },
      });
      const seqs: number[] = [];
      const task = await api.waitForTask(taskId, { transport: 'ws', onEvent: (e) => seqs.push(e.seq) });
      expect(task.status).toBe('completed');
      expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const { assets } = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
      const sheet = assets.find((a) => a.key.endsWith('sprite.png'));
      expect(sheet).toBeDefined();
      const file = await api.downloadAsset(sheet as NonNullable<typeof sheet>);
      expect(file.contentType).toMatch(/^image\/png/);
      expect(pngSize(file.bytes)).toEqual({ width: 128, height: 128 });
    },
  );
});
