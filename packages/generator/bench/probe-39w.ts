// Renders the backgrounds and sprites of brief 39w's own probe list (never the held-out list) to PNGs
// for a look by eye: tsx bench/probe-39w.ts <out dir> (backgrounds 320x180 seeds 1-4; sprites 64 px,
// 4 frames side by side, scaled 3x). Decision 0093.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodePng, type RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';
import { backgroundRequest, spriteRequest } from '../test/support.js';

const png = (i: RgbaImage) => encodePng(i.data, i.width, i.height);
const out = process.argv[2] ?? '/tmp/39w';
mkdirSync(out, { recursive: true });
const scenes = (
  process.env.SCENES ??
  'a pine forest at dusk|a cemetery in the fog|a mountain village at night|a frozen pond in winter|a castle on a hill|a harbour lighthouse at dusk'
)
  .split('|')
  .filter(Boolean);
const sprites = (process.env.SPRITES ?? "a knight's banner waving|a pirate flag fluttering|a bat flying")
  .split('|')
  .filter(Boolean);
const seeds = (process.env.SEEDS ?? '1,2,3,4').split(',').map(Number);
const slug = (s: string) => s.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');

function stack(imgs: RgbaImage[], vertical: boolean, gap = 4, scale = 1): RgbaImage {
  const w = vertical
    ? Math.max(...imgs.map((i) => i.width)) * scale
    : imgs.reduce((s, i) => s + i.width * scale + gap, -gap);
  const h = vertical
    ? imgs.reduce((s, i) => s + i.height * scale + gap, -gap)
    : Math.max(...imgs.map((i) => i.height)) * scale;
  const data = new Uint8Array(w * h * 4).fill(200);
  let o = 0;
  for (const im of imgs) {
    for (let y = 0; y < im.height * scale; y++)
      for (let x = 0; x < im.width * scale; x++) {
        const s = (Math.floor(y / scale) * im.width + Math.floor(x / scale)) * 4;
        const X = vertical ? x : o + x;
        const Y = vertical ? o + y : y;
        const d = (Y * w + X) * 4;
        const a = im.data[s + 3]! / 255;
        for (let k = 0; k < 3; k++) data[d + k] = Math.round(im.data[s + k]! * a + data[d + k]! * (1 - a));
        data[d + 3] = 255;
      }
    o += (vertical ? im.height : im.width) * scale + gap;
  }
  return { width: w, height: h, data };
}

for (const p of scenes) {
  const imgs: RgbaImage[] = [];
  for (const seed of seeds) {
    const a = await renderProcedural(backgroundRequest(p, seed));
    imgs.push(a.frames[0]!);
  }
  writeFileSync(join(out, `bg-${slug(p)}.png`), png(stack(imgs, true, 4, 2)));
  console.log('bg', p);
}
for (const p of sprites) {
  const rows: RgbaImage[] = [];
  for (const seed of seeds.slice(0, 2)) {
    const a = await renderProcedural(
      spriteRequest(p, { assetType: 'animation', resolution: 64, framesPerDirection: 4, seed }),
    );
    rows.push(stack(a.frames.slice(0, 4), false, 4, 3));
    console.log(
      'sprite',
      p,
      seed,
      a.animation,
      a.interpretation?.drawing?.id ?? a.interpretation?.kind,
      a.interpretation?.ignored,
    );
  }
  writeFileSync(join(out, `sp-${slug(p)}.png`), png(stack(rows, true, 8)));
}
