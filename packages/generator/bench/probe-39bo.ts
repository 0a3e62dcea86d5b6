// Probe for decision 0143 (issue #39): own-worded level prompts — villages, forest regions, clearings,
// ordinal rooms — rendered with the built-in generator through the whole pipeline; each preview PNG is
// written to the directory given (default /tmp/39bo) with the prop counts and what was not honoured.
//   npx tsx packages/generator/bench/probe-39bo.ts [outDir] [seed] [label] [tileSize] [only]
import { probeLevels } from './level-probe.js';

const PROMPTS = [
  'a hamlet by a river',
  'woods to the east and a meadow',
  'a glade in a forest',
  'a crypt where the final chamber holds a relic',
  'a small town with a market square',
  'a forest in the north and farmland',
  'a dungeon whose deepest room hides a chest',
  'a clearing in the woods',
  'a sunny glade with flowers',
  'a clearing in a forest in the west',
];
await probeLevels(PROMPTS, { out: '/tmp/39bo', seed: 3 }, ({ i, prompt, result: r }) => {
  const meta = (
    r.assets[0] as { metadata: { notHonoured?: unknown; level: { props: Record<string, number> } } }
  ).metadata;
  console.log(
    `${i} ${prompt}: props ${JSON.stringify(meta.level.props)}; notHonoured ${JSON.stringify(meta.notHonoured ?? [])}`,
  );
});
