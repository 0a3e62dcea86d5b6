// One pipeline thread's memory, step by step (bench/thread-memory.bench.ts starts it): the heap bytes
// in use after a forced gc, and the bytes outside the heap (ArrayBuffers, resvg's WebAssembly memory),
// after the modules load, after the drawings' catalog answers its first query, after the first
// drawing, a scene and two UI pieces — over the built packages of the checkout at workerData.root, as
// the server's built thread runs them (plain JavaScript: no loader in the thread).
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';

const root = new URL(workerData.root);
const count = (step) => {
  globalThis.gc();
  globalThis.gc();
  const { external } = process.memoryUsage();
  const { used_heap_size: heap, total_heap_size: committed } = getHeapStatistics();
  parentPort.postMessage({ step, heap, committed, external });
};

count('thread started');
const drawings = await import(new URL('packages/drawings/dist/index.js', root).href);
const { runPipeline } = await import(new URL('packages/generator/dist/index.js', root).href);
const { createMemoryStorage } = await import(new URL('packages/pipeline/dist/index.js', root).href);
count('modules loaded');
drawings.findDrawings({ head: 'fox', modifiers: ['red'] });
count('catalog queried');
const storage = createMemoryStorage();
let n = 0;
const run = async (prompt, assetType, params) => {
  const result = await runPipeline(
    {
      prompt,
      assetType,
      projectStyle: {},
      params: { resolution: 64, format: 'spritesheet', ...params },
      keyPrefix: `bench/${n++}/`,
    },
    { storage, onEvent: async () => undefined },
  );
  if (!result.ok) throw new Error(`"${prompt}" failed: ${result.error}`);
};
await run('a red fox', 'sprite', {});
count('first drawing');
await run('a beach with palm trees at sunset', 'background', { width: 320, height: 180 });
count('a scene');
await run('a blue start button', 'ui', {});
await run('开始游戏按钮', 'ui', {});
count('two UI pieces');
