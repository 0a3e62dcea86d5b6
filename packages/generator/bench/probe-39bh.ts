// Backgrounds not stamped, rooms on their floor, the named place drawn (issue #39, decision 0135):
// the figures of `test/scenes.test.ts`'s 0135 block on own prompts (never a held-out list), 320 × 180,
// seed 7. Pass another checkout's generator package to measure it (before):
//
//   tsx bench/probe-39bh.ts [generator package dir]
import { resolve } from 'node:path';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const { renderProcedural } = (await import(`${root}/src/index.ts`)) as typeof import('../src/index.js');
const draw = (prompt: string) =>
  renderProcedural({
    assetType: 'background',
    prompt,
    userPrompt: prompt,
    tags: [],
    style: {},
    resolution: 320,
    width: 320,
    height: 180,
    directions: 1,
    framesPerDirection: 1,
    seed: 7,
    attempt: 0,
  });
type Img = { width: number; height: number; data: Uint8Array };
const layerOf = (out: Awaited<ReturnType<typeof draw>>, name: string) =>
  out.layers!.find((l) => l.name === name)!.image as Img;
const lumAt = (img: Img, x: number, y: number) => {
  const i = (y * img.width + x) * 4;
  return img.data[i]! * 0.3 + img.data[i + 1]! * 0.59 + img.data[i + 2]! * 0.11;
};

// the tavern's table: its top's depth in rows, the floor under it over the floor beside it
{
  const out = await draw('an inn interior');
  const near = layerOf(out, 'near');
  const props = layerOf(out, 'props');
  const { width: w, height: h } = near;
  let best = { y: 0, x0: 0, x1: 0 };
  for (let y = Math.round(h * 0.6); y < h; y++) {
    let x = Math.round(w * 0.2);
    while (x < w * 0.68) {
      if (!props.data[(y * w + x) * 4 + 3]) {
        x++;
        continue;
      }
      const x0 = x;
      while (x < w * 0.68 && props.data[(y * w + x) * 4 + 3]) x++;
      if (x - x0 > best.x1 - best.x0) best = { y, x0, x1: x };
    }
  }
  const tw = best.x1 - best.x0;
  let deep = 0;
  for (let y = best.y - 1; y > best.y - 12; y--) {
    let run = 0;
    for (let x = best.x0; x < best.x1; x++) if (props.data[(y * w + x) * 4 + 3]) run++;
    if (run >= tw * 0.8) deep++;
  }
  let feet = best.y;
  for (let y = best.y; y < h; y++)
    for (let x = best.x0; x < best.x1; x++) if (props.data[(y * w + x) * 4 + 3]) feet = y;
  const mean = (xs: number[]) => xs.reduce((s, x) => s + lumAt(near, x, feet), 0) / xs.length;
  const under: number[] = [];
  const beside: number[] = [];
  for (let x = 0; x < w; x++) {
    if (x > best.x0 + tw * 0.25 && x < best.x1 - tw * 0.25) under.push(x);
    if (x < best.x0 - w * 0.12 && x > best.x0 - w * 0.2) beside.push(x);
  }
  console.log(
    `an inn interior\ttable top rows: ${deep}\tfloor under / beside: ${(mean(under) / mean(beside)).toFixed(2)}`,
  );
}

// the lava streams' width across the cone at 30 / 50 / 75 / 92 % of their run
{
  const mid = layerOf(await draw('an erupting volcano'), 'mid');
  const { width: w, height: h, data } = mid;
  const lava = (x: number, y: number) => {
    const i = (y * w + x) * 4;
    return data[i + 3]! > 0 && data[i]! >= 230 && data[i + 2]! <= 120 && data[i]! > data[i + 1]! + 30;
  };
  let top = h;
  let foot = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (lava(x, y)) {
        top = Math.min(top, y);
        foot = Math.max(foot, y);
      }
  const at = (f: number) => {
    const y = Math.round(top + (foot - top) * f);
    let n = 0;
    for (let x = 0; x < w; x++) if (lava(x, y)) n++;
    return n;
  };
  console.log(
    `an erupting volcano\tlava px across at 30/50/75/92 %: ${[0.3, 0.5, 0.75, 0.92].map(at).join(' / ')}`,
  );
}

// the castle's yard: what it is, sky or a gateway down the middle
for (const prompt of ['a castle yard', 'a castle courtyard']) {
  const out = await draw(prompt);
  const f = out.frames[0]!;
  const { width: w, height: h } = f;
  let sky = 0;
  for (let y = Math.round(h * 0.25); y < Math.round(h * 0.65); y++)
    for (let x = w / 2 - 6; x < w / 2 + 6; x++) {
      const i = (y * w + x) * 4;
      if (f.data[i + 2]! > f.data[i]! + 40) sky++;
    }
  console.log(
    `${prompt}\tsubject: ${out.subject}\tsky px through the middle: ${sky}\tignored: ${out.interpretation?.ignored?.join(',')}`,
  );
}
