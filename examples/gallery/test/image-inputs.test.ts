import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePng } from '@assetloom/pipeline';
import { afterAll, describe, expect, it } from 'vitest';
import { writeImageInputs } from '../src/image-inputs.js';

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('gallery: images in (issue #31)', () => {
  it('writes the pixelate, palette-from and animate pairs (inpaint only with a ComfyUI)', {
    timeout: 120_000,
  }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'assetloom-image-inputs-'));
    const files = await writeImageInputs(dir);
    expect(files.map((f) => f.path.split('/').at(-1))).toEqual([
      'input-pixelate-fox.png',
      'input-palette-from.png',
      'input-animate-fox.png',
    ]);
    for (const f of files) {
      const png = decodePng(new Uint8Array(await readFile(f.path)));
      expect(png.ok, f.path).toBe(true);
      if (png.ok) expect([png.image.width, png.image.height]).toEqual([f.width, f.height]);
    }
  });
});
