// A round badge with the thing cut out of it (game-icons' black-flag: a disc with a flag-shaped notch)
// draws a disc, not the thing: the catalog marks such drawings and lookups rank them after the
// drawings that show the thing, so "a flag" is a flag and the badge is a last resort.
import { describe, expect, it } from 'vitest';
import { allDrawings, drawingById, findDrawings } from '../src/index.js';

describe('drawings knocked out of a round badge', () => {
  it('are marked in the catalog: the black flag disc is, a flag on a pole is not', () => {
    expect(drawingById('g/black-flag')?.knockout).toBe(true);
    expect(drawingById('g/flying-flag')?.knockout).toBeUndefined();
    expect(drawingById('g/checkered-flag')?.knockout).toBeUndefined();
    // a few percent of the silhouettes, never an emoji (they are drawn in colour, not cut out)
    const marked = allDrawings().filter((d) => d.knockout);
    expect(marked.length).toBeGreaterThan(50);
    expect(marked.length).toBeLessThan(200);
    expect(marked.every((d) => d.set === 'game-icons')).toBe(true);
  });

  it('rank after the drawings of the same head that show the thing', () => {
    for (const head of ['flag', 'lantern', 'man', 'mountains']) {
      const found = findDrawings({ head });
      expect(found.length, head).toBeGreaterThan(1);
      expect(found[0]!.drawing.knockout, `${head}: ${found[0]!.drawing.id}`).toBeUndefined();
      // the typical flag: Assetloom's own, cloth on a solid pole (decision 0105)
      if (head === 'flag') expect(found[0]!.drawing.id).toBe('x/flag');
      const badges = found.filter((m) => m.drawing.knockout);
      const best = Math.max(...found.filter((m) => !m.drawing.knockout).map((m) => m.score));
      for (const b of badges) expect(b.score, b.drawing.id).toBeLessThanOrEqual(best);
    }
  });
});
