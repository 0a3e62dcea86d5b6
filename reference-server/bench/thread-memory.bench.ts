/**
 * A pipeline thread's memory, counted (issue #38): heap bytes in use after a forced gc and bytes
 * outside the heap, step by step, in a worker thread with the server's young-generation limit — the
 * counts that hold on any machine, where the server's resident memory (bench/startup.bench.ts) moves
 * with the machine's load. BENCH_BASELINE=<another checkout, built> (e.g. /work/main) counts its
 * packages too, in the same run, and prints the difference.
 *
 *   pnpm --filter @assetloom/drawings --filter @assetloom/generator build
 *   BENCH_BASELINE=../other-checkout tsx bench/thread-memory.bench.ts
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';

// threads created from here on may force a gc (the flag is read when an isolate starts)
setFlagsFromString('--expose-gc');

interface Count {
  step: string;
  heap: number;
  /** The heap's committed size (what the thread's heap holds of the resident memory). */
  committed: number;
  external: number;
}
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

function countThread(root: string): Promise<Count[]> {
  return new Promise((done, fail) => {
    const counts: Count[] = [];
    const worker = new Worker(new URL('./thread-memory-thread.mjs', import.meta.url), {
      workerData: { root: pathToFileURL(`${resolve(root)}/`).href },
      // as the server's pipeline threads (src/tasks/pipeline-threads.ts)
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    worker.on('message', (c: Count) => counts.push(c));
    worker.on('error', fail);
    worker.on('exit', () => done(counts));
  });
}

const here = resolve(import.meta.dirname, '../..');
const runs: Array<[string, string]> = [['this checkout', here]];
if (process.env.BENCH_BASELINE) runs.unshift(['baseline', process.env.BENCH_BASELINE]);
const results = new Map<string, Count[]>();
for (const [name, root] of runs) {
  const counts = await countThread(root);
  results.set(name, counts);
  let prev: Count | undefined;
  console.log(`[bench:thread-memory] ${name} (${root}): heap used / outside the heap, MB [heap committed]`);
  for (const c of counts) {
    const grew = prev ? ` (+${mb(c.heap - prev.heap)} / +${mb(c.external - prev.external)})` : '';
    console.log(`  ${c.step.padEnd(16)} ${mb(c.heap)} / ${mb(c.external)}${grew} [${mb(c.committed)}]`);
    prev = c;
  }
}
const base = results.get('baseline');
const mine = results.get('this checkout')!;
if (base) {
  const at = (list: Count[], step: string) => list.find((c) => c.step === step)!;
  for (const step of ['catalog queried', 'first drawing', 'two UI pieces']) {
    const b = at(base, step);
    const m = at(mine, step);
    console.log(
      `[bench:thread-memory] after "${step}": heap ${mb(b.heap)} → ${mb(m.heap)} MB (${mb(m.heap - b.heap)}; committed ${mb(b.committed)} → ${mb(m.committed)}), outside it ${mb(b.external)} → ${mb(m.external)} MB (${mb(m.external - b.external)})`,
    );
  }
}
