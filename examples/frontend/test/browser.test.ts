import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { findChromium, launchChromium } from '@assetloom/testing';
import type { Browser } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const artifacts = fileURLToPath(new URL('../test-artifacts/', import.meta.url));
const chromium = findChromium();

/**
 * The built page, served by `vite preview` on 127.0.0.1 and a free port, in real Chromium: msw's
 * service worker runs the Assetloom mock inside the page, so login, projects, generation progress
 * (over the mocked WebSocket) and the sprite download all go through the SDK and the mock.
 */
describe.skipIf(!chromium.ok)('the sprite studio in Chromium on the msw mock', () => {
  let server: PreviewServer;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    await build({ root, logLevel: 'error', build: { outDir: 'dist', emptyOutDir: true } });
    server = await preview({
      root,
      logLevel: 'error',
      preview: { host: '127.0.0.1', port: 0, strictPort: false },
    });
    const address = server.httpServer.address();
    if (address === null || typeof address === 'string') throw new Error('vite preview has no port');
    url = `http://127.0.0.1:${address.port}/`;
    browser = await launchChromium();
    await mkdir(artifacts, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => server?.httpServer.close(() => resolve()));
  });

  it('logs in, lists the projects, generates a sprite with live progress and shows the PNG', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');

    await page.fill('input[name=username]', 'demo');
    await page.fill('input[name=password]', 'wrong-password');
    await page.click('#login-form button');
    await expect.poll(() => page.textContent('#login-error')).toBe('用户名或密码错误');
    await page.screenshot({ path: `${artifacts}login-error.png` });

    await page.fill('input[name=password]', 'demo-pass-1');
    await page.click('#login-form button');
    await page.waitForSelector('#studio-view:not([hidden])');
    await expect
      .poll(() => page.locator('#projects li').allTextContents())
      .toEqual(['Space Miner — 0 task(s)', 'Forest Quest — 0 task(s)']);

    await page.selectOption('#project-select', { label: 'Forest Quest' });
    await page.fill('input[name=prompt]', 'a brave knight');
    await page.click('#generate-form button');
    // progress moves while the task runs (the mock steps 250 ms per pipeline event)
    await page.waitForFunction(() => {
      const p = document.getElementById('task-progress') as HTMLProgressElement | null;
      return p !== null && p.value > 0 && p.value < 100;
    });
    await page.screenshot({ path: `${artifacts}progress.png` });
    await page.waitForSelector('#result:not([hidden])', { timeout: 30_000 });
    const events = await page.locator('#task-events li').allTextContents();
    expect(events[0]).toBe('prompt_optimizer running');
    expect(events.at(-1)).toBe('format_adapter completed');
    const size = await page.$eval('#result-img', (img) => [
      (img as HTMLImageElement).naturalWidth,
      (img as HTMLImageElement).naturalHeight,
    ]);
    expect(size).toEqual([256, 256]);
    expect(await page.textContent('#result-caption')).toBe('sprite.png · 256×256');
    expect(await page.textContent('#task-status')).toBe('completed · format_adapter · 100%');
    await expect
      .poll(() => page.locator('#projects li').allTextContents())
      .toContain('Forest Quest — 1 task(s)');
    await page.screenshot({ path: `${artifacts}result.png` });
    expect(errors).toEqual([]);
  });
});
