import { join } from 'node:path';
import { encodePng } from '@assetloom/pipeline';
import { createAssetClient } from '@assetloom/sdk';
import type { RunningServer } from '@assetloom/server';
import { type Browser, findChromium, launchChromium } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  artifacts,
  expectAccessible,
  type StudioServer,
  startStudioServer,
  watchProblems,
} from './helpers.js';

const chromium = findChromium();
if (!chromium.ok) console.warn(`[studio browser test] ⚠ SKIPPING: ${chromium.reason}`);
const shots = join(artifacts, 'pictures');

/** A 96 × 96 picture: a figure (blue body, skin-coloured head) on a flat light backdrop. */
function figurePng(): Buffer {
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
  return Buffer.from(encodePng(data, 96, 96));
}

/** Four colours in stripes: a palette picture. */
function palettePng(): Buffer {
  const colours = [
    [30, 20, 60],
    [200, 60, 60],
    [250, 220, 120],
    [90, 160, 90],
  ];
  const data = new Uint8Array(16 * 4 * 4);
  for (let y = 0; y < 4; y++) for (let x = 0; x < 16; x++) data.set([...colours[y]!, 255], (y * 16 + x) * 4);
  return Buffer.from(encodePng(data, 16, 4));
}

/**
 * Pictures in (issue #31) in the studio: a picture dropped on the generate form is uploaded and
 * pixelated (strength 0) and a palette taken from another picture; a redraw with a mask, which the
 * built-in generator cannot do (GET /api/v1/capabilities), is offered disabled with the reason. The
 * built studio on the real reference server in Debian Chromium.
 */
describe.skipIf(!chromium.ok)('the studio with pictures in', () => {
  let server: RunningServer;
  let browser: Browser;
  let studio: StudioServer;
  let url: string;

  beforeAll(async () => {
    studio = await startStudioServer('assetloom-studio-pictures-', shots);
    server = studio.server;
    url = `${server.url}/studio/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
  });

  it('pixelates a dropped picture into a palette from another, and offers no redraw the server cannot do', async () => {
    const api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    await api.POST('/auth/register', { body: { username: 'painter', password: 'painter-pass-1' } });
    await api.login({ username: 'painter', password: 'painter-pass-1' });
    const project = await api.POST('/api/v1/projects', { body: { name: 'Pictures' } });
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByLabel('Username').fill('painter');
    await page.getByLabel('Password').fill('painter-pass-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForSelector('.project-card');
    await page.getByRole('link', { name: 'Pictures' }).click();

    // a picture over the server's side limit: the message names the limit and the picture's side
    await page
      .getByTestId('picture-drop')
      .locator('input[type=file]')
      .setInputFiles({
        name: 'banner.png',
        mimeType: 'image/png',
        buffer: Buffer.from(encodePng(new Uint8Array(5000 * 4).fill(200), 5000, 1)),
      });
    await expect
      .poll(() => page.getByTestId('picture-drop').getByRole('alert').textContent())
      .toBe('The image dimensions are too large (at most 4,096 px per side; this one: 5,000 px)');
    await page
      .getByTestId('picture-drop')
      .locator('input[type=file]')
      .setInputFiles({ name: 'figure.png', mimeType: 'image/png', buffer: figurePng() });
    await page.getByText('96 × 96 png').waitFor();
    await page
      .getByTestId('palette-drop')
      .locator('input[type=file]')
      .setInputFiles({ name: 'palette.png', mimeType: 'image/png', buffer: palettePng() });
    await page.getByLabel('Colours from the picture').selectOption('4');
    await page.getByLabel('Description').fill('pixelate my figure');
    await expectAccessible(page, 'the generate form with a picture and a palette picture');
    await page.screenshot({ path: join(shots, '01-picture-form.png'), fullPage: true });
    await page.getByTestId('generate').click();
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 90_000 })
      .toMatch(/^(completed|failed)$/);
    const first = (
      await api.GET('/api/v1/projects/{projectId}/tasks', { params: { path: { projectId: project.id } } })
    ).tasks[0]!;
    const pixelated = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: first.id } } });
    expect(pixelated.status, `${pixelated.error} ${JSON.stringify(pixelated.params)}`).toBe('completed');
    expect(pixelated.params).toMatchObject({ image: { strength: 0 }, paletteFrom: { maxColors: 4 } });

    // the default server draws with the built-in generator, which cannot redraw or inpaint: its
    // capabilities say so, and "Redraw" is offered disabled with the reason (it was offered and failed)
    const redraw = page.getByRole('option', { name: 'Redraw it (model provider)' });
    await expect.poll(() => redraw.isDisabled()).toBe(true);
    await expect
      .poll(() => page.getByTestId('needs-model').textContent())
      .toMatch(/need a model provider such as ComfyUI \(this server draws with "procedural"\)/);
    expect(await page.getByTestId('mask-canvas').count()).toBe(0);
    await page.screenshot({ path: join(shots, '02-needs-model.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
