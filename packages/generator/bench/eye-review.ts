// The look by eye of issue #27: a random 60 of the bench's nouns (seeded, so the same 60 each run),
// one contact sheet each, written to bench/out/eye-review/<n>-<noun>.png for a person to judge as a
// pixel artist would, against the noun (verdicts in docs/benchmarks/subjects-review.md).
//
//   tsx bench/eye-review.ts [out dir]      (EYE_SEED picks another 60; EYE_COUNT another count)
//
// A sheet, on a light checkerboard: row 1 the sprite at 64 px facing down, left, right and up; row 2 the
// animation's four frames facing down; row 3 the sprite at 128 px (down) and two more seeds at 64 px.
// A refused noun gets a sheet with a red band (the refusal is printed).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodePng, type RgbaImage } from '@assetloom/pipeline';
import { Rng } from '@assetloom/pipeline/pixel';
import { renderProcedural } from '../src/index.js';
import { loadNouns } from './subjects.js';

const outDir = resolve(process.argv[2] ?? new URL('./out/eye-review', import.meta.url).pathname);
mkdirSync(outDir, { recursive: true });
const { en, zh } = loadNouns();
const pool = [...en.map((w) => [w, w] as const), ...zh.map(([z, g]) => [z, g] as const)];
const rng = new Rng(Number(process.env.EYE_SEED ?? 27));
const count = Number(process.env.EYE_COUNT ?? 60);
const picked: Array<readonly [string, string]> = [];
const used = new Set<number>();
while (picked.length < Math.min(count, pool.length)) {
  const i = Math.floor(rng.next() * pool.length);
  if (used.has(i)) continue;
  used.add(i);
  picked.push(pool[i]!);
}

const CELL = 128;
const W = 4 * CELL + 5 * 4;
const H = 3 * CELL + 4 * 4;
function sheetOf(cells: Array<RgbaImage | null>[], refused: boolean): Uint8Array {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 4;
      const bg = ((x >> 3) + (y >> 3)) % 2 ? 214 : 232;
      data.set(refused ? [200, 60, 60, 255] : [bg, bg, bg, 255], i);
    }
  cells.forEach((row, r) => {
    row.forEach((img, c) => {
      if (!img) return;
      const scale = CELL / img.width;
      const ox = 4 + c * (CELL + 4);
      const oy = 4 + r * (CELL + 4);
      for (let y = 0; y < CELL; y++)
        for (let x = 0; x < CELL; x++) {
          const s = (Math.floor(y / scale) * img.width + Math.floor(x / scale)) * 4;
          if (!img.data[s + 3]) continue;
          data.set([img.data[s]!, img.data[s + 1]!, img.data[s + 2]!, 255], ((oy + y) * W + ox + x) * 4);
        }
    });
  });
  return data;
}

const draw = (prompt: string, assetType: 'sprite' | 'animation', resolution: number, seed: number) =>
  renderProcedural({
    assetType,
    prompt,
    userPrompt: prompt,
    tags: [],
    style: {},
    resolution,
    directions: 4,
    framesPerDirection: 4,
    seed,
    attempt: 0,
  });

const index: string[] = [];
for (const [n, [noun, gloss]] of picked.entries()) {
  const prompt = /[\u3400-\u9fff]/.test(noun) ? noun : `a ${noun}`;
  const file = `${String(n + 1).padStart(2, '0')}-${gloss}${noun === gloss ? '' : `-${noun}`}.png`;
  try {
    const sprite = await draw(prompt, 'sprite', 64, 1);
    const anim = await draw(prompt, 'animation', 64, 1);
    const big = await draw(prompt, 'sprite', 128, 1);
    const seed2 = await draw(prompt, 'sprite', 64, 2);
    const seed3 = await draw(prompt, 'sprite', 64, 3);
    const it = sprite.interpretation!;
    writeFileSync(
      join(outDir, file),
      encodePng(
        sheetOf(
          [
            [0, 4, 8, 12].map((i) => sprite.frames[i] ?? null),
            anim.frames.slice(0, 4),
            [big.frames[0]!, seed2.frames[0]!, seed3.frames[0]!, null],
          ],
          false,
        ),
        W,
        H,
      ),
    );
    index.push(
      `${file}\t${prompt}\t${it.source}\t${it.drawing?.id ?? it.kind ?? ''}${it.drawnAs ? ` (as ${it.drawnAs})` : ''}\t${anim.animation}`,
    );
  } catch (error) {
    writeFileSync(join(outDir, file), encodePng(sheetOf([], true), W, H));
    index.push(
      `${file}\t${prompt}\trefused\t${(error as Error).message.replace('[assetloom/pipeline] ', '')}`,
    );
  }
}
writeFileSync(join(outDir, 'index.tsv'), `${index.join('\n')}\n`);
console.log(`[bench:eye-review] ${picked.length} contact sheets in ${outDir}`);
for (const line of index) console.log(`  ${line}`);
