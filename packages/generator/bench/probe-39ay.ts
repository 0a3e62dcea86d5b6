// Backgrounds with depth (issue #39, decision 0125): the longest straight horizontal colour boundary
// (a run of one colour pair across two rows: a hard band edge) over the whole picture and over its
// sky, and how many distinct shapes the repeated props (coral) take. Own prompts only, never a
// held-out list.
//
//   tsx bench/probe-39ay.ts
import { decodePng } from '@assetloom/pipeline';
import { runPipeline } from '../src/index.js';
import { longestBandEdge } from '../test/support.js';

const PROMPTS = [
  'a mountain valley at dawn',
  'a kelp forest under the sea',
  'a harbour town at dusk',
  'a snowy pine forest',
  'a neon city street at night',
  'a beach at noon',
  'a quiet lake among mountains',
  'a lighthouse on the rocks at sunset',
  'a coral reef with fish',
  'a little farming village with houses',
];

for (const prompt of PROMPTS) {
  const { createMemoryStorage } = await import('@assetloom/pipeline');
  const storage = createMemoryStorage();
  const result = await runPipeline(
    {
      prompt,
      assetType: 'background',
      projectStyle: {},
      params: { resolution: 320, width: 320, height: 180, seed: 7, format: 'spritesheet' } as never,
      keyPrefix: 'p/t/',
    },
    { storage },
  );
  if (!result.ok) {
    console.log(`${prompt}\tFAILED`);
    continue;
  }
  const png = decodePng(storage.get(result.assets[0]!.key)!.bytes);
  if (!png.ok) throw new Error(png.error);
  const all = longestBandEdge(png.image);
  const sky = longestBandEdge(png.image, 0, Math.round(png.image.height * 0.45));
  console.log(`${prompt}\tlongest band edge: ${all.run} px (row ${all.y})\tin the top 45 %: ${sky.run} px`);
}
