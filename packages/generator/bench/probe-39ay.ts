// Backgrounds with depth (issue #39, decision 0125): the longest straight horizontal colour boundary
// (a run of one colour pair across two rows: a hard band edge) over the whole picture and over its
// sky, and how many distinct shapes the repeated props (coral) take. Own prompts only, never a
// held-out list.
//
//   tsx bench/probe-39ay.ts
import { decodePng } from '@assetloom/pipeline';
import { renderProcedural, runPipeline } from '../src/index.js';
import { backgroundRequest, longestBandEdge } from '../test/support.js';

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

// the reef's corals: clumps standing on the sea floor (groups of ≥ 60 pixels reaching its bottom
// 15 %) and how many distinct shapes they take (one stamp: 1)
const reef = await renderProcedural(backgroundRequest('a coral reef with fish'));
const props = reef.layers!.find((l) => l.name === 'props')!.image;
const { width: w, height: h, data } = props;
const seen = new Uint8Array(w * h);
const shapes = new Set<string>();
let clumps = 0;
for (let p = 0; p < w * h; p++) {
  if (seen[p] || !data[p * 4 + 3]) continue;
  const stack = [p];
  const mask: number[] = [];
  seen[p] = 1;
  let [x0, y0, y1] = [w, h, -1];
  while (stack.length) {
    const q = stack.pop()!;
    mask.push(q);
    const qx = q % w;
    const qy = (q - qx) / w;
    [x0, y0, y1] = [Math.min(x0, qx), Math.min(y0, qy), Math.max(y1, qy)];
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const x = qx + dx;
      const y = qy + dy;
      if (x < 0 || y < 0 || x >= w || y >= h || seen[y * w + x] || !data[(y * w + x) * 4 + 3]) continue;
      seen[y * w + x] = 1;
      stack.push(y * w + x);
    }
  }
  if (y1 < h * 0.85 || mask.length < 60) continue;
  clumps++;
  shapes.add(
    mask
      .map((q) => `${(q % w) - x0},${Math.floor(q / w) - y0}`)
      .sort()
      .join(';'),
  );
}
console.log(`a coral reef with fish\tcoral clumps: ${clumps}, distinct shapes: ${shapes.size}`);
