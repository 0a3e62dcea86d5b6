import { decodePng } from '@assetloom/pipeline';
import type { AssetClient } from '@assetloom/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractTarget, mockTarget, serverTarget } from '../contract/targets.js';

/**
 * Canvas sizes (issue #28) through the SDK on the msw mock and on the reference server alike: a
 * 320 × 180 background is accepted by the SDK's types and by both, the task keeps its canvas, bad
 * sizes answer 400 参数错误 as the SDK's error; the built-in generator draws a background and a
 * button's every state on the canvas asked for.
 */

describe.each([
  ['mock', mockTarget],
  ['server', serverTarget],
] as const)('canvas sizes on the %s', (_name, factory) => {
  let target: ContractTarget;
  let api: AssetClient;
  let projectId: string;

  beforeAll(async () => {
    target = await factory();
    api = target.client();
    const username = `canvas_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const reg = await api.POST('/auth/register', { body: { username, password: 'canvas-pass-1' } });
    if (reg.error) throw reg.error;
    const login = await api.login({ username, password: 'canvas-pass-1' });
    if (login.error) throw login.error;
    const created = await api.POST('/api/v1/projects', { body: { name: 'Screens' } });
    if (created.error) throw created.error;
    projectId = created.data.id;
  }, 60_000);
  afterAll(() => target?.stop());

  it('accepts a 320 × 180 background and keeps its canvas on the task', async () => {
    const submitted = await api.generate({
      projectId,
      prompt: 'a sunny beach with palm trees',
      assetType: 'background',
      params: { width: 320, height: 180 },
    });
    if (submitted.error) throw submitted.error;
    const { taskId } = submitted.data;
    const read = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } });
    if (read.error) throw read.error;
    expect(read.data.params).toEqual({ resolution: 64, format: 'spritesheet', width: 320, height: 180 });
    // let it end before the target stops (how it ends is the generator's business)
    await api.waitForTask(taskId, { transport: 'poll', pollIntervalMs: 20, timeoutMs: 60_000 });
  });

  it.each([
    ['a sprite with a canvas', 'sprite', { width: 320, height: 180 }],
    ['a width of 15', 'background', { width: 15, height: 180 }],
    ['a height of 1025', 'ui', { width: 64, height: 1025 }],
    ['a fractional width', 'background', { width: 319.5, height: 180 }],
    ['a string', 'background', { width: '320' }],
  ] as const)('refuses %s with 400 参数错误', async (_case, assetType, params) => {
    const res = await api.generate({ projectId, prompt: 'a beach', assetType, params: params as never });
    expect(res.error?.code).toBe(400);
    expect(res.error?.message).toBe('参数错误');
  });

  it('completes a 320 × 180 background with a PNG of 320 × 180', async () => {
    const submitted = await api.generate({
      projectId,
      prompt: 'a desert with pyramids at sunset',
      assetType: 'background',
      params: { width: 320, height: 180 },
    });
    if (submitted.error) throw submitted.error;
    const { taskId } = submitted.data;
    const done = await api.waitForTask(taskId, { transport: 'poll', pollIntervalMs: 20, timeoutMs: 60_000 });
    if (done.error) throw done.error;
    expect(done.data.status).toBe('completed');
    const listed = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (listed.error) throw listed.error;
    const png = listed.data.assets.find((a) => a.format === 'png')!;
    expect([png.width, png.height]).toEqual([320, 180]);
    const file = await api.downloadAsset(png);
    if (file.error) throw file.error;
    const decoded = decodePng(file.data.bytes);
    expect(decoded.ok && [decoded.image.width, decoded.image.height]).toEqual([320, 180]);
  });

  it('completes a start button at 96 × 48: four states of 96 × 48 in one sheet, named in its atlas, with 9-slice data', async () => {
    const submitted = await api.generate({
      projectId,
      prompt: 'a start button',
      assetType: 'ui',
      params: { width: 96, height: 48 },
    });
    if (submitted.error) throw submitted.error;
    const { taskId } = submitted.data;
    const done = await api.waitForTask(taskId, { transport: 'poll', pollIntervalMs: 20, timeoutMs: 60_000 });
    if (done.error) throw done.error;
    expect(done.data.status, done.data.error ?? '').toBe('completed');
    const listed = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (listed.error) throw listed.error;
    const pngs = listed.data.assets.filter((a) => a.format === 'png');
    expect(pngs).toHaveLength(1);
    const sheet = pngs[0]!;
    // the four states side by side, each the canvas asked for
    expect(sheet.key.endsWith('/ui-button.png')).toBe(true);
    expect([sheet.width, sheet.height]).toEqual([4 * 96, 48]);
    expect(sheet.metadata).toMatchObject({
      frameWidth: 96,
      frameHeight: 48,
      frameCount: 4,
      uiKind: 'button',
    });
    const nine = sheet.metadata.nineSlice as Record<'left' | 'right' | 'top' | 'bottom', number>;
    expect(nine.left + nine.right).toBeLessThan(96);
    expect(nine.top + nine.bottom).toBeLessThan(48);
    expect(Math.min(nine.left, nine.right, nine.top, nine.bottom)).toBeGreaterThan(0);
    const file = await api.downloadAsset(sheet);
    if (file.error) throw file.error;
    const decoded = decodePng(file.data.bytes);
    expect(decoded.ok && [decoded.image.width, decoded.image.height]).toEqual([384, 48]);
    // the atlas an engine loads names each state and cuts it at 96 × 48
    const atlasKey = (sheet.metadata.atlas as { texturePacker: string }).texturePacker;
    const json = await api.downloadAsset(atlasKey);
    if (json.error) throw json.error;
    const atlas = JSON.parse(new TextDecoder().decode(json.data.bytes)) as {
      frames: Record<string, { frame: { x: number; y: number; w: number; h: number } }>;
    };
    expect(Object.keys(atlas.frames)).toEqual([
      'button_normal',
      'button_hover',
      'button_pressed',
      'button_disabled',
    ]);
    expect(Object.values(atlas.frames).map((f) => f.frame)).toEqual(
      [0, 1, 2, 3].map((i) => ({ x: i * 96, y: 0, w: 96, h: 48 })),
    );
  });
});
