// Direction rows of a prompt list, for a person to judge by eye which way each drawing faces and
// whether its rows turn (issue #39, decision 0091). Never run it on a held-out list.
//
//   tsx bench/facing-39u.ts <prompts.txt> <out dir> [resolution] [seeds, e.g. 1,2,3]
//
// One prompt a line. Writes `sheet-NN.png` (eight prompts each: their down/left/right/up rows side by
// side, enlarged ×2 on a checkerboard) and prints each prompt's drawing and its rows' views.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encodePng, type RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';

const [listFile, outDir = '/tmp/facing', res = '64', seedList = '1'] = process.argv.slice(2);
const seeds = seedList.split(',').map(Number);
const prompts = readFileSync(resolve(listFile!), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter(Boolean);
mkdirSync(outDir, { recursive: true });
const resolution = Number(res);

function sheet(rows: RgbaImage[][], k: number) {
  const gap = 4;
  const w = Math.max(...rows.map((r) => r.reduce((s, im) => s + im.width * k + gap, gap)));
  const h = rows.reduce((s, r) => s + Math.max(...r.map((im) => im.height * k)) + gap, gap);
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const bg = ((x >> 3) + (y >> 3)) % 2 ? 200 : 226;
      data.set([bg, bg, bg + 6, 255], (y * w + x) * 4);
    }
  let oy = gap;
  for (const r of rows) {
    let ox = gap;
    for (const im of r) {
      for (let y = 0; y < im.height * k; y++)
        for (let x = 0; x < im.width * k; x++) {
          const s = (Math.floor(y / k) * im.width + Math.floor(x / k)) * 4;
          if (!im.data[s + 3]) continue;
          data.set([im.data[s]!, im.data[s + 1]!, im.data[s + 2]!, 255], ((oy + y) * w + ox + x) * 4);
        }
      ox += im.width * k + gap;
    }
    oy += Math.max(...r.map((im) => im.height * k)) + gap;
  }
  return { width: w, height: h, data };
}

let rows: RgbaImage[][] = [];
let n = 0;
const flush = () => {
  if (!rows.length) return;
  const s = sheet(rows, resolution > 64 ? 1 : 2);
  writeFileSync(`${outDir}/sheet-${String(n++).padStart(2, '0')}.png`, encodePng(s.data, s.width, s.height));
  rows = [];
};
for (const prompt of prompts)
  for (const seed of seeds) {
    try {
      const out = await renderProcedural({
        assetType: 'sprite',
        prompt,
        userPrompt: prompt,
        tags: [],
        style: {},
        resolution,
        directions: 4,
        framesPerDirection: 1,
        seed,
        attempt: 0,
      });
      const views = (out.views ?? []).map((v) => `${v.direction}=${v.view}`).join(' ');
      console.log(`${n}.${rows.length}\t${prompt}\t${seed}\t${out.drawing?.drawing ?? '-'}\t${views}`);
      rows.push(out.frames);
    } catch (e) {
      console.log(`-\t${prompt}\tERROR\t${(e as Error).message.slice(0, 120)}`);
    }
    if (rows.length === 8) flush();
  }
flush();
