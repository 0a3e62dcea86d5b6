/**
 * Seeds are variations (issue #39): four seeds of one prompt, drawn at 64 px, one direction, one frame.
 * For each prompt: the share of the covered pixels that differ between two seeds (mean and least over
 * the 6 pairs), the share that differ once each picture is reduced to its silhouette (the outline the
 * pose, proportions and drawing change; a palette ramp alone leaves it), and how many different
 * drawings or rigs the four seeds used. Counts, not clocks.
 *
 *   pnpm --filter @assetloom/generator exec tsx bench/seeds.bench.ts
 */
import type { RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const SEED_PROMPTS = [
  'a black cat',
  'a small red dragon',
  'a treasure chest',
  'a knight',
  'a potion',
  'a wooden barrel',
  'a red apple',
  'a sword',
  'a wolf',
  'a frog',
  'a skeleton',
  'a witch',
  'a mushroom',
  'a golden key',
  'a slime',
  'a tree',
  'a house',
  'a ghost',
  '一只熊猫',
  '一把剑',
];

/** Share of the pixels either picture covers that differ (colour, or coverage alone with `shape`). */
function differ(a: RgbaImage, b: RgbaImage, shape = false): number {
  let n = 0;
  let any = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const ca = a.data[i + 3]! > 0;
    const cb = b.data[i + 3]! > 0;
    if (!ca && !cb) continue;
    any++;
    if (shape ? ca !== cb : [0, 1, 2, 3].some((k) => a.data[i + k] !== b.data[i + k])) n++;
  }
  return any ? n / any : 0;
}

async function seedFigures(prompt: string, seeds = [1, 2, 3, 4]) {
  const frames: RgbaImage[] = [];
  const sources = new Set<string>();
  for (const seed of seeds) {
    const out = await renderProcedural(spriteRequest(prompt, { resolution: 64, seed }));
    frames.push(out.frames[0]!);
    const it = out.interpretation;
    sources.add(it?.drawing ? it.drawing.id : `rig:${it?.kind}`);
  }
  const pairs: Array<[number, number]> = [];
  for (let a = 0; a < frames.length; a++)
    for (let b = a + 1; b < frames.length; b++)
      pairs.push([differ(frames[a]!, frames[b]!), differ(frames[a]!, frames[b]!, true)]);
  return {
    mean: pairs.reduce((s, p) => s + p[0], 0) / pairs.length,
    least: Math.min(...pairs.map((p) => p[0])),
    shapeMean: pairs.reduce((s, p) => s + p[1], 0) / pairs.length,
    shapeLeast: Math.min(...pairs.map((p) => p[1])),
    sources: [...sources],
  };
}

const pct = (v: number) => `${Math.round(v * 100)} %`.padStart(6);
console.log(
  'prompt                 pixels differ (mean, least pair)  silhouette differs (mean, least)  sources',
);
let all = 0;
let least = 1;
let shape = 0;
for (const prompt of SEED_PROMPTS) {
  const f = await seedFigures(prompt);
  all += f.mean;
  least = Math.min(least, f.least);
  shape += f.shapeMean;
  console.log(
    `${prompt.padEnd(22)} ${pct(f.mean)} ${pct(f.least)}                    ${pct(f.shapeMean)} ${pct(f.shapeLeast)}           ${f.sources.length}: ${f.sources.join(' ')}`,
  );
}
console.log(
  `over ${SEED_PROMPTS.length} prompts: pixels differ ${pct(all / SEED_PROMPTS.length)} (least pair ${pct(least)}), silhouette ${pct(shape / SEED_PROMPTS.length)}`,
);
