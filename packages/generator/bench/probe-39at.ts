// Decision 0120's probe: each prompt's four rows (down, left, right, up) at one resolution, seed 1,
// enlarged into one PNG on a checkerboard, and each row's opaque box; with --hop, a 6-frame animation
// of each prompt instead: per frame the body's rows, the clear rows over its shadow and the shadow's
// width (a slime bouncing leaves the ground). Never run it on a held-out list.
//
//   tsx bench/probe-39at.ts <out.png> <px> [--hop] "a red fox" "a grey wolf" …
import { writeFileSync } from 'node:fs';
import { encodePng, type RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const args = process.argv.slice(2);
const hop = args.includes('--hop');
const [out, res, ...prompts] = args.filter((a) => a !== '--hop');
const R = Number(res);
const k = R <= 32 ? 8 : R <= 64 ? 5 : 3;
const rows: RgbaImage[][] = [];
if (hop)
  for (const p of prompts) {
    const o = await renderProcedural(
      spriteRequest(p, { assetType: 'animation', framesPerDirection: 6, resolution: R, seed: 1 }),
    );
    rows.push(o.frames);
    const line = o.frames.map((f) => {
      const filled = (y: number) =>
        f.data.subarray(y * f.width * 4, (y + 1) * f.width * 4).some((v, i) => i % 4 === 3 && v);
      let y0 = 0;
      while (y0 < f.height && !filled(y0)) y0++;
      let y1 = f.height - 1;
      while (y1 > 0 && !filled(y1)) y1--;
      let y = y0;
      while (y <= y1 && filled(y)) y++;
      let gap = 0;
      while (y + gap <= y1 && !filled(y + gap)) gap++;
      let shadow = 0;
      for (let x = 0; x < f.width; x++) if (f.data[(y1 * f.width + x) * 4 + 3]) shadow++;
      return y > y1
        ? `body ${y0}-${y1}, on the ground`
        : `body ${y0}-${y - 1}, ${gap} clear, shadow ${shadow} px`;
    });
    console.log(p, o.animation, `ignored=${o.interpretation?.ignored}`, `\n  ${line.join('\n  ')}`);
  }
else
  for (const p of prompts) {
    const o = await renderProcedural(spriteRequest(p, { directions: 4, resolution: R }));
    rows.push(o.frames);
    console.log(
      p,
      o.drawing ?? 'rig',
      o.frames
        .map((f) => {
          let [x0, y0, x1, y1] = [999, 999, -1, -1];
          for (let i = 0; i < f.width * f.height; i++)
            if (f.data[i * 4 + 3]) {
              const x = i % f.width,
                y = Math.floor(i / f.width);
              x0 = Math.min(x0, x);
              x1 = Math.max(x1, x);
              y0 = Math.min(y0, y);
              y1 = Math.max(y1, y);
            }
          return `${x1 - x0 + 1}x${y1 - y0 + 1}`;
        })
        .join(' '),
    );
  }
const W = Math.max(...rows.map((r) => r.length)) * (R * k + 4) + 4,
  H = rows.length * (R * k + 4) + 4;
const d = new Uint8Array(W * H * 4);
for (let y = 0; y < H; y++)
  for (let x = 0; x < W; x++) {
    const b = ((x >> 4) + (y >> 4)) % 2 ? 200 : 226;
    d.set([b, b, b + 6, 255], (y * W + x) * 4);
  }
for (const [r, fr] of rows.entries())
  for (const [c, f] of fr.entries()) {
    for (let y = 0; y < R * k; y++)
      for (let x = 0; x < R * k; x++) {
        const s = (Math.floor(y / k) * R + Math.floor(x / k)) * 4;
        if (!f.data[s + 3]) continue;
        d.set(
          [f.data[s]!, f.data[s + 1]!, f.data[s + 2]!, 255],
          ((4 + r * (R * k + 4) + y) * W + 4 + c * (R * k + 4) + x) * 4,
        );
      }
  }
writeFileSync(out!, encodePng(d, W, H));
