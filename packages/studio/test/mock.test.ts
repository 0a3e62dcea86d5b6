import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, findChromium, launchChromium } from '@assetloom/testing';
import { createServer, type PreviewServer, preview, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  artifacts,
  buildStudio,
  expectAccessible,
  expectMapFollowsRules,
  pngSize,
  root,
  SPRITE_FILES,
  unzipDownload,
  watchProblems,
} from './helpers.js';

const chromium = findChromium();

/**
 * The mock build (`vite build --mode mock`): msw's service worker runs @assetloom/mock inside the
 * page, so the same studio code goes through the SDK to the mock's handlers and WebSocket.
 */
// `dev`: the Vite dev server in mock mode (`pnpm dev:mock`); `build`: the mock build under `vite preview`.
describe.skipIf(!chromium.ok).each(['dev', 'build'] as const)('the studio on the msw mock (%s)', (kind) => {
  let server: PreviewServer | ViteDevServer;
  let browser: Browser;
  let work: string;
  let url: string;
  const shots = join(artifacts, `mock-${kind}`);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'assetloom-studio-mock-'));
    await mkdir(shots, { recursive: true });
    if (kind === 'dev') {
      const dev = await createServer({
        root,
        mode: 'mock',
        logLevel: 'error',
        cacheDir: join(work, 'vite-cache'),
        server: { host: '127.0.0.1', port: 0, strictPort: false },
      });
      server = await dev.listen();
    } else {
      const outDir = join(work, 'dist-mock');
      await buildStudio(outDir, 'mock');
      server = await preview({
        root,
        mode: 'mock',
        logLevel: 'error',
        build: { outDir },
        preview: { host: '127.0.0.1', port: 0, strictPort: false },
      });
    }
    const address = server.httpServer?.address();
    if (address === null || address === undefined || typeof address === 'string')
      throw new Error('vite has no port');
    url = `http://127.0.0.1:${address.port}/studio/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('logs in, generates through a quality retry with its reason, and downloads the zip', async () => {
    const context = await browser.newContext({
      locale: 'zh-CN',
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');

    await page.getByLabel('用户名').fill('demo');
    await page.getByLabel('密码').fill('wrong-password');
    await page.getByRole('button', { name: '登录' }).click();
    await expect.poll(() => page.locator('#auth-error').textContent()).toBe('用户名或密码错误');
    await page.getByLabel('密码').fill('demo-pass-1');
    await page.getByRole('button', { name: '登录' }).click();
    await expect
      .poll(() => page.locator('.project-card h2').allTextContents())
      .toEqual(['Space Miner', 'Forest Quest']);
    await expectAccessible(page, 'projects on the mock');
    await shot('01-projects');

    await page.getByRole('link', { name: 'Forest Quest' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Forest Quest');
    await page.getByLabel('描述').fill('a green slime');
    await page.getByRole('button', { name: '✦ 优化提示词' }).click();
    await page.getByTestId('optimized').waitFor();
    // Plain words, not the header it was read from (issue #32).
    expect(await page.getByTestId('prompt-source').textContent()).toMatch(
      /^由(模板生成（未配置 LLM）|LLM 撰写)$/,
    );

    // The mock's next image is blank: the real quality supervisor rejects it once, with its reason.
    await page.evaluate(() =>
      (
        window as unknown as { assetloomMock: { rejectQualityNext(n: number): void } }
      ).assetloomMock.rejectQualityNext(1),
    );
    await page.getByTestId('generate').click();
    await page.getByTestId('retries').waitFor({ timeout: 60_000 });
    const retry = await page.locator('[data-testid="retries"] li').first().textContent();
    expect(retry).toMatch(/^质量重试 #1 \S/);
    await shot('02-quality-retry');
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 60_000 })
      .toBe('已完成');
    await expectAccessible(page, 'generate with a retry on the mock');
    await shot('03-completed');

    await page.getByRole('link', { name: '打开查看器 →' }).click();
    await page.getByTestId('sheet-image').waitFor();
    expect(await page.getByTestId('preview-canvas').count()).toBe(4);
    await expectAccessible(page, 'viewer on the mock');
    await shot('04-viewer');
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-zip').click(),
    ]);
    const files = await unzipDownload(zip, join(shots, 'everything.zip'));
    expect(Object.keys(files).sort()).toEqual(SPRITE_FILES);
    expect(pngSize(files['sprite.png']!)).toEqual([256, 256]);

    // Back to the form: each click on the same form is a new task; a failing one shows why.
    await page.getByRole('link', { name: '工程', exact: true }).first().click();
    await page.getByRole('link', { name: 'Forest Quest' }).click();
    await page.getByLabel('描述').fill('a blue slime');
    await page.getByLabel('种子（可选）').fill('7');
    await page.getByTestId('generate').click();
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 60_000 })
      .toBe('已完成');
    await page.getByTestId('generate').click();
    await expect.poll(() => page.getByTestId('history-item').count(), { timeout: 30_000 }).toBe(3);
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 60_000 })
      .toBe('已完成');
    await page.evaluate(() =>
      (
        window as unknown as { assetloomMock: { failGenerationNext(n: number, message: string): void } }
      ).assetloomMock.failGenerationNext(1, 'GPU out of memory'),
    );
    await page.getByLabel('描述').fill('a red slime');
    await page.getByTestId('generate').click();
    await expect.poll(() => page.getByTestId('task-status').textContent(), { timeout: 60_000 }).toBe('失败');
    expect(await page.getByTestId('task-error').textContent()).toContain('GPU out of memory');
    expect(await page.getByTestId('stage-asset_generator').getAttribute('class')).toContain('stage-failed');
    await expectAccessible(page, 'a failed task on the mock');
    await shot('05-failed');

    // A blob47 tileset on the mock: the viewer paints a map by the set's rules and zips its four files.
    await page.getByLabel('描述').fill('sand and water');
    await page.getByLabel('资源类型').selectOption('tileset');
    await page.getByLabel('图块类型').selectOption('blob47');
    await page.getByLabel('图块尺寸（像素）').fill('16');
    await page.getByTestId('generate').click();
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 60_000 })
      .toBe('已完成');
    await page.getByRole('link', { name: '打开查看器 →' }).click();
    await page.getByTestId('map-canvas').waitFor({ timeout: 30_000 });
    const tileFiles = await unzipDownload(
      (await Promise.all([page.waitForEvent('download'), page.getByTestId('download-zip').click()]))[0],
      join(shots, 'tileset.zip'),
    );
    expect(Object.keys(tileFiles).sort()).toEqual([
      'tileset.json',
      'tileset.png',
      'tileset.tres',
      'tileset.tsx',
    ]);
    const set = JSON.parse(new TextDecoder().decode(tileFiles['tileset.json']));
    expect(set).toMatchObject({ kind: 'blob47', tileSize: 16 });
    expect(set.tiles).toHaveLength(56);
    await expectMapFollowsRules(page, set);
    await expectAccessible(page, 'a tileset on the mock');
    await shot('06-tileset');

    // A start button at 96 × 48 on the mock: its words are set in the drawings' pixel font, which the
    // mock in the page loads from beside the page like the drawing sets (vite.config.ts).
    await page.getByRole('link', { name: '工程', exact: true }).first().click();
    await page.getByRole('link', { name: 'Forest Quest' }).click();
    await page.getByLabel('资源类型').selectOption('ui');
    await page.getByLabel('画布').selectOption('custom');
    await page.getByLabel('宽（像素）').fill('96');
    await page.getByLabel('高（像素）').fill('48');
    await page.getByLabel('描述').fill('a start button');
    await page.getByTestId('generate').click();
    await expect
      .poll(() => page.getByTestId('task-status').textContent(), { timeout: 60_000 })
      .toBe('已完成');
    await page.getByRole('link', { name: '打开查看器 →' }).click();
    const sheet = page.getByTestId('sheet-image');
    await sheet.waitFor();
    expect(
      await sheet.evaluate((img) => [
        (img as HTMLImageElement).naturalWidth,
        (img as HTMLImageElement).naturalHeight,
      ]),
    ).toEqual([4 * 96, 48]);
    const uiFiles = await unzipDownload(
      (await Promise.all([page.waitForEvent('download'), page.getByTestId('download-zip').click()]))[0],
      join(shots, 'button.zip'),
    );
    expect(pngSize(uiFiles['ui-button.png']!)).toEqual([384, 48]);
    const atlas = JSON.parse(new TextDecoder().decode(uiFiles['ui-button.json'])) as {
      frames: Record<string, { frame: { x: number; y: number; w: number; h: number } }>;
    };
    expect(Object.keys(atlas.frames)).toEqual([
      'button_normal',
      'button_hover',
      'button_pressed',
      'button_disabled',
    ]);
    expect(atlas.frames.button_disabled!.frame).toEqual({ x: 288, y: 0, w: 96, h: 48 });
    await expectAccessible(page, 'a UI button on the mock');
    await shot('07-button');
    expect(problems).toEqual([]);
    await context.close();
  });
});
