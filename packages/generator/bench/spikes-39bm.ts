// Probe for decision 0141 (issue #39, wt39bm): stray spikes on 32 px icons — opaque pixels with at most one
// opaque 8-neighbour (`lone`), and of those the ones sticking off a body (their one neighbour has ≥ 4).
//   tsx bench/spikes-39bm.ts [subject …]
import type { RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

function spikes(f: RgbaImage): { lone: number; stuck: number } {
  const { width: w, height: h, data } = f;
  const on = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && data[(y * w + x) * 4 + 3]! > 0;
  const count = (x: number, y: number) => {
    let n = 0;
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) if ((dx || dy) && on(x + dx, y + dy)) n++;
    return n;
  };
  let lone = 0;
  let stuck = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!on(x, y) || count(x, y) > 1) continue;
      lone++;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++)
          if ((dx || dy) && on(x + dx, y + dy) && count(x + dx, y + dy) >= 4) stuck++;
    }
  return { lone, stuck };
}
const subjects = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [
      'a cog',
      'a heart',
      'a sun',
      'a star',
      'a flower',
      'a wheel',
      'a shield',
      'a potion',
      'a key',
      'a coin',
      'a skull',
      'an apple',
      'a sword',
      'a bow',
      'a gem',
      'a crown',
      'a bomb',
      'a hammer',
      'a scroll',
      'a mushroom',
    ];
for (const s of subjects)
  for (const res of [32, 24]) {
    const out = await renderProcedural(spriteRequest(s, { resolution: res, directions: 1 }));
    console.log(
      `${res}\t${s}\t${out.interpretation?.drawing?.id ?? out.interpretation?.kind}\t${JSON.stringify(spikes(out.frames[0]!))}`,
    );
  }
