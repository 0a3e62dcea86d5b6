import { join } from 'node:path';
import { renderProcedural } from '@assetloom/generator';
import type { ImageProvider } from '@assetloom/pipeline';
import { createAssetClient } from '@assetloom/sdk';
import type { RunningServer } from '@assetloom/server';
import { type Browser, findChromium, launchChromium } from '@assetloom/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  artifacts,
  expectAccessible,
  pngSize,
  SPRITE_FILES,
  type StudioServer,
  startStudioServer,
  tabTo,
  unzipDownload,
  watchProblems,
} from './helpers.js';

/**
 * The procedural drawing, paced to ~400 ms with progress on the way: a bare procedural task can end
 * before the page has opened its progress stream, and the journey is meant to watch it live.
 */
const pacedProvider: ImageProvider = {
  name: 'procedural',
  async generate(request, { signal, onProgress }) {
    for (let step = 1; step <= 4; step++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      signal?.throwIfAborted();
      onProgress?.(step * 20, 'drawing');
    }
    return renderProcedural(request);
  },
};

const chromium = findChromium();
if (!chromium.ok) console.warn(`[studio browser test] ⚠ SKIPPING: ${chromium.reason}`);
const shots = join(artifacts, 'server');

/**
 * The built studio served by the real reference server (embedded store, filesystem storage,
 * procedural generator, template prompts) on 127.0.0.1, driven in Debian Chromium.
 */
describe.skipIf(!chromium.ok)('the studio on the reference server', () => {
  let server: RunningServer;
  let browser: Browser;
  let studio: StudioServer;
  let url: string;

  beforeAll(async () => {
    studio = await startStudioServer('assetloom-studio-', shots, { imageProvider: pacedProvider });
    server = studio.server;
    url = `${server.url}/studio/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
  });

  it('serves the files with immutable hashed assets, a no-cache page and a CSP without unsafe-inline', async () => {
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    const script = /src="(\/studio\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${server.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const bare = await fetch(`${server.url}/studio`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/studio/');
    const missing = await fetch(`${server.url}/studio/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      code: 404,
      message: '接口不存在',
      data: { reason: 'route_not_found' },
    });
  });

  it('goes from sign-up to the downloaded zip, every screen axe-clean', async () => {
    const context = await browser.newContext({
      locale: 'zh-CN',
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    // The generate answer the test cuts on purpose (below).
    const problems = watchProblems(page, [/net::ERR_CONNECTION_RESET/]);
    const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

    // Sign up: a too-short password shows the API's own message.
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    await expect.poll(() => page.locator('h1').textContent()).toBe('登录到 Assetloom 工作室');
    await expectAccessible(page, 'login');
    await shot('01-login');
    await page.getByRole('link', { name: '还没有账号？注册' }).click();
    await page.getByLabel('用户名').fill('artist');
    await page.getByLabel('密码').fill('12345');
    await page.getByRole('button', { name: '注册并登录' }).click();
    await expect.poll(() => page.locator('#auth-error').textContent()).toBe('参数错误');
    await expectAccessible(page, 'register');
    await shot('02-register-error');
    await page.getByLabel('密码').fill('pixel-pass-1');
    await page.getByRole('button', { name: '注册并登录' }).click();

    // Projects: empty, then a new one whose style has a key the API refuses.
    await expect.poll(() => page.locator('h1').textContent()).toBe('工程');
    await expect.poll(() => page.locator('.empty').textContent()).toBe('还没有工程。先创建一个吧。');
    const cookie = (await context.cookies()).find((c) => c.name === 'assetloom_token');
    expect(cookie?.httpOnly).toBe(true);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('ey');
    await expectAccessible(page, 'projects (empty)');
    await shot('03-projects-empty');
    await page.getByRole('button', { name: '+ 新建工程' }).click();
    await page.getByLabel('工程名称').fill('Dungeon Crawl');
    await page.getByLabel('键 1').fill('k'.repeat(65));
    await page.getByLabel('值 1').fill('pixel');
    await page.getByRole('button', { name: '创建' }).click();
    const fieldError = page.getByTestId('field-error');
    // The server's own words for the refused key (data.errors, decision 0037).
    await expect.poll(() => fieldError.textContent()).toBe('键名无效（应为 1-64 个字符）');
    expect(await page.getByLabel('键 1').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'create project with an API error');
    await shot('04-style-error');
    await page.getByLabel('键 1').fill('artStyle');
    await page.getByRole('button', { name: '+ 添加一行' }).click();
    await page.getByLabel('键 2').fill('palette');
    await page.getByLabel('值 2').fill('sweetie16');
    await page.getByRole('button', { name: '创建' }).click();

    // The project: prompt optimizer preview (template, as no LLM is configured), edited.
    await expect.poll(() => page.locator('h1').textContent()).toBe('Dungeon Crawl');
    expect(await page.getByLabel('风格标签').inputValue()).toBe('pixel, sweetie16');
    await page.getByLabel('描述').fill('a knight with a long sword');
    await page.getByRole('button', { name: '✦ 优化提示词' }).click();
    await page.getByTestId('optimized').waitFor();
    expect(await page.getByTestId('prompt-source').textContent()).toBe('由模板生成（未配置 LLM）');
    const subject = page.getByLabel('【主题】');
    expect(await subject.inputValue()).not.toBe('');
    expect(await page.getByLabel('【风格】').inputValue()).not.toBe('');
    expect(await page.getByLabel('【技术】').inputValue()).not.toBe('');
    await subject.fill('a knight with a long sword, red cape');
    await expectAccessible(page, 'generate with the optimized prompt');
    await shot('05-optimized');

    // Generate: 32 px, 4 directions × 4 frames. A double click is one task, and so is a retry after
    // the first answer was lost on the way back (the server made the task; the browser saw a reset).
    const keys: string[] = [];
    await page.route('**/api/v1/generate', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      const response = await route.fetch();
      if (keys.length === 1) await route.abort('connectionreset');
      else await route.fulfill({ response });
    });
    await page.getByLabel('分辨率（像素）').fill('32');
    await page.getByTestId('generate').dblclick();
    await page.getByTestId('task-progress').waitFor();
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 60_000 })
      .toBe('已完成');
    for (const stage of ['prompt_optimizer', 'asset_generator', 'quality_supervisor', 'format_adapter']) {
      expect(await page.getByTestId(`stage-${stage}`).getAttribute('class')).toContain('stage-completed');
    }
    expect(await page.getByTestId('task-percent').textContent()).toBe('100%');
    await page.locator('.events summary').click();
    const events = await page.locator('.events li').allTextContents();
    expect(events[0]).toMatch(/^#1 .* prompt_optimizer running/);
    expect(events.at(-1)).toMatch(/ format_adapter completed( · .+)?$/);
    expect(events.map((e) => Number(/^#(\d+)/.exec(e)?.[1]))).toEqual(events.map((_, i) => i + 1));
    await expect.poll(() => page.getByTestId('history-item').count()).toBe(1);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    await page.unroute('**/api/v1/generate');
    await expect.poll(() => page.locator('[data-testid="thumbnail"].drawn').count()).toBe(1);
    await expectAccessible(page, 'generate with progress');
    await shot('06-progress-done');

    // Style tab: the stored pairs; a value the API refuses gets its message beside that field.
    await page.getByRole('link', { name: '风格' }).click();
    expect(await page.getByLabel('值 2').inputValue()).toBe('sweetie16');
    await page.getByLabel('值 2').fill('x'.repeat(257));
    await page.getByRole('button', { name: '保存风格' }).click();
    await expect.poll(() => page.getByTestId('field-error').textContent()).toBe('长度不能超过 256 个字符');
    expect(await page.getByLabel('值 2').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('键 2').getAttribute('aria-invalid')).toBe('false');
    await expectAccessible(page, 'style with an API error');
    await shot('06b-style-error');
    await page.getByLabel('值 2').fill('pico8');
    await page.getByRole('button', { name: '保存风格' }).click();
    await expect.poll(() => page.locator('.success').textContent()).toBe('风格已保存');
    expect(await page.getByTestId('field-error').count()).toBe(0);

    // History tab: newest first, status and thumbnail.
    await page.getByRole('link', { name: '历史' }).click();
    await expect
      .poll(() => page.locator('.history:not(.compact) [data-testid="history-item"]').count())
      .toBe(1);
    expect(await page.getByTestId('history-item').getAttribute('data-status')).toBe('completed');
    await expectAccessible(page, 'history');
    await shot('07-history');

    // Viewer: the 4×4 sheet of 32 px frames, 4 direction previews at the atlas' 8 fps.
    await page.getByTestId('history-item').locator('a').click();
    await page.getByTestId('sheet-image').waitFor();
    const sheet = page.getByTestId('sheet-image');
    const natural = await sheet.evaluate((img) => [
      (img as HTMLImageElement).naturalWidth,
      (img as HTMLImageElement).naturalHeight,
    ]);
    expect(natural).toEqual([128, 128]);
    expect(await sheet.evaluate((img) => getComputedStyle(img).imageRendering)).toBe('pixelated');
    await page.getByRole('button', { name: '3×' }).click();
    expect(await sheet.getAttribute('width')).toBe('384');
    // The frame grid (cells of 32 px × 3, styled through the CSSOM under the CSP) and a light backdrop.
    await page.getByRole('button', { name: '帧网格' }).click();
    expect(await page.getByTestId('frame-grid').evaluate((el) => getComputedStyle(el).backgroundSize)).toBe(
      '96px 96px, 96px 96px',
    );
    await page.getByRole('button', { name: '浅色' }).click();
    expect(await page.locator('.sheet-scroll').getAttribute('class')).toContain('bg-light');
    await shot('08a-viewer-grid-light');
    await page.getByRole('button', { name: '棋盘格' }).click();
    await page.getByRole('button', { name: '帧网格' }).click();
    expect(await page.getByTestId('preview-canvas').count()).toBe(4);
    expect(await page.getByTestId('fps').textContent()).toBe('8 帧/秒');
    await page.getByTestId('play-pause').click();
    const before = await page.getByTestId('frame-index').textContent();
    await page.getByRole('button', { name: '下一帧' }).click();
    const after = await page.getByTestId('frame-index').textContent();
    const indexOf = (text: string | null) => Number(/第 (\d+) \/ 4 帧/.exec(text ?? '')?.[1]);
    expect(indexOf(after)).toBe((indexOf(before) % 4) + 1);
    expect(await page.getByTestId('quality-verdict').textContent()).toMatch(/^通过 · 得分 \d+%$/);
    expect(await page.getByTestId('quality-check').count()).toBeGreaterThan(3);
    await expectAccessible(page, 'viewer');
    await shot('08-viewer');

    // Downloads: the PNG alone, then everything as one zip.
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-png').click(),
    ]);
    // named after the prompt and the asset (issue #41: files of several tasks share one folder)
    expect(png.suggestedFilename()).toBe('knight-with-a-long-sword-red-cape_sprite.png');
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-zip').click(),
    ]);
    expect(zip.suggestedFilename()).toBe('knight-with-a-long-sword-red-cape_sprite.zip');
    const files = await unzipDownload(zip, join(shots, 'everything.zip'));
    expect(Object.keys(files).sort()).toEqual(SPRITE_FILES);
    expect(pngSize(files['sprite.png']!)).toEqual([128, 128]);
    const atlas = JSON.parse(new TextDecoder().decode(files['sprite.json']));
    expect(Object.keys(atlas.frames)).toHaveLength(16);
    expect(atlas.meta.image).toBe('sprite.png');
    expect(new TextDecoder().decode(files['sprite.tres'])).toContain('SpriteFrames');

    // Back on the list: the task count, a rename, and a second page once there are 13 projects.
    await page.getByRole('link', { name: '工程', exact: true }).first().click();
    await expect.poll(() => page.getByTestId('task-count').first().textContent()).toBe('1 个任务');
    await page.getByRole('button', { name: '重命名 Dungeon Crawl' }).click();
    await page.getByLabel('工程名称').fill('Dungeon Crawl II');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.project-card h2').first().textContent()).toBe('Dungeon Crawl II');
    const api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    await api.login({ username: 'artist', password: 'pixel-pass-1' });
    for (let i = 1; i <= 12; i++) await api.POST('/api/v1/projects', { body: { name: `Batch ${i}` } });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await expect.poll(() => page.getByTestId('project-card').count()).toBe(12);
    expect(await page.locator('.pager-label').textContent()).toBe('第 1 / 2 页');
    await page.getByRole('link', { name: '下一页 →' }).click();
    await expect.poll(() => page.locator('.project-card h2').allTextContents()).toEqual(['Dungeon Crawl II']);
    await expectAccessible(page, 'projects page 2');
    await shot('09-projects-page-2');

    // Delete with a confirmation: cancel keeps it, confirm removes it.
    await page.getByRole('link', { name: '← 上一页' }).click();
    await page.getByRole('button', { name: '删除 Batch 12' }).click();
    await expect.poll(() => page.locator('dialog[open] h2').textContent()).toBe('删除工程');
    await expectAccessible(page, 'delete confirmation');
    await shot('10-delete-confirm');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
    await page.getByRole('button', { name: '删除 Batch 12' }).click();
    await page.locator('dialog[open]').getByRole('button', { name: '删除' }).click();
    await expect.poll(() => page.locator('.project-card h2').allTextContents()).not.toContain('Batch 12');
    expect((await api.GET('/api/v1/projects')).total).toBe(12);

    // Account: a wrong old password shows the API's message; the right one keeps the session.
    await page.getByRole('link', { name: '账号' }).click();
    await page.getByLabel('原密码').fill('not-my-password');
    await page.getByLabel('新密码').fill('pixel-pass-2');
    await page.getByRole('button', { name: '修改密码' }).click();
    await expect.poll(() => page.locator('#password-message').textContent()).toBe('原密码不正确');
    await page.getByLabel('原密码').fill('pixel-pass-1');
    await page.getByLabel('新密码').fill('pixel-pass-2');
    await page.getByRole('button', { name: '修改密码' }).click();
    await expect
      .poll(() => page.locator('#password-message').textContent())
      .toBe('密码已修改，其他设备上的登录已失效。');
    await expectAccessible(page, 'account');
    await shot('11-account');

    // English, a reload that keeps the session (sessionStorage), log out, log in with the new password.
    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Account');
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await expect.poll(() => page.getByTestId('who').textContent()).toBe('artist');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Log in to Assetloom Studio');
    await page.getByLabel('Username').fill('artist');
    await page.getByLabel('Password').fill('pixel-pass-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    // The server's message in the UI's language (issue #32; it was the Chinese one in the English UI).
    await expect.poll(() => page.locator('#auth-error').textContent()).toBe('Wrong username or password');
    await shot('12-login-error-en');
    await page.getByLabel('Password').fill('pixel-pass-2');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Projects');
    await shot('13-projects-en');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('works by keyboard alone: sign up, create a project, generate, open the viewer, download the zip', async () => {
    const context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    await tabTo(page, 'a[href="#/register"]');
    await page.keyboard.press('Enter');
    await tabTo(page, 'input[name=username]');
    await page.keyboard.type('keys');
    await tabTo(page, 'input[name=password]');
    await page.keyboard.type('keyboard-1');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Projects');
    // The skip link is the first stop and moves focus to the content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    // New project: the button opens the form with the name focused; Tab reaches the style pair.
    await tabTo(page, 'button[aria-expanded]');
    await page.keyboard.press('Enter');
    // The form focuses its name field once it has rendered (an effect): wait for it, do not race it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    await page.keyboard.type('Keyboard Land');
    await page.keyboard.press('Tab');
    await page.keyboard.type('artStyle');
    await page.keyboard.press('Tab');
    await page.keyboard.type('pixel');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Keyboard Land');
    expect(await page.getByLabel('Style tags').inputValue()).toBe('pixel');
    await tabTo(page, 'textarea[name=prompt]');
    await page.keyboard.type('a slime monster');
    await tabTo(page, 'select[name=directions]');
    await page.keyboard.press('ArrowUp'); // 4 → 1 direction
    await tabTo(page, '[data-testid=generate]');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 60_000 })
      .toBe('completed');
    // The result is shown under the progress, with the viewer one link away (issue #32).
    await tabTo(page, '.inline-result a.button');
    await page.keyboard.press('Enter');
    await page.getByTestId('sheet-image').waitFor();
    expect(await page.getByTestId('preview-canvas').count()).toBe(1);
    // The viewer's keys: Space pauses, → steps, + zooms in.
    const width = Number(await page.getByTestId('sheet-image').getAttribute('width'));
    await page.keyboard.press(' ');
    const paused = await page.getByTestId('frame-index').textContent();
    expect(paused).toMatch(/^Frame \d of 4$/);
    await page.keyboard.press('ArrowRight');
    const stepped = Number(
      /Frame (\d)/.exec((await page.getByTestId('frame-index').textContent()) ?? '')?.[1],
    );
    expect(stepped).toBe((Number(/Frame (\d)/.exec(paused ?? '')?.[1]) % 4) + 1);
    await page.keyboard.press('+');
    expect(Number(await page.getByTestId('sheet-image').getAttribute('width'))).toBeGreaterThan(width);
    await page.keyboard.press(' ');
    expect(await page.getByTestId('frame-index').textContent()).toBe('');
    await tabTo(page, '[data-testid=play-pause]');
    await page.keyboard.press('Enter');
    await tabTo(page, 'button[aria-label="Next frame"]');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('frame-index').textContent()).toMatch(/^Frame \d of 4$/);
    await tabTo(page, '[data-testid=download-zip]');
    const [zip] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const files = await unzipDownload(zip, join(shots, 'keyboard.zip'));
    expect(Object.keys(files).sort()).toEqual(SPRITE_FILES);
    expect(pngSize(files['sprite.png']!)).toEqual([256, 64]);
    await page.screenshot({ path: join(shots, '20-keyboard-viewer.png'), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('views and zips individual frames and a background (no atlas)', async () => {
    const api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    await api.POST('/auth/register', { body: { username: 'layouts', password: 'layouts-1' } });
    await api.login({ username: 'layouts', password: 'layouts-1' });
    const project = await api.POST('/api/v1/projects', { body: { name: 'Layouts' } });
    const frames = await api.generate({
      projectId: project.id,
      prompt: 'a bee',
      assetType: 'sprite',
      params: { resolution: 16, format: 'individual', frames: { directions: 1, framesPerDirection: 3 } },
    });
    const background = await api.generate({
      projectId: project.id,
      prompt: 'a meadow',
      assetType: 'background',
      params: { resolution: 64 },
    });
    // a word the picture does not show, and direction rows that only repeat the drawing's one view
    const torch = await api.generate({
      projectId: project.id,
      prompt: 'a rusty torch',
      assetType: 'sprite',
      params: { resolution: 16, frames: { directions: 4, framesPerDirection: 1 } },
    });
    await api.waitForTask(frames.taskId, { transport: 'poll', pollIntervalMs: 100 });
    await api.waitForTask(background.taskId, { transport: 'poll', pollIntervalMs: 100 });
    await api.waitForTask(torch.taskId, { transport: 'poll', pollIntervalMs: 100 });
    const context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByLabel('Username').fill('layouts');
    await page.getByLabel('Password').fill('layouts-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForSelector('.project-card');

    await page.goto(`${url}#/projects/${project.id}/tasks/${frames.taskId}`);
    await expect.poll(() => page.getByTestId('sheet-image').count()).toBe(3);
    expect(await page.getByTestId('preview-canvas').count()).toBe(1);
    await page.getByTestId('play-pause').click();
    expect(await page.getByTestId('frame-index').textContent()).toMatch(/^Frame \d of 3$/);
    await expectAccessible(page, 'viewer of individual frames');
    await page.screenshot({ path: join(shots, '40-individual.png'), fullPage: true });
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-zip').click(),
    ]);
    const files = await unzipDownload(zip, join(shots, 'individual.zip'));
    expect(Object.keys(files).sort()).toEqual([
      'sprite.tres',
      'sprite_0.png',
      'sprite_1.png',
      'sprite_2.png',
    ]);
    for (const name of ['sprite_0.png', 'sprite_1.png', 'sprite_2.png'])
      expect(pngSize(files[name]!)).toEqual([16, 16]);

    // The viewer says beside the sheet what it does not do, as the CLI does (metadata.notHonoured, .views).
    await page.goto(`${url}#/projects/${project.id}/tasks/${torch.taskId}`);
    await expect.poll(() => page.getByTestId('sheet-image').count()).toBe(1);
    expect(await page.getByTestId('not-honoured').textContent()).toBe('Not in the picture: “rusty”');
    expect(await page.getByTestId('views-repeated').textContent()).toBe(
      "Rows that repeat the drawing's one view (not drawn facing that way): Left, Right, Up (back)",
    );
    expect(await page.getByTestId('views-turned').count()).toBe(0);
    await expectAccessible(page, 'viewer with notes beside the sheet');

    await page.goto(`${url}#/projects/${project.id}/tasks/${background.taskId}`);
    await expect.poll(() => page.getByTestId('sheet-image').count()).toBe(1);
    // A still background: no animation preview and no player (issue #32).
    expect(await page.getByTestId('preview-canvas').count()).toBe(0);
    expect(await page.getByTestId('play-pause').count()).toBe(0);
    expect(await page.getByTestId('download-json').count()).toBe(0);
    await page.screenshot({ path: join(shots, '41-background.png'), fullPage: true });
    const [bgZip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-zip').click(),
    ]);
    const bgFiles = await unzipDownload(bgZip, join(shots, 'background.zip'));
    expect(Object.keys(bgFiles)).toEqual(['background.png']);

    // A variation: the same request with another seed, followed in its own viewer.
    await page.getByTestId('variation').click();
    await page.waitForURL((u) => u.hash.includes('/tasks/') && !u.hash.endsWith(background.taskId));
    await expect.poll(() => page.getByTestId('sheet-image').count(), { timeout: 30_000 }).toBe(1);
    const variationId = new URL(page.url()).hash.split('/').at(-1)!;
    const variation = await api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: variationId } } });
    const original = await api.GET('/api/v1/tasks/{taskId}', {
      params: { path: { taskId: background.taskId } },
    });
    expect(variation.prompt).toBe('a meadow');
    expect(variation.params.resolution).toBe(64);
    expect(variation.params.seed).not.toBe(original.params.seed);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('pages the history newest first', async () => {
    const api = createAssetClient({ baseUrl: server.url, throwOnError: true });
    await api.POST('/auth/register', { body: { username: 'history', password: 'history-1' } });
    await api.login({ username: 'history', password: 'history-1' });
    const project = await api.POST('/api/v1/projects', { body: { name: 'Many Tasks' } });
    const ids: string[] = [];
    for (let i = 1; i <= 13; i++) {
      const { taskId } = await api.generate({
        projectId: project.id,
        prompt: `tile ${i}`,
        assetType: 'background',
        params: { resolution: 16 },
      });
      ids.push(taskId);
    }
    for (const id of ids) await api.waitForTask(id, { transport: 'poll', pollIntervalMs: 100 });
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByLabel('Username').fill('history');
    await page.getByLabel('Password').fill('history-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Many Tasks' }).click();
    await page.getByRole('link', { name: 'History' }).click();
    const prompts = () => page.locator('.history:not(.compact) .task-prompt').allTextContents();
    await expect.poll(prompts).toEqual(Array.from({ length: 12 }, (_, i) => `tile ${13 - i}`));
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(prompts).toEqual(Array.from({ length: 13 }, (_, i) => `tile ${13 - i}`));
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await expect
      .poll(() => page.locator('.history:not(.compact) [data-testid="thumbnail"].drawn').count())
      .toBe(13);
    await page.screenshot({ path: join(shots, '50-history-paged.png'), fullPage: true });
    await context.close();
  });

  // Uses the account and task of the keyboard test.
  it('fits a narrow phone screen', async () => {
    const context = await browser.newContext({
      locale: 'zh-CN',
      viewport: { width: 375, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page: Page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByLabel('用户名').fill('keys');
    await page.getByLabel('密码').fill('keyboard-1');
    await page.getByRole('button', { name: '登录' }).click();
    await page.locator('.project-card h2 a').first().click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Keyboard Land');
    await expect.poll(() => page.locator('[data-testid="thumbnail"].drawn').count()).toBe(1);
    // Nothing wider than the screen: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(shots, '30-mobile-project.png'), fullPage: true });
    await page.getByTestId('history-item').first().locator('a').click();
    await page.getByTestId('sheet-image').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(shots, '31-mobile-viewer.png'), fullPage: true });
    await context.close();
  });
});
