// Decision 0127: a penguin that turns, and black as the darkest neutral. Prints, for own wordings at
// 64 px and seeds 1–2, each row's white-front share (light pixels, luma > 190) and its mean x across
// the subject's box (0 left … 1 right), and the dark pixels' (luma < 70) median OKLab chroma.
//   tsx bench/probe-39ba.ts
import { oklab } from '@assetloom/pipeline/pixel';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

for (const prompt of ['a penguin', 'an emperor penguin', 'a little penguin waddling'])
  for (const seed of [1, 2]) {
    const out = await renderProcedural(spriteRequest(prompt, { directions: 4, resolution: 64, seed }));
    const cells: string[] = [];
    out.views!.forEach((v, i) => {
      const f = out.frames[i]!;
      let [x0, x1, n, sx] = [f.width, -1, 0, 0];
      const chroma: number[] = [];
      for (let p = 0; p < f.width * f.height; p++)
        if (f.data[p * 4 + 3]) [x0, x1] = [Math.min(x0, p % f.width), Math.max(x1, p % f.width)];
      for (let p = 0; p < f.width * f.height; p++) {
        if (!f.data[p * 4 + 3]) continue;
        const c: [number, number, number] = [f.data[p * 4]!, f.data[p * 4 + 1]!, f.data[p * 4 + 2]!];
        const l = 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2];
        if (l > 190) [n, sx] = [n + 1, sx + ((p % f.width) - x0) / (x1 - x0)];
        if (l < 70) {
          const [, a, b] = oklab(c);
          chroma.push(Math.hypot(a, b));
        }
      }
      chroma.sort((a, b) => a - b);
      cells.push(
        `${v.direction}:${v.view} white ${n} at x ${n ? (sx / n).toFixed(2) : '-'} dark chroma ${(chroma[chroma.length >> 1] ?? 0).toFixed(3)}`,
      );
    });
    console.log(`${prompt} #${seed} (${out.drawing?.drawing ?? 'rig'})\n  ${cells.join('\n  ')}`);
  }
