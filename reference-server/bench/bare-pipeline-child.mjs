// The bare pipeline in a process of its own, for bench/syscalls.bench.ts: each line "run N" on
// stdin runs N 64 px sprite sheets (4 directions × 4 frames) into memory, 4 at a time, and answers
// "done" on stdout. Plain JavaScript over the built @assetloom/pipeline, so no loader runs in it.
import { createInterface } from 'node:readline';
import { runPipeline } from '@assetloom/generator';
import { createMemoryStorage } from '@assetloom/pipeline';

let batch = 0;
async function run(count) {
  const storage = createMemoryStorage();
  batch += 1;
  let next = 0;
  const lane = async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const result = await runPipeline(
        {
          prompt: `bold knight ${batch}-${i}`,
          assetType: 'sprite',
          projectStyle: {},
          params: { resolution: 64, frames: { directions: 4, framesPerDirection: 4 }, format: 'spritesheet' },
          keyPrefix: `bench/${batch}/${i}/`,
        },
        { storage, onEvent: async () => undefined },
      );
      if (!result.ok) throw new Error(result.error);
    }
  };
  await Promise.all(Array.from({ length: 4 }, lane));
}

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  const match = /^run (\d+)$/.exec(line.trim());
  if (match === null) break;
  await run(Number(match[1]));
  process.stdout.write('done\n');
}
