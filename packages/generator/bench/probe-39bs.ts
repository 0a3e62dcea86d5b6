// Decision 0147: figures' scale and walks. For own wordings (never the held-out list), at 64 px,
// seed 1, 4 directions × 4 frames: the sheet's larger side as a share of the cell, its least margin,
// and a PNG of the sheet (×4) in $OUT (default /tmp/39bs) to look at.
//   tsx bench/probe-39bs.ts [prompt …]
import { mkdirSync, writeFileSync } from 'node:fs';
import { encodePng } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { frameStats, spriteRequest } from '../test/support.js';

const prompts = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [
      'a goblin',
      'a goblin warrior dying',
      'a goblin attacking',
      'a kobold',
      'a mech walking',
      'a robot guard walking',
      'a fox cub',
    ];
const px = Number(process.env.PX ?? 64);
const out = process.env.OUT ?? '/tmp/39bs';
const n = Number(process.env.FRAMES ?? 4);
mkdirSync(out, { recursive: true });
for (const prompt of prompts) {
  const res = await renderProcedural(
    spriteRequest(prompt, { directions: 4, framesPerDirection: n, resolution: px, seed: 1 }),
  ).catch((e: Error) => e);
  if (res instanceof Error) {
    console.log(prompt.padEnd(26), res.message.slice(0, 80));
    continue;
  }
  const all = frameStats(res.frames);
  const rows = [0, 1, 2, 3].map((d) => frameStats(res.frames.slice(d * n, d * n + n)));
  console.log(
    prompt.padEnd(26),
    rows
      .map((r) => `${r.box[2] - r.box[0] + 1}×${r.box[3] - r.box[1] + 1}`)
      .join(' / ')
      .padEnd(32),
    `share ${(all.share * 100).toFixed(0)} %`,
    `margin ${all.margin}`,
  );
  const z = 4;
  const fw = res.frames[0]!.width;
  const fh = res.frames[0]!.height;
  const W = fw * n * z;
  const H = fh * 4 * z;
  const img = new Uint8Array(W * H * 4);
  res.frames.forEach((f, i) => {
    const cx = (i % n) * fw;
    const cy = Math.floor(i / n) * fh;
    for (let y = 0; y < fh * z; y++)
      for (let x = 0; x < fw * z; x++) {
        const s = (Math.floor(y / z) * fw + Math.floor(x / z)) * 4;
        const d = ((cy * z + y) * W + cx * z + x) * 4;
        const a = f.data[s + 3]!;
        const bg = (Math.floor(x / (z * 8)) + Math.floor(y / (z * 8))) & 1 ? 200 : 230;
        for (let c = 0; c < 3; c++)
          img[d + c] = a ? f.data[s + c]! : x % (fw * z) === 0 || y % (fh * z) === 0 ? 120 : bg;
        img[d + 3] = 255;
      }
  });
  writeFileSync(`${out}/${prompt.replace(/\W+/g, '-')}.png`, encodePng(img, W, H));
}
