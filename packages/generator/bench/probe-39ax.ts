// Probe for decision 0124 (issue #39): renders own-worded level prompts with the built-in generator
// through the whole pipeline, writes each preview PNG to the directory given (default /tmp/39ax) and
// prints the fill's period share: of the pixel pairs one tile apart (across and down) whose cells are
// both one terrain's full tile, the share that are the same colour, beside the same share at a lag
// of 5 px (a fill that repeats on the tile's period scores far higher at the tile's lag).
//   npx tsx packages/generator/bench/probe-39ax.ts [outDir] [seed] [label] [tileSize] [only]
import { probeLevels, reportPeriod } from './level-probe.js';

const PROMPTS = [
  'a marsh with a boardwalk',
  'an island chain',
  'a crypt with five chambers and a boss room',
  'a mountain lake valley',
  'a woodland road with a river crossing',
  'a lava field with rock all around',
];
await probeLevels(PROMPTS, { out: '/tmp/39ax', seed: 7 }, reportPeriod);
