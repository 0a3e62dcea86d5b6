import { decodePng } from '@assetloom/pipeline';
import { SEAM_GOALS } from '@assetloom/pipeline/tileset';
import { type AssetClient, createAssetClient } from '@assetloom/sdk';
import { injectMongoUri } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type StoreTarget, startTestServer, type TestServer, uniqueName } from './helpers.js';

/**
 * Tilesets (issue #18) end to end through the SDK against a real server on the embedded store:
 * submit `assetType: tileset`, follow it over the WebSocket, list the asset, download the PNG,
 * the Godot TileSet, the Tiled tileset and the JSON description the asset names.
 */
const mongoUri = injectMongoUri('reference-server tileset suite on MongoDB');
const targets: [string, StoreTarget | null][] = [
  ['embedded', { kind: 'embedded' }],
  ['mongodb', mongoUri === null ? null : { kind: 'mongodb', uri: mongoUri }],
];

interface TilesetMeta {
  tileset: { seams: { worst: number } };
  atlas: { godot: string; tiled: string; tileset: string };
  provenance: { quality: { seams: { worstPair: unknown } } };
}

describe.each(targets)('tilesets through the real server on the %s store', (_name, target) => {
  let server: TestServer;
  let api: AssetClient<true>;
  let projectId: string;
  beforeAll(async () => {
    if (target === null) return;
    server = await startTestServer(target);
    api = createAssetClient({
      baseUrl: server.url,
      WebSocket: WebSocket as unknown as NonNullable<Parameters<typeof createAssetClient>[0]['WebSocket']>,
      throwOnError: true,
    });
    const username = uniqueName('tiles');
    await api.POST('/auth/register', { body: { username, password: 'secret-pass' } });
    await api.login({ username, password: 'secret-pass' });
    projectId = (
      await api.POST('/api/v1/projects', {
        body: { name: 'Tiles', style: { palette: 'sweetie16' } },
      })
    ).id;
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it.skipIf(target === null)(
    'generates a blob47 set with its engine files, defaults stored on the task',
    async () => {
      const { taskId } = await api.generate({
        projectId,
        prompt: 'sand and lava',
        assetType: 'tileset',
        params: { tileset: { kind: 'blob47', tileSize: 16 } },
      });
      const task = await api.waitForTask(taskId, { transport: 'ws' });
      expect(task.status).toBe('completed');
      expect(task.assetType).toBe('tileset');
      expect(task.params.tileset).toEqual({ kind: 'blob47', tileSize: 16 });
      expect(task.params.frames).toBeUndefined();
      const { assets } = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
      expect(assets).toHaveLength(1);
      const sheet = assets[0]!;
      expect(sheet.key).toMatch(/tileset\.png$/);
      expect([sheet.width, sheet.height]).toEqual([128, 112]);
      const meta = sheet.metadata as unknown as TilesetMeta;
      expect(sheet.metadata).toMatchObject({
        tileset: {
          kind: 'blob47',
          tileSize: 16,
          columns: 8,
          rows: 7,
          // the 47 blob tiles and the plain one, then 4 variants of each full tile (decision 0094)
          tileCount: 56,
          terrains: ['sand', 'lava'],
        },
      });
      expect(meta.tileset.seams.worst).toBeLessThanOrEqual(SEAM_GOALS.worst);
      expect(meta.provenance.quality.seams.worstPair).toMatchObject({
        axis: expect.stringMatching(/^[xy]$/),
      });
      const png = decodePng((await api.downloadAsset(sheet)).bytes);
      expect(png.ok && [png.image.width, png.image.height]).toEqual([128, 112]);
      const text = async (key: string) => new TextDecoder().decode((await api.downloadAsset(key)).bytes);
      const tres = await text(meta.atlas.godot);
      expect(tres.startsWith('[gd_resource type="TileSet" load_steps=3 format=3]')).toBe(true);
      expect(tres).toContain('terrain_set_0/mode = 0');
      expect(tres).toContain('7:5/0/terrain = 0');
      const tsx = await text(meta.atlas.tiled);
      expect(tsx).toContain('<wangset name="sand / lava" type="mixed"');
      expect(tsx.match(/<wangtile /g)).toHaveLength(56);
      const json = JSON.parse(await text(meta.atlas.tileset));
      expect(json.tiles).toHaveLength(56);
    },
  );

  it.skipIf(target === null)(
    'fills the tileset defaults (wang16, 16 px) and answers bad tileset params with 400 参数错误',
    async () => {
      const { taskId } = await api.generate({ projectId, prompt: 'grass and water', assetType: 'tileset' });
      const task = await api.waitForTask(taskId, { transport: 'poll' });
      expect(task.status).toBe('completed');
      expect(task.params.tileset).toEqual({ kind: 'wang16', tileSize: 16 });
      for (const tileset of [{ kind: 'hex' }, { tileSize: 7 }, { tileSize: 65 }, { colour: 'red' }]) {
        const res = await fetch(`${server.url}/api/v1/generate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${api.token}` },
          body: JSON.stringify({ projectId, prompt: 'grass', assetType: 'tileset', params: { tileset } }),
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: 400, message: '参数错误' });
      }
      // the four spec types carry no tileset params
      const sprite = await api.generate({
        projectId,
        prompt: 'a knight',
        assetType: 'sprite',
        params: { resolution: 16 },
      });
      const spriteTask = await api.GET('/api/v1/tasks/{taskId}', {
        params: { path: { taskId: sprite.taskId } },
      });
      expect(spriteTask.params.tileset).toBeUndefined();
    },
  );
});
