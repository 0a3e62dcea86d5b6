// Decision 0145: how sprites fill their cell. For own wordings (never the held-out list), at 64 px,
// seed 1, 4 directions × 4 frames: per direction row the box over its frames (w×h), the sheet's
// larger side as a share of the cell (frameStats) and its least margin to the cell's edge.
//   tsx bench/probe-39bq.ts [prompt …]
import { renderProcedural } from '../src/index.js';
import { frameStats, spriteRequest } from '../test/support.js';

const prompts = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [
      'a tiny imp',
      'a goblin spearman',
      'a little goblin bowman',
      'a small kobold',
      'a goblin',
      'a dwarf with an axe',
      'a knight',
      'a tiny fox trotting',
      'a wolf',
      'a penguin waddling',
    ];
const px = Number(process.env.PX ?? 64);
for (const prompt of prompts) {
  const out = await renderProcedural(
    spriteRequest(prompt, { directions: 4, framesPerDirection: 4, resolution: px, seed: 1 }),
  ).catch((e: Error) => e);
  if (out instanceof Error) {
    console.log(prompt.padEnd(26), out.message.slice(0, 80));
    continue;
  }
  const rows = [0, 1, 2, 3].map((d) => frameStats(out.frames.slice(d * 4, d * 4 + 4)));
  const all = frameStats(out.frames);
  console.log(
    prompt.padEnd(26),
    rows
      .map((r) => `${r.box[2] - r.box[0] + 1}×${r.box[3] - r.box[1] + 1}`)
      .join(' / ')
      .padEnd(32),
    `share ${(all.share * 100).toFixed(0)} %`,
    `margin ${all.margin}`,
  );
}
