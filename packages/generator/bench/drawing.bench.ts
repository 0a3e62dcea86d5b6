// The subjects bench (issue #27) and the drawing speed figures. `pnpm --filter @assetloom/pipeline bench`
// (or `tsx bench/drawing.bench.ts`; BENCH_NOUNS=n draws only the first n nouns of each list).
//
// Counts: over 400+ English and 150+ Chinese common game nouns, per asset type, how many are drawn
// from a licensed drawing, by the rig, or refused with the word named; silent substitutes (must be 0);
// distinct silhouettes; native detail (no exact 2× block upscale); orphan pixels and detached dots.
// Speed: a warm 64 px 4 × 4 sprite sheet (p50 and p95) against the PNG encoding of the same sheet
// measured in the same run; the first drawing (cold: catalog, set file, resvg's module).
import { encodePng } from '@assetloom/pipeline';
import { interpret } from '@assetloom/pipeline/interpret';
import { renderProcedural } from '../src/index.js';
import { drawSubject, loadNouns, type SubjectOutcome, summarize } from './subjects.js';

const limit = Number(process.env.BENCH_NOUNS ?? Number.POSITIVE_INFINITY);
const { en, zh } = loadNouns();
const english = en.slice(0, limit);
const chinese = zh.slice(0, limit);
const pct = (n: number, of: number) => `${n} (${((n / Math.max(1, of)) * 100).toFixed(1)} %)`;

const t0 = performance.now();
const first = await renderProcedural({
  assetType: 'sprite',
  prompt: 'a dog',
  userPrompt: 'a dog',
  tags: [],
  style: {},
  resolution: 64,
  directions: 4,
  framesPerDirection: 4,
  seed: 1,
  attempt: 0,
});
console.log(
  `[bench:drawing] first drawing in this process (catalog, set file, resvg): ${(performance.now() - t0).toFixed(0)} ms`,
);

for (const assetType of ['sprite', 'animation'] as const) {
  for (const [lang, list] of [
    ['English', english.map((w) => [w, undefined] as const)],
    ['Chinese', chinese.map(([z, g]) => [z, g] as const)],
  ] as const) {
    const outcomes: SubjectOutcome[] = [];
    for (const [noun, gloss] of list)
      outcomes.push(await drawSubject(noun, assetType, gloss ? { gloss } : {}));
    const f = summarize(assetType, outcomes);
    const done = f.nouns - f.refused;
    console.log(
      `[bench:drawing] ${assetType}, ${f.nouns} ${lang} nouns: drawing ${pct(f.drawing, f.nouns)}, rig ${pct(f.rig, f.nouns)}, refused ${pct(f.refused, f.nouns)}; silent substitutes ${f.silentSubstitutes.length}; distinct silhouettes ${pct(f.distinct, done)}; exact 2× block upscales ${f.blockUpscaled.length}; orphan pixels ${f.orphans}, detached dots ${f.detached} (${done * 16} frames)`,
    );
    if (f.silentSubstitutes.length) console.log(`  silent substitutes: ${f.silentSubstitutes.join(', ')}`);
    if (f.refusals.length) console.log(`  refused: ${f.refusals.join(', ')}`);
    if (f.alike.length) console.log(`  alike: ${f.alike.map(([a, b]) => `${a}~${b}`).join(' ')}`);
  }
}

// speed: a warm sheet against encoding that sheet as a PNG, in this run
const sheet = (frames: typeof first.frames) => {
  const side = 64 * 4;
  const out = new Uint8Array(side * side * 4);
  frames.forEach((f, i) => {
    const ox = (i % 4) * 64;
    const oy = Math.floor(i / 4) * 64;
    for (let y = 0; y < 64; y++) out.set(f.data.subarray(y * 256, y * 256 + 256), ((oy + y) * side + ox) * 4);
  });
  return out;
};
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)]!;
for (const [label, prompt, assetType] of [
  ['drawing (a dog)', 'a dog', 'sprite'],
  ['drawing, animation (a coin spinning)', 'a coin spinning', 'animation'],
  ['rig (a knight)', 'a knight', 'sprite'],
] as const) {
  const request = {
    assetType,
    prompt,
    userPrompt: prompt,
    tags: [],
    style: {},
    resolution: 64,
    directions: 4 as const,
    framesPerDirection: 4,
    seed: 1,
    attempt: 0,
  };
  for (let i = 0; i < 5; i++) await renderProcedural(request);
  const draw: number[] = [];
  const png: number[] = [];
  for (let i = 0; i < 40; i++) {
    let t = performance.now();
    const out = await renderProcedural(request);
    draw.push(performance.now() - t);
    const pixels = sheet(out.frames);
    t = performance.now();
    encodePng(pixels, 256, 256);
    png.push(performance.now() - t);
  }
  const p50 = quantile(draw, 0.5);
  const e50 = quantile(png, 0.5);
  console.log(
    `[bench:drawing] warm 64 px 4×4 sheet, ${label}: p50 ${p50.toFixed(2)} ms, p95 ${quantile(draw, 0.95).toFixed(2)} ms; PNG encoding of the sheet p50 ${e50.toFixed(2)} ms (drawing = ${(p50 / e50).toFixed(2)}× encoding)`,
  );
}
let t = performance.now();
for (let i = 0; i < 2000; i++)
  interpret({
    assetType: 'sprite',
    userPrompt: i % 2 ? 'a red fox walking in the forest' : '一只红色的狐狸',
    tags: [],
    style: {},
  });
console.log(
  `[bench:drawing] interpret one prompt (EN + ZH, lexicon warm): ${((performance.now() - t) / 2000).toFixed(3)} ms`,
);
t = performance.now();
for (let i = 0; i < 5; i++)
  await renderProcedural({
    assetType: 'background',
    prompt: 'x',
    userPrompt: 'a rainy night city',
    tags: [],
    style: {},
    resolution: 256,
    directions: 1,
    framesPerDirection: 1,
    seed: i,
    attempt: 0,
  });
console.log(
  `[bench:drawing] background 256 px (night city in the rain): ${((performance.now() - t) / 5).toFixed(1)} ms`,
);
