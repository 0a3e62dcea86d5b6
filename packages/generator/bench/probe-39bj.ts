// Probe for decision 0137 (issue #39): own-worded level prompts — ways that should reach a cave mouth
// or a bridge, woods named dense or round a place, villages, lakes and islands — rendered with the
// built-in generator through the whole pipeline; each preview PNG is written to the directory given
// (default /tmp/39bj) with the prop counts and what the level did not honour.
//   npx tsx packages/generator/bench/probe-39bj.ts [outDir] [seed] [label] [tileSize] [only]
import { probeLevels } from './level-probe.js';

const PROMPTS = [
  'a trail leading to a cave mouth in the north',
  'a dirt road crossing a river by a bridge',
  'a glade deep in a thick forest',
  'a pond with a ring of trees around it',
  'a shrine clearing surrounded by forest',
  'a village on a river from north to south',
  'a small town with a crossroads',
  'a lake with an island in it',
  'a crypt of six chambers',
];
await probeLevels(PROMPTS, { out: '/tmp/39bj', seed: 3 }, ({ i, prompt, result: r }) => {
  const meta = (
    r.assets[0] as { metadata: { notHonoured?: unknown; level: { props: Record<string, number> } } }
  ).metadata;
  console.log(
    `${i} ${prompt}: props ${JSON.stringify(meta.level.props)}; notHonoured ${JSON.stringify(meta.notHonoured ?? [])}`,
  );
});
