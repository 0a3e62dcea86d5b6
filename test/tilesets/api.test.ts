import type { AssetClient } from '@assetloom/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractTarget, mockTarget, serverTarget } from '../contract/targets.js';

/**
 * Tilesets (issue #18) through the SDK on the msw mock and on the reference server alike: the
 * contract validates `params.tileset` (400 参数错误), the task keeps it with its defaults, and the
 * asset names a Godot TileSet, a Tiled tileset and a JSON description that download.
 */
describe.each([
  ['mock', mockTarget],
  ['server', serverTarget],
] as const)('tilesets on the %s', (_name, factory) => {
  let target: ContractTarget;
  let api: AssetClient;
  let projectId: string;

  beforeAll(async () => {
    target = await factory();
    api = target.client();
    const username = `tiles_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const reg = await api.POST('/auth/register', { body: { username, password: 'tiles-pass-1' } });
    if (reg.error) throw reg.error;
    const login = await api.login({ username, password: 'tiles-pass-1' });
    if (login.error) throw login.error;
    const created = await api.POST('/api/v1/projects', { body: { name: 'Tiles' } });
    if (created.error) throw created.error;
    projectId = created.data.id;
  }, 60_000);
  afterAll(() => target?.stop());

  it.each([
    ['an unknown kind', { kind: 'hexagon' }],
    ['tiles of 4 px', { tileSize: 4 }],
    ['tiles of 128 px', { tileSize: 128 }],
    ['an unknown option', { terrains: ['grass', 'water'] }],
  ])('refuses %s with 400 参数错误', async (_case, tileset) => {
    const res = await api.generate({
      projectId,
      prompt: 'grass and water',
      assetType: 'tileset',
      params: { tileset } as never,
    });
    expect(res.error?.code).toBe(400);
    expect(res.error?.message).toBe('参数错误');
  });

  it('generates a wang16 set from a Chinese prompt and lists its engine files, each downloadable', async () => {
    const submitted = await api.generate({ projectId, prompt: '沙滩和海水', assetType: 'tileset' });
    if (submitted.error) throw submitted.error;
    const taskId = submitted.data.taskId;
    const done = await api.waitForTask(taskId, { transport: 'poll', pollIntervalMs: 20, timeoutMs: 60_000 });
    if (done.error) throw done.error;
    expect(done.data.status).toBe('completed');
    expect(done.data.assetType).toBe('tileset');
    expect(done.data.params.tileset).toEqual({ kind: 'wang16', tileSize: 16 });
    const listed = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (listed.error) throw listed.error;
    expect(listed.data.assets).toHaveLength(1);
    const [sheet] = listed.data.assets;
    // 16 Wang tiles, then 2 variants of each terrain's plain tile (decision 0094): 4 × 5
    expect(sheet).toMatchObject({ format: 'png', width: 64, height: 80 });
    expect(sheet!.metadata).toMatchObject({
      frameCount: 20,
      tileset: {
        kind: 'wang16',
        tileSize: 16,
        columns: 4,
        rows: 5,
        tileCount: 20,
        terrains: ['sand', 'water'],
      },
    });
    const atlas = sheet!.metadata.atlas!;
    expect(Object.keys(atlas).sort()).toEqual(['godot', 'tiled', 'tileset']);
    const text = async (key: string) => {
      const file = await api.downloadAsset(key);
      if (file.error) throw file.error;
      return new TextDecoder().decode(file.data.bytes);
    };
    expect(await text(atlas.godot!)).toContain('terrain_set_0/terrain_0/name = "sand"');
    expect(await text(atlas.tiled!)).toContain('<wangset name="sand / water" type="corner"');
    expect(JSON.parse(await text(atlas.tileset!)).tiles).toHaveLength(20);
  });
});
