// What the level probes share (decisions 0124, 0126, 0128): own-worded level prompts rendered with the
// built-in generator through the whole pipeline, each preview PNG written to the directory given, and
// a report per level. Arguments: [outDir] [seed] [label] [tileSize] [only].
import { mkdirSync, writeFileSync } from 'node:fs';
import {
  createMemoryStorage,
  decodePng,
  type MemoryStorage,
  type PipelineResult,
  runPipeline,
} from '@assetloom/pipeline';
import { createProceduralProvider } from '../src/index.js';

export interface LevelProbe {
  i: number;
  prompt: string;
  result: Extract<PipelineResult, { ok: true }>;
  storage: MemoryStorage;
  bytes: Uint8Array;
  tileSize: number;
}

export async function probeLevels(
  prompts: readonly string[],
  defaults: { out: string; seed: number },
  report: (probe: LevelProbe) => void,
): Promise<void> {
  const out = process.argv[2] ?? defaults.out;
  const seed = Number(process.argv[3] ?? defaults.seed);
  const label = process.argv[4] ?? 'now';
  const tileSize = Number(process.argv[5] ?? 16);
  const only = process.argv[6];
  mkdirSync(out, { recursive: true });
  for (const [i, prompt] of prompts.entries()) {
    if (only && !prompt.includes(only)) continue;
    const storage = createMemoryStorage();
    const columns = tileSize === 32 ? 24 : 40;
    const rows = tileSize === 32 ? 18 : 30;
    const result = await runPipeline(
      {
        prompt,
        assetType: 'level',
        keyPrefix: 'p/t/',
        params: { resolution: 64, format: 'spritesheet', seed, level: { columns, rows, tileSize } },
      } as never,
      { providers: { image: createProceduralProvider() }, storage, now: () => new Date(0) },
    );
    if (!result.ok) {
      console.log(`${i} ${prompt}: ${result.code} ${result.error}`);
      continue;
    }
    const key = storage.keys().find((k) => k.endsWith('level.png'))!;
    const bytes = storage.get(key)!.bytes;
    writeFileSync(`${out}/${label}-${i}-t${tileSize}-s${seed}.png`, bytes);
    report({ i, prompt, result, storage, bytes, tileSize });
  }
}

/**
 * The fill's period share: of the pixel pairs `lag` px apart (across and down), the share that are
 * the same colour (a fill that repeats on the tile's period scores far higher at the tile's lag).
 */
export function sameAt(bytes: Uint8Array, lag: number): number {
  const decoded = decodePng(bytes);
  if (!decoded.ok) throw new Error(decoded.error);
  const img = decoded.image;
  let n = 0;
  let eq = 0;
  const at = (x: number, y: number) => (y * img.width + x) * 4;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      for (const [dx, dy] of [
        [lag, 0],
        [0, lag],
      ] as const) {
        if (x + dx >= img.width || y + dy >= img.height) continue;
        const a = at(x, y);
        const b = at(x + dx, y + dy);
        n++;
        if (
          img.data[a] === img.data[b] &&
          img.data[a + 1] === img.data[b + 1] &&
          img.data[a + 2] === img.data[b + 2]
        )
          eq++;
      }
  return eq / n;
}

/** The report of 0124's and 0126's probes: the period shares and what the level did not honour. */
export function reportPeriod({ i, prompt, result, bytes, tileSize }: LevelProbe): void {
  const meta = (result.assets[0] as { metadata: { notHonoured?: unknown } }).metadata;
  console.log(
    `${i} ${prompt}: same at ${tileSize} px ${sameAt(bytes, tileSize).toFixed(3)}, at 5 px ${sameAt(bytes, 5).toFixed(3)}, at ${2 * tileSize} px ${sameAt(bytes, 2 * tileSize).toFixed(3)} ${JSON.stringify(meta.notHonoured ?? [])}`,
  );
}
