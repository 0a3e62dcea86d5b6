// Renders a brief's own background probes (never the held-out list) to PNGs for a look by eye and
// prints the figures of decisions 0098 and 0107: tsx bench/probe-scenes.ts <out dir> [39ab|39ai|39an]
// (320 x 180, seed 7, scaled 2x; SCENES="a|b" for others).
// Figures: things whose feet stand in water (oases), the rows of a lava river's course from the top,
// the colours inside a castle gate's arch, the luminance steps of a lamp's glow in the tavern.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodePng, type RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { backgroundRequest } from '../test/support.js';

const LISTS: Record<string, string> = {
  // decision 0098: glows, dry ground, a lava river, a castle gate
  '39ab':
    "an alchemist's workshop|an inn at night|city rooftops with lanterns|a desert oasis at noon|a volcanic valley|a castle gate at dawn|a pine forest at sunset|a tavern interior|a crypt corridor|a volcano with a lava river|an oasis with palm trees|a tavern with stools",
  // decision 0107: rooms at one scale, ranges and dunes with faces, workshops, old cities
  '39ai':
    "a warm inn common room|a blacksmith's forge interior|a carpenter's workshop|a potter's studio|a rocky mountain range at dawn|sand dunes at noon|ruins of an old walled city|a cozy cottage interior|a tavern interior|古城|an ancient city|a snowy mountain pass|desert dunes at sunset",
  // decision 0113: every glow has its source, lava from crater to foot, a lighthouse, a gatehouse, dunes
  '39an':
    'a harbour town at night with street lamps|a castle wall lit by torches|an erupting volcano at dusk|a coast with a lighthouse at dusk|a fortress gate|a desert with dunes at sunset|a medieval walled town at night|a volcano with a lava river at night|a castle courtyard',
};
const list = process.argv[3] ?? '39ab';
const out = process.argv[2] ?? `/tmp/${list}`;
mkdirSync(out, { recursive: true });
const prompts = (process.env.SCENES ?? LISTS[list] ?? '').split('|').filter(Boolean);
const slug = (s: string) => s.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
const draw = (prompt: string) => renderProcedural(backgroundRequest(prompt));
const scale2 = (f: RgbaImage): RgbaImage => {
  const w = f.width * 2;
  const h = f.height * 2;
  const d = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const s = ((y >> 1) * f.width + (x >> 1)) * 4;
      d.set(f.data.subarray(s, s + 4), (y * w + x) * 4);
    }
  return { width: w, height: h, data: d };
};

/** 8-connected groups of `hit` pixels (4-connected when `eight` is false). */
function groups(w: number, h: number, hit: (p: number) => boolean, eight = true): number[][] {
  const seen = new Uint8Array(w * h);
  const all: number[][] = [];
  for (let p = 0; p < w * h; p++) {
    if (seen[p] || !hit(p)) continue;
    const g: number[] = [];
    const stack = [p];
    seen[p] = 1;
    while (stack.length) {
      const q = stack.pop()!;
      g.push(q);
      const x = q % w;
      const y = (q - x) / w;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          if ((!dx && !dy) || (!eight && dx && dy)) continue;
          const nx = x + dx;
          const ny = y + dy;
          const n = ny * w + nx;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h || seen[n] || !hit(n)) continue;
          seen[n] = 1;
          stack.push(n);
        }
    }
    all.push(g);
  }
  return all;
}

for (const prompt of prompts) {
  let r: Awaited<ReturnType<typeof draw>>;
  try {
    r = await draw(prompt);
  } catch (e) {
    console.log(`${prompt}: refused: ${(e as Error).message.slice(0, 120)}`);
    continue;
  }
  const f = r.frames[0]!;
  writeFileSync(join(out, `${slug(prompt)}.png`), encodePng(scale2(f).data, f.width * 2, f.height * 2));
  const { width: w, height: h } = f;
  const figures: string[] = [`subject "${r.subject}"`];
  const layer = (n: string) => r.layers!.find((l) => l.name === n)!.image;
  if (/oasis/.test(prompt)) {
    const props = layer('props');
    const near = layer('near');
    const wet = (p: number) =>
      near.data[p * 4 + 3]! > 0 &&
      near.data[p * 4 + 2]! > near.data[p * 4]! + 40 &&
      near.data[p * 4 + 2]! > near.data[p * 4 + 1]!;
    const things = groups(w, h, (p) => props.data[p * 4 + 3]! > 0).filter((g) => g.length >= 20);
    const inWater = things.filter((g) => {
      const foot = Math.max(...g.map((p) => Math.floor(p / w)));
      return g.some((p) => Math.floor(p / w) === foot && foot + 1 < h && wet(p + w));
    });
    figures.push(`things ${things.length}, feet in water ${inWater.length}`);
  }
  if (/lava/.test(prompt)) {
    const lava = (p: number) =>
      f.data[p * 4]! >= 170 && f.data[p * 4 + 2]! <= 100 && f.data[p * 4]! > f.data[p * 4 + 1]! + 30;
    const course = groups(w, h, lava, false).filter((g) => g.some((p) => p >= (h - 1) * w));
    const tops = course.map((g) => Math.min(...g.map((p) => Math.floor(p / w))));
    figures.push(`courses at the bottom edge ${course.length}, their top rows ${tops.join(',')} of ${h}`);
  }
  if (/gate/.test(prompt)) {
    const d = new Uint32Array(f.data.buffer, f.data.byteOffset, w * h);
    const seen = new Set<number>();
    for (let y = Math.round(h * 0.4); y < Math.round(h * 0.7); y++)
      for (let x = w / 2 - 8; x < w / 2 + 8; x++) seen.add(d[y * w + x]!);
    figures.push(`colours in the arch's middle ${seen.size}`);
  }
  const elements = (r.interpretation?.elements ?? []).map((e) => `${e.word}:${e.as ?? e.drawn}`);
  console.log(
    `${prompt}: ${figures.join('; ')}; elements [${elements.join(', ')}]; unread [${r.interpretation?.ignored.join(', ')}]`,
  );
}
