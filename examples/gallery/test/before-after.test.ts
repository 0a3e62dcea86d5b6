import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePng } from '@assetloom/pipeline';
import { afterAll, describe, expect, it } from 'vitest';
import { BEFORE_AFTER, CRAWL_TILES, writeBeforeAfter } from '../src/before-after.js';

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('gallery: pixelize before/after', () => {
  it('writes nothing (and does not fail) without the CC0 tiles', async () => {
    dir = await mkdtemp(join(tmpdir(), 'assetloom-before-after-'));
    expect(await writeBeforeAfter(dir, join(dir, 'no-such-atlas.png'))).toEqual([]);
  });

  it.skipIf(!existsSync(CRAWL_TILES) && !process.env.CI)(
    'writes model picture | pixelize result | original for every entry, the result right where no palette changes it',
    async () => {
      if (!existsSync(CRAWL_TILES))
        throw new Error(`${CRAWL_TILES} is missing in CI: run bash scripts/bootstrap.sh --test`);
      const files = await writeBeforeAfter(dir);
      expect(files).toHaveLength(BEFORE_AFTER.length);
      for (const [i, f] of files.entries()) {
        const png = decodePng(new Uint8Array(await readFile(f.path)));
        expect(png.ok, f.path).toBe(true);
        if (png.ok) expect([png.image.width, png.image.height]).toEqual([f.width, f.height]);
        expect(f.scale).toBe(BEFORE_AFTER[i]!.scale);
        if (!BEFORE_AFTER[i]!.palette) expect(f.right).toBeGreaterThanOrEqual(0.99);
      }
    },
    60_000,
  );
});
