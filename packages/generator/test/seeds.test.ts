import type { RgbaImage } from '@assetloom/pipeline';
import { describe, expect, it } from 'vitest';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from './support.js';

/** Share of the pixels either frame covers that differ between two frames (in coverage alone: `shape`). */
function differ(a: RgbaImage, b: RgbaImage, shape = false): number {
  let n = 0;
  let any = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i + 3] === 0 && b.data[i + 3] === 0) continue;
    any++;
    if (
      shape
        ? (a.data[i + 3] === 0) !== (b.data[i + 3] === 0)
        : [0, 1, 2, 3].some((k) => a.data[i + k] !== b.data[i + k])
    )
      n++;
  }
  return any ? n / any : 0;
}

const seeds = (prompt: string) =>
  Promise.all(
    [1, 2, 3, 4].map(
      async (seed) => (await renderProcedural(spriteRequest(prompt, { resolution: 64, seed }))).frames[0]!,
    ),
  );

describe('seeds are variations', () => {
  it.each(['a black cat', 'a small red dragon'])(
    'four seeds of "%s" differ pairwise in at least 15 %% of their pixels',
    async (prompt) => {
      const frames = await seeds(prompt);
      for (let a = 0; a < 4; a++)
        for (let b = a + 1; b < 4; b++)
          expect(differ(frames[a]!, frames[b]!), `seeds ${a + 1} and ${b + 1}`).toBeGreaterThan(0.15);
    },
  );

  // a drawing's seeds walk its drawings and four looks (squat and darker, tall and lighter, another
  // ramp): before, four seeds of a chest or a barrel were one outline with a 1-2 px lean (11-13 %)
  it.each(['a treasure chest', 'a wooden barrel', 'a mushroom'])(
    'four seeds of "%s" differ in outline by at least 16 percent of their pixels on average',
    async (prompt) => {
      const frames = await seeds(prompt);
      let sum = 0;
      for (let a = 0; a < 4; a++) for (let b = a + 1; b < 4; b++) sum += differ(frames[a]!, frames[b]!, true);
      expect(sum / 6).toBeGreaterThan(0.16);
    },
  );
});
