// The catalog read lazily (issue #38) against the eager parse it replaced: the same drawings, the same
// lists per lookup word, and only the rows a query reaches are decoded. The bitmap fonts likewise: the
// glyphs read in place are those the eager parse made.
import { readFileSync } from 'node:fs';
import { inflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { catalogStats, lookup } from '../src/catalog.js';
import { COMPOSITES } from '../src/composites.js';
import { DRAWINGS, SETS } from '../src/generated/catalog.js';
import { allDrawings, drawableHeads, drawingById, findDrawings, loadFont } from '../src/index.js';

/** The eager parse as it was before issue #38 (catalog.ts at 2c9c099): every row an object, five maps. */
function eagerCatalog() {
  const FACING = { l: 'left', r: 'right', f: 'front', '?': 'unknown' } as const;
  const setOf = Object.fromEntries(SETS.map((s) => [s.key, s]));
  const all: Record<string, unknown>[] = [];
  const byHead = new Map<string, string[]>();
  const byZh = new Map<string, string[]>();
  const byLabel = new Map<string, string[]>();
  const byLabelWord = new Map<string, string[]>();
  const push = (m: Map<string, string[]>, k: string, id: string) => m.set(k, [...(m.get(k) ?? []), id]);
  for (const row of DRAWINGS().split('\n')) {
    const [id, label, heads, words, zh, group, flags, facing, box, rgb, author] = row.split('|') as string[];
    const set = setOf[id!.slice(0, id!.indexOf('/'))]!;
    const d = {
      id,
      set: set.prefix,
      name: id!.slice(id!.indexOf('/') + 1),
      label,
      heads: heads ? heads.split(',') : [],
      words: words ? words.split(',') : [],
      zh: zh ? zh.split(',') : [],
      group,
      cropped: flags!.includes('c'),
      // (the knockout flag came after the eager parse: its field, the same way the lazy one sets it)
      ...(flags!.includes('k') ? { knockout: true } : {}),
      face: flags!.includes('h'),
      person: flags!.includes('p'),
      silhouette: flags!.includes('m'),
      facing: FACING[facing as keyof typeof FACING] ?? 'unknown',
      box: box!.split(',').map(Number),
      size: [set.width, set.height],
      color: [0, 2, 4].map((i) => Number.parseInt(rgb!.slice(i, i + 2), 16)),
      ...(author ? { author } : {}),
    };
    all.push(d);
    for (const h of d.heads) push(byHead, h, d.id!);
    for (const z of d.zh) push(byZh, z, d.id!);
    push(byLabel, d.label!, d.id!);
    for (const w of d.label!.split(/[\s-]+/)) if (!d.heads.includes(w)) push(byLabelWord, w, d.id!);
  }
  for (const c of COMPOSITES) {
    for (const h of c.heads) push(byHead, h, c.id);
    for (const z of c.zh) push(byZh, z, c.id);
    push(byLabel, c.label, c.id);
  }
  return { all, byHead, byZh, byLabel, byLabelWord };
}

describe('the lazy catalog', () => {
  it('decodes only the rows a query reaches', () => {
    const eager = eagerCatalog();
    const before = catalogStats().decodes;
    const found = findDrawings({ head: 'dog' });
    // the rows of drawings whose label is "dog", whose heads or Chinese words name it, and the
    // typical dog drawings (none listed for the dog): nothing else
    const reached = new Set(
      [
        ...(eager.byLabel.get('dog') ?? []),
        ...(eager.byHead.get('dog') ?? []),
        ...(eager.byZh.get('dog') ?? []),
      ].filter((id) => !id.startsWith('a/')),
    );
    expect(found.length).toBeGreaterThan(0);
    expect(reached.size).toBeLessThan(20);
    expect(catalogStats().decodes - before).toBe(reached.size);
    expect(catalogStats().rows).toBe(eager.all.length);
  });

  it('gives the drawings and the lookup lists of the eager parse, word for word', () => {
    const eager = eagerCatalog();
    const lazy = allDrawings();
    expect(lazy.filter((d) => d.set !== 'assetloom')).toEqual(eager.all);
    expect(eager.all.map((d) => drawingById(d.id as string))).toEqual(eager.all);
    for (const c of COMPOSITES) expect(drawingById(c.id)?.parts).toBe(c.parts);
    // every word of every lookup: the same drawings in the same order as the eager maps held
    const differ: string[] = [];
    let words = 0;
    for (const [key, map] of [
      ['head', eager.byHead],
      ['zh', eager.byZh],
      ['label', eager.byLabel],
      ['labelWord', eager.byLabelWord],
    ] as const)
      for (const [word, list] of map) {
        words += 1;
        if (
          lookup(key, word)
            .map((d) => d.id)
            .join() !== list.join()
        )
          differ.push(`${key} ${word}`);
      }
    expect(differ).toEqual([]);
    expect(words).toBeGreaterThan(10_000);
    expect(lookup('head', 'zxqv')).toEqual([]);
    expect([...drawableHeads().keys()]).toEqual([...eager.byHead.keys()]);
    expect([...drawableHeads().values()]).toEqual([...eager.byHead.values()].map((l) => l.length));
  });
});

describe('the bitmap fonts read in place', () => {
  it.each(['unifont', 'assetloom-8'] as const)('%s has the glyphs of the eager parse', async (name) => {
    const font = await loadFont(name);
    const raw = inflateSync(readFileSync(new URL(`../dist/fonts/${name}.bin`, import.meta.url)));
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const count = view.getUint32(0, true);
    let at = 6 + count * 6;
    const differ: number[] = [];
    let last = 0;
    for (let i = 0; i < count; i++) {
      const cp = view.getUint32(6 + i * 6, true);
      const advance = view.getUint8(10 + i * 6);
      const width = view.getUint8(11 + i * 6);
      const size = Math.ceil(width / 8) * font.cellHeight;
      const g = font.glyph(cp);
      if (
        !g ||
        g.advance !== advance ||
        g.width !== width ||
        g.bits.join() !== raw.subarray(at, at + size).join()
      )
        differ.push(cp);
      // a code point between two glyphs has none
      if (cp > last + 1 && font.glyph(cp - 1) !== undefined) differ.push(cp - 1);
      last = cp;
      at += size;
    }
    expect(differ).toEqual([]);
    expect(count).toBeGreaterThan(name === 'unifont' ? 20_000 : 90);
  });
});
