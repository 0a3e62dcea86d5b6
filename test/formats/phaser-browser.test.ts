import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, findChromium, launchChromium } from '@assetloom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GeneratedSheet, generateSheet, type ServedFile, serveFiles } from './sheet-server.js';

/**
 * Phaser 3's own loader and animation manager read the Phaser files, in Debian's Chromium: a tiny
 * page served from 127.0.0.1 loads the multi-atlas (`this.load.multiatlas`), creates the
 * animations with `this.anims.fromJSON`, then steps one animation by hand and reports which frame
 * shows when. A correctness test (no timings of this machine are measured).
 */

const chromium = findChromium();
const phaserJs = readFileSync(createRequire(import.meta.url).resolve('phaser/dist/phaser.min.js'));

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><script src="/phaser.js"></script></head>
<body><script>
const params = new URLSearchParams(location.search);
const dir = '/files/' + params.get('sheet') + '/';
const stepMs = Number(params.get('step'));
class Probe extends Phaser.Scene {
  preload() {
    this.load.multiatlas('animation', dir + 'animation.phaser.json', dir);
    this.load.json('anims', dir + 'animation.phaser-anims.json');
  }
  create() {
    const created = this.anims.fromJSON(this.cache.json.get('anims'));
    const texture = this.textures.get('animation');
    const anims = created.map((a) => ({
      key: a.key,
      frameRate: a.frameRate,
      msPerFrame: a.msPerFrame,
      yoyo: a.yoyo,
      repeat: a.repeat,
      frames: a.frames.map((f) => ({ textureKey: f.textureKey, frame: f.textureFrame, duration: f.duration,
        width: f.frame.width, height: f.frame.height, source: texture.source.indexOf(f.frame.source) })),
    }));
    // play the first animation by hand: which frame shows, from which millisecond
    const sprite = new Phaser.GameObjects.Sprite(this, 0, 0, 'animation');
    sprite.play(created[0].key);
    const shown = [{ frame: sprite.frame.name, at: 0 }];
    for (let t = stepMs; t <= 4000; t += stepMs) {
      sprite.anims.update(t, stepMs);
      if (sprite.frame.name !== shown[shown.length - 1].frame) shown.push({ frame: sprite.frame.name, at: t });
    }
    window.__result = {
      textureExists: this.textures.exists('animation'),
      sources: texture.source.map((s) => [s.width, s.height]),
      frameNames: texture.getFrameNames().length,
      anims,
      shown,
    };
  }
}
new Phaser.Game({ type: Phaser.CANVAS, width: 64, height: 64, banner: false, audio: { noAudio: true }, scene: Probe });
</script></body></html>`;

interface Result {
  textureExists: boolean;
  sources: Array<[number, number]>;
  frameNames: number;
  anims: Array<{
    key: string;
    frameRate: number;
    msPerFrame: number;
    yoyo: boolean;
    repeat: number;
    frames: Array<{
      textureKey: string;
      frame: string;
      duration: number;
      width: number;
      height: number;
      source: number;
    }>;
  }>;
  shown: Array<{ frame: string; at: number }>;
}

describe.skipIf(!chromium.ok)('Phaser 3 reads the multi-atlas and the animation JSON (Chromium)', () => {
  let server: { base: string; close(): Promise<void> };
  let browser: Browser;
  let base: string;
  const sheets = new Map<string, GeneratedSheet>();

  beforeAll(async () => {
    // wrapped onto 2 pages (8 directions × 2 frames of 600 px), custom durations, ping-pong
    sheets.set(
      'paged',
      await generateSheet('paged', 600, 8, 2, { frameDurations: [100, 300], loop: 'pingpong' }),
    );
    // one page, 12 fps, reverse
    sheets.set('plain', await generateSheet('plain', 32, 4, 4, { fps: 12, loop: 'reverse' }));
    const files = new Map<string, ServedFile>([
      ['/', { bytes: PAGE, type: 'text/html; charset=utf-8' }],
      ['/phaser.js', { bytes: phaserJs, type: 'text/javascript' }],
    ]);
    for (const s of sheets.values()) for (const [path, file] of s.files) files.set(path, file);
    server = await serveFiles(files);
    base = server.base;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function probe(name: string, step: number): Promise<Result> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') errors.push(m.text());
    });
    try {
      await page.goto(`${base}?sheet=${name}&step=${step}`);
      await page.waitForFunction(() => (window as { __result?: unknown }).__result !== undefined, undefined, {
        timeout: 30_000,
      });
      const result = (await page.evaluate(() => (window as { __result?: unknown }).__result)) as Result;
      expect(errors).toEqual([]);
      return result;
    } finally {
      await page.close();
    }
  }

  it('a sheet on two pages: one texture with both pages, every animation, the durations played', async () => {
    const s = sheets.get('paged')!;
    const r = await probe('paged', 10);
    expect(r.textureExists).toBe(true);
    expect(r.sources).toEqual([
      [1200, 3600],
      [1200, 1200],
    ]);
    expect(r.frameNames).toBe(s.frames);
    expect(r.anims.map((a) => a.key)).toEqual(s.animations);
    for (const [d, a] of r.anims.entries()) {
      expect(a.yoyo).toBe(true);
      expect(a.repeat).toBe(-1);
      expect(a.frames).toHaveLength(2);
      // since Phaser 3.80 a frame's duration is its whole time on screen
      expect(a.frames.map((f) => f.duration)).toEqual([100, 300]);
      for (const f of a.frames) expect([f.textureKey, f.width, f.height]).toEqual(['animation', 600, 600]);
      // six directions on the first page, two on the second
      expect(a.frames.every((f) => f.source === (d < 6 ? 0 : 1))).toBe(true);
    }
    // played by Phaser: frame 0 for 100 ms, frame 1 for 300 ms, then back (yoyo)
    const [first, second, third] = r.shown;
    expect(first!.frame).toBe(r.anims[0]!.frames[0]!.frame);
    expect(second).toEqual({ frame: r.anims[0]!.frames[1]!.frame, at: 100 });
    expect(third).toEqual({ frame: r.anims[0]!.frames[0]!.frame, at: 400 });
  });

  it('a one-page sheet at 12 fps, reverse: frames listed backwards at 1000/12 ms each', async () => {
    const r = await probe('plain', 1);
    expect(r.sources).toEqual([[128, 128]]);
    expect(r.anims).toHaveLength(4);
    for (const a of r.anims) {
      expect(a.frameRate).toBe(12);
      expect(a.yoyo).toBe(false);
      expect(a.frames.map((f) => f.duration)).toEqual([0, 0, 0, 0]);
      expect(a.frames.map((f) => f.frame)).toEqual([3, 2, 1, 0].map((i) => `${a.key}_${i}`));
    }
    // 4 frames at 83.3 ms each, in the order listed
    expect(r.shown.slice(0, 5).map((s) => s.frame)).toEqual(
      [3, 2, 1, 0, 3].map((i) => `${r.anims[0]!.key}_${i}`),
    );
    expect(r.shown.slice(1, 5).map((s) => s.at)).toEqual([84, 167, 250, 334]);
  });
});
