// Probe for decision 0132 (issue #39, wt39be): does the still part of an animated prop stay pixel-identical?
//   tsx bench/probe-39be.ts
// For each prompt (own wordings): the animation (4 frames, 32 and 64 px); pixels that differ from frame 0
// in the rows below the moving part (a flame's lowest fire row, a lid's rim), per frame.

import { writeFileSync } from 'node:fs';
import type { RgbaImage } from '@assetloom/pipeline';
import { createMemoryStorage, decodePng, encodePng } from '@assetloom/pipeline';
import { renderProcedural, runPipeline } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const fire = (p: Uint8Array) => p[3]! > 0 && p[0]! > 150 && p[0]! >= p[1]! && p[0]! - p[2]! > 60;
const at = (f: RgbaImage, x: number, y: number) =>
  f.data.subarray((y * f.width + x) * 4, (y * f.width + x) * 4 + 4);
function differ(a: RgbaImage, b: RgbaImage, y0: number): number {
  let n = 0;
  for (let y = y0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) {
      const p = at(a, x, y);
      const q = at(b, x, y);
      if (p[3] === 0 && q[3] === 0) continue;
      if (p.some((v, k) => v !== q[k])) n++;
    }
  return n;
}
function widths(f: RgbaImage, y0: number): string {
  const out: number[] = [];
  for (let y = y0; y < f.height; y++) {
    let n = 0;
    for (let x = 0; x < f.width; x++) if (at(f, x, y)[3]) n++;
    if (n) out.push(n);
  }
  return out.join(',');
}
const prompts = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [
      'a wall torch burning',
      'a wax candle flickering',
      'an oil lantern glowing',
      'a candle burning',
      'a campfire burning',
      'a loot coffer opening',
      'a treasure chest opening',
      'a wooden crate opening',
    ];
for (const res of [32, 64])
  for (const prompt of prompts) {
    const out = await renderProcedural(
      spriteRequest(prompt, { assetType: 'animation', resolution: res, framesPerDirection: 4 }),
    );
    let fr = out.frames;
    if (process.env.PIPE) fr = await viaPipeline(prompt, res);
    // the moving part's lowest row over all frames: fire pixels (a flicker) or, for a lid, the rows above 0.36 of the shut box
    let low = 0;
    if (out.animation === 'flicker') {
      for (const f of fr)
        for (let y = 0; y < f.height; y++)
          for (let x = 0; x < f.width; x++) if (fire(at(f, x, y))) low = Math.max(low, y + 1);
    } else {
      let y0 = fr[0]!.height;
      let y1 = 0;
      for (let y = 0; y < fr[0]!.height; y++)
        for (let x = 0; x < fr[0]!.width; x++)
          if (at(fr[0]!, x, y)[3]) {
            y0 = Math.min(y0, y);
            y1 = y;
          }
      low = y0 + Math.max(2, Math.round(0.36 * (y1 - y0 + 1))) + 1;
    }
    if (process.env.OUT)
      writeFileSync(
        `${process.env.OUT}/${res}-${prompt.replace(/\W+/g, '-')}.png`,
        ((s) => encodePng(s.data, s.width, s.height))(strip(fr, res > 40 ? 5 : 8)),
      );
    console.log(
      `${res}\t${prompt}\t${out.interpretation?.drawing?.id}\t${out.animation}\tstill from y=${low}\tdiffer ${fr
        .slice(1)
        .map((f) => differ(fr[0]!, f, low))
        .join('/')}\twidths f0 ${widths(fr[0]!, low)} | ${fr
        .slice(1)
        .map((f) => (widths(f, low) === widths(fr[0]!, low) ? '=' : widths(f, low)))
        .join(' | ')}`,
    );
  }

/** The first row's frames of the sheet the pipeline writes (4 directions × 4 frames). */
async function viaPipeline(prompt: string, res: number): Promise<RgbaImage[]> {
  const storage = createMemoryStorage();
  const r = await runPipeline(
    {
      prompt,
      assetType: 'animation',
      projectStyle: {},
      params: { resolution: res, format: 'spritesheet', seed: 1, framesPerDirection: 4 } as never,
      keyPrefix: 'p/t/',
    },
    { storage },
  );
  if (!r.ok) throw new Error(String(r.error));
  const img = decodePng(storage.get(r.assets[0]!.key)!.bytes);
  if (!img.ok) throw new Error(img.error);
  const { image } = img;
  const cells: RgbaImage[] = [];
  for (let c = 0; c < 4; c++) {
    const data = new Uint8Array(res * res * 4);
    for (let y = 0; y < res; y++)
      data.set(
        image.data.subarray((y * image.width + c * res) * 4, (y * image.width + c * res + res) * 4),
        y * res * 4,
      );
    cells.push({ width: res, height: res, data });
  }
  return cells;
}

/** Frames side by side, ×k, on grey (for looking). */
export function strip(frames: RgbaImage[], k: number): RgbaImage {
  const w = frames[0]!.width;
  const h = frames[0]!.height;
  const W = frames.length * (w + 2) * k;
  const data = new Uint8Array(W * h * k * 4);
  for (let i = 0; i < data.length; i += 4) data.set([150, 150, 160, 255], i);
  frames.forEach((f, n) => {
    for (let y = 0; y < h * k; y++)
      for (let x = 0; x < w * k; x++) {
        const s = (Math.floor(y / k) * w + Math.floor(x / k)) * 4;
        if (!f.data[s + 3]) continue;
        data.set([f.data[s]!, f.data[s + 1]!, f.data[s + 2]!, 255], (y * W + n * (w + 2) * k + x) * 4);
      }
  });
  return { width: W, height: h * k, data };
}
