/**
 * Issue #39's figures over the licensed drawing sets (counts, not clocks): per set, how many sheets of
 * 4 directions show two true views (left and right each the drawing facing that way or its mirror)
 * and how many repeat one view in their side rows (metadata.views marks them); views per sheet; and
 * colours per sprite at 32 and 64 px. Then how far four seeds of one prompt differ (share of pixels
 * that differ between each pair of seeds, mean over the pairs).
 *
 *   pnpm --filter @assetloom/generator exec tsx bench/views.bench.ts
 */
import type { Drawing } from '@assetloom/drawings';
import type { RgbaImage } from '@assetloom/pipeline';
import { Painter, PaletteMatcher, resolveStyle } from '@assetloom/pipeline/pixel';
import { renderProcedural } from '../src/index.js';
import { drawLibrarySprite, loadDrawings } from '../src/internal/art/library/sprite.js';
import { spriteRequest } from '../test/support.js';

const colours = (f: RgbaImage) => {
  const set = new Set<number>();
  for (let i = 0; i < f.data.length; i += 4)
    if (f.data[i + 3]! > 0) set.add((f.data[i]! << 16) | (f.data[i + 1]! << 8) | f.data[i + 2]!);
  return set.size;
};

const lib = await loadDrawings();
const byId = new Map<string, Drawing>();
for (const head of lib.drawableHeads().keys())
  for (const m of lib.findDrawings({ head })) if (!m.drawing.cropped) byId.set(m.drawing.id, m.drawing);
const style = resolveStyle({}, '');
const painter = new Painter(style.palette, new PaletteMatcher(style.palette), true);
const sheet = (drawing: Drawing, size: number, directions: 1 | 4) =>
  drawLibrarySprite({
    lib,
    drawing,
    style,
    painter,
    enforced: false,
    asked: null,
    fill: [150, 120, 95],
    width: size,
    height: size,
    directions,
    framesPerDirection: 1,
    motion: 'bob',
    variation: { lean: 0, sx: 1, sy: 1, tone: 0 },
  });

console.log(
  'set          drawings  two views  one view (sides repeat)  views/sheet  colours 32px (mean/max)  64px',
);
for (const [set, prefix] of [
  ['fluent', 'f/'],
  ['noto', 'n/'],
  ['game-icons', 'g/'],
] as const) {
  // every 6th drawing of the set, animals all (they have a side to face)
  const all = [...byId.values()].filter((d) => d.id.startsWith(prefix));
  const sample = all.filter((d, i) => /^animal/.test(d.group) || i % 6 === 0);
  let two = 0;
  let one = 0;
  const c32: number[] = [];
  const c64: number[] = [];
  for (const d of sample) {
    const out = await sheet(d, 32, 4);
    const side = out.views.find((v) => v.direction === 'left')!.view;
    if (side === 'repeat') one++;
    else two++;
    c32.push(colours(out.frames[0]!));
    c64.push(colours((await sheet(d, 64, 1)).frames[0]!));
  }
  const mean = (a: number[]) => (a.reduce((s, x) => s + x, 0) / a.length).toFixed(1);
  console.log(
    `${set.padEnd(12)} ${String(sample.length).padStart(8)}  ${String(two).padStart(9)}  ${String(one).padStart(23)}  ${((two * 2 + one) / sample.length).toFixed(2).padStart(11)}  ${`${mean(c32)} / ${Math.max(...c32)}`.padStart(23)}  ${mean(c64)} / ${Math.max(...c64)}`,
  );
}

// seeds: four seeds of one prompt, the share of pixels that differ between each pair
console.log(
  '\nprompt                 seeds 1-4: pixels that differ between two seeds (mean, min over the 6 pairs)',
);
for (const prompt of ['a small red dragon', 'a black cat', 'a treasure chest', 'a knight', 'a potion']) {
  const frames: RgbaImage[] = [];
  for (const seed of [1, 2, 3, 4]) {
    const out = await renderProcedural(spriteRequest(prompt, { resolution: 64, seed }));
    frames.push(out.frames[0]!);
  }
  const diffs: number[] = [];
  for (let a = 0; a < 4; a++)
    for (let b = a + 1; b < 4; b++) {
      const fa = frames[a]!.data;
      const fb = frames[b]!.data;
      let n = 0;
      let any = 0;
      for (let i = 0; i < fa.length; i += 4) {
        const seen = fa[i + 3]! > 0 || fb[i + 3]! > 0;
        if (!seen) continue;
        any++;
        if (fa[i] !== fb[i] || fa[i + 1] !== fb[i + 1] || fa[i + 2] !== fb[i + 2] || fa[i + 3] !== fb[i + 3])
          n++;
      }
      diffs.push(any ? n / any : 0);
    }
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  console.log(
    `${prompt.padEnd(22)} ${pct(diffs.reduce((s, x) => s + x, 0) / diffs.length).padStart(6)}  ${pct(Math.min(...diffs)).padStart(6)}`,
  );
}
