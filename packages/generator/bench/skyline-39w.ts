// The far land's skyline of a few backgrounds (decision 0093): the Pearson correlation of the top row
// of the far layer per column between settings at one seed, and between four seeds of one prompt.
//   tsx bench/skyline-39w.ts
import { renderProcedural } from '../src/index.js';
import { backgroundRequest } from '../test/support.js';

const skyline = async (prompt: string, seed: number) => {
  const out = await renderProcedural(backgroundRequest(prompt, seed));
  const far = out.layers!.find((l) => l.name === 'far')!.image;
  return Array.from({ length: far.width }, (_, x) => {
    let y = 0;
    while (y < far.height && !far.data[(y * far.width + x) * 4 + 3]) y++;
    return y;
  });
};
const corr = (a: number[], b: number[]) => {
  const m = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const ma = m(a);
  const mb = m(b);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return aa && bb ? ab / Math.sqrt(aa * bb) : 1;
};
const prompts = ['a forest at sunset', 'a graveyard at night', 'a village at night', 'a meadow at dawn'];
const lines: number[] = [];
const sk = await Promise.all(prompts.map((p) => skyline(p, 7)));
for (let i = 0; i < sk.length; i++) for (let j = i + 1; j < sk.length; j++) lines.push(corr(sk[i]!, sk[j]!));
console.log(
  'settings, seed 7: max',
  Math.max(...lines).toFixed(2),
  'mean',
  (lines.reduce((s, v) => s + v, 0) / lines.length).toFixed(2),
);
const seeds = await Promise.all([1, 2, 3, 4].map((s) => skyline('a village at dusk', s)));
const ss: number[] = [];
for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) ss.push(corr(seeds[i]!, seeds[j]!));
console.log(
  '4 seeds of a village at dusk: max',
  Math.max(...ss).toFixed(2),
  'mean',
  (ss.reduce((s, v) => s + v, 0) / ss.length).toFixed(2),
);
