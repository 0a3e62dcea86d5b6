// Probe for decision 0148 (issue #39, wt39bt): each prompt's first frame at 32 and 64 px, side by side,
// enlarged on a checkerboard into one contact sheet $OUT/sheet.png (default /tmp), and the drawing chosen.
//   tsx bench/probe-39bt.ts "a mallet" "a green apple" …
import { writeFileSync } from 'node:fs';
import { encodePng, type RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const prompts = process.argv.slice(2);
const k = 4;
const cellW = (32 + 64 + 12) * k;
const cellH = 64 * k + 8;
const W = cellW * Math.min(prompts.length, 4);
const H = cellH * Math.ceil(prompts.length / 4);
const data = new Uint8Array(W * H * 4).fill(255);
const blit = (f: RgbaImage, ox: number, oy: number) => {
  for (let y = 0; y < f.height * k; y++)
    for (let x = 0; x < f.width * k; x++) {
      const s = (Math.floor(y / k) * f.width + Math.floor(x / k)) * 4;
      const o = ((oy + y) * W + ox + x) * 4;
      const a = f.data[s + 3]!;
      const bg = ((x >> 3) + (y >> 3)) % 2 ? 200 : 230;
      for (let c = 0; c < 3; c++) data[o + c] = a ? f.data[s + c]! : bg;
      data[o + 3] = 255;
    }
};
for (const [i, p] of prompts.entries()) {
  const ox = (i % 4) * cellW,
    oy = Math.floor(i / 4) * cellH;
  const ids: string[] = [];
  for (const [j, res] of [32, 64].entries()) {
    try {
      const out = await renderProcedural(
        spriteRequest(p, {
          resolution: res,
          ...(process.env.PAL ? { style: { palette: process.env.PAL } } : {}),
        } as never),
      );
      blit(out.frames[0]!, ox + j * (32 + 4) * k, oy);
      ids.push(
        `${out.interpretation?.drawing?.id} ignored=${JSON.stringify(out.interpretation?.ignored ?? [])}`,
      );
    } catch (e) {
      ids.push(`ERR ${(e as Error).message}`);
    }
  }
  console.log(p, '→', ids.join(' | '));
}
writeFileSync(`${process.env.OUT ?? '/tmp'}/sheet.png`, encodePng(data, W, H));
