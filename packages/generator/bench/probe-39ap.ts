// A bear's, a lion's and a frog's sheets for the eye (issue #39, decision 0116): per prompt, what was
// drawn (a drawing's id or the rig's kind), the opaque height of each of the 4 direction rows, and a
// PNG (×4) of the 4 rows of frame 0 and, for an animation, every frame of the right row.
//   tsx bench/probe-39ap.ts <out dir> "prompt" ["prompt" …]   (animation when the prompt has -ing)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodePng, type RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';

const [outArg, ...prompts] = process.argv.slice(2);
const out = resolve(outArg ?? 'bench/out/probe-39ap');
mkdirSync(out, { recursive: true });
const res = Number(process.env.RES ?? 64);
const S = 4;

function bbox(f: RgbaImage): { w: number; h: number } {
  let x0 = f.width,
    y0 = f.height,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < f.height; y++)
    for (let x = 0; x < f.width; x++)
      if (f.data[(y * f.width + x) * 4 + 3]) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  return { w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

function sheet(cells: RgbaImage[][], file: string): void {
  const cell = res * S;
  const cols = Math.max(...cells.map((r) => r.length));
  const W = cols * (cell + 2) + 2;
  const H = cells.length * (cell + 2) + 2;
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const bg = ((x >> 3) + (y >> 3)) % 2 ? 200 : 222;
      data.set([bg, bg, bg, 255], (y * W + x) * 4);
    }
  for (const [r, row] of cells.entries())
    for (const [c, img] of row.entries()) {
      const ox = 2 + c * (cell + 2);
      const oy = 2 + r * (cell + 2);
      for (let y = 0; y < cell; y++)
        for (let x = 0; x < cell; x++) {
          const s = (Math.floor(y / S) * img.width + Math.floor(x / S)) * 4;
          if (img.data[s + 3])
            data.set([img.data[s]!, img.data[s + 1]!, img.data[s + 2]!, 255], ((oy + y) * W + ox + x) * 4);
        }
    }
  writeFileSync(file, encodePng(data, W, H));
}

for (const prompt of prompts) {
  const anim = /ing\b/.test(prompt);
  const fpd = anim ? 6 : 1;
  const got = await renderProcedural({
    assetType: anim ? 'animation' : 'sprite',
    prompt,
    userPrompt: prompt,
    tags: [],
    style: {},
    resolution: res,
    directions: 4,
    framesPerDirection: fpd,
    seed: Number(process.env.SEED ?? 1),
    attempt: 0,
  } as never);
  const it = got.interpretation!;
  const rows = [0, 1, 2, 3].map((d) => got.frames[d * fpd]!);
  const sizes = rows
    .map((f) => {
      const b = bbox(f);
      return `${b.w}x${b.h}`;
    })
    .join(' ');
  const cells = [rows];
  if (anim)
    for (const d of [1, 2]) cells.push(Array.from({ length: fpd }, (_, k) => got.frames[d * fpd + k]!));
  const name = prompt.replace(/\W+/g, '-');
  sheet(cells, join(out, `${name}.png`));
  console.log(
    `${prompt}\tlemma=${it.lemma} action=${it.action}\t${it.drawing ? it.drawing.id : `rig:${it.kind}`}\t${sizes}\tnotHonoured=${it.ignored.join(',')}`,
  );
}
