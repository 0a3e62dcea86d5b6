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

/** The system Chromium through playwright-core, for `fn(browser)`; closed after. */
export async function withChromium(fn) {
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
  try {
    return await fn(browser);
  } finally {
    await browser.close();
  }
}

const SPRITE = /^done completed events=(\d+) image=(\d+)x(\d+) opaque=(\d+) colours=(\d+)$/;

/**
 * Opens the sprite page (lib/vite-page) at `url` in a fresh context of `browser` (no cache, no
 * service worker of an earlier page) and waits for it to say `done …` or `error …`. With
 * `expectError` the page must fail with a message that matches each of its patterns; else it must
 * say `done completed events=<n> image=<w>x<h> opaque=<n> colours=<n>`: the SDK against the mock in
 * the page, progress over the mocked WebSocket, the PNG decoded and drawn (at least 4 % of it
 * opaque, in at least 4 colours — a picture, not an empty or flat tile). The PNG is written to
 * `<label>.png` in the project's folder (`--keep` keeps it to look at). Answers true when it did.
 */
export async function checkSpritePage(browser, url, label, { expectError } = {}) {
  const logs = [];
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
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
    const text = (await page.locator('#status').textContent()) ?? '';
    console.log(`${label}: ${text}`);
    const problems = logs.filter((line) => line.startsWith('pageerror') || line.startsWith('timed out'));
    if (expectError) {
      const missing = expectError.filter((p) => !p.test(text));
      if (!text.startsWith('error ') || missing.length > 0 || problems.length > 0) {
        console.error(
          `${label}: expected an error matching ${missing.join(', ')}, got "${text}"\n${logs.join('\n')}`,
        );
        return false;
      }
      return true;
    }
    const match = SPRITE.exec(text);
    if (match) {
      const { writeFileSync } = await import('node:fs');
      const base64 = await page.evaluate(() => window.spritePng);
      writeFileSync(`${label.replace(/[^a-z0-9]+/gi, '-')}.png`, Buffer.from(base64, 'base64'));
    }
    const [, events, width, height, opaque, colours] = (match ?? []).map(Number);
    if (!match || events < 2 || opaque < 0.04 * width * height || colours < 4 || problems.length > 0) {
      console.error(`${label}: unexpected page state "${text}"\n${logs.join('\n')}`);
      return false;
    }
    return true;
  } catch (error) {
    console.error(`${label}:`, error, `\n${logs.join('\n')}`);
    return false;
  } finally {
    await context.close();
  }
}

/** The sprite page at `url` in the system Chromium (see checkSpritePage). */
export async function driveSpritePage(url, label) {
  return withChromium((browser) => checkSpritePage(browser, url, label));
}
