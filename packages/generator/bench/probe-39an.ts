// Brief 39an's figures (decision 0113; my own prompts, never the held-out list), 320 x 180 seed 7 unless
// said: tsx bench/probe-39an.ts. Prints the longest upright edge of a dune's shade (far/mid, seeds 1
// and 7), the lava streams that end above the volcano's foot, and the gatehouse pier's tones.
import { renderProcedural } from '../src/index.js';
import { backgroundRequest } from '../test/support.js';

const draw = (prompt: string, seed = 7) => renderProcedural(backgroundRequest(prompt, seed));
const lum = (r: number, g: number, b: number) => r * 0.3 + g * 0.59 + b * 0.11;
type Out = Awaited<ReturnType<typeof draw>>;
const layerOf = (o: Out, n: string) => o.layers!.find((l) => l.name === n)!.image;

for (const seed of [1, 7]) {
  const out = await draw('sand dunes at noon', seed);
  const edges: number[] = [];
  for (const name of ['far', 'mid']) {
    const img = layerOf(out, name);
    const { width: w, height: h } = img;
    const d = new Uint32Array(img.data.buffer, img.data.byteOffset, w * h);
    let dark = 0;
    let dl = 999;
    for (const v of new Set(d))
      if (v >>> 24 && lum(v & 255, (v >>> 8) & 255, (v >>> 16) & 255) < dl) {
        dl = lum(v & 255, (v >>> 8) & 255, (v >>> 16) & 255);
        dark = v;
      }
    let longest = 0;
    for (let x = 1; x < w; x++) {
      let run = 0;
      for (let y = 0; y < h; y++) {
        const a = d[y * w + x - 1]!;
        const b = d[y * w + x]!;
        run = a >>> 24 && b >>> 24 && (a === dark) !== (b === dark) ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
    }
    edges.push(longest);
  }
  console.log(`sand dunes at noon #${seed}: longest upright shade edge far/mid ${edges.join('/')} px`);
}
for (const prompt of ['an erupting volcano at dusk', 'a volcano with a lava river']) {
  const mid = layerOf(await draw(prompt), 'mid');
  const { width: w, height: h, data } = mid;
  const lava = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= w || y >= h) return false;
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
  const ends: number[] = [];
  for (let y = top + 4; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!lava(x, y)) continue;
      let below = false;
      for (let dy = 1; dy <= 2 && !below; dy++)
        for (let dx = -2; dx <= 2; dx++) if (lava(x + dx, y + dy)) below = true;
      if (!below && y < foot - 3) ends.push(y);
    }
  console.log(
    `${prompt}: lava rows ${top}-${foot}; stream ends above the foot: ${ends.length} [${[...new Set(ends)].join(',')}]`,
  );
}
{
  const f = (await draw('a fortress gate')).frames[0]!;
  const w = f.width;
  const d = new Uint32Array(f.data.buffer, f.data.byteOffset, w * f.height);
  const tones = new Set<number>();
  for (let y = Math.round(f.height * 0.35); y < Math.round(f.height * 0.6); y++)
    for (let x = w / 2 - 24; x < w / 2 - 18; x++) tones.add(d[y * w + x]!);
  console.log(`a fortress gate: gatehouse pier tones ${tones.size}`);
}
