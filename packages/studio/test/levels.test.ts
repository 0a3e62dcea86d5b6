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
const shots = join(artifacts, 'levels');

/** Every file a level writes (issue #42), by the name the downloads give it. */
const LEVEL_FILES = [
  'level-props.png',
  'level-props.tsx',
  'level-tiles.png',
  'level.json',
  'level.ldtk',
  'level.png',
  'level.tmj',
  'level.tmx',
  'level.tres',
  'level.tscn',
  'level.tsx',
];

/**
 * Levels (issue #42) in the studio: made from the form, drawn from their level.json layer by layer
 * (with tiles and props on, the canvas is the level's preview PNG pixel for pixel), each engine's
 * files downloaded. The built studio on the real reference server in Debian Chromium.
 */
describe.skipIf(!chromium.ok)('the studio with levels', () => {
  let server: RunningServer;
  let browser: Browser;
  let studio: StudioServer;

  beforeAll(async () => {
    studio = await startStudioServer('assetloom-studio-levels-', shots);
    server = studio.server;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
  });

  it('generates a level from the form, shows it with layer toggles and downloads every engine’s files', async () => {
    const api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    await api.POST('/auth/register', { body: { username: 'mapper', password: 'mapper-pass-1' } });
    await api.login({ username: 'mapper', password: 'mapper-pass-1' });
    const project = await api.POST('/api/v1/projects', { body: { name: 'Overworld' } });
    const context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    await page.goto(`${server.url}/studio/`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByLabel('Username').fill('mapper');
    await page.getByLabel('Password').fill('mapper-pass-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForSelector('.project-card');
    await page.getByRole('link', { name: 'Overworld' }).click();

    await page.getByLabel('Description').fill('a lake in the west and a forest in the east');
    await page.getByLabel('Asset type').selectOption('level');
    // a level has a size in tiles and a tile size, no resolution or sheet format
    expect(await page.getByLabel('Resolution (px)').count()).toBe(0);
    await page.getByLabel('Width (tiles)').fill('24');
    await page.getByLabel('Height (tiles)').fill('16');
    await page.getByLabel('Tile size (px)').fill('16');
    await expectAccessible(page, 'the generate form for a level');
    await page.getByTestId('generate').click();
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 120_000 })
      .toBe('completed');
    const listed = await api.GET('/api/v1/projects/{projectId}/tasks', {
      params: { path: { projectId: project.id } },
    });
    const task = await api.GET('/api/v1/tasks/{taskId}', {
      params: { path: { taskId: listed.tasks[0]!.id } },
    });
    expect(task.assetType).toBe('level');
    expect(task.params.level).toMatchObject({ columns: 24, rows: 16, tileSize: 16 });

    await page.getByRole('link', { name: /Open in viewer/ }).click();
    const canvas = page.getByTestId('level-canvas');
    await canvas.waitFor();
    expect(await canvas.getAttribute('data-layers')).toBe('tiles,props');
    /** Pixels of the canvas that differ from the preview PNG the sheet view shows. */
    const differing = () =>
      page.evaluate(() => {
        const c = document.querySelector('[data-testid="level-canvas"]') as HTMLCanvasElement;
        const img = document.querySelector('[data-testid="sheet-image"]') as HTMLImageElement;
        const o = document.createElement('canvas');
        o.width = img.naturalWidth;
        o.height = img.naturalHeight;
        const octx = o.getContext('2d')!;
        octx.drawImage(img, 0, 0);
        if (o.width !== c.width || o.height !== c.height) return -1;
        const a = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        const b = octx.getImageData(0, 0, o.width, o.height).data;
        let n = 0;
        for (let i = 0; i < a.length; i += 4)
          if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2] || a[i + 3] !== b[i + 3]) n++;
        return n;
      });
    // tiles and props, as an engine draws them from the files, are the preview
    await expect.poll(differing).toBe(0);
    await shot('01-level-viewer');
    // props off: the trees are gone; collision and places on: the canvas marks them
    await page.getByTestId('layer-props').uncheck();
    expect(await canvas.getAttribute('data-layers')).toBe('tiles');
    await expect.poll(differing).toBeGreaterThan(0);
    await page.getByTestId('layer-props').check();
    await expect.poll(differing).toBe(0);
    await page.getByTestId('layer-collision').check();
    await page.getByTestId('layer-places').check();
    expect(await canvas.getAttribute('data-layers')).toBe('tiles,props,collision,places');
    await expect.poll(differing).toBeGreaterThan(0);
    await expectAccessible(page, 'the level viewer');
    await shot('02-level-layers');

    // every engine's files, one by one and zipped
    for (const [testId, name] of [
      ['download-tiled', 'level.tmx'],
      ['download-tiledJson', 'level.tmj'],
      ['download-tiledTileset', 'level.tsx'],
      ['download-ldtk', 'level.ldtk'],
      ['download-tres', 'level.tscn'],
      ['download-godotTileSet', 'level.tres'],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
      // named after the prompt and the file (issue #41); the zip keeps the engines' own names
      expect(download.suggestedFilename()).toBe(`lake-in-the-west-and-a-forest-in-the_${name}`);
    }
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-zip').click(),
    ]);
    const files = await unzipDownload(zip, join(shots, 'level.zip'));
    expect(Object.keys(files).sort()).toEqual(LEVEL_FILES);
    expect(pngSize(files['level.png']!)).toEqual([24 * 16, 16 * 16]);
    expect(new TextDecoder().decode(files['level.tscn'])).toContain('type="TileMapLayer"');
    expect(new TextDecoder().decode(files['level.tmx'])).toContain('<map ');
    expect(JSON.parse(new TextDecoder().decode(files['level.ldtk'])).levels).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});
