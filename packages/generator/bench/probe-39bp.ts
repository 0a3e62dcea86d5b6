// Probe for decision 0144 (issue #39): own-worded level prompts on water, islands in lakes, lava and
// masses, rendered with the built-in generator through the whole pipeline (previews written to the
// directory given), with what the plan left unhonoured.
//   npx tsx packages/generator/bench/probe-39bp.ts [outDir] [seed] [label] [tileSize] [only]
import { probeLevels } from './level-probe.js';

const PROMPTS = [
  'a pond with a small isle',
  'a lake with an island in it',
  'an island in the middle of a lake',
  'a marsh with pools',
  'a lava field with a path',
  'a river through hills',
  'an island with a lake',
];
await probeLevels(PROMPTS, { out: '/tmp/39bp', seed: 3 }, ({ i, prompt, result }) => {
  const meta = (result.assets[0] as { metadata: { notHonoured?: unknown; level: { terrains: string[] } } })
    .metadata;
  console.log(
    `${i} ${prompt}: terrains ${meta.level.terrains.join(',')}; notHonoured ${JSON.stringify(meta.notHonoured ?? [])}`,
  );
});
