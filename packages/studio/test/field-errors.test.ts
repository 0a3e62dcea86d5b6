import { join } from 'node:path';
import { type Browser, findChromium, launchChromium } from '@assetloom/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  artifacts,
  expectAccessible,
  type StudioServer,
  startStudioServer,
  watchProblems,
} from './helpers.js';

const chromium = findChromium();
const shots = join(artifacts, 'field-errors');

/**
 * The `aria-describedby` of the control named `name` names the element holding `text`. (By name: a
 * label's text holds the message while one is shown, so a label match would not be exact.)
 */
async function describedBy(page: Page, name: string, text: string): Promise<boolean> {
  const ids = (await page.locator(`[name="${name}"]`).getAttribute('aria-describedby')) ?? '';
  for (const id of ids.split(' ').filter(Boolean)) {
    if ((await page.locator(`#${id}`).textContent())?.includes(text)) return true;
  }
  return false;
}

/**
 * The production studio on the reference server in Chromium, nothing answered for it: each message of
 * the server's 400 `data.errors` (issue #32, decision 0037) shown at the field its JSON pointer names
 * (sign-up, a palette the generator does not read, a blank description), in the UI's language (the
 * studio asks with Accept-Language on every request), with the field marked invalid and described by it.
 */
describe.skipIf(!chromium.ok)('server messages at their fields (reference server)', () => {
  let browser: Browser;
  let studio: StudioServer;
  let url: string;

  beforeAll(async () => {
    studio = await startStudioServer('assetloom-studio-fields-', shots);
    url = `${studio.server.url}/studio/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
  });

  it('puts each refused field’s message beside that field', async () => {
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const languages: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) {
        languages.push(request.headers()['accept-language'] ?? '');
      }
    });
    await page.goto(`${url}#/register`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByLabel('Username').fill('ab');
    await page.getByLabel('Password').fill('12345');
    await page.getByRole('button', { name: 'Sign up and log in' }).click();
    await expect
      .poll(() => page.getByTestId('field-error-username').textContent())
      .toBe('must be at least 3 characters long');
    expect(await page.getByTestId('field-error-password').textContent()).toBe(
      'must be at least 6 characters long',
    );
    expect(await page.locator('[name="username"]').getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(page, 'password', 'must be at least 6 characters long')).toBe(true);
    expect(await page.getByLabel('Email (optional)').getAttribute('aria-invalid')).toBe('false');
    expect(await page.locator('#auth-error').textContent()).toBe('Invalid parameters');
    await expectAccessible(page, 'sign-up with field errors');
    await page.screenshot({ path: join(shots, '01-register.png'), fullPage: true });

    // A new account and a project.
    await page.getByLabel('Username').fill(`artist${Date.now().toString(36)}`);
    await page.getByLabel('Password').fill('secret-pass-1');
    await page.getByRole('button', { name: 'Sign up and log in' }).click();
    await page.getByRole('button', { name: '+ New project' }).click();
    await page.getByLabel('Project name').fill('Pixel Farm');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Pixel Farm');

    // The style: a palette the generator does not read is refused, in the palette's row.
    await page.getByRole('link', { name: 'Style' }).click();
    await page.getByRole('button', { name: 'Game Boy' }).click();
    // (the row whose key input holds `palette`: inputs carry their value as a property, not an attribute)
    const rows = page.getByTestId('kv-row');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    const keys = await rows.evaluateAll((els) => els.map((el) => el.querySelector('input')?.value ?? ''));
    expect(keys).toContain('palette');
    const paletteRow = rows.nth(keys.indexOf('palette'));
    await paletteRow.locator('input').nth(1).fill('sweetie-61');
    await page.getByRole('button', { name: 'Save style' }).click();
    await expect.poll(() => paletteRow.getByTestId('field-error').count()).toBe(1);
    const paletteMessage = (await paletteRow.getByTestId('field-error').textContent()) ?? '';
    expect(paletteMessage).toMatch(/^is not a value the generator reads; use one of: .*\bgameboy\b/);
    expect(await paletteRow.locator('input').nth(1).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('field-error').count()).toBe(1);
    await expectAccessible(page, 'style with a refused palette');
    await page.screenshot({ path: join(shots, '02-style.png'), fullPage: true });

    // The generate form: a description of spaces is refused under Description.
    await page.getByRole('link', { name: 'Generate' }).click();
    await page.getByLabel('Description').fill('   ');
    await page.getByTestId('generate').click();
    await expect.poll(() => page.getByTestId('field-error/prompt').textContent()).toBe('must not be empty');
    expect(await page.locator('[name="prompt"]').getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(page, 'prompt', 'must not be empty')).toBe(true);
    expect(await page.locator('[name="resolution"]').getAttribute('aria-invalid')).toBe('false');
    await expectAccessible(page, 'generate with a blank description');
    await page.screenshot({ path: join(shots, '03-generate.png'), fullPage: true });
    // The UI's language went with every API request.
    expect(languages.length).toBeGreaterThan(3);
    expect(new Set(languages)).toEqual(new Set(['en']));
    expect(problems).toEqual([]);
    await context.close();
  });
});
