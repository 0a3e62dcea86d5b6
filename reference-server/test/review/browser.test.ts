import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REVIEW_MESSAGES as M } from '@assetloom/core/review';
import { type Browser, findChromium, launchChromium } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReviewTestServer, startReviewServer, uniqueEmail } from './helpers.js';

/**
 * The pages in a real browser (Debian Chromium driven by playwright-core) against a real listening
 * server: register → landing page → logout → a wrong password shows 邮箱或密码错误 → login. Screenshots
 * go to reference-server/test-artifacts/review/ (git-ignored).
 */
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-artifacts', 'review');
const chromium = findChromium();
if (!chromium.ok) console.warn(`[review browser test] ⚠ SKIPPING: ${chromium.reason}`);

describe.skipIf(!chromium.ok)('review-auth pages in Chromium', () => {
  let server: ReviewTestServer;
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    server = await startReviewServer({ kind: 'embedded' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.destroy();
  });

  it('registers, logs out, fails a login with the right message, and logs in — by keyboard and mouse', async () => {
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 800, height: 640 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      // The 400 and 401 answers the test provokes on purpose are logged by Chromium as failed loads.
      const expected = /^Failed to load resource: the server responded with a status of 40[01] /;
      if (message.type() === 'error' && !expected.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    const email = uniqueEmail('browser');
    const password = 'correct horse 密码';

    // Register: the labels name the fields.
    await page.goto(`${server.url}/register`);
    expect(await page.title()).toBe('注册 · 代码评审助手');
    await page.getByLabel('邮箱').fill(`  ${email.toUpperCase()} `);
    await page.getByLabel('密码').fill('12345');
    await page.getByRole('button', { name: '注册并登录' }).click();
    await expect.poll(() => page.locator('#form-error').textContent()).toBe(M.passwordTooShort);
    await page.screenshot({ path: join(ARTIFACTS, '1-register-error.png'), fullPage: true });
    await page.getByLabel('密码').fill(password);
    await page.screenshot({ path: join(ARTIFACTS, '2-register.png'), fullPage: true });
    await Promise.all([
      page.waitForURL(`${server.url}/`),
      page.getByRole('button', { name: '注册并登录' }).click(),
    ]);

    // The landing page shows who is signed in; the cookie is httpOnly and SameSite=Lax.
    await expect.poll(() => page.locator('#signed-in-email').textContent()).toBe(email.toLowerCase());
    await page.screenshot({ path: join(ARTIFACTS, '3-landing.png'), fullPage: true });
    const cookie = (await context.cookies()).find((c) => c.name === 'review_sid');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(await page.evaluate(() => document.cookie)).not.toContain('review_sid');

    // Logout redirects to the login page and ends the session.
    await Promise.all([
      page.waitForURL(`${server.url}/login`),
      page.getByRole('button', { name: '退出登录' }).click(),
    ]);
    expect((await context.cookies()).find((c) => c.name === 'review_sid')).toBeUndefined();
    await page.goto(`${server.url}/`);
    expect(page.url()).toBe(`${server.url}/login`);

    // A wrong password, submitted with the keyboard, shows the server's message in the live region.
    await page.getByLabel('邮箱').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('wrong password');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#form-error').textContent()).toBe(M.badCredentials);
    expect(await page.locator('#form-error').getAttribute('aria-live')).toBe('assertive');
    expect(page.url()).toBe(`${server.url}/login`);
    await page.screenshot({ path: join(ARTIFACTS, '4-login-error.png'), fullPage: true });

    // The right password signs in.
    await page.getByLabel('密码').fill(password);
    await Promise.all([page.waitForURL(`${server.url}/`), page.getByLabel('密码').press('Enter')]);
    await expect.poll(() => page.locator('#signed-in-email').textContent()).toBe(email.toLowerCase());
    await page.screenshot({ path: join(ARTIFACTS, '5-signed-in.png'), fullPage: true });

    // Nothing was blocked by the Content-Security-Policy and no script failed.
    expect(problems).toEqual([]);
    await context.close();
  });
});
