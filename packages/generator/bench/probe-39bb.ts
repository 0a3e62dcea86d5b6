// Probe for decision 0128 (issue #39): renders own-worded dungeon and swamp prompts with the built-in
// generator through the whole pipeline, writes each preview PNG to the directory given (default
// /tmp/39bb) and prints, per level, the start and goal marks (stairs up / stairs down), the anchors
// named spawn and goal, and for a swamp the water's share of the map, its reeds and its water colour.
//   npx tsx packages/generator/bench/probe-39bb.ts [outDir] [seed] [label] [tileSize] [only]
import { mkdirSync, writeFileSync } from 'node:fs';
import { createMemoryStorage, runPipeline } from '@assetloom/pipeline';
import { createProceduralProvider } from '../src/index.js';

const PROMPTS = [
  'a crypt with an exit',
  'a cellar dungeon',
  'a dungeon of five rooms with a chest in the final room',
  'a bog',
  'a mangrove marsh',
];
const out = process.argv[2] ?? '/tmp/39bb';
const seed = Number(process.argv[3] ?? 3);
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
  writeFileSync(`${out}/${label}-${i}-t${tileSize}-s${seed}.png`, storage.get(key)!.bytes);
  const meta = (
    r.assets[0] as {
      metadata: { notHonoured?: unknown; level: { props: Record<string, number>; terrains: string[] } };
    }
  ).metadata;
  const json = storage.keys().find((k) => k.endsWith('.json') && k.includes('level'));
  console.log(
    `${i} ${prompt}: stairs ${meta.level.props.stairs ?? 0}, stairs-down ${meta.level.props['stairs-down'] ?? 0}, chest ${meta.level.props.chest ?? 0}, reeds ${meta.level.props.reeds ?? 0}; terrains ${meta.level.terrains.join(',')}; notHonoured ${JSON.stringify(meta.notHonoured ?? [])} ${json ?? ''}`,
  );
}
