import type { RgbaImage } from '@assetloom/pipeline';
import { describe, expect, it } from 'vitest';
import { renderProcedural } from '../src/index.js';

/** Share of the pixels either frame covers that differ between two frames. */
function differ(a: RgbaImage, b: RgbaImage): number {
  let n = 0;
  let any = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i + 3] === 0 && b.data[i + 3] === 0) continue;
    any++;
    if ([0, 1, 2, 3].some((k) => a.data[i + k] !== b.data[i + k])) n++;
  }
  return any ? n / any : 0;
}

describe('seeds are variations', () => {
  it.each(['a black cat', 'a small red dragon'])(
    'four seeds of "%s" differ pairwise in at least 15 %% of their pixels',
    async (prompt) => {
      const frames: RgbaImage[] = [];
      for (const seed of [1, 2, 3, 4])
        frames.push(
          (
            await renderProcedural({
              assetType: 'sprite',
              prompt,
              userPrompt: prompt,
              tags: [],
              style: {},
              resolution: 64,
              directions: 1,
              framesPerDirection: 1,
              seed,
              attempt: 0,
            })
          ).frames[0]!,
        );
      for (let a = 0; a < 4; a++)
        for (let b = a + 1; b < 4; b++)
          expect(differ(frames[a]!, frames[b]!), `seeds ${a + 1} and ${b + 1}`).toBeGreaterThan(0.15);
    },
  );
});
