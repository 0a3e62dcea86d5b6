import { decodePng } from '@assetloom/pipeline';
import { type AssetClient, createAssetClient } from '@assetloom/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetMock } from '../src/index.js';

// params.width / params.height (issue #28) on the mock: it runs the real domain and pipeline, so a
// background or UI piece on a canvas of its own is accepted, normalized, deduplicated and refused
// (400 参数错误) exactly as on the server, and the built-in generator draws a background, a bar's two states
// and a button's four on the canvas asked for.

const BASE = 'http://canvas.mock.test';
const mock = createAssetMock({
  baseUrl: BASE,
  clock: 'manual',
  stepMs: 1000,
  seed: {
    users: [{ username: 'ada', password: 'secret123' }],
    projects: [{ owner: 'ada', name: 'Screens' }],
  },
});
const server = setupServer(...mock.handlers);
const { controls } = mock;

let api: AssetClient;
let projectId: string;
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await controls.ready;
  api = createAssetClient({ baseUrl: BASE, WebSocket: controls.WebSocket, retry: { limit: 0 } });
  const login = await api.login({ username: 'ada', password: 'secret123' });
  if (login.error) throw login.error;
  projectId = controls.seeded.projects.Screens as string;
});
afterAll(async () => {
  await controls.close();
  server.close();
});

describe('canvas sizes on the mock', () => {
  it('accepts a 320 × 180 background and keeps its canvas on the task', async () => {
    const submitted = await api.generate({
      projectId,
      prompt: 'a sunny beach',
      assetType: 'background',
      params: { width: 320, height: 180 },
    });
    if (submitted.error) throw submitted.error;
    const task = await api.GET('/api/v1/tasks/{taskId}', {
      params: { path: { taskId: submitted.data.taskId } },
    });
    if (task.error) throw task.error;
    expect(task.data.params).toEqual({ resolution: 64, format: 'spritesheet', width: 320, height: 180 });
    // the same size while it runs is the same task; another size is another one
    const again = await api.generate({
      projectId,
      prompt: 'a sunny beach',
      assetType: 'background',
      params: { width: 320, height: 180 },
    });
    expect(again.data?.taskId).toBe(submitted.data.taskId);
    const other = await api.generate({
      projectId,
      prompt: 'a sunny beach',
      assetType: 'background',
      params: { width: 480, height: 270 },
    });
    expect(other.data?.taskId).toBeDefined();
    expect(other.data?.taskId).not.toBe(submitted.data.taskId);
    // one side given: the other is the resolution
    const ui = await api.generate({
      projectId,
      prompt: 'a stone panel',
      assetType: 'ui',
      params: { height: 48 },
    });
    if (ui.error) throw ui.error;
    const uiTask = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: ui.data.taskId } } });
    expect(uiTask.data?.params).toMatchObject({ width: 64, height: 48 });
  });

  it.each([
    ['a sprite with a canvas', 'sprite', { width: 320, height: 180 }, '/params/width'],
    ['an animation with a width', 'animation', { width: 320 }, '/params/width'],
    ['a tileset with a height', 'tileset', { height: 64 }, '/params/height'],
    ['a width below 16', 'background', { width: 8, height: 180 }, '/params/width'],
    ['a height above 1024', 'ui', { width: 64, height: 4096 }, '/params/height'],
    ['a fractional width', 'background', { width: 320.5, height: 180 }, '/params/width'],
    ['a string height', 'background', { width: 320, height: '180' }, '/params/height'],
  ] as const)('refuses %s with 400 参数错误', async (_name, assetType, params, field) => {
    const res = await fetch(`${BASE}/api/v1/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.token}` },
      body: JSON.stringify({ projectId, prompt: 'a beach', assetType, params }),
    });
    expect(res.status).toBe(400);
    // The refused field is named (decision 0037).
    expect(await res.json()).toEqual({
      code: 400,
      message: '参数错误',
      data: {
        reason: 'invalid_request',
        errors: expect.arrayContaining([expect.objectContaining({ in: 'body', path: field })]),
      },
    });
  });

  it('completes a 480 × 270 background with a PNG of 480 × 270', async () => {
    const submitted = await api.generate({
      projectId,
      prompt: 'a harbour at night',
      assetType: 'background',
      params: { width: 480, height: 270 },
    });
    if (submitted.error) throw submitted.error;
    const { taskId } = submitted.data;
    await controls.runToCompletion(taskId);
    const assets = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (assets.error) throw assets.error;
    const png = assets.data.assets.find((a) => a.format === 'png')!;
    expect([png.width, png.height]).toEqual([480, 270]);
    const file = await api.downloadAsset(png);
    if (file.error) throw file.error;
    const decoded = decodePng(file.data.bytes);
    expect(decoded.ok && [decoded.image.width, decoded.image.height]).toEqual([480, 270]);
  });

  it('completes a red health bar at 96 × 16: empty and full, each 96 × 16, with 9-slice data', async () => {
    const submitted = await api.generate({
      projectId,
      prompt: 'a red health bar',
      assetType: 'ui',
      params: { width: 96, height: 16 },
    });
    if (submitted.error) throw submitted.error;
    const { taskId } = submitted.data;
    await controls.runToCompletion(taskId);
    const task = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } });
    expect(task.data?.status, task.data?.error ?? '').toBe('completed');
    const assets = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (assets.error) throw assets.error;
    const sheet = assets.data.assets.find((a) => a.format === 'png')!;
    expect(sheet.key.endsWith('/ui-bar.png')).toBe(true);
    expect([sheet.width, sheet.height]).toEqual([192, 16]);
    expect(sheet.metadata).toMatchObject({ frameWidth: 96, frameHeight: 16, frameCount: 2, uiKind: 'bar' });
    expect(sheet.metadata.nineSlice).toMatchObject({ left: expect.any(Number), right: expect.any(Number) });
    const png = await api.downloadAsset(sheet);
    if (png.error) throw png.error;
    const decoded = decodePng(png.data.bytes);
    expect(decoded.ok && [decoded.image.width, decoded.image.height]).toEqual([192, 16]);
    const json = await api.downloadAsset((sheet.metadata.atlas as { texturePacker: string }).texturePacker);
    if (json.error) throw json.error;
    const atlas = JSON.parse(new TextDecoder().decode(json.data.bytes)) as {
      frames: Record<string, { frame: { x: number; y: number; w: number; h: number } }>;
    };
    expect(atlas.frames).toEqual({
      bar_empty: expect.objectContaining({ frame: { x: 0, y: 0, w: 96, h: 16 } }),
      bar_full: expect.objectContaining({ frame: { x: 96, y: 0, w: 96, h: 16 } }),
    });
  });

  it('completes a start button at 96 × 48 as individual files: one 96 × 48 PNG a state', async () => {
    const submitted = await api.generate({
      projectId,
      prompt: 'a start button',
      assetType: 'ui',
      params: { width: 96, height: 48, format: 'individual' },
    });
    if (submitted.error) throw submitted.error;
    const { taskId } = submitted.data;
    await controls.runToCompletion(taskId);
    const task = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } });
    expect(task.data?.status, task.data?.error ?? '').toBe('completed');
    const assets = await api.GET('/api/v1/tasks/{taskId}/assets', { params: { path: { taskId } } });
    if (assets.error) throw assets.error;
    const pngs = assets.data.assets
      .filter((a) => a.format === 'png')
      .sort((a, b) => Number(a.metadata.frameIndex) - Number(b.metadata.frameIndex));
    expect(pngs.map((a) => a.key.slice(a.key.lastIndexOf('/') + 1))).toEqual([
      'ui-button_normal.png',
      'ui-button_hover.png',
      'ui-button_pressed.png',
      'ui-button_disabled.png',
    ]);
    for (const asset of pngs) {
      expect(asset.metadata, asset.key).toMatchObject({ frameWidth: 96, frameHeight: 48, frameCount: 4 });
      expect(asset.metadata.nineSlice, asset.key).toBeDefined();
      const file = await api.downloadAsset(asset);
      if (file.error) throw file.error;
      const decoded = decodePng(file.data.bytes);
      expect(decoded.ok && [decoded.image.width, decoded.image.height], asset.key).toEqual([96, 48]);
    }
  });

  it('fails a button whose words do not fit the canvas asked for, saying the size they need', async () => {
    const submitted = await api.generate({
      projectId,
      prompt: 'a button that says "Continue"',
      assetType: 'ui',
      params: { width: 48, height: 16 },
    });
    if (submitted.error) throw submitted.error;
    const { taskId } = submitted.data;
    await controls.runToCompletion(taskId);
    const task = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId } } });
    expect(task.data?.status).toBe('failed');
    expect(task.data?.error).toContain('"Continue" need 76 × 16 px; the canvas is 48 × 16');
  });
});
