// Serves the built app with `vite preview` on 127.0.0.1 and drives it in the system Chromium.
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const executablePath = process.env.ASSETLOOM_CHROMIUM || '/usr/bin/chromium';
const server = await preview({
  preview: { host: '127.0.0.1', port: 0, strictPort: false },
  logLevel: 'warn',
});
const url = server.resolvedUrls.local[0];
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
  timeout: 60_000,
});
let failed = false;
try {
  const page = await browser.newPage();
  const logs = [];
  page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  await page.goto(url);
  const status = page.locator('#status');
  await page
    .waitForFunction(
      () => /^(done|error)/.test(document.getElementById('status')?.textContent ?? ''),
      undefined,
      {
        timeout: 60_000,
      },
    )
    .catch((error) => logs.push(`timed out: ${error.message}`));
  const text = await status.textContent();
  console.log(`vite-browser: ${text}`);
  const match = /^done completed events=(\d+) image=(\d+)x(\d+)$/.exec(text ?? '');
  if (!match || Number(match[1]) < 2 || Number(match[2]) === 0) {
    failed = true;
    console.error(`unexpected page state "${text}"\n${logs.join('\n')}`);
  }
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser.close();
  await new Promise((resolve) => server.httpServer.close(resolve));
}
process.exit(failed ? 1 : 0);
