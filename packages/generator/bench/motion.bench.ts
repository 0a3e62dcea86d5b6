/**
 * Issue #39, motion of parts: what moving parts cost, and counts that say the motion holds together.
 *
 * - Speed: a warm 64 px 1 × 8 sheet of a drawing whose parts move (its flame layer reshaped, its
 *   wings turned, its sails re-rendered, …) against the same drawing floating as a whole, same run.
 * - Counts over prompts of this file's own, 4 frames at 32, 48 and 64 px: frames with an opaque pixel
 *   on the top or side edge, and 1–2 px specks apart from the shape (both goals: 0).
 *
 *   pnpm --filter @assetloom/generator exec tsx bench/motion.bench.ts
 */
import type { ImageRequest, RgbaImage } from '@assetloom/pipeline';
import { Painter, PaletteMatcher, resolveStyle } from '@assetloom/pipeline/pixel';
import { renderProcedural } from '../src/index.js';
import type { LibraryMotion } from '../src/internal/art/library/motion.js';
import { drawLibrarySprite, loadDrawings } from '../src/internal/art/library/sprite.js';
import { opaqueGroups } from '../test/support.js';

const request = (prompt: string, resolution: number, frames: number): ImageRequest => ({
  assetType: 'animation',
  prompt,
  userPrompt: prompt,
  tags: [],
  style: {},
  resolution,
  directions: 1,
  framesPerDirection: frames,
  seed: 3,
  attempt: 0,
});

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;
const lib = await loadDrawings();
const style = resolveStyle({}, '');
const painter = new Painter(style.palette, new PaletteMatcher(style.palette), true);
/** p50 of drawing one 64 px 1 × 8 sheet of a drawing in a motion (a new lean each run: no cache hit). */
async function time(id: string, motion: LibraryMotion): Promise<number> {
  const drawing = lib.drawingById(id)!;
  const runs: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    await drawLibrarySprite({
      lib,
      drawing,
      style,
      painter,
      enforced: false,
      asked: null,
      fill: [236, 120, 40],
      width: 64,
      height: 64,
      directions: 1,
      framesPerDirection: 8,
      motion,
      variation: { lean: i * 0.37, sx: 1, sy: 1, tone: 0 },
    });
    if (i) runs.push(performance.now() - t);
  }
  return quantile(runs, 0.5);
}

for (const [id, motion] of [
  ['x/campfire', 'flicker'],
  ['f/coin', 'spin'],
  ['g/bat', 'fly'],
  ['g/windmill', 'sails'],
  ['f/wheel', 'roll'],
  ['g/bright-explosion', 'burst'],
] as const) {
  const a = await time(id, motion);
  const b = await time(id, 'float');
  console.log(
    `[bench:motion] warm 64 px 1×8 ${id} ${motion}: p50 ${a.toFixed(1)} ms; the same drawing floating whole ${b.toFixed(1)} ms (${(a / b).toFixed(2)}×)`,
  );
}

/** 1–2 px groups of opaque pixels apart from the shape. */
const specks = (f: RgbaImage) => opaqueGroups(f).filter((n) => n <= 2).length;
const onEdge = (f: RgbaImage) => {
  const w = f.width;
  for (let k = 0; k < w; k++)
    if (f.data[k * 4 + 3] || f.data[k * w * 4 + 3] || f.data[(k * w + w - 1) * 4 + 3]) return true;
  return false;
};

const prompts = [
  'a campfire burning',
  'a candle burning',
  'a torch burning',
  'a gold coin spinning',
  'a silver medal spinning',
  'a bat flying',
  'a butterfly flying',
  'a bird flying',
  'a windmill turning',
  'a wheel spinning',
  'a mushroom jumping',
  'a frog jumping',
  'a huge explosion',
  'a potion bottle floating',
  'a rocket flying',
  'a ghost floating',
];
let frames = 0;
let edge = 0;
let speck = 0;
for (const resolution of [32, 48, 64])
  for (const prompt of prompts) {
    const out = await renderProcedural(request(prompt, resolution, 4));
    for (const f of out.frames) {
      frames++;
      if (onEdge(f)) edge++;
      speck += specks(f);
    }
  }
console.log(
  `[bench:motion] ${prompts.length} prompts × 32/48/64 px × 4 frames: ${frames} frames, ${edge} with a pixel on the top or side edge, ${speck} specks of 1–2 px`,
);
