// Probe for decision 0126 (issue #39): renders own-worded level prompts with the built-in generator
// through the whole pipeline, writes each preview PNG to the directory given (default /tmp/39ax) and
// prints the fill's period share: of the pixel pairs one tile apart (across and down) whose cells are
// both one terrain's full tile, the share that are the same colour, beside the same share at a lag
// of 5 px (a fill that repeats on the tile's period scores far higher at the tile's lag).
//   npx tsx packages/generator/bench/probe-39az.ts [outDir] [seed] [label] [tileSize] [only]
import { probeLevels, reportPeriod } from './level-probe.js';

const PROMPTS = [
  'a valley with a pond',
  'a lake district',
  'a big lake in the middle of a meadow',
  'a bog with stepping stones',
  'a tomb with an exit stair',
  'a crypt of six rooms',
];
await probeLevels(PROMPTS, { out: '/tmp/39az', seed: 7 }, reportPeriod);
