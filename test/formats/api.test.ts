import type { AssetClient } from '@assetloom/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractTarget, mockTarget, serverTarget } from '../contract/targets.js';

/**
 * The engine formats through the API, on the msw mock and on the reference server alike: the
 * request's `params.animation` is validated by the contract (400 参数错误), kept on the task, and
 * every atlas file the assets list names downloads and carries the playback.
 */
describe.each([
  ['mock', mockTarget],
  ['server', serverTarget],
] as const)('engine formats on the %s', (_name, factory) => {
  let target: ContractTarget;
  let api: AssetClient;
  let projectId: string;

  beforeAll(async () => {
    target = await factory();
    api = target.client();
    const username = `formats_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const reg = await api.POST('/auth/register', { body: { username, password: 'formats-pass-1' } });
    if (reg.error) throw reg.error;
    const login = await api.login({ username, password: 'formats-pass-1' });
    if (login.error) throw login.error;
    const created = await api.POST('/api/v1/projects', { body: { name: 'Formats' } });
    if (created.error) throw created.error;
    projectId = created.data.id;
  }, 60_000);
  afterAll(() => target?.stop());

  it.each([
    ['durations for 2 frames of 3', { frameDurations: [100, 200] }],
    ['fps 0', { fps: 0 }],
    ['fps 61', { fps: 61 }],
    ['a loop mode Aseprite has no word for', { loop: 'yoyo' }],
    ['a duration of 0 ms', { frameDurations: [100, 0, 100] }],
    ['an unknown option', { speed: 2 }],
  ])('refuses %s with 400 参数错误', async (_case, animation) => {
    const res = await api.generate({
      projectId,
      prompt: 'a knight',
      assetType: 'animation',
      params: { frames: { directions: 4, framesPerDirection: 3 }, animation } as never,
    });
    expect(res.error?.code).toBe(400);
    expect(res.error?.message).toBe('参数错误');
  });

  it('keeps params.animation on the task and lists every engine file, each downloadable', async () => {
    const submitted = await api.generate({
      projectId,
      prompt: 'a walking knight',
      assetType: 'animation',
      params: {
        resolution: 32,
        frames: { directions: 4, framesPerDirection: 3 },
        animation: { frameDurations: [90, 180, 90], loop: 'pingpong' },
      },
    });
    if (submitted.error) throw submitted.error;
    const taskId = submitted.data.taskId;
    const done = await api.waitForTask(taskId, { transport: 'poll', pollIntervalMs: 20, timeoutMs: 60_000 });
    if (done.error) throw done.error;
    expect(done.data.status).toBe('completed');
    // defaults filled in (fps from the contract), the durations as sent
    expect(done.data.params.animation).toEqual({ fps: 8, loop: 'pingpong', frameDurations: [90, 180, 90] });

    const listed = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (listed.error) throw listed.error;
    expect(listed.data.assets).toHaveLength(1);
    const [sheet] = listed.data.assets;
    expect(sheet).toMatchObject({ format: 'png', width: 96, height: 128 });
    const atlas = sheet!.metadata.atlas!;
    expect(Object.keys(atlas).sort()).toEqual(
      ['aseprite', 'godot', 'phaser', 'phaserAnimations', 'texturePacker', 'unity'].sort(),
    );
    const text = async (key: string) => {
      const file = await api.downloadAsset(key);
      if (file.error) throw file.error;
      return new TextDecoder().decode(file.data.bytes);
    };
    const aseprite = JSON.parse(await text(atlas.aseprite!));
    expect(aseprite.frames.map((f: { duration: number }) => f.duration)).toEqual(
      Array.from({ length: 4 }, () => [90, 180, 90]).flat(),
    );
    expect(aseprite.meta.frameTags.map((t: { direction: string }) => t.direction)).toEqual(
      Array(4).fill('pingpong'),
    );
    const anims = JSON.parse(await text(atlas.phaserAnimations!));
    expect(anims.anims).toHaveLength(4);
    expect(anims.anims[0]).toMatchObject({ frameRate: 8, yoyo: true, repeat: -1 });
    const multi = JSON.parse(await text(atlas.phaser!));
    expect(multi.textures).toHaveLength(1);
    expect(multi.textures[0].image).toBe('animation.png');
    expect(await text(atlas.unity!)).toMatch(/^ {2}spriteMode: 2$/m);
    expect(await text(atlas.godot!)).toMatch(/^\[gd_resource type="SpriteFrames"/);
    const tp = JSON.parse(await text(atlas.texturePacker!));
    expect(Object.keys(tp.frames)).toHaveLength(12);
  });

  it('a sheet past 4096 px comes back as one asset per page, each with its own engine files', async () => {
    const submitted = await api.generate({
      projectId,
      prompt: 'a walking knight',
      assetType: 'animation',
      params: { resolution: 600, frames: { directions: 8, framesPerDirection: 2 } },
    });
    if (submitted.error) throw submitted.error;
    const taskId = submitted.data.taskId;
    const done = await api.waitForTask(taskId, { transport: 'poll', pollIntervalMs: 50, timeoutMs: 120_000 });
    if (done.error) throw done.error;
    expect(done.data.status).toBe('completed');
    const listed = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (listed.error) throw listed.error;
    const pages = listed.data.assets;
    expect(pages.map((a) => [a.key.slice(a.key.lastIndexOf('/') + 1), a.width, a.height])).toEqual([
      ['animation-0.png', 1200, 3600],
      ['animation-1.png', 1200, 1200],
    ]);
    for (const [page, asset] of pages.entries()) {
      expect(asset.metadata).toMatchObject({ page, pageCount: 2 });
      const atlas = asset.metadata.atlas!;
      const tp = await api.downloadAsset(atlas.texturePacker!);
      if (tp.error) throw tp.error;
      const json = JSON.parse(new TextDecoder().decode(tp.data.bytes));
      expect(json.meta.image).toBe(`animation-${page}.png`);
      expect(json.meta.related_multi_packs).toEqual([`animation-${1 - page}.json`]);
      const meta = await api.downloadAsset(atlas.unity!);
      if (meta.error) throw meta.error;
      expect(atlas.unity).toBe(`${asset.key}.meta`);
    }
    // the files over all pages are the same for both
    expect(pages[0]!.metadata.atlas!.phaser).toBe(pages[1]!.metadata.atlas!.phaser);
    const png = await api.downloadAsset(pages[1]!);
    if (png.error) throw png.error;
    expect(png.data.contentType).toMatch(/^image\/png/);
  }, 120_000);

  it('a request without animation keeps none on its task; one with other playback is another task', async () => {
    const body = {
      projectId,
      prompt: 'a hopping frog',
      assetType: 'sprite' as const,
      params: { resolution: 16, frames: { directions: 1 as const, framesPerDirection: 2 } },
    };
    const plain = await api.generate(body);
    const slow = await api.generate({ ...body, params: { ...body.params, animation: { fps: 2 } } });
    if (plain.error || slow.error) throw plain.error ?? slow.error;
    expect(slow.data.taskId).not.toBe(plain.data.taskId);
    for (const [id, animation] of [
      [plain.data.taskId, undefined],
      [slow.data.taskId, { fps: 2, loop: 'forward' }],
    ] as const) {
      const done = await api.waitForTask(id, { transport: 'poll', pollIntervalMs: 20, timeoutMs: 60_000 });
      if (done.error) throw done.error;
      expect(done.data.params.animation).toEqual(animation);
    }
  });
});
