// Probe for decision 0126 (issue #39): renders own-worded level prompts with the built-in generator
// through the whole pipeline, writes each preview PNG to the directory given (default /tmp/39ax) and
// prints the fill's period share: of the pixel pairs one tile apart (across and down) whose cells are
// both one terrain's full tile, the share that are the same colour, beside the same share at a lag
// of 5 px (a fill that repeats on the tile's period scores far higher at the tile's lag).
//   npx tsx packages/generator/bench/probe-39az.ts [outDir] [seed] [label] [tileSize] [only]
import { mkdirSync, writeFileSync } from 'node:fs';
import { createMemoryStorage, decodePng, runPipeline } from '@assetloom/pipeline';
import { createProceduralProvider } from '../src/index.js';

const PROMPTS = [
  'a valley with a pond',
  'a lake district',
  'a big lake in the middle of a meadow',
  'a bog with stepping stones',
  'a tomb with an exit stair',
  'a crypt of six rooms',
];
const out = process.argv[2] ?? '/tmp/39az';
const seed = Number(process.argv[3] ?? 7);
const label = process.argv[4] ?? 'now';
const tileSize = Number(process.argv[5] ?? 16);
const only = process.argv[6];
mkdirSync(out, { recursive: true });
for (const [i, prompt] of PROMPTS.entries()) {
  if (only && !prompt.includes(only)) continue;
  const storage = createMemoryStorage();
  const columns = tileSize === 32 ? 24 : 40;
  const rows = tileSize === 32 ? 18 : 30;
  const r = await runPipeline(
    {
      prompt,
      assetType: 'level',
      keyPrefix: 'p/t/',
      params: { resolution: 64, format: 'spritesheet', seed, level: { columns, rows, tileSize } },
    } as never,
    { providers: { image: createProceduralProvider() }, storage, now: () => new Date(0) },
  );
  if (!r.ok) {
    console.log(`${i} ${prompt}: ${r.code} ${r.error}`);
    continue;
  }
  const key = storage.keys().find((k) => k.endsWith('level.png'))!;
  const bytes = storage.get(key)!.bytes;
  writeFileSync(`${out}/${label}-${i}-t${tileSize}-s${seed}.png`, bytes);
  const decoded = decodePng(bytes);
  if (!decoded.ok) throw new Error(decoded.error);
  const img = decoded.image;
  const same = (lag: number) => {
    let n = 0;
    let eq = 0;
    const at = (x: number, y: number) => (y * img.width + x) * 4;
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) {
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
      }
    return eq / n;
  };
  const meta = (r.assets[0] as { metadata: { notHonoured?: unknown } }).metadata;
  console.log(
    `${i} ${prompt}: same at ${tileSize} px ${same(tileSize).toFixed(3)}, at 5 px ${same(5).toFixed(3)}, at ${2 * tileSize} px ${same(2 * tileSize).toFixed(3)} ${JSON.stringify(meta.notHonoured ?? [])}`,
  );
}
