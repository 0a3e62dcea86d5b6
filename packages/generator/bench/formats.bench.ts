// The cost of the engine files (issue #18): for a sheet, writing every atlas format (TexturePacker,
// Godot, Aseprite, Phaser multi-atlas + animations, Unity .meta) and the PNG page(s), against a
// baseline measured in the same run: composing and encoding the same PNG page(s) alone.

import type { AssetMetadata } from '@assetloom/pipeline';
import { encodePng } from '@assetloom/pipeline';
import { composePage, layoutPages, resolvePlayback, sheetFiles } from '@assetloom/pipeline/formats';
import { renderProcedural } from '../src/index.js';

function p50(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(fn: () => unknown, iterations: number): number {
  for (let i = 0; i < Math.min(5, iterations); i++) fn();
  const out: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return p50(out);
}

async function bench(
  name: string,
  resolution: number,
  directions: 1 | 4 | 8,
  framesPerDirection: number,
  iterations: number,
) {
  const { frames } = await renderProcedural({
    assetType: 'animation',
    prompt: 'a walking knight',
    userPrompt: 'a walking knight',
    tags: [],
    style: {},
    resolution,
    directions,
    framesPerDirection,
    seed: 1,
    attempt: 0,
  });
  const names = frames.map((_, i) => ({
    name: `walk_${Math.floor(i / framesPerDirection)}_${i % framesPerDirection}`,
    animation: `walk_${Math.floor(i / framesPerDirection)}`,
  }));
  const metadata = { frameWidth: resolution, frameHeight: resolution } as AssetMetadata;
  const playback = resolvePlayback(
    { frameDurations: Array(framesPerDirection).fill(120), loop: 'pingpong' },
    framesPerDirection,
  );
  const layout = layoutPages(resolution, resolution, directions, framesPerDirection);
  let bytes = 0;
  const all = time(() => {
    const out = sheetFiles({
      frames,
      names,
      frameWidth: resolution,
      frameHeight: resolution,
      directions,
      framesPerDirection,
      stem: 'animation',
      keyPrefix: 'bench/',
      playback,
      metadata,
      text: { Software: 'assetloom' },
    });
    bytes = out.writes.filter(([key]) => !key.endsWith('.png')).reduce((n, [, b]) => n + b.length, 0);
  }, iterations);
  const pngOnly = time(() => {
    for (const page of layout.pages) {
      const image = composePage(frames, layout, page);
      encodePng(image.data, image.width, image.height, { text: { Software: 'assetloom' } });
    }
  }, iterations);
  console.log(
    `${name.padEnd(44)} all files p50 ${all.toFixed(2).padStart(7)} ms  PNG page(s) alone ${pngOnly.toFixed(2).padStart(7)} ms  ` +
      `ratio ${(all / pngOnly).toFixed(2)}×  atlas files ${(bytes / 1024).toFixed(1)} KiB, ${layout.pages.length} page(s)`,
  );
}

await bench('64 px, 4 directions × 4 frames', 64, 4, 4, 200);
await bench('32 px, 8 directions × 16 frames', 32, 8, 16, 100);
await bench('600 px, 8 directions × 2 frames (2 pages)', 600, 8, 2, 8);
