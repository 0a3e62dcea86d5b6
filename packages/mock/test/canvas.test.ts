import { decodePng, renderProcedural } from '@assetloom/pipeline';
import { type AssetClient, createAssetClient } from '@assetloom/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetMock } from '../src/index.js';

// params.width / params.height (issue #28) on the mock: it runs the real domain and pipeline, so a
// background or UI piece on a canvas of its own is accepted, normalized, deduplicated and refused
// (400 参数错误) exactly as on the server.

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

/**
 * Whether the built-in generator draws at `request.width × request.height` yet (its background and
 * UI drawing is being rewritten for #28 part 2); until then the completion test below is skipped.
 */
const builtInDrawsCanvas = await renderProcedural({
  assetType: 'background',
  prompt: 'a meadow',
  userPrompt: 'a meadow',
  tags: [],
  style: {},
  resolution: 64,
  width: 320,
  height: 180,
  directions: 1,
  framesPerDirection: 1,
  seed: 1,
  attempt: 0,
}).then((out) => out.frames[0]?.width === 320 && out.frames[0]?.height === 180);

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
    ['a sprite with a canvas', 'sprite', { width: 320, height: 180 }],
    ['an animation with a width', 'animation', { width: 320 }],
    ['a tileset with a height', 'tileset', { height: 64 }],
    ['a width below 16', 'background', { width: 8, height: 180 }],
    ['a height above 1024', 'ui', { width: 64, height: 4096 }],
    ['a fractional width', 'background', { width: 320.5, height: 180 }],
    ['a string height', 'background', { width: 320, height: '180' }],
  ] as const)('refuses %s with 400 参数错误', async (_name, assetType, params) => {
    const res = await fetch(`${BASE}/api/v1/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.token}` },
      body: JSON.stringify({ projectId, prompt: 'a beach', assetType, params }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 400, message: '参数错误', data: null });
  });

  it.skipIf(!builtInDrawsCanvas)('completes a 480 × 270 background with a PNG of 480 × 270', async () => {
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
});
