/**
 * Scenes and UI pieces on the built-in generator (issue #28), on everyday prompts (scene-prompts.ts):
 *
 * - scenes: 60 background prompts at 320 × 180 and 64 × 64 — what each named element became (drawn,
 *   and how; dropped), the things the sprite generator drew into them or refused, and the pixel
 *   counts that tell noise from pixel art (pixels unlike all four neighbours; distinct colours);
 * - UI: 40 prompts of every kind through the whole pipeline — the kind, states, words and font, an
 *   icon's drawing, the quality check (a piece never fails its own consistency check);
 * - time: a warm 320 × 180 scene against PNG-encoding the same picture, measured in the same run.
 *
 * Contact sheets and a TSV per prompt go to bench/out/ for the eye review (docs/benchmarks.md).
 *   tsx bench/scenes.bench.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RgbaImage } from '@assetloom/pipeline';
import { createMemoryStorage, decodePng, encodePng } from '@assetloom/pipeline';
import { renderProcedural, runPipeline } from '../src/index.js';
import { SCENE_PROMPTS, UI_PROMPTS } from './scene-prompts.js';

const OUT = join(import.meta.dirname, 'out');
mkdirSync(OUT, { recursive: true });
const log = (s: string) => console.log(`[bench:scenes] ${s}`);

async function scene(prompt: string, width: number, height: number, seed = 1) {
  return renderProcedural({
    assetType: 'background',
    prompt,
    userPrompt: prompt,
    tags: [],
    style: {},
    seed,
    attempt: 0,
    resolution: Math.max(width, height),
    width,
    height,
    directions: 1,
    framesPerDirection: 1,
  });
}

function pixels(f: RgbaImage): { isolated: number; colours: number } {
  const { width: w, height: h } = f;
  const d = new Uint32Array(f.data.buffer, f.data.byteOffset, w * h);
  let n = 0;
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const v = d[y * w + x]!;
      if (
        v !== d[y * w + x - 1] &&
        v !== d[y * w + x + 1] &&
        v !== d[(y - 1) * w + x] &&
        v !== d[(y + 1) * w + x]
      )
        n++;
    }
  return { isolated: n / ((w - 2) * (h - 2)), colours: new Set(d).size };
}

/** Pictures on a grid, each scaled by `scale`, on a dark ground. */
function sheet(cells: RgbaImage[], columns: number, scale: number): RgbaImage {
  const cw = Math.max(...cells.map((c) => c.width)) * scale + 6;
  const ch = Math.max(...cells.map((c) => c.height)) * scale + 6;
  const W = columns * cw;
  const H = Math.ceil(cells.length / columns) * ch;
  const data = new Uint8Array(W * H * 4);
  for (let i = 0; i < data.length; i += 4) {
    const p = i / 4;
    const g = (((p % W) >> 3) + (Math.floor(p / W) >> 3)) & 1 ? 58 : 66;
    data.set([g, g, g, 255], i);
  }
  cells.forEach((img, n) => {
    const ox = (n % columns) * cw + 3;
    const oy = Math.floor(n / columns) * ch + 3;
    for (let y = 0; y < img.height * scale; y++)
      for (let x = 0; x < img.width * scale; x++) {
        const s = (Math.floor(y / scale) * img.width + Math.floor(x / scale)) * 4;
        if (!img.data[s + 3]) continue;
        data.set(img.data.subarray(s, s + 3), ((oy + y) * W + ox + x) * 4);
      }
  });
  return { width: W, height: H, data };
}

// ---- scenes ----------------------------------------------------------------------------------------

const rows: string[] = [
  'prompt\tsubject\tdrawn\tdropped\tisolated 320\tcolours 320\tisolated 64\tcolours 64',
];
let named = 0;
let drawn = 0;
const dropped: string[] = [];
const things: string[] = [];
const iso: number[] = [];
const iso64: number[] = [];
const cols: number[] = [];
const modifiers: string[] = [];
const big: RgbaImage[] = [];
const small: RgbaImage[] = [];
for (const prompt of SCENE_PROMPTS) {
  const out = await scene(prompt, 320, 180);
  const tiny = await scene(prompt, 64, 64);
  const it = out.interpretation!;
  const elements = it.elements ?? [];
  named += elements.length;
  drawn += elements.filter((e) => e.drawn).length;
  for (const e of elements) {
    if (!e.drawn) dropped.push(`${e.word} (${prompt})`);
    else if (e.thing) things.push(`${e.word} → ${e.as}`);
  }
  // words the scene did not honour that are not elements (modifiers it has no drawing for): ignored, and said
  for (const w of it.ignored.filter((w) => !elements.some((e) => e.word === w)))
    modifiers.push(`${w} (${prompt})`);
  const p = pixels(out.frames[0]!);
  const q = pixels(tiny.frames[0]!);
  iso.push(p.isolated);
  iso64.push(q.isolated);
  cols.push(p.colours);
  rows.push(
    [
      prompt,
      out.subject,
      elements
        .filter((e) => e.drawn)
        .map((e) => `${e.word}=${e.as}`)
        .join(', '),
      elements
        .filter((e) => !e.drawn)
        .map((e) => e.word)
        .join(', '),
      (p.isolated * 100).toFixed(1),
      p.colours,
      (q.isolated * 100).toFixed(1),
      q.colours,
    ].join('\t'),
  );
  big.push(out.frames[0]!);
  small.push(tiny.frames[0]!);
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
log(
  `scenes, ${SCENE_PROMPTS.length} prompts: ${named} named elements and things, ${drawn} drawn (${((drawn / named) * 100).toFixed(1)} %), ${named - drawn} dropped and said so`,
);
log(`  dropped: ${dropped.join('; ') || 'none'}`);
log(`  things drawn by the sprite generator: ${things.join('; ') || 'none'}`);
log(`  other words not honoured (in interpretation.ignored): ${modifiers.join('; ') || 'none'}`);
log(
  `  pixels unlike all four neighbours: median ${(median(iso) * 100).toFixed(1)} % at 320 × 180 (worst ${(Math.max(...iso) * 100).toFixed(1)} %), ${(median(iso64) * 100).toFixed(1)} % at 64 × 64 (worst ${(Math.max(...iso64) * 100).toFixed(1)} %); colours median ${median(cols)}, most ${Math.max(...cols)}`,
);
writeFileSync(join(OUT, 'scenes.tsv'), `${rows.join('\n')}\n`);
for (let page = 0; page * 12 < big.length; page++) {
  const s = sheet(big.slice(page * 12, page * 12 + 12), 3, 1);
  writeFileSync(join(OUT, `scenes-320-${page + 1}.png`), encodePng(s.data, s.width, s.height));
}
const s64 = sheet(small, 10, 2);
writeFileSync(join(OUT, 'scenes-64.png'), encodePng(s64.data, s64.width, s64.height));

// ---- UI ----------------------------------------------------------------------------------------------

const uiRows: string[] = ['prompt\tkind\tstates\tsize\ttext\tfont\ticon\tquality'];
let passed = 0;
const failed: string[] = [];
const kinds = new Map<string, number>();
const uiCells: RgbaImage[] = [];
for (const prompt of UI_PROMPTS) {
  const storage = createMemoryStorage();
  const result = await runPipeline(
    {
      prompt,
      assetType: 'ui',
      projectStyle: {},
      params: { resolution: 64, format: 'individual' },
      keyPrefix: 'b/',
    },
    { storage },
  );
  if (!result.ok) {
    failed.push(`${prompt}: ${result.error}`);
    uiRows.push([prompt, '', '', '', '', '', '', `failed: ${result.error}`].join('\t'));
    continue;
  }
  const meta = result.assets[0]!.metadata;
  const q = meta.provenance.quality;
  if (q.passed && result.retryCount === 0) passed++;
  else
    failed.push(
      `${prompt}: ${q.checks
        .filter((c) => !c.passed)
        .map((c) => c.name)
        .join(', ')} (retries ${result.retryCount})`,
    );
  kinds.set(meta.uiKind!, (kinds.get(meta.uiKind!) ?? 0) + 1);
  const frames = result.assets.map((a) => {
    const d = decodePng(storage.get(a.key)!.bytes);
    if (!d.ok) throw new Error(d.error);
    return d.image;
  });
  // one row a piece: its states side by side
  uiCells.push(sheet(frames, frames.length, 1));
  uiRows.push(
    [
      prompt,
      meta.uiKind,
      result.assets.length,
      `${meta.frameWidth}×${meta.frameHeight}`,
      meta.interpretation?.text?.text ?? '',
      meta.interpretation?.text?.font ?? '',
      meta.interpretation?.drawnAs ?? '',
      q.passed ? `passed, retries ${result.retryCount}` : 'failed',
    ].join('\t'),
  );
}
log(
  `UI, ${UI_PROMPTS.length} prompts: ${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}; passed their quality check first time: ${passed}; failed: ${failed.length ? failed.join('; ') : 'none'}`,
);
writeFileSync(join(OUT, 'ui.tsv'), `${uiRows.join('\n')}\n`);
const uiSheet = sheet(uiCells, 2, 3);
writeFileSync(join(OUT, 'ui.png'), encodePng(uiSheet.data, uiSheet.width, uiSheet.height));

// ---- time --------------------------------------------------------------------------------------------

const timeIt = async (fn: () => unknown, n: number) => {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    await fn();
    t.push(performance.now() - a);
  }
  return median(t);
};
for (const prompt of ['a beach with palm trees at sunset', 'night city street in the rain, neon signs']) {
  await scene(prompt, 320, 180);
  const picture = (await scene(prompt, 320, 180)).frames[0]!;
  const draw = await timeIt(() => scene(prompt, 320, 180, 5), 15);
  const png = await timeIt(() => encodePng(picture.data, 320, 180), 15);
  log(
    `warm 320 × 180 "${prompt}": p50 ${draw.toFixed(1)} ms; PNG encoding of it p50 ${png.toFixed(1)} ms (scene = ${(draw / png).toFixed(2)}× encoding)`,
  );
}
log(`sheets and TSVs in ${OUT}`);
