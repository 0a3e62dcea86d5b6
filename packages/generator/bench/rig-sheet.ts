// Contact sheets of rig characters for the eye, two PNGs per prompt:
// - <name>-dirs.png: a row per action, the 8 directions across (down, down_left, left, up_left,
//   up, up_right, right, down_right), each at the action's key frame;
// - <name>-frames.png: a row per action and facing (down, left, up_left), every frame across.
//
//   tsx bench/rig-sheet.ts <out dir> <resolution> "prompt" ["prompt" …]
//   (RIG_ACTIONS=idle,walk,… picks the rows; RIG_SCALE the enlargement; RIG_SEED the seed)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodePng, type RgbaImage } from '@assetloom/pipeline';
import { renderProcedural } from '../src/index.js';

const [outArg, resArg, ...prompts] = process.argv.slice(2);
const outDir = resolve(outArg ?? 'bench/out/rig-sheet');
const resolution = Number(resArg ?? 64);
mkdirSync(outDir, { recursive: true });
const actions = (process.env.RIG_ACTIONS ?? 'idle,walk,run,jump,attack,hurt,death').split(',');
const scale = Number(process.env.RIG_SCALE ?? (resolution <= 32 ? 4 : resolution >= 128 ? 1 : 2));
const fpd = Number(process.env.RIG_FRAMES ?? 6);
const seed = Number(process.env.RIG_SEED ?? 1);
const GAP = 2;
const VERB: Record<string, string> = {
  walk: 'walking',
  run: 'running',
  jump: 'jumping',
  attack: 'attacking',
  hurt: 'hurt',
  death: 'dying',
};

function sheet(cells: RgbaImage[][], file: string): void {
  const cell = resolution * scale;
  const cols = Math.max(...cells.map((r) => r.length));
  const W = cols * (cell + GAP) + GAP;
  const H = cells.length * (cell + GAP) + GAP;
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const bg = ((x >> 3) + (y >> 3)) % 2 ? 200 : 222;
      data.set([bg, bg, bg, 255], (y * W + x) * 4);
    }
  cells.forEach((row, r) => {
    row.forEach((img, c) => {
      const ox = GAP + c * (cell + GAP);
      const oy = GAP + r * (cell + GAP);
      for (let y = 0; y < cell; y++)
        for (let x = 0; x < cell; x++) {
          const s = (Math.floor(y / scale) * img.width + Math.floor(x / scale)) * 4;
          if (!img.data[s + 3]) continue;
          data.set([img.data[s]!, img.data[s + 1]!, img.data[s + 2]!, 255], ((oy + y) * W + ox + x) * 4);
        }
    });
  });
  writeFileSync(file, encodePng(data, W, H));
  console.log(file);
}

if (process.env.RIG_GALLERY) {
  // one sheet: a row per prompt, the 8 directions of the action's key frame across
  const action = actions[0]!;
  const rows: RgbaImage[][] = [];
  for (const prompt of prompts) {
    const text = action === 'idle' ? prompt : `${prompt} ${VERB[action] ?? action}`;
    const got = await renderProcedural({
      assetType: 'animation',
      prompt: text,
      userPrompt: text,
      tags: [],
      style: {},
      resolution,
      directions: 8,
      framesPerDirection: fpd,
      seed,
      attempt: 0,
    } as never);
    const key = Number(process.env.RIG_KEY ?? Math.max(0, Math.floor(fpd / 2) - 1));
    rows.push(Array.from({ length: 8 }, (_, d) => got.frames[d * fpd + key]!));
  }
  sheet(rows, join(outDir, `gallery-${action}-${resolution}.png`));
  process.exit(0);
}

for (const prompt of prompts) {
  const dirs: RgbaImage[][] = [];
  const frames: RgbaImage[][] = [];
  const perAction: Array<[string, RgbaImage[][]]> = [];
  for (const action of actions) {
    const text = action === 'idle' ? prompt : `${prompt} ${VERB[action] ?? action}`;
    const got = await renderProcedural({
      assetType: 'animation',
      prompt: text,
      userPrompt: text,
      tags: [],
      style: {},
      resolution,
      directions: 8,
      framesPerDirection: fpd,
      seed,
      attempt: 0,
    } as never);
    const key = Math.floor(fpd / 2) - 1;
    dirs.push(Array.from({ length: 8 }, (_, d) => got.frames[d * fpd + Math.max(0, key)]!));
    const rows = [0, 2, 3, 4].map((d) => got.frames.slice(d * fpd, d * fpd + fpd));
    frames.push(...rows.slice(0, 3));
    perAction.push([action, rows]);
  }
  const name = `${prompt.replace(/[^a-z0-9\u4e00-\u9fff]+/gi, '-')}-${resolution}`;
  sheet(dirs, join(outDir, `${name}-dirs.png`));
  sheet(frames, join(outDir, `${name}-frames.png`));
  if (process.env.RIG_PER_ACTION)
    for (const [a, rows] of perAction) sheet(rows, join(outDir, `${name}-${a}.png`));
}
