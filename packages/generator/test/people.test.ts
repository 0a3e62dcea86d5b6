import { describe, expect, it } from 'vitest';
import { renderProcedural } from '../src/index.js';
import { readFixture, spriteRequest } from './support.js';

/**
 * Issue #40, people are drawn, never refused: a role, a trade or a fantasy class WordNet files with
 * people ("a paladin", "a sea captain"), a role named after a being ("a robot helper" is a robot), and
 * Chinese prompts whose 穿/戴/拿/背/骑 … 的 clause describes the head noun after 的 ("一个戴头盔的士兵" is
 * a soldier, not 的士 a taxi) reach the rig's figure. The prompts are this test's own
 * (test/fixtures/people-by-role.json); each names the rig kind it must be drawn as and the words that
 * must be shown (understood) or said (notHonoured, the interpretation's ignored words).
 */
interface Entry {
  class: 'role' | 'compound' | 'zh';
  prompt: string;
  drawn: string;
  words: string[];
}
const { prompts } = readFixture<{ prompts: Entry[] }>('people-by-role.json');

const request = (prompt: string) => spriteRequest(prompt);

describe('people by role (issue #40)', () => {
  it('the list has at least 40 prompts, 12 of them Chinese clauses', () => {
    expect(prompts.length).toBeGreaterThanOrEqual(40);
    expect(
      prompts.filter((p) => p.class === 'zh' && /[穿戴拿背骑有].*的/.test(p.prompt)).length,
    ).toBeGreaterThanOrEqual(12);
  });

  it.each(prompts.map((p) => [p.prompt, p] as const))('"%s" is the rig\'s figure', async (_, entry) => {
    const got = await renderProcedural(request(entry.prompt));
    const it = got.interpretation!;
    // the rig, never a drawing of something else
    expect(it.drawing?.id, `drawn as ${it.drawing?.id}`).toBeUndefined();
    expect(`rig:${it.kind}`).toMatch(new RegExp(entry.drawn));
    // a figure was drawn: its pixels cover a good part of its box
    const f = got.frames[0]!;
    let covered = 0;
    for (let i = 3; i < f.data.length; i += 4) if (f.data[i]! > 0) covered++;
    expect(covered).toBeGreaterThan(f.width * f.height * 0.1);
    // every colour, garment or held word is shown or said, never dropped silently
    for (const w of entry.words)
      expect([...it.understood, ...it.ignored], `"${w}" neither shown nor said`).toContain(w);
    // the subject is a word of the prompt's head, not a compound across a 的 clause
    expect(entry.prompt).toContain(it.subject!);
    if (entry.class === 'zh')
      expect(entry.prompt.slice(entry.prompt.lastIndexOf('的') + 1)).toContain(it.subject!);
  });

  it.each([
    ['a barbarian warrior', 'barbarian'],
    ['a viking raider', 'viking'],
    ['a viking warrior', 'viking'],
  ])(
    '"%s": the class before the noun dresses the figure and is understood, not refused or listed as not honoured',
    async (prompt, word) => {
      const got = await renderProcedural(request(prompt));
      const it = got.interpretation!;
      expect(it.drawing?.id).toBeUndefined();
      expect(it.kind).toMatch(/^person\./);
      expect(it.understood).toContain(word);
      expect(it.ignored).not.toContain(word);
    },
  );
});
