// Copied into every ecosystem project beside its own files.
export function baseUrl() {
  const url = process.env.ASSETLOOM_BASE_URL;
  if (!url) throw new Error('ASSETLOOM_BASE_URL is not set: run this project through test/ecosystem/run.mjs');
  return url;
}

export function uniqueName(prefix) {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

/** The 8 bytes every PNG file starts with. */
export function isPng(bytes) {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return bytes.length > 8 && sig.every((b, i) => bytes[i] === b);
}

/**
 * Opens the sprite page (lib/vite-page) at `url` in the system Chromium through playwright-core and
 * waits for it to say `done completed events=<n> image=<w>x<h>`: the SDK against the mock in the
 * page, progress over the mocked WebSocket, the PNG decoded. Answers true when it did; prints why not.
 */
export async function driveSpritePage(url, label) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.ASSETLOOM_CHROMIUM || '/usr/bin/chromium',
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
  const logs = [];
  try {
    const page = await browser.newPage();
    page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
    await page.goto(url);
    await page
      .waitForFunction(
        () => /^(done|error)/.test(document.getElementById('status')?.textContent ?? ''),
        undefined,
        { timeout: 120_000 },
      )
      .catch((error) => logs.push(`timed out: ${error.message}`));
    const text = await page.locator('#status').textContent();
    console.log(`${label}: ${text}`);
    const match = /^done completed events=(\d+) image=(\d+)x(\d+)$/.exec(text ?? '');
    const problems = logs.filter((line) => line.startsWith('pageerror') || line.startsWith('timed out'));
    if (!match || Number(match[1]) < 2 || Number(match[2]) === 0 || problems.length > 0) {
      console.error(`${label}: unexpected page state "${text}"\n${logs.join('\n')}`);
      return false;
    }
    return true;
  } catch (error) {
    console.error(`${label}:`, error, `\n${logs.join('\n')}`);
    return false;
  } finally {
    await browser.close();
  }
}
