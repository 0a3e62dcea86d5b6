// Contact sheets of a prompt list, through the whole pipeline with the built-in generator, for a
// person to judge by eye (issue #39's own lists: docs/art-review/own-39.json). Never run it on a
// held-out list to tune against it.
//
//   tsx bench/look.ts <list.json> [out dir] [--only <id,id>]
//
// The list is `[{ id, prompt, assetType, style?, params? }]`. A sprite's sheet: its direction rows as
// written (frame 0 of each), then the same at 32 and 128 px, then seeds 2–4 (64 px, facing down). An
// animation's sheet is its own sheet. A background, a UI piece and a tileset: the PNG as written.
// Each sheet is enlarged ×4 (×2 past 256 px) on a checkerboard; `index.tsv` says what each drew.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type AssetMetadata,
  createMemoryStorage,
  decodePng,
  encodePng,
  type PipelineRequest,
  type RgbaImage,
} from '@assetloom/pipeline';
import type { Interpretation } from '@assetloom/pipeline/interpret';
import { runPipeline } from '../src/index.js';

interface Row {
  id: string | number;
  prompt: string;
  assetType: PipelineRequest['assetType'];
  style?: Record<string, string>;
  params?: Record<string, unknown>;
}

const args = process.argv.slice(2);
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1]!.split(',')) : null;
const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--only');
const list: Row[] = JSON.parse(readFileSync(resolve(positional[0]!), 'utf8'));
const outDir = resolve(positional[1] ?? new URL('./out/look', import.meta.url).pathname);
mkdirSync(outDir, { recursive: true });

async function run(row: Row, params: Record<string, unknown> = {}) {
  const storage = createMemoryStorage();
  const result = await runPipeline(
    {
      prompt: row.prompt,
      assetType: row.assetType,
      projectStyle: row.style ?? {},
      params: { resolution: 64, format: 'spritesheet', seed: 1, ...(row.params ?? {}), ...params } as never,
      keyPrefix: 'p/t/',
    },
    { storage },
  );
  if (!result.ok) return { error: result.error };
  const asset = result.assets[0]!;
  const png = storage.get(asset.key)!;
  const image = decodePng(png.bytes);
  if (!image.ok) throw new Error(image.error);
  return { image: image.image, asset, bytes: png.bytes };
}

/** Pictures side by side (top-aligned), a 4 px gutter, on a checkerboard, enlarged `k` times. */
function sheet(rows: RgbaImage[][], k: number): { w: number; h: number; data: Uint8Array } {
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
          const a = im.data[s + 3]!;
          if (!a) continue;
          data.set([im.data[s]!, im.data[s + 1]!, im.data[s + 2]!, 255], ((oy + y) * w + ox + x) * 4);
        }
      ox += im.width * k + gap;
    }
    oy += Math.max(...r.map((im) => im.height * k)) + gap;
  }
  return { w, h, data };
}

/** Frame `i` (direction-major) of a sheet of frameWidth × frameHeight cells. */
function cell(img: RgbaImage, fw: number, fh: number, col: number, row: number): RgbaImage {
  const data = new Uint8Array(fw * fh * 4);
  for (let y = 0; y < fh; y++)
    data.set(
      img.data.subarray(
        ((row * fh + y) * img.width + col * fw) * 4,
        ((row * fh + y) * img.width + (col + 1) * fw) * 4,
      ),
      y * fw * 4,
    );
  return { width: fw, height: fh, data };
}

function colours(img: RgbaImage): number {
  const set = new Set<number>();
  for (let i = 0; i < img.data.length; i += 4)
    if (img.data[i + 3]) set.add((img.data[i]! << 16) | (img.data[i + 1]! << 8) | img.data[i + 2]!);
  return set.size;
}

const index: string[] = [];
for (const row of list) {
  if (only && !only.has(String(row.id))) continue;
  const file = `${String(row.id).padStart(2, '0')}-${row.assetType}.png`;
  const main = await run(row);
  if ('error' in main) {
    index.push(`${row.id}\t${row.prompt}\tFAILED\t${main.error}`);
    continue;
  }
  const md = main.asset.metadata as AssetMetadata & {
    notHonoured?: unknown;
    views?: Array<{ direction: string; view: string; of?: string }>;
  };
  const it: Partial<Interpretation> = md.interpretation ?? {};
  const fw = md.frameWidth;
  const fh = md.frameHeight;
  let rows: RgbaImage[][];
  if (row.assetType === 'sprite') {
    const dirs = md.directions;
    const fpd = md.framesPerDirection ?? 1;
    rows = [Array.from({ length: dirs }, (_, d) => cell(main.image, fw, fh, 0, d))];
    if (fpd > 1) rows.push(Array.from({ length: fpd }, (_, f) => cell(main.image, fw, fh, f, 0)));
    const extra: RgbaImage[] = [];
    for (const [res, seed] of [
      [32, 1],
      [128, 1],
    ] as const) {
      const o = await run(row, { resolution: res, seed, frames: { directions: 1, framesPerDirection: 1 } });
      if ('image' in o && o.image) extra.push(o.image);
    }
    rows.push(extra);
    const seeds: RgbaImage[] = [];
    for (const seed of [2, 3, 4]) {
      const o = await run(row, { seed, frames: { directions: 1, framesPerDirection: 1 } });
      if ('image' in o && o.image) seeds.push(o.image);
    }
    rows.push(seeds);
  } else if (row.assetType === 'animation') {
    const dirs = md.directions;
    const fpd = md.framesPerDirection ?? 1;
    rows = Array.from({ length: dirs }, (_, d) =>
      Array.from({ length: fpd }, (_, f) => cell(main.image, fw, fh, f, d)),
    );
  } else rows = [[main.image]];
  // a size or seed the task refuses leaves its row empty: the sheet shows the rows that drew
  rows = rows.filter((r) => r.length);
  const widest = Math.max(...rows.map((r) => r.reduce((s, im) => s + im.width, 0)));
  const k = widest > 700 ? 1 : widest > 300 ? 2 : widest > 130 ? 3 : 4;
  const s = sheet(rows, k);
  writeFileSync(join(outDir, file), encodePng(s.data, s.w, s.h));
  const views = md.views
    ? ` views=${md.views.map((v) => `${v.direction}:${v.view}${v.of ? `(${v.of})` : ''}`).join(',')}`
    : '';
  index.push(
    `${row.id}\t${row.prompt}\t${it.source ?? ''}\t${it.drawing?.id ?? it.kind ?? ''}${it.drawnAs ? ` (as ${it.drawnAs})` : ''}\tcolours=${colours(main.image)}\tignored=${(it.ignored ?? []).join(',')}${md.notHonoured ? `\tnotHonoured=${JSON.stringify(md.notHonoured)}` : ''}${views}`,
  );
}
writeFileSync(join(outDir, 'index.tsv'), `${index.join('\n')}\n`);
for (const line of index) console.log(line);
