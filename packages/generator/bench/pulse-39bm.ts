// Probe for decision 0141 (issue #39, wt39bm): a pulse's swell — the opaque height at its peak over frame 0's.
//   tsx bench/pulse-39bm.ts [prompt …]
import type { RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const height = (f: RgbaImage) => {
  let y0 = f.height;
  let y1 = -1;
  for (let y = 0; y < f.height; y++)
    for (let x = 0; x < f.width; x++)
      if (f.data[(y * f.width + x) * 4 + 3]) [y0, y1] = [Math.min(y0, y), Math.max(y1, y)];
  return y1 - y0 + 1;
};
const prompts = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['a beating heart', 'a heart pulsing', 'a gem glowing', 'a magic orb pulsing'];
for (const p of prompts)
  for (const res of [32, 64]) {
    const out = await renderProcedural(
      spriteRequest(p, { assetType: 'animation', resolution: res, framesPerDirection: 4 }),
    );
    const hs = out.frames.slice(0, 4).map(height);
    console.log(
      `${p}\t${res}\t${out.interpretation?.drawing?.id}\t${out.animation}\theights ${hs.join(',')}\tpeak +${(((Math.max(...hs) - hs[0]!) / hs[0]!) * 100).toFixed(0)} %`,
    );
  }
