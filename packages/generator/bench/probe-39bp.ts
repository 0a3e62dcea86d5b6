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
  'a rocky highland with mountains all around',
  'a dense forest',
];
/** The longest run, across or down, of one tile id (one drawing) in the Tiled map's tile layer. */
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

await probeLevels(PROMPTS, { out: '/tmp/39bp', seed: 3 }, ({ i, prompt, result, storage }) => {
  const key = storage.keys().find((k) => k.endsWith('level.tmj'));
  const run = key ? longestRun(JSON.parse(new TextDecoder().decode(storage.get(key)!.bytes))) : -1;
  const meta = (result.assets[0] as { metadata: { notHonoured?: unknown; level: { terrains: string[] } } })
    .metadata;
  console.log(
    `${i} ${prompt}: longest run of one tile ${run} (${where}); terrains ${meta.level.terrains.join(',')}; notHonoured ${JSON.stringify(meta.notHonoured ?? [])}`,
  );
});
