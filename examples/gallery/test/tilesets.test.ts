import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePng } from '@assetloom/pipeline';
import { SEAM_GOALS } from '@assetloom/pipeline/tileset';
import { afterAll, describe, expect, it } from 'vitest';
import { TILESETS, writeTilesetMaps } from '../src/tilesets.js';

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('tileset maps in the gallery', () => {
  it('paints a map per tileset by its rules, with no seam above the goal', async () => {
    dir = await mkdtemp(join(tmpdir(), 'assetloom-tiles-'));
    const files = await writeTilesetMaps(dir);
    expect(files).toHaveLength(TILESETS.length);
    for (const f of files) {
      expect(f.seams.joints).toBeGreaterThan(100);
      expect(f.seams.worst, f.name).toBeLessThanOrEqual(SEAM_GOALS.worst);
      expect(f.seams.mean, f.name).toBeLessThanOrEqual(SEAM_GOALS.mean);
      for (const path of [f.map, f.sheet])
        expect(decodePng(new Uint8Array(await readFile(path))).ok).toBe(true);
    }
    expect((await readdir(join(dir, 'raw', 'tileset-sand-lava-blob47'))).sort()).toEqual([
      // an enforced palette travels with the engine files (#39)
      'palette.gpl',
      'palette.hex',
      'tileset.json',
      'tileset.png',
      'tileset.tres',
      'tileset.tsx',
    ]);
  }, 60_000);
});
