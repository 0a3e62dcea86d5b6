// Figures on model in every row (issue #39, decision 0119): a prompt's four direction rows (and an
// action's frames) enlarged ×k side by side, for a person to judge by eye; own wordings only.
//
//   tsx bench/probe-39as.ts <out dir> <resolution> <action|still> <prompt>...
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodePng, type RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const [out = '/tmp/39as', res = '64', action = 'still', ...prompts] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const resolution = Number(res);
const k = resolution >= 128 ? 3 : 5;
for (const prompt of prompts) {
  const frames = action === 'still' ? 1 : 4;
  const r = await renderProcedural(
    spriteRequest(action === 'still' ? prompt : `${prompt} ${action}`, {
      assetType: action === 'still' ? 'sprite' : 'animation',
      directions: 4,
      framesPerDirection: frames,
      resolution,
    }),
  );
  const fs: RgbaImage[] = r.frames;
  const fw = fs[0]!.width;
  const fh = fs[0]!.height;
  const W = frames * (fw * k + 4) + 4;
  const H = 4 * (fh * k + 4) + 4;
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const bg = ((x >> 3) + (y >> 3)) % 2 ? 200 : 226;
      data.set([bg, bg, bg + 6, 255], (y * W + x) * 4);
    }
  fs.forEach((f, i) => {
    const ox = 4 + (i % frames) * (fw * k + 4);
    const oy = 4 + Math.floor(i / frames) * (fh * k + 4);
    for (let y = 0; y < fh * k; y++)
      for (let x = 0; x < fw * k; x++) {
        const s = (Math.floor(y / k) * fw + Math.floor(x / k)) * 4;
        if (f.data[s + 3])
          data.set([f.data[s]!, f.data[s + 1]!, f.data[s + 2]!, 255], ((oy + y) * W + ox + x) * 4);
      }
  });
  const name = `${prompt.replace(/\W+/g, '-')}-${res}-${action}.png`;
  writeFileSync(join(out, name), encodePng(data, W, H));
  console.log(join(out, name), r.frames.length);
}
