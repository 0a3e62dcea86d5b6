import { describe, expect, it } from 'vitest';
import { GAME_NOUNS, iou, measureGoals, silhouette } from '../bench/goals.js';
import { renderProcedural } from '../src/index.js';

describe('issue #19 goals on a list of common game nouns', () => {
  it(`understands ≥ 90 % of ${GAME_NOUNS.length} nouns and draws ≥ 80 % in a silhouette distinct from every other`, () => {
    const g = measureGoals();
    expect(g.understoodShare, `not understood: ${g.notUnderstood.join(', ')}`).toBeGreaterThanOrEqual(0.9);
    expect(g.distinctShare, `alike: ${g.alike.map((a) => a.join('~')).join(' ')}`).toBeGreaterThanOrEqual(
      0.8,
    );
  });

  it('the silhouette distance tells a fox from a sword and a fox from itself', () => {
    const sil = (p: string) =>
      silhouette(
        renderProcedural({
          assetType: 'sprite',
          prompt: p,
          userPrompt: p,
          tags: [],
          style: {},
          resolution: 64,
          directions: 4,
          framesPerDirection: 1,
          seed: 1,
          attempt: 0,
        }).frames[2]!,
      );
    expect(iou(sil('a fox'), sil('a fox'))).toBe(1);
    expect(iou(sil('a fox'), sil('a sword'))).toBeLessThan(0.5);
  });
});
