import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAssetClient } from '@assetloom/sdk';
import type { RunningServer } from '@assetloom/server';
import { type Browser, findChromium, launchChromium } from '@assetloom/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  artifacts,
  expectAccessible,
  expectMapFollowsRules,
  pngSize,
  SPRITE_FILES,
  type StudioServer,
  startStudioServer,
  unzipDownload,
  watchProblems,
} from './helpers.js';

const chromium = findChromium();
if (!chromium.ok) console.warn(`[studio browser test] ⚠ SKIPPING: ${chromium.reason}`);
const shots = join(artifacts, 'engines');

/**
 * What issue #18 added, seen through the studio: tilesets (form, tile grid, a map painted by the
 * set's own rules, the Godot/Tiled/JSON files) and the engine sheet formats (playback options,
 * per-frame durations, ping-pong, pages past 4096 px, every engine file downloadable). The built
 * studio on the real reference server (embedded store, procedural generator) in Debian Chromium.
 */
describe.skipIf(!chromium.ok)('the studio with tilesets and engine formats', () => {
  let server: RunningServer;
  let browser: Browser;
  let studio: StudioServer;
  let url: string;

  beforeAll(async () => {
    studio = await startStudioServer('assetloom-studio-engines-', shots);
    server = studio.server;
    url = `${server.url}/studio/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
  });

  /** A user with one project, logged in in a new page. */
  async function signedIn(name: string, locale: string) {
    const api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    await api.POST('/auth/register', { body: { username: name, password: `${name}-pass-1` } });
    await api.login({ username: name, password: `${name}-pass-1` });
    const project = await api.POST('/api/v1/projects', { body: { name: 'Overworld' } });
    const context = await browser.newContext({
      locale,
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    const en = locale.startsWith('en');
    await page.getByLabel(en ? 'Username' : '用户名').fill(name);
    await page.getByLabel(en ? 'Password' : '密码').fill(`${name}-pass-1`);
    await page.getByRole('button', { name: en ? 'Log in' : '登录' }).click();
    await page.waitForSelector('.project-card');
    return { api, project, context, page, problems };
  }

  const zipOf = async (page: Page, saveAs: string) => {
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-zip').click(),
    ]);
    return unzipDownload(zip, join(shots, saveAs));
  };

  it('generates a wang16 tileset from the form, shows its tile grid and a map painted by its rules, and zips its engine files', async () => {
    const { api, project, context, page, problems } = await signedIn('tiler', 'zh-CN');
    const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    await page.getByRole('link', { name: 'Overworld' }).click();
    await page.getByLabel('描述').fill('grass and water');
    await page.getByLabel('资源类型').selectOption('tileset');
    // A tileset has no resolution, format or frames: its own kind and tile size instead.
    expect(await page.getByLabel('分辨率（像素）').count()).toBe(0);
    expect(await page.getByLabel('每方向帧数').count()).toBe(0);
    await page.getByLabel('图块类型').selectOption('wang16');
    await page.getByLabel('图块尺寸（像素）').fill('16');
    await expectAccessible(page, 'the generate form for a tileset');
    await shot('01-tileset-form');
    await page.getByTestId('generate').click();
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 90_000 })
      .toBe('已完成');
    const listed = await api.GET('/api/v1/projects/{projectId}/tasks', {
      params: { path: { projectId: project.id } },
    });
    const task = await api.GET('/api/v1/tasks/{taskId}', {
      params: { path: { taskId: listed.tasks[0]!.id } },
    });
    expect(task.assetType).toBe('tileset');
    expect(task.params.tileset).toEqual({ kind: 'wang16', tileSize: 16 });

    await page.getByRole('link', { name: '打开查看器 →' }).click();
    await page.getByTestId('map-canvas').waitFor();
    const sheet = page.getByTestId('sheet-image');
    expect(
      await sheet.evaluate((img) => [
        (img as HTMLImageElement).naturalWidth,
        (img as HTMLImageElement).naturalHeight,
      ]),
    ).toEqual([64, 80]);
    // No animation preview for tiles; the tile grid is one cell per 16 px tile at the zoom shown.
    expect(await page.getByTestId('preview-canvas').count()).toBe(0);
    await page.getByRole('button', { name: '2×' }).click();
    await page.getByRole('button', { name: '图块网格' }).click();
    expect(await page.getByTestId('frame-grid').evaluate((el) => getComputedStyle(el).backgroundSize)).toBe(
      '32px 32px, 32px 32px',
    );
    expect(await page.locator('.sheet-panel .muted.mono').textContent()).toContain('wang16');

    // The zip: the PNG, the Godot TileSet, the Tiled tileset and the JSON description.
    const files = await zipOf(page, 'tileset.zip');
    expect(Object.keys(files).sort()).toEqual(['tileset.json', 'tileset.png', 'tileset.tres', 'tileset.tsx']);
    expect(pngSize(files['tileset.png']!)).toEqual([64, 80]);
    expect(new TextDecoder().decode(files['tileset.tres'])).toContain('[gd_resource type="TileSet"');
    expect(new TextDecoder().decode(files['tileset.tsx'])).toContain('<wangset');
    const description = JSON.parse(new TextDecoder().decode(files['tileset.json']));
    expect(description).toMatchObject({ kind: 'wang16', tileSize: 16 });
    expect(description.tiles).toHaveLength(20);
    // One file at a time: named after the prompt, its text naming the renamed picture (issue #41),
    // so that two assets' files sit in one Godot folder.
    for (const [testId, name, names] of [
      ['download-tres', 'grass-and-water_tileset.tres', 'res://grass-and-water_tileset.png'],
      ['download-tiled', 'grass-and-water_tileset.tsx', '"grass-and-water_tileset.png"'],
      ['download-tileset', 'grass-and-water_tileset.json', undefined],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
      expect(download.suggestedFilename()).toBe(name);
      if (names) expect(readFileSync(await download.path(), 'utf8')).toContain(names);
    }

    // The painted map: every cell found its tile, and every joint joins corners of one terrain.
    const map = page.getByTestId('map-canvas');
    const first = await expectMapFollowsRules(page, description);
    // The canvas really holds the tiles: a drawn pixel is opaque.
    expect(
      await map.evaluate((canvas) => {
        const c = canvas as HTMLCanvasElement;
        return c.getContext('2d')!.getImageData(c.width / 2, c.height / 2, 1, 1).data[3];
      }),
    ).toBe(255);
    await page.getByTestId('map-repaint').click();
    await expect.poll(async () => (await map.getAttribute('data-tiles')) !== first.join(',')).toBe(true);
    await expectMapFollowsRules(page, description);
    await expectAccessible(page, 'the tileset viewer');
    await shot('02-tileset-viewer');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('plays ping-pong with per-frame durations chosen in the form and zips every engine file', async () => {
    const { api, project, context, page, problems } = await signedIn('animator', 'en-US');
    await page.getByRole('link', { name: 'Overworld' }).click();
    await page.getByLabel('Description').fill('a bat');
    await page.getByLabel('Resolution (px)').fill('16');
    await page.getByLabel('Directions').selectOption('1');
    await page.getByLabel('Frames per direction').fill('3');
    await page.getByLabel('Frame rate (fps)').fill('10');
    await page.getByLabel('Loop').selectOption('pingpong');
    await page.getByLabel('Frame durations (ms, optional)').fill('100, 300, 100, 50');
    // Four durations for three frames: said before sending (no task is made, see the count below).
    await page.getByTestId('generate').click();
    await expect
      .poll(() => page.getByTestId('generate-error').textContent())
      .toBe(
        'Frame durations must be whole milliseconds from 1 to 65535, one per frame of a direction (3); got 4',
      );
    expect(await page.getByLabel('Frame durations (ms, optional)').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Frame durations (ms, optional)').fill('100, 300, 100');
    await page.getByTestId('generate').click();
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 60_000 })
      .toBe('completed');
    const listed = await api.GET('/api/v1/projects/{projectId}/tasks', {
      params: { path: { projectId: project.id } },
    });
    expect(listed.total).toBe(1);
    const task = await api.GET('/api/v1/tasks/{taskId}', {
      params: { path: { taskId: listed.tasks[0]!.id } },
    });
    expect(task.params.animation).toEqual({ fps: 10, loop: 'pingpong', frameDurations: [100, 300, 100] });

    await page.getByRole('link', { name: 'Open in viewer →' }).click();
    await page.getByTestId('preview-canvas').waitFor();
    expect(await page.getByTestId('loop-mode').textContent()).toBe('Ping-pong');
    await page.getByTestId('play-pause').click();
    // Ping-pong over three frames plays 0 1 2 1: four steps, each shown for its own duration.
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.getByRole('button', { name: 'Next frame' }).click();
      seen.push(
        `${await page.getByTestId('frame-index').textContent()} ${await page.getByTestId('frame-ms').textContent()}`,
      );
    }
    // The rate asked for stays the label; each frame shows its own time.
    expect(await page.getByTestId('fps').textContent()).toBe('10 fps');
    const durations = seen.map((line) => Number(/(\d+) ms$/.exec(line)?.[1]));
    expect(seen.every((line) => /^Frame \d of 4 /.test(line))).toBe(true);
    expect(durations.filter((ms) => ms === 300)).toHaveLength(2);
    expect(durations.filter((ms) => ms === 100)).toHaveLength(2);
    await expectAccessible(page, 'a ping-pong preview');
    await page.screenshot({ path: join(shots, '10-pingpong.png'), fullPage: true });

    const files = await zipOf(page, 'pingpong.zip');
    expect(Object.keys(files).sort()).toEqual(SPRITE_FILES);
    const aseprite = JSON.parse(new TextDecoder().decode(files['sprite.aseprite.json'])) as {
      frames: { duration: number }[];
      meta: { frameTags: { direction: string }[] };
    };
    expect(aseprite.frames.map((f) => f.duration)).toEqual([100, 300, 100]);
    expect(aseprite.meta.frameTags[0]!.direction).toBe('pingpong');
    const anims = JSON.parse(new TextDecoder().decode(files['sprite.phaser-anims.json'])) as {
      anims: { yoyo: boolean }[];
    };
    expect(anims.anims[0]!.yoyo).toBe(true);
    expect(new TextDecoder().decode(files['sprite.png.meta'])).toContain('TextureImporter');
    for (const [testId, name, names] of [
      ['download-png', 'bat_sprite.png', undefined],
      ['download-tres', 'bat_sprite.tres', 'res://bat_sprite.png'],
      ['download-aseprite', 'bat_sprite.aseprite.json', '"bat_sprite.png"'],
      ['download-phaser', 'bat_sprite.phaser.json', '"bat_sprite.png"'],
      ['download-phaserAnimations', 'bat_sprite.phaser-anims.json', undefined],
      ['download-unity', 'bat_sprite.png.meta', undefined],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
      expect(download.suggestedFilename()).toBe(name);
      if (names) expect(readFileSync(await download.path(), 'utf8')).toContain(names);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps the Generate form as it was left across the History and Style tabs', async () => {
    const { context, page, problems } = await signedIn('switcher', 'en-US');
    await page.getByRole('link', { name: 'Overworld' }).click();
    await page.getByLabel('Description').fill('a red fox');
    await page.getByLabel('Resolution (px)').fill('32');
    await page.getByLabel('Directions').selectOption('1');
    await page.getByLabel('Frames per direction').fill('6');
    await page.getByLabel('Loop').selectOption('pingpong');
    const tabs = page.getByRole('navigation', { name: 'Overworld' });
    await tabs.getByRole('link', { name: 'History' }).click();
    await expect.poll(() => page.getByLabel('Description').count()).toBe(0);
    await tabs.getByRole('link', { name: 'Style' }).click();
    await tabs.getByRole('link', { name: 'Generate' }).click();
    expect(await page.getByLabel('Description').inputValue()).toBe('a red fox');
    expect(await page.getByLabel('Resolution (px)').inputValue()).toBe('32');
    expect(await page.getByLabel('Directions').inputValue()).toBe('1');
    expect(await page.getByLabel('Frames per direction').inputValue()).toBe('6');
    expect(await page.getByLabel('Loop').inputValue()).toBe('pingpong');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('switches the pages of a sheet wrapped past 4096 px and zips every page with its files', async () => {
    const { api, project, context, page, problems } = await signedIn('pager', 'en-US');
    const { taskId } = await api.generate({
      projectId: project.id,
      prompt: 'a knight',
      assetType: 'sprite',
      params: { resolution: 600, frames: { directions: 8, framesPerDirection: 2 } },
    });
    await api.waitForTask(taskId, { transport: 'poll', pollIntervalMs: 200, timeoutMs: 120_000 });
    await page.goto(`${url}#/projects/${project.id}/tasks/${taskId}`);
    await page.getByTestId('page-switcher').waitFor({ timeout: 60_000 });
    // One page shown at a time; the animations of both pages play (8 directions).
    expect(await page.getByTestId('sheet-image').count()).toBe(1);
    expect(await page.getByTestId('preview-canvas').count()).toBe(8);
    const shown = () => page.getByTestId('sheet-image').getAttribute('alt');
    expect(await shown()).toBe('sprite-0.png');
    await page.getByRole('button', { name: 'Page 2 of 2' }).click();
    expect(await shown()).toBe('sprite-1.png');
    expect(await page.getByRole('button', { name: 'Page 2 of 2' }).getAttribute('aria-pressed')).toBe('true');
    await expectAccessible(page, 'a two-page sheet');
    await page.screenshot({ path: join(shots, '20-pages.png'), fullPage: true });

    const files = await zipOf(page, 'pages.zip');
    expect(Object.keys(files).sort()).toEqual([
      'sprite-0.aseprite.json',
      'sprite-0.json',
      'sprite-0.png',
      'sprite-0.png.meta',
      'sprite-1.aseprite.json',
      'sprite-1.json',
      'sprite-1.png',
      'sprite-1.png.meta',
      'sprite.phaser-anims.json',
      'sprite.phaser.json',
      'sprite.tres',
    ]);
    const [w0, h0] = pngSize(files['sprite-0.png']!);
    const [w1, h1] = pngSize(files['sprite-1.png']!);
    expect(Math.max(w0, h0, w1, h1)).toBeLessThanOrEqual(4096);
    expect(h0 + h1).toBe(4800);
    expect(problems).toEqual([]);
    await context.close();
  });
});
