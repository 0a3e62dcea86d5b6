import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runPipeline } from '@assetloom/generator';
import {
  createMemoryStorage,
  decodePng,
  encodePng,
  type PipelineRequest,
  type RgbaImage,
} from '@assetloom/pipeline';

/**
 * Issue #28's gallery: backgrounds at the size a game uses (320 × 180) beside the same prompt at the
 * default 64 × 64, the parallax layers of two of them, and a sheet of UI pieces with every state.
 */
export const BACKGROUND_PROMPTS: readonly string[] = [
  'a sunny beach with palm trees',
  'a desert with pyramids at sunset',
  'a dungeon corridor with torches',
  'an underwater coral reef',
  'a cyberpunk street in the rain',
  'snowy mountains under a full moon',
  'a harbour with boats',
  'a forest with a waterfall',
  'a volcano erupting at night',
  'a tavern interior',
  '森林里的瀑布',
  '夜晚的城市，下雨',
];
export const PARALLAX_PROMPTS: readonly string[] = [
  'a harbour with boats at sunset',
  'snowy mountains under a full moon',
];
export const UI_SHEET_PROMPTS: readonly string[] = [
  'a heart icon',
  'a gold coin icon',
  'a potion icon',
  'a treasure chest icon',
  'a blue start button',
  'a red close button',
  'a button that says "Options"',
  '开始游戏按钮',
  'a health bar',
  'a mana bar',
  'a wooden dialog panel',
  'a golden frame',
  'a stone panel',
  'a label that says Score',
];

async function run(request: Omit<PipelineRequest, 'keyPrefix'>, prefix: string, outDir: string) {
  const storage = createMemoryStorage();
  const result = await runPipeline({ ...request, keyPrefix: prefix }, { storage });
  if (!result.ok) throw new Error(`[assetloom/example-gallery] ${request.prompt}: ${result.error}`);
  for (const key of storage.keys()) {
    const path = join(outDir, key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, storage.get(key)!.bytes);
  }
  return result.assets.map((a) => {
    const d = decodePng(storage.get(a.key)!.bytes);
    if (!d.ok) throw new Error(d.error);
    return { asset: a, image: d.image };
  });
}

/** Pictures on a dark checkerboard, left to right then down, each enlarged by its own whole factor. */
function board(rows: Array<Array<{ image: RgbaImage; scale: number }>>, gap = 6): RgbaImage {
  const rowSizes = rows.map((r) => ({
    w: r.reduce((s, c) => s + c.image.width * c.scale + gap, gap),
    h: Math.max(...r.map((c) => c.image.height * c.scale)) + gap,
  }));
  const W = Math.max(...rowSizes.map((r) => r.w));
  const H = rowSizes.reduce((s, r) => s + r.h, gap);
  const data = new Uint8Array(W * H * 4);
  for (let i = 0; i < data.length; i += 4) {
    const p = i / 4;
    const g = (((p % W) >> 3) + (Math.floor(p / W) >> 3)) & 1 ? 52 : 60;
    data.set([g, g, g, 255], i);
  }
  let y0 = gap;
  rows.forEach((row, r) => {
    let x0 = gap;
    for (const { image, scale } of row) {
      for (let y = 0; y < image.height * scale; y++)
        for (let x = 0; x < image.width * scale; x++) {
          const s = (Math.floor(y / scale) * image.width + Math.floor(x / scale)) * 4;
          if (image.data[s + 3]! < 128) continue;
          data.set(image.data.subarray(s, s + 3), ((y0 + y) * W + x0 + x) * 4);
        }
      x0 += image.width * scale + gap;
    }
    y0 += rowSizes[r]!.h;
  });
  return { width: W, height: H, data };
}

export interface BackgroundSheet {
  path: string;
  width: number;
  height: number;
  /** What each row shows, and how the generator read its prompt (the elements it drew). */
  rows: Array<{ prompt: string; elements?: unknown; files?: string[] }>;
}

/**
 * Writes `backgrounds.png` (each prompt at 320 × 180 ×2 beside 64 × 64 ×3), `parallax-<n>.png` (the
 * layers back to front, each on the checkerboard, then the picture) with the layer PNGs, Godot scene
 * and JSON under `raw/parallax-<n>/`, and `ui-pieces.png` (every state of each UI piece ×3).
 */
export async function writeBackgroundSheets(outDir: string): Promise<BackgroundSheet[]> {
  const sheets: BackgroundSheet[] = [];
  const save = async (name: string, img: RgbaImage, rows: BackgroundSheet['rows']) => {
    const path = join(outDir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, encodePng(img.data, img.width, img.height));
    sheets.push({ path, width: img.width, height: img.height, rows });
  };
  const bg = (
    prompt: string,
    width: number,
    height: number,
    format: 'spritesheet' | 'individual' = 'spritesheet',
  ) => ({
    prompt,
    assetType: 'background' as const,
    projectStyle: {},
    params: { resolution: Math.max(width, height), width, height, format },
  });
  const rows: Array<Array<{ image: RgbaImage; scale: number }>> = [];
  const read: BackgroundSheet['rows'] = [];
  for (const [i, prompt] of BACKGROUND_PROMPTS.entries()) {
    const [wide] = await run(bg(prompt, 320, 180), `raw/background-${i}-320x180/`, outDir);
    const [square] = await run(bg(prompt, 64, 64), `raw/background-${i}-64/`, outDir);
    rows.push([
      { image: wide!.image, scale: 2 },
      { image: square!.image, scale: 3 },
    ]);
    read.push({ prompt, elements: wide!.asset.metadata.interpretation?.elements });
  }
  await save('backgrounds.png', board(rows), read);

  for (const [i, prompt] of PARALLAX_PROMPTS.entries()) {
    const files = await run(bg(prompt, 320, 180, 'individual'), `raw/parallax-${i}/`, outDir);
    const layers = files
      .filter((f) => f.asset.metadata.layer)
      .sort((a, b) => a.asset.metadata.layer!.index - b.asset.metadata.layer!.index);
    const picture = files.find((f) => !f.asset.metadata.layer)!;
    await save(
      `parallax-${i}.png`,
      board([...layers.map((l) => [{ image: l.image, scale: 1 }]), [{ image: picture.image, scale: 1 }]]),
      [{ prompt, files: files.map((f) => f.asset.key) }],
    );
  }

  const uiRows: Array<Array<{ image: RgbaImage; scale: number }>> = [];
  const uiRead: BackgroundSheet['rows'] = [];
  for (const [i, prompt] of UI_SHEET_PROMPTS.entries()) {
    const states = await run(
      { prompt, assetType: 'ui', projectStyle: {}, params: { resolution: 64, format: 'individual' } },
      `raw/ui-${i}/`,
      outDir,
    );
    uiRows.push(states.map((s) => ({ image: s.image, scale: 3 })));
    uiRead.push({ prompt, files: states.map((s) => s.asset.key) });
  }
  await save('ui-pieces.png', board(uiRows), uiRead);
  return sheets;
}
