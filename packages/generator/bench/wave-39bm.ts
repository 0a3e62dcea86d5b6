// Probe for decision 0141 (issue #39, wt39bm): how far a flag's or a banner's free end moves over its wave,
// and whether its pole stays. 64 px, 4 and 8 frames.   tsx bench/wave-39bm.ts [prompt …]
import type { RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const on = (f: RgbaImage, x: number, y: number) => f.data[(y * f.width + x) * 4 + 3]! > 0;
/** The free end's travel: a hanging banner's lowest cloth rows' mean x; a flown flag's far columns' mean y. */
export function freeEnd(frames: RgbaImage[], hanging: boolean): number {
  const f0 = frames[0]!;
  let [x0, y0, x1, y1] = [f0.width, f0.height, -1, -1];
  for (const f of frames)
    for (let y = 0; y < f.height; y++)
      for (let x = 0; x < f.width; x++)
        if (on(f, x, y))
          [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  const means = frames.map((f) => {
    let s = 0;
    let n = 0;
    if (hanging) {
      const ya = Math.round(y1 - (y1 - y0) * 0.2);
      for (let y = ya; y <= y1; y++)
        for (let x = 0; x < f.width; x++) if (on(f, x, y)) [s, n] = [s + x, n + 1];
    } else {
      const xa = Math.round(x1 - (x1 - x0) * 0.15);
      for (let x = xa; x <= x1; x++)
        for (let y = 0; y < f.height; y++) if (on(f, x, y)) [s, n] = [s + y, n + 1];
    }
    return n ? s / n : 0;
  });
  return Math.max(...means) - Math.min(...means);
}
const prompts = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['a banner flapping', 'a flag waving', 'a pirate flag fluttering', 'a war banner waving'];
for (const p of prompts)
  for (const frames of [4, 8]) {
    const out = await renderProcedural(
      spriteRequest(p, { assetType: 'animation', resolution: 64, framesPerDirection: frames }),
    );
    const hanging = /banner/.test(out.interpretation?.drawing?.label ?? p);
    console.log(
      `${p}\t${frames}\t${out.interpretation?.drawing?.id}\t${out.animation}\tfree end ${freeEnd(out.frames.slice(0, frames), hanging).toFixed(1)} px`,
    );
  }
