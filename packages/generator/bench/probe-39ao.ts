// Probe for decision 0114 (issue #39): renders own-worded level prompts with the built-in generator
// through the whole pipeline and writes each preview PNG to the directory given (default /tmp/39ao).
//   npx tsx packages/generator/bench/probe-39ao.ts [outDir] [seed] [label]
import { mkdirSync, writeFileSync } from 'node:fs';
import { createMemoryStorage, runPipeline } from '@assetloom/pipeline';
import { createProceduralProvider } from '../src/index.js';

const PROMPTS = [
  'a lava field with a trail around it',
  'a map with woods in the east',
  'an icy pond in a snowfield',
  'a sandy desert with a small oasis and rocky edges',
  'a fishing village by a lake',
  'a hamlet with a market square',
  'a crypt with five chambers',
  'a chain of islands',
  'a valley pass between peaks',
];
const out = process.argv[2] ?? '/tmp/39ao';
const seed = Number(process.argv[3] ?? 7);
const label = process.argv[4] ?? 'now';
const only = process.argv[5];
mkdirSync(out, { recursive: true });
for (const [i, prompt] of PROMPTS.entries()) {
  if (only && !prompt.includes(only)) continue;
  const storage = createMemoryStorage();
  const r = await runPipeline(
    {
      prompt,
      assetType: 'level',
      keyPrefix: 'p/t/',
      params: { resolution: 64, format: 'spritesheet', seed, level: { columns: 40, rows: 30, tileSize: 16 } },
    } as never,
    { providers: { image: createProceduralProvider() }, storage, now: () => new Date(0) },
  );
  if (!r.ok) {
    console.log(`${i} ${prompt}: ${r.code} ${r.error}`);
    continue;
  }
  const key = storage.keys().find((k) => k.endsWith('level.png'))!;
  writeFileSync(`${out}/${label}-${i}-s${seed}.png`, storage.get(key)!.bytes);
  const meta = (r.assets[0] as { metadata: { level?: { checks?: unknown }; notHonoured?: unknown } })
    .metadata;
  console.log(
    `${i} ${prompt}: ok ${JSON.stringify(meta.notHonoured ?? [])} ${JSON.stringify(meta.level?.checks)}`,
  );
}
