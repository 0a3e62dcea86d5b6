// One pipeline thread's memory, step by step (bench/thread-memory.bench.ts starts it): the heap bytes
// in use after a forced gc (per heap space: young generation, old space, code, large objects), the
// bytes outside the heap (ArrayBuffers, resvg's WebAssembly memory), after the modules load, after the
// drawings' catalog answers its first query, after the first drawing, a scene and two UI pieces —
// over the built packages of the checkout at workerData.root, as the server's built thread runs them
// (plain JavaScript: no loader in the thread; resvg's module compiled once by the bench's main thread
// and handed over, and — where the checkout has them — the set files and fonts shared, as the
// server's pool does). With workerData.rounds > 0 it then draws that many
// more rounds of the same four pieces and reports the time spent in garbage collection (the cost of
// a smaller young generation).
import { performance } from 'node:perf_hooks';
import { GCProfiler, getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';

const root = new URL(workerData.root);
const count = (step) => {
  globalThis.gc();
  globalThis.gc();
  const { external, arrayBuffers, rss } = process.memoryUsage();
  const { used_heap_size: heap, total_heap_size: committed } = getHeapStatistics();
  // per space: [used, committed]
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [
      s.space_name.replace(/_space$/, ''),
      [s.space_used_size, s.physical_space_size],
    ]),
  );
  parentPort.postMessage({ step, heap, committed, external, arrayBuffers, rss, spaces });
};

count('thread started');
const drawings = await import(new URL('packages/drawings/dist/index.js', root).href);
if (workerData.renderer) drawings.configureDrawings({ wasm: workerData.renderer });
// as the server's threads: set files and fonts asked of the main thread, one shared copy (decision 0072)
if (workerData.shareFiles) {
  let nextCall = 0;
  const asked = new Map();
  parentPort.on('message', (m) => {
    if (m?.t !== 'file') return;
    const call = asked.get(m.callId);
    asked.delete(m.callId);
    if (m.bytes) call.resolve(m.bytes);
    else call.reject(new Error(m.error));
  });
  drawings.configureDrawings({
    readFile: (name) =>
      new Promise((resolve, reject) => {
        const callId = nextCall++;
        asked.set(callId, { resolve, reject });
        parentPort.postMessage({ t: 'file', callId, name });
      }),
  });
}
const generator = await import(new URL('packages/generator/dist/index.js', root).href);
const { runPipeline } = generator;
// as the server's threads: the generated word lists read from the main thread's bytes (decision 0079)
if (workerData.texts) {
  drawings.configureDrawings({ catalog: workerData.texts.catalog });
  const { configureLexicon } = await import(new URL('packages/pipeline/dist/interpret.js', root).href);
  configureLexicon(workerData.texts.lexicon);
  generator.configureWordnetLinks(workerData.texts.wordnetLinks);
}
const { createMemoryStorage } = await import(new URL('packages/pipeline/dist/index.js', root).href);
count('modules loaded');
drawings.findDrawings({ head: 'fox', modifiers: ['red'] });
count('catalog queried');
let storage = createMemoryStorage();
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
if (workerData.rounds > 0) {
  // warm: the first rounds compile and fill caches; then the timed rounds
  const round = async (i) => {
    await run('a red fox', 'sprite', { seed: i });
    await run('a beach with palm trees at sunset', 'background', { width: 320, height: 180, seed: i });
    await run('a blue start button', 'ui', { seed: i });
    storage = createMemoryStorage();
  };
  for (let i = 0; i < 2; i++) await round(i);
  // the garbage collector's own count of its pauses (cost in µs), in this thread's isolate
  const profiler = new GCProfiler();
  profiler.start();
  const t0 = performance.now();
  for (let i = 0; i < workerData.rounds; i++) await round(i);
  const ms = performance.now() - t0;
  const { statistics } = profiler.stop();
  const gcMs = statistics.reduce((sum, s) => sum + s.cost, 0) / 1000;
  parentPort.postMessage({ step: 'rounds', ms, gcMs, gcs: statistics.length });
}
if (workerData.hold) await new Promise((r) => parentPort.on('message', (m) => m === 'end' && r()));
// the port's listeners keep a thread alive: gone, the thread ends
parentPort.removeAllListeners('message');
parentPort.unref();
