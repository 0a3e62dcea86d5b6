import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, CHROMIUM_ARGS, findChromium, getFreePort, launchChromium } from '../src/index.js';
import { isCI } from '../src/mongo-target.js';

const found = findChromium();
if (!found.ok) {
  if (isCI()) throw new Error(`[assetloom/testing] Chromium is required in CI: ${found.reason}`);
  console.warn(`[assetloom/testing] ⚠ SKIPPING Chromium tests: ${found.reason}`);
}

describe('findChromium', () => {
  it('explains what to install when the path does not exist', () => {
    const lookup = findChromium('/nonexistent/chromium');
    expect(lookup.ok).toBe(false);
    if (!lookup.ok) expect(lookup.reason).toContain('apt-get install -y chromium');
  });

  it('launchChromium refuses a missing executable with CHROMIUM_MISSING', async () => {
    await expect(launchChromium({ executablePath: '/nonexistent/chromium' })).rejects.toMatchObject({
      code: 'CHROMIUM_MISSING',
    });
  });

  it('uses the agreed flags', () => {
    expect(CHROMIUM_ARGS).toEqual([
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ]);
  });
});

describe.skipIf(!found.ok)('launchChromium', () => {
  let browser: Browser;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    browser = await launchChromium();
    port = await getFreePort();
    server = createServer((req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><title>assetloom</title><p id="path">${req.url === '/hello' ? 'hello' : 'other'}</p>`,
      );
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('loads a page from a loopback server and runs script in it', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${port}/hello`);
      expect(await page.title()).toBe('assetloom');
      expect(await page.textContent('#path')).toBe('hello');
      expect(await page.evaluate(() => [typeof WebSocket, navigator.webdriver])).toEqual(['function', true]);
    } finally {
      await page.close();
    }
  });
});
