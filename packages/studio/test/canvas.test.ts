import { join } from 'node:path';
import { createAssetClient } from '@assetloom/sdk';
import type { RunningServer } from '@assetloom/server';
import { type Browser, findChromium, launchChromium } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  artifacts,
  expectAccessible,
  pngSize,
  type StudioServer,
  startStudioServer,
  unzipDownload,
  watchProblems,
} from './helpers.js';

const chromium = findChromium();
if (!chromium.ok) console.warn(`[studio browser test] ⚠ SKIPPING: ${chromium.reason}`);
const shots = join(artifacts, 'canvas');

/**
 * Canvas sizes (issue #28) in the studio: the generate form offers presets and a custom width and
 * height for backgrounds and UI pieces only, the task keeps them, and the viewer shows a 320 × 180
 * background at its own aspect; a start button on a custom 96 × 48 canvas comes back as its four
 * states of 96 × 48. The built studio on the real reference server (its built-in generator) in Debian
 * Chromium.
 */
describe.skipIf(!chromium.ok)('the studio with non-square canvases', () => {
  let server: RunningServer;
  let browser: Browser;
  let studio: StudioServer;
  let url: string;

  beforeAll(async () => {
    studio = await startStudioServer('assetloom-studio-canvas-', shots);
    server = studio.server;
    url = `${server.url}/studio/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
  });

  it('generates a 320 × 180 background from a preset and shows it at its aspect', async () => {
    const api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    await api.POST('/auth/register', { body: { username: 'screens', password: 'screens-pass-1' } });
    await api.login({ username: 'screens', password: 'screens-pass-1' });
    const project = await api.POST('/api/v1/projects', { body: { name: 'Screens' } });
    const context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByLabel('Username').fill('screens');
    await page.getByLabel('Password').fill('screens-pass-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForSelector('.project-card');
    await page.getByRole('link', { name: 'Screens' }).click();

    // Sprites, animations and tilesets have no canvas choice; backgrounds and UI pieces do.
    const canvas = page.getByLabel('Canvas');
    for (const type of ['sprite', 'animation', 'tileset']) {
      await page.getByLabel('Asset type').selectOption(type);
      expect(await canvas.count(), type).toBe(0);
    }
    await page.getByLabel('Asset type').selectOption('ui');
    expect(await canvas.count()).toBe(1);
    await page.getByLabel('Asset type').selectOption('background');
    expect(await canvas.locator('option').allTextContents()).toEqual([
      'Square (resolution)',
      '320 × 180',
      '480 × 270',
      '640 × 360',
      '256 × 256',
      'Custom…',
    ]);
    // A preset replaces the resolution field (its size is the whole canvas).
    expect(await page.getByLabel('Resolution (px)').count()).toBe(1);
    await canvas.selectOption('320x180');
    expect(await page.getByLabel('Resolution (px)').count()).toBe(0);
    expect(await page.getByLabel('Width (px)').count()).toBe(0);
    await page.getByLabel('Description').fill('a sunny meadow with hills');
    await expectAccessible(page, 'the generate form with a canvas preset');
    await page.screenshot({ path: join(shots, '01-canvas-form.png'), fullPage: true });
    await page.getByTestId('generate').click();
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 90_000 })
      .toBe('completed');
    const listed = await api.GET('/api/v1/projects/{projectId}/tasks', {
      params: { path: { projectId: project.id } },
    });
    const task = await api.GET('/api/v1/tasks/{taskId}', {
      params: { path: { taskId: listed.tasks[0]!.id } },
    });
    expect(task.params).toMatchObject({ width: 320, height: 180 });

    // The viewer shows the picture at its own aspect, never squeezed into a square.
    await page.getByRole('link', { name: 'Open in viewer →' }).click();
    const sheet = page.getByTestId('sheet-image');
    await sheet.waitFor();
    const shown = await sheet.evaluate((img) => {
      const i = img as HTMLImageElement;
      const box = i.getBoundingClientRect();
      return { natural: [i.naturalWidth, i.naturalHeight], box: [box.width, box.height] };
    });
    expect(shown.natural).toEqual([320, 180]);
    expect(shown.box[0]! / shown.box[1]!).toBeCloseTo(320 / 180, 2);
    expect(await page.locator('.sheet-panel .muted.mono').textContent()).toContain('320×180px');
    // the task line names the canvas, not the resolution it did not use
    expect(await page.locator('.page-head p.muted').first().textContent()).toContain('320×180px');
    // A still picture has nothing to play: no animation preview and no player (issue #32).
    expect(await page.getByTestId('preview-canvas').count()).toBe(0);
    expect(await page.getByTestId('play-pause').count()).toBe(0);
    await expectAccessible(page, 'the viewer of a 320 × 180 background');
    await page.screenshot({ path: join(shots, '02-canvas-viewer.png'), fullPage: true });
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-zip').click(),
    ]);
    const files = await unzipDownload(zip, join(shots, 'background.zip'));
    expect(pngSize(files['background.png']!)).toEqual([320, 180]);

    // A custom canvas for a UI piece: its width and height go into the request as typed, and every
    // state of the button is drawn at that size.
    await page.goto(`${url}#/projects/${project.id}`);
    await page.getByLabel('Asset type').selectOption('ui');
    await page.getByLabel('Canvas').selectOption('custom');
    await page.getByLabel('Width (px)').fill('96');
    await page.getByLabel('Height (px)').fill('48');
    await page.getByLabel('Description').fill('a start button');
    await page.getByTestId('generate').click();
    await expect
      .poll(
        async () =>
          (
            await api.GET('/api/v1/projects/{projectId}/tasks', {
              params: { path: { projectId: project.id } },
            })
          ).total,
      )
      .toBe(2);
    const latest = await api.GET('/api/v1/projects/{projectId}/tasks', {
      params: { path: { projectId: project.id } },
    });
    const ui = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: latest.tasks[0]!.id } } });
    expect(ui.assetType).toBe('ui');
    expect(ui.params).toMatchObject({ width: 96, height: 48 });
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 90_000 })
      .toBe('completed');
    const { assets } = await api.GET('/api/v1/tasks/{taskId}/assets', {
      params: { path: { taskId: latest.tasks[0]!.id } },
    });
    const button = assets.find((a) => a.format === 'png')!;
    expect([button.width, button.height]).toEqual([4 * 96, 48]);
    expect(button.metadata).toMatchObject({
      frameWidth: 96,
      frameHeight: 48,
      frameCount: 4,
      uiKind: 'button',
    });
    expect(button.metadata.nineSlice).toBeDefined();
    expect(pngSize((await api.downloadAsset(button)).bytes)).toEqual([384, 48]);
    // A size outside 16–1024 is refused by the form itself (the input's range), and no task is made.
    await page.getByLabel('Width (px)').fill('2000');
    await page.getByTestId('generate').click();
    expect(
      await page
        .getByLabel('Width (px)')
        .evaluate((input) => (input as HTMLInputElement).validity.rangeOverflow),
    ).toBe(true);
    expect(
      (await api.GET('/api/v1/projects/{projectId}/tasks', { params: { path: { projectId: project.id } } }))
        .total,
    ).toBe(2);
    expect(problems).toEqual([]);
    await context.close();
  });
});
