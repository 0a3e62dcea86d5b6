// Decision 0133: front and back views of the rig's quadrupeds at the side views' scale. Prints, for
// own wordings at 64 px, seed 1, 4 directions (down, left, right, up), each row's opaque box (w×h),
// the front and back rows' width as a share of the side row's, and their height less the side's.
//   tsx bench/probe-39bf.ts [prompt …]
import { renderProcedural } from '../src/index.js';
import { spriteRequest } from '../test/support.js';

const prompts = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['a red fox', 'a wolf', 'a dog', 'a cat', 'a horse', 'a brown bear'];
for (const prompt of prompts) {
  const out = await renderProcedural(spriteRequest(prompt, { directions: 4, resolution: 64, seed: 1 })).catch(
    (e: Error) => e,
  );
  if (out instanceof Error) {
    console.log(prompt.padEnd(16), out.message.slice(0, 80));
    continue;
  }
  const boxes = out.frames.slice(0, 4).map((f) => {
    let [x0, y0, x1, y1] = [f.width, f.height, -1, -1];
    for (let p = 0; p < f.width * f.height; p++)
      if (f.data[p * 4 + 3]) {
        const [x, y] = [p % f.width, Math.floor(p / f.width)];
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      }
    return [x1 - x0 + 1, y1 - y0 + 1] as const;
  });
  const [down, left, , up] = boxes;
  console.log(
    `${prompt.padEnd(16)} ${out.views?.map((v) => v.view).join('/') ?? ''}`.padEnd(40),
    boxes.map(([w, h]) => `${w}×${h}`).join(' / '),
    `front ${(down![0] / left![0]).toFixed(2)} ${down![1] - left![1]}`,
    `back ${(up![0] / left![0]).toFixed(2)} ${up![1] - left![1]}`,
  );
}
