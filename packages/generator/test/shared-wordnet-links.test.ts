// Issue #38 (decision 0079): a pipeline thread reads WordNet's links from the bytes its main thread
// made once (`sharedWordnetLinks()`, one SharedArrayBuffer a list), handed over with
// `configureWordnetLinks`; the generated module is then never loaded in that thread. Here loading it
// throws: a scene's nouns are still read from the bytes. (This file has its own module instance.)
import { describe, expect, it, vi } from 'vitest';

const lists = await vi.importActual<Record<string, () => string>>('../src/generated/draw-as.js');
vi.mock('../src/generated/draw-as.js', () => {
  throw new Error('the generated module was loaded');
});
const { configureWordnetLinks, sceneNouns } = await import('../src/internal/art/subject.js');
const { interpret } = await import('@assetloom/pipeline/interpret');

const bytes = (name: string) => {
  const text = new TextEncoder().encode(lists[name]!());
  const out = new Uint8Array(new SharedArrayBuffer(text.length));
  out.set(text);
  return out;
};

describe('WordNet links handed over as bytes', () => {
  it('are read from them, the module never loaded', async () => {
    configureWordnetLinks({
      DRAW_AS: bytes('DRAW_AS'),
      NEAR: bytes('NEAR'),
      COMPOUNDS: bytes('COMPOUNDS'),
      COMPOUND_KINDS: bytes('COMPOUND_KINDS'),
      ADJECTIVE_FIRST: bytes('ADJECTIVE_FIRST'),
      PERSON_COMPOUNDS: bytes('PERSON_COMPOUNDS'),
    });
    const it_ = interpret({ assetType: 'background', userPrompt: 'a forest', tags: [], style: {} });
    // 'ancient' is a word WordNet uses more as an adjective: not a thing of the scene; 'tower' is
    expect(await sceneNouns(['ancient', 'tower'], it_)).toEqual(['tower']);
  });
});
