import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePng } from '@assetloom/pipeline';
import { afterAll, describe, expect, it } from 'vitest';
import { GALLERY, writeGallery } from '../src/gallery.js';

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('gallery example', () => {
  it('writes decodable PNGs of the stated size for every entry', async () => {
    dir = await mkdtemp(join(tmpdir(), 'assetloom-gallery-'));
    const files = await writeGallery(dir);
    expect(files).toHaveLength(GALLERY.length);
    for (const f of files) {
      const png = decodePng(new Uint8Array(await readFile(f.path)));
      expect(png.ok, f.path).toBe(true);
      if (png.ok) expect([png.image.width, png.image.height]).toEqual([f.width, f.height]);
    }
    const raw = await readdir(join(dir, 'raw', 'animation-knight-walk'));
    expect(raw.sort()).toEqual([
      'animation.aseprite.json',
      'animation.json',
      'animation.phaser-anims.json',
      'animation.phaser.json',
      'animation.png',
      'animation.png.meta',
      'animation.tres',
      // the knight's project enforces a palette: it travels with the engine files (#39)
      'palette.gpl',
      'palette.hex',
    ]);
  }, 60_000);
});
