// Probe for decision 0128 (issue #39): renders own-worded dungeon and swamp prompts with the built-in
// generator through the whole pipeline, writes each preview PNG to the directory given (default
// /tmp/39bb) and prints, per level, the start and goal marks (stairs up / stairs down), the anchors
// named spawn and goal, and for a swamp the water's share of the map, its reeds and its water colour.
//   npx tsx packages/generator/bench/probe-39bb.ts [outDir] [seed] [label] [tileSize] [only]
import { probeLevels } from './level-probe.js';

const PROMPTS = [
  'a crypt with an exit',
  'a cellar dungeon',
  'a dungeon of five rooms with a chest in the final room',
  'a bog',
  'a mangrove marsh',
];
await probeLevels(PROMPTS, { out: '/tmp/39bb', seed: 3 }, ({ i, prompt, result: r, storage }) => {
  const meta = (
    r.assets[0] as {
      metadata: { notHonoured?: unknown; level: { props: Record<string, number>; terrains: string[] } };
    }
  ).metadata;
  const json = storage.keys().find((k) => k.endsWith('.json') && k.includes('level'));
  console.log(
    `${i} ${prompt}: stairs ${meta.level.props.stairs ?? 0}, stairs-down ${meta.level.props['stairs-down'] ?? 0}, chest ${meta.level.props.chest ?? 0}, reeds ${meta.level.props.reeds ?? 0}; terrains ${meta.level.terrains.join(',')}; notHonoured ${JSON.stringify(meta.notHonoured ?? [])} ${json ?? ''}`,
  );
});
