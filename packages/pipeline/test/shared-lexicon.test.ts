// Issue #38 (decision 0079): a pipeline thread reads the lexicon from the bytes its main thread made
// once (`sharedLexicon()`, one SharedArrayBuffer a list), handed over with `configureLexicon`, and never
// makes the generated module's text in its own heap. Prompts read from the bytes read as from the
// module; with the module's text made to throw, they still do. (This file has its own module instance.)
import { describe, expect, it, vi } from 'vitest';

const module = vi.hoisted(() => ({ blocked: false }));
vi.mock('../src/interpret/generated/lexicon.js', async (importOriginal) => {
  const lists = await importOriginal<Record<string, () => string>>();
  return Object.fromEntries(
    Object.entries(lists).map(([name, text]) => [
      name,
      () => {
        if (module.blocked) throw new Error(`the module's text of ${name} was read`);
        return text();
      },
    ]),
  );
});
const { configureLexicon, interpret, sharedLexicon } = await import('../src/entries/interpret.js');

const PROMPTS = [
  'a red dragon',
  'three wolves in a snowy forest',
  'an actress holding a golden sword',
  'a castle hall at night',
  '两只小狗在草地上',
  '黑色的猫',
  'a building with a blue roof',
  'an abandoned house in the rain',
  'alumni of a wizard school',
  'a tabby kitten, pixel art',
];
const read = () =>
  PROMPTS.map((userPrompt) => interpret({ assetType: 'sprite', userPrompt, tags: [], style: {} }));

describe('a lexicon handed over as bytes', () => {
  it("reads every prompt as the module's text did, without reading it", () => {
    const before = read();
    const shared = sharedLexicon();
    expect(shared.CHINESE.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(sharedLexicon()).toBe(shared);
    // another thread's view of the same bytes
    const given = Object.fromEntries(
      Object.entries(shared).map(([name, bytes]) => [name, new Uint8Array(bytes.buffer)]),
    ) as typeof shared;
    module.blocked = true;
    configureLexicon(given);
    expect(sharedLexicon()).toBe(given);
    expect(read()).toEqual(before);
    expect(before[4]!.subject).not.toBeNull();
  });
});
