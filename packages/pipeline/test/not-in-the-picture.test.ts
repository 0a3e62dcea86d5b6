/**
 * "Not in the picture" tells the truth (issue #39, decision 0078): `ignored` (metadata.notHonoured)
 * never names a Chinese measure word, a body part of the subject's own after a possessive, or a
 * tileset's terrain word that is drawn — and still names a word the picture does not show.
 */
import { describe, expect, it } from 'vitest';
import { interpret } from '../src/interpret/index.js';
import { chooseTerrains } from '../src/tileset/terrains.js';

const sprite = (userPrompt: string) => interpret({ assetType: 'sprite', userPrompt, tags: [], style: {} });

describe('not in the picture', () => {
  it('never names a measure word after a numeral or a demonstrative, and keeps the noun whole', () => {
    for (const [prompt, subject] of [
      ['一面旗帜', '旗帜'],
      ['这座城堡', '城堡'],
      ['那把剑', '剑'],
      ['一块面包', '面包'],
      ['两只猫', '猫'],
    ] as const) {
      const it = sprite(prompt);
      expect(it.subject, prompt).toBe(subject);
      expect(
        it.ignored.filter((w) => /[面座把块只这那]/.test(w)),
        prompt,
      ).toEqual([]);
    }
    // 旗帜 is a flag (CC-CEDICT's "ensign" is first a naval officer in WordNet: it drew a person)
    expect(sprite('一面旗帜').lemma).toBe('flag');
    // the number itself is content the single sprite does not show, as "two" is in English
    expect(sprite('两只猫').ignored).toEqual(['两']);
    expect(sprite('two cats').ignored).toEqual(['two']);
  });

  it('honours the subject’s own body part after a possessive, not a part its kind lacks', () => {
    expect(sprite('a bat flapping its wings').ignored).not.toContain('wings');
    expect(sprite('a bird spreading its wings').ignored).not.toContain('wings');
    expect(sprite('a dog wagging its tail').ignored).not.toContain('tail');
    expect(sprite('a cat licking its paw').ignored).not.toContain('paw');
    expect(sprite('a bat flapping its wings').understood).toContain('wings');
    expect(sprite('a horse flapping its wings').ignored).toContain('wings');
    expect(sprite('a fish waving its paw').ignored).toContain('paw');
  });

  it('still names what is not drawn', () => {
    expect(sprite('a rusty bucket with a lion').ignored).toContain('lion');
    // a castle beside the lion is not drawn, and said so; the measure words are not
    expect(sprite('这座城堡旁边的一只狮子').ignored).toEqual(['城堡']);
  });

  it('honours a tileset terrain word that is drawn, in Chinese compounds and surfaces', () => {
    const slabs = chooseTerrains({ userPrompt: '草地和石板路', tags: [], style: {} }, 2);
    expect(slabs.terrains.map((t) => t.name)).toEqual(['grass', 'stone']);
    expect(slabs.interpretation.ignored).toEqual([]);
    expect(slabs.interpretation.understood).toEqual(expect.arrayContaining(['石板', '路']));
    // the English hyphened compound is its terrain, drawn and honoured with the path it makes
    const path = chooseTerrains({ userPrompt: 'grass and a stone-slab path', tags: [], style: {} }, 2);
    expect(path.terrains.map((t) => t.name)).toEqual(['grass', 'stone']);
    expect(path.interpretation.ignored).toEqual([]);
    // an animal in a tileset prompt is not drawn, and said so
    expect(
      chooseTerrains({ userPrompt: '石板路和狮子', tags: [], style: {} }, 2).interpretation.ignored,
    ).toEqual(['狮子']);
  });
});
