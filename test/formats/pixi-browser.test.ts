import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Browser, findChromium, launchChromium } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GeneratedSheet, generateSheet, type ServedFile, serveFiles } from './sheet-server.js';

/**
 * PixiJS 8's own asset loader reads a wrapped sheet's TexturePacker pages in Chromium: loading the
 * first page's JSON follows `meta.related_multi_packs` to the second (TexturePacker's multipack
 * convention), and both pages' images load. Node's test of the same files parses each page alone
 * (sheets.test.ts); this one proves the pages find each other.
 */

const chromium = findChromium();
// the package's exports hide dist/ and package.json: go up from its entry (lib/index.js)
const pixiRoot = dirname(dirname(createRequire(import.meta.url).resolve('pixi.js')));
const pixiJs = readFileSync(join(pixiRoot, 'dist', 'pixi.min.js'));

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><script src="/pixi.js"></script></head>
<body><script>
(async () => {
  try {
    const sheet = await PIXI.Assets.load(new URLSearchParams(location.search).get('atlas'));
    const all = [sheet, ...sheet.linkedSheets];
    window.__result = {
      sheets: all.map((s) => ({
        image: s.data.meta.image,
        size: [s.textureSource.width, s.textureSource.height],
        textures: Object.keys(s.textures).length,
        animations: Object.fromEntries(Object.entries(s.animations).map(([k, v]) => [k, v.length])),
      })),
      // every texture of every page resolves by name from the cache, as a game would ask for it
      cached: all.flatMap((s) => Object.keys(s.textures)).filter((name) => PIXI.Assets.cache.has(name)).length,
    };
  } catch (error) {
    window.__result = { error: String(error && error.stack || error) };
  }
})();
</script></body></html>`;

describe.skipIf(!chromium.ok)('PixiJS 8 loads a wrapped sheet’s TexturePacker pages (Chromium)', () => {
  let server: { base: string; close(): Promise<void> };
  let browser: Browser;
  let paged: GeneratedSheet;

  beforeAll(async () => {
    paged = await generateSheet('paged', 600, 8, 2, { loop: 'pingpong' });
    const files = new Map<string, ServedFile>([
      ['/', { bytes: PAGE, type: 'text/html; charset=utf-8' }],
      ['/pixi.js', { bytes: pixiJs, type: 'text/javascript' }],
      ...paged.files,
    ]);
    server = await serveFiles(files);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('Assets.load of page 0 brings page 1 through related_multi_packs', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${server.base}?atlas=/files/paged/animation-0.json`);
      await page.waitForFunction(() => (window as { __result?: unknown }).__result !== undefined, undefined, {
        timeout: 30_000,
      });
      const result = (await page.evaluate(() => (window as { __result?: unknown }).__result)) as {
        error?: string;
        sheets: Array<{
          image: string;
          size: [number, number];
          textures: number;
          animations: Record<string, number>;
        }>;
        cached: number;
      };
      expect(result.error).toBeUndefined();
      expect(errors).toEqual([]);
      expect(result.sheets.map((s) => [s.image, s.size, s.textures])).toEqual([
        ['animation-0.png', [1200, 3600], 12],
        ['animation-1.png', [1200, 1200], 4],
      ]);
      const animations = Object.assign({}, ...result.sheets.map((s) => s.animations));
      expect(Object.keys(animations)).toEqual(paged.animations);
      // ping-pong of 2 frames plays 0,1,0,1…: each animation lists its 2 frames once
      expect(Object.values(animations)).toEqual(Array(8).fill(2));
      expect(result.cached).toBe(paged.frames);
    } finally {
      await page.close();
    }
  });
});
