// Issue #38 (decision 0079): a pipeline thread reads the catalog from the bytes its main thread made
// once (`sharedCatalog()`, one SharedArrayBuffer), handed over with `configureDrawings({ catalog })`,
// and never makes the generated module's text in its own heap. Here the module's text throws if read:
// every lookup answers from the bytes alone. (This file has its own module instance.)
import { describe, expect, it, vi } from 'vitest';

const actual = await vi.importActual<typeof import('../src/generated/catalog.js')>(
  '../src/generated/catalog.js',
);
vi.mock('../src/generated/catalog.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/generated/catalog.js')>()),
  DRAWINGS: () => {
    throw new Error("the module's text was read");
  },
}));
const { configureDrawings, drawableHeads, drawingById, findDrawings, sharedCatalog } = await import(
  '../src/index.js'
);

describe('a catalog handed over as bytes', () => {
  it("answers every lookup from them, never reading the module's text", () => {
    const text = actual.DRAWINGS();
    const given = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(text)));
    given.set(new TextEncoder().encode(text));
    configureDrawings({ catalog: given });
    expect(sharedCatalog()).toBe(given);
    expect(findDrawings({ head: 'dog' }).map((m) => m.drawing.id)).toContain('f/dog');
    // a row with Chinese words decodes from the shared bytes as it did from the string
    expect(findDrawings({ head: '狗' }).map((m) => m.drawing.id)).toContain('f/dog');
    expect(drawingById('f/1st-place-medal')?.zh).toEqual(['金牌', '奖牌', '第一', '第一名奖牌']);
    expect(drawableHeads().get('dog')).toBeGreaterThan(0);
  });
});
