// Probe for decision 0134 (issue #39): own-worded level prompts at 32 px tiles (path and rock edges,
// blob shores); writes each preview PNG and prints the fill's period share (level-probe.ts).
//   npx tsx packages/generator/bench/probe-39bg.ts [outDir] [seed] [label] [tileSize] [only]
import { probeLevels, reportPeriod } from './level-probe.js';

const PROMPTS = [
  'a hillside trail winding past boulders',
  'a quarry with a dirt track',
  'a magma lake inside rocky ground',
  'a meadow pond with a footpath',
];
await probeLevels(PROMPTS, { out: '/tmp/39bg', seed: 3 }, reportPeriod);
