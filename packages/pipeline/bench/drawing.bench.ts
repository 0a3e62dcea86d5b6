// Figures for the procedural provider (issue #19): the two drawing goals on the common-noun list, the
// size of the generated lexicon, and the time to interpret and draw. `pnpm --filter @assetloom/pipeline bench`.
import { readFileSync } from 'node:fs';
import { interpret, renderProcedural } from '../src/index.js';
import { GAME_NOUNS, measureGoals } from './goals.js';

const goals = measureGoals();
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
console.log(
  `[bench:drawing] nouns ${goals.nouns}: understood ${goals.understood} (${pct(goals.understoodShare)}), distinct silhouettes ${goals.distinct} (${pct(goals.distinctShare)})`,
);
if (goals.notUnderstood.length) console.log(`  not understood: ${goals.notUnderstood.join(', ')}`);
console.log(
  `  alike pairs (mean IoU ≥ 0.85 over 4 directions): ${goals.alike.map((a) => `${a[0]}~${a[1]}`).join(' ')}`,
);

const lexicon = readFileSync(new URL('../src/interpret/generated/lexicon.ts', import.meta.url));
console.log(`[bench:drawing] generated lexicon: ${(lexicon.length / 1024).toFixed(1)} KiB source`);

function time(label: string, n: number, fn: (i: number) => void): void {
  fn(0);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  const ms = (performance.now() - t0) / n;
  console.log(`[bench:drawing] ${label}: ${ms.toFixed(2)} ms`);
}
const req = (
  prompt: string,
  assetType: 'sprite' | 'animation' | 'background',
  resolution: number,
  directions: 1 | 4 | 8,
  fpd: number,
) => ({
  assetType,
  prompt,
  userPrompt: prompt,
  tags: [],
  style: {},
  resolution,
  directions,
  framesPerDirection: fpd,
  seed: 1,
  attempt: 0,
});
time('interpret one prompt (EN + ZH, lexicon warm)', 2000, (i) =>
  interpret({
    assetType: 'sprite',
    userPrompt: i % 2 ? 'a red fox walking in the forest' : '一只红色的狐狸',
    tags: [],
    style: {},
  }),
);
time('sprite 64 px, 4 directions × 1 frame', 50, (i) =>
  renderProcedural(req(`a ${GAME_NOUNS[i % GAME_NOUNS.length]}`, 'sprite', 64, 4, 1)),
);
time('animation 64 px, 8 directions × 4 frames (knight walking)', 10, () =>
  renderProcedural(req('a knight walking', 'animation', 64, 8, 4)),
);
time('background 256 px (night city in the rain)', 10, () =>
  renderProcedural(req('a rainy night city', 'background', 256, 1, 1)),
);
time('background 256 px (dungeon interior)', 10, () =>
  renderProcedural(req('a dungeon interior', 'background', 256, 1, 1)),
);
