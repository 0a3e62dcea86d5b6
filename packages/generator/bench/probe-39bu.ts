// Probe for decision 0149 (issue #39): own-worded level prompts with long straight shores, rims and
// lava edges, rendered through the whole pipeline (previews written to the directory given), with the
// longest run, across or down, of one identical tile (one drawing) in the Tiled map's tile layer.
//   npx tsx packages/generator/bench/probe-39bu.ts [outDir] [seed] [label] [tileSize] [only]
import { probeLevels } from './level-probe.js';

const PROMPTS = [
  'a rocky valley',
  'an island with a beach',
  'a lava field with a path',
  'a lake in a meadow',
];

let where = '';
function longestRun(tmj: { layers: Array<{ type: string; data?: number[]; width?: number }> }): number {
  let best = 0;
  where = '';
  for (const layer of tmj.layers) {
    if (layer.type !== 'tilelayer' || !layer.data || !layer.width) continue;
    const { data, width: w } = layer;
    const h = data.length / w;
    for (const [dx, dy] of [
      [1, 0],
      [0, 1],
    ] as const)
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          if (!data[y * w + x]) continue;
          let n = 1;
          while (x + dx * n < w && y + dy * n < h && data[(y + dy * n) * w + x + dx * n] === data[y * w + x])
            n++;
          if (n > best) where = `tile ${data[y * w + x]} at ${x},${y} ${dx ? 'across' : 'down'}`;
          best = Math.max(best, n);
        }
  }
  return best;
}

await probeLevels(PROMPTS, { out: '/tmp/39bu', seed: 1 }, ({ i, prompt, result, storage }) => {
  const key = storage.keys().find((k) => k.endsWith('level.tmj'));
  const run = key ? longestRun(JSON.parse(new TextDecoder().decode(storage.get(key)!.bytes))) : -1;
  const meta = (result.assets[0] as { metadata: { level: { terrains: string[] } } }).metadata;
  console.log(`${i} ${prompt}: longest run ${run} (${where}); terrains ${meta.level.terrains.join(',')}`);
});
