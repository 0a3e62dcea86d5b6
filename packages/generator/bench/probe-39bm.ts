// Probe for decision 0141 (issue #39, wt39bm): one prompt's first frames, enlarged 6× on a checkerboard,
// written to $OUT (default /tmp) as p-<prompt>-<res>.png, for a person to judge by eye.
//   tsx bench/probe-39bm.ts "a burning candle" 32 [sprite|animation] [frames]
import { writeFileSync } from 'node:fs';
import { encodePng } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const [prompt, res, type, frames] = process.argv.slice(2);
const out = await renderProcedural(
  spriteRequest(prompt!, {
    assetType: (type ?? 'sprite') as never,
    resolution: Number(res ?? 64),
    framesPerDirection: Number(frames ?? 1),
  }),
);
const f = out.frames;
const n = Math.min(f.length, 4);
const W = f[0]!.width,
  H = f[0]!.height,
  k = 6;
const data = new Uint8Array(W * n * k * H * k * 4);
for (let i = 0; i < n; i++)
  for (let y = 0; y < H * k; y++)
    for (let x = 0; x < W * k; x++) {
      const s = (Math.floor(y / k) * W + Math.floor(x / k)) * 4;
      const o = (y * W * n * k + i * W * k + x) * 4;
      const a = f[i]!.data[s + 3]!;
      const bg = ((x >> 4) + (y >> 4)) % 2 ? 200 : 230;
      for (let c = 0; c < 3; c++) data[o + c] = a ? f[i]!.data[s + c]! : bg;
      data[o + 3] = 255;
    }
writeFileSync(
  `${process.env.OUT ?? '/tmp'}/p-${prompt!.replace(/\W+/g, '-')}-${res}.png`,
  encodePng(data, W * n * k, H * k),
);
console.log(out.interpretation?.drawing?.id, out.animation, f.length);
