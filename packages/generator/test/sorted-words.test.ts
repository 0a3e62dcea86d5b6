// WordNet's generated lists read in place by binary search (issue #38) answer as the Maps and Sets of
// them did: every entry found with its value, no word that is not an entry; read from the UTF-8 bytes
// in one SharedArrayBuffer that pipeline threads share (decision 0079).

import { sharedUtf8, utf8Slice } from '@assetloom/text-bytes';
import { describe, expect, it } from 'vitest';
import { COMPOUNDS, DRAW_AS, NEAR } from '../src/generated/draw-as.js';
import { sortedWordMap, sortedWordSet } from '../src/internal/art/sorted-words.js';

describe('sorted word lists', () => {
  it('find every entry of the generated lists and nothing else', () => {
    const bytes = sharedUtf8(DRAW_AS());
    expect(bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    const drawAs = sortedWordMap(bytes, 'DRAW_AS', (v) => v);
    const near = sortedWordMap(sharedUtf8(NEAR()), 'NEAR', (v) => v.split('+'));
    const compounds = sortedWordSet(sharedUtf8(COMPOUNDS()), 'COMPOUNDS');
    const wrong: string[] = [];
    for (const pair of DRAW_AS().split(',')) {
      const [k, v] = pair.split('=') as [string, string];
      if (drawAs.get(k) !== v || drawAs.get(`${k}~`) !== undefined) wrong.push(pair);
    }
    for (const pair of NEAR().split(',')) {
      const [k, v] = pair.split('=') as [string, string];
      if (near.get(k)?.join('+') !== v) wrong.push(pair);
    }
    for (const word of COMPOUNDS().split(','))
      if (!compounds.has(word) || compounds.has(`${word}_`) || compounds.has(word.slice(0, -1) + '~'))
        wrong.push(word);
    expect(wrong).toEqual([]);
    expect(drawAs.get('tabby')).toBe('cat');
    expect(drawAs.get('')).toBeUndefined();
    expect(compounds.has('crystal_ball')).toBe(true);
  });

  it('refuses a list that is not sorted, naming the command that regenerates it', () => {
    expect(() => sortedWordSet(sharedUtf8('b,a'), 'X')).toThrow(
      /X is not sorted at "a".*pnpm --filter @assetloom\/pipeline gen/,
    );
  });

  it('decodes any slice of the shared bytes as TextDecoder does: ASCII, Latin-1, Chinese, an emoji', () => {
    const text = 'a=b,café=咖啡,boom=💥,'.repeat(40);
    const bytes = sharedUtf8(text);
    const decoded = new TextDecoder().decode(new Uint8Array(bytes));
    expect(decoded).toBe(text);
    // the readers cut only at their ASCII separators, never inside a character
    const cuts = [
      0,
      ...[...bytes.keys()].filter((k) => bytes[k] === 0x2c || bytes[k] === 0x3d),
      bytes.length,
    ];
    for (let a = 0; a < cuts.length - 1; a++)
      for (const b of [a + 1, a + 2, cuts.length - 1].filter((b) => b < cuts.length))
        expect(utf8Slice(bytes, cuts[a]!, cuts[b]!)).toBe(
          new TextDecoder().decode(new Uint8Array(bytes).slice(cuts[a], cuts[b])),
        );
  });
});
