// Action animations seen frame by frame (issue #39, decision 0109): each prompt's animation as the
// generator draws it (4 direction rows: down, left, right, up), one PNG per row enlarged ×SCALE (4)
// on a checkerboard, for a person to judge every frame. Own prompts only (never the held-out lists).
//
//   tsx bench/motion-39aj.ts <out dir> "prompt" ["prompt" …]   (FRAMES=6 per row, RES=64, SEED=1)
import { mkdirSync, writeFileSync } from 'node:fs';
import { encodePng } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const [out, ...prompts] = process.argv.slice(2) as [string, ...string[]];
const frames = Number(process.env.FRAMES ?? 6);
const res = Number(process.env.RES ?? 64);
const seed = Number(process.env.SEED ?? 1);
const k = Number(process.env.SCALE ?? 4);
mkdirSync(out, { recursive: true });
for (const prompt of prompts) {
  const got = await renderProcedural({
    ...spriteRequest(prompt, { assetType: 'animation', resolution: res, seed }),
    directions: 4,
    framesPerDirection: frames,
  } as never);
  console.log(`${prompt}: ${got.animation ?? ''} ${got.interpretation?.drawing?.id ?? ''}`);
  ['down', 'left', 'right', 'up'].forEach((row, r) => {
    const W = frames * (res * k + 4) + 4;
    const H = res * k + 8;
    const data = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const bg = ((x >> 4) + (y >> 4)) % 2 ? 200 : 222;
        data.set([bg, bg, bg, 255], (y * W + x) * 4);
      }
    for (let f = 0; f < frames; f++) {
      const im = got.frames[r * frames + f];
      if (!im) continue;
      const ox = 4 + f * (res * k + 4);
      for (let y = 0; y < res * k; y++)
        for (let x = 0; x < res * k; x++) {
          const s = (Math.floor(y / k) * im.width + Math.floor(x / k)) * 4;
          if (im.data[s + 3])
            data.set([im.data[s]!, im.data[s + 1]!, im.data[s + 2]!, 255], ((4 + y) * W + ox + x) * 4);
        }
    }
    writeFileSync(`${out}/${prompt.replace(/[^a-z0-9]+/gi, '-')}-${row}.png`, encodePng(data, W, H));
  });
}
