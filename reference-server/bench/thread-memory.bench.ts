/**
 * A pipeline thread's memory, counted (issue #38): heap bytes in use after a forced gc (per heap
 * space) and bytes outside the heap, step by step, in a worker thread with the server's
 * young-generation limit and resvg's module compiled once and handed over (as the server's pool does)
 * — the counts that hold on any machine, where the server's resident memory (bench/startup.bench.ts)
 * moves with the machine's load. Then the process's resident memory each thread adds: a first and a
 * second thread, both kept alive, after each has drawn the same four pieces. Then (BENCH_ROUNDS,
 * default 6; 0 skips it) the time a thread spends in garbage collection drawing the same rounds with
 * each young-generation limit of BENCH_YOUNG (default 8,4,2 MB), as ratios to the first: the cost of
 * a smaller young generation, in the same run.
 *
 * BENCH_BASELINE=<another checkout, built> (e.g. /work/main) counts its packages too, in the same
 * run, and prints the difference.
 *
 *   pnpm --filter @assetloom/drawings --filter @assetloom/generator build
 *   BENCH_BASELINE=../other-checkout tsx bench/thread-memory.bench.ts
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
  arrayBuffers: number;
  rss: number;
  /** Per heap space: [used, committed] bytes. */
  spaces: Record<string, [number, number]>;
}
interface Rounds {
  step: 'rounds';
  ms: number;
  gcMs: number;
  gcs: number;
}
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const sign = (bytes: number) => `${bytes >= 0 ? '+' : ''}${mb(bytes)}`;
const log = (s: string) => console.log(`[bench:thread-memory] ${s}`);
/** A checkout's pipeline threads' young-generation limit, read from its server's source. */
function serverYoungMb(root: string): number {
  const source = readFileSync(join(root, 'reference-server/src/tasks/pipeline-threads.ts'), 'utf8');
  const m = /YOUNG_GENERATION_MB = (\d+)|maxYoungGenerationSizeMb: (\d+)/.exec(source);
  if (!m) throw new Error(`[bench:thread-memory] no young-generation limit in ${root}'s pipeline-threads.ts`);
  return Number(m[1] ?? m[2]);
}

interface Drawings {
  resvgModule(): Promise<WebAssembly.Module>;
  /** Since decision 0072: the one copy of a file every thread is handed. */
  sharedDrawingsFile?: (name: string) => Promise<Uint8Array>;
  /** Since decision 0079: the catalog's bytes every thread is handed. */
  sharedCatalog?: () => Uint8Array;
}
/** Since decision 0079: the generated word lists as bytes, made once, handed to every thread (as the pool does). */
async function sharedTexts(root: string): Promise<unknown> {
  const drawings = await drawingsOf(root);
  if (drawings.sharedCatalog === undefined) return null;
  const at = (path: string) => import(pathToFileURL(`${resolve(root)}/packages/${path}`).href);
  const { sharedLexicon } = await at('pipeline/dist/interpret.js');
  const { sharedWordnetLinks } = await at('generator/dist/index.js');
  return {
    catalog: drawings.sharedCatalog(),
    lexicon: sharedLexicon(),
    wordnetLinks: await sharedWordnetLinks(),
  };
}
const textsByRoot = new Map<string, unknown>();
const drawingsOf = (root: string): Promise<Drawings> =>
  import(pathToFileURL(`${resolve(root)}/packages/drawings/dist/index.js`).href);
const compiledRenderer = async (root: string) => (await drawingsOf(root)).resvgModule();

interface Thread {
  worker: Worker;
  counts: Count[];
  /** Resolves once the thread has drawn (and, with `hold`, waits to be told to end). */
  drawn: Promise<Rounds | undefined>;
  /** Resolves when the thread has ended. */
  exited: Promise<void>;
}

function startThread(
  root: string,
  renderer: WebAssembly.Module,
  options: { youngMb: number; rounds?: number; hold?: boolean },
): Thread {
  const counts: Count[] = [];
  const shared = drawingsByRoot.get(root)?.sharedDrawingsFile;
  const worker = new Worker(new URL('./thread-memory-thread.mjs', import.meta.url), {
    workerData: {
      root: pathToFileURL(`${resolve(root)}/`).href,
      renderer,
      shareFiles: shared !== undefined,
      texts: textsByRoot.get(root) ?? null,
      rounds: options.rounds ?? 0,
      hold: options.hold === true,
    },
    resourceLimits: { maxYoungGenerationSizeMb: options.youngMb },
  });
  const drawn = new Promise<Rounds | undefined>((done, fail) => {
    worker.on('message', (c: Count | Rounds | { t: 'file'; callId: number; name: string }) => {
      if ('t' in c) {
        shared!(c.name).then(
          (bytes) => worker.postMessage({ t: 'file', callId: c.callId, bytes }),
          (error: Error) => worker.postMessage({ t: 'file', callId: c.callId, error: error.message }),
        );
        return;
      }
      if (c.step === 'rounds') done(c as Rounds);
      else counts.push(c as Count);
      if (c.step === 'two UI pieces' && !options.rounds) done(undefined);
    });
    worker.on('error', fail);
    worker.on('exit', () => done(undefined));
  });
  const exited = new Promise<void>((r) => worker.once('exit', () => r()));
  return { worker, counts, drawn, exited };
}
const ended = (t: Thread) => t.exited;

const drawingsByRoot = new Map<string, Drawings>();
const here = resolve(import.meta.dirname, '../..');
const runs: Array<[string, string]> = [['this checkout', here]];
if (process.env.BENCH_BASELINE) runs.unshift(['baseline', process.env.BENCH_BASELINE]);
const results = new Map<string, Count[]>();
const perThread = new Map<string, number[]>();
for (const [, root] of runs) {
  drawingsByRoot.set(root, await drawingsOf(root));
  textsByRoot.set(root, await sharedTexts(root));
}
for (const [name, root] of runs) {
  const renderer = await compiledRenderer(root);
  const youngMb = serverYoungMb(root);
  // 1. one thread, step by step
  const one = startThread(root, renderer, { youngMb });
  await one.drawn;
  await ended(one);
  results.set(name, one.counts);
  let prev: Count | undefined;
  log(
    `${name} (${root}), young generation ${youngMb} MB: heap used / outside the heap (of it ArrayBuffers), MB [heap committed: young, old, code, large objects]`,
  );
  for (const c of one.counts) {
    const grew = prev ? ` (${sign(c.heap - prev.heap)} / ${sign(c.external - prev.external)})` : '';
    const s = (k: string) => mb(c.spaces[k]?.[1] ?? 0);
    log(
      `  ${c.step.padEnd(16)} ${mb(c.heap)} / ${mb(c.external)} (${mb(c.arrayBuffers)})${grew} [${mb(c.committed)}: ${s('new')}, ${s('old')}, ${s('code')}, ${s('large_object')}]`,
    );
    prev = c;
  }
  // 2. the resident memory each thread adds, two kept alive side by side
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const first = startThread(root, renderer, { youngMb, hold: true });
  await first.drawn;
  const withOne = process.memoryUsage().rss;
  const second = startThread(root, renderer, { youngMb, hold: true });
  await second.drawn;
  const withTwo = process.memoryUsage().rss;
  for (const t of [first, second]) t.worker.postMessage('end');
  await Promise.all([ended(first), ended(second)]);
  perThread.set(name, [withOne - before, withTwo - withOne]);
  log(
    `${name}: resident memory a thread adds, after drawing the four pieces: first ${sign(withOne - before)} MB, second ${sign(withTwo - withOne)} MB (both alive)`,
  );
}
const base = results.get('baseline');
const mine = results.get('this checkout')!;
if (base) {
  const at = (list: Count[], step: string) => list.find((c) => c.step === step)!;
  for (const step of ['modules loaded', 'catalog queried', 'first drawing', 'two UI pieces']) {
    const b = at(base, step);
    const m = at(mine, step);
    log(
      `after "${step}": heap ${mb(b.heap)} → ${mb(m.heap)} MB (${sign(m.heap - b.heap)}; committed ${mb(b.committed)} → ${mb(m.committed)}), outside it ${mb(b.external)} → ${mb(m.external)} MB (${sign(m.external - b.external)})`,
    );
  }
  const [b1, b2] = perThread.get('baseline')!;
  const [m1, m2] = perThread.get('this checkout')!;
  log(`resident memory a thread adds: first ${mb(b1!)} → ${mb(m1!)} MB, second ${mb(b2!)} → ${mb(m2!)} MB`);
}

// 3. the garbage collector's time with each young-generation limit, this checkout, same rounds
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
if (rounds > 0) {
  const limits = (process.env.BENCH_YOUNG ?? '8,4,2').split(',').map(Number);
  const renderer = await compiledRenderer(here);
  const timed: Array<{ young: number; r: Rounds; committed: number }> = [];
  // alternated twice, so the machine's load falls on every limit alike
  for (let pass = 0; pass < 2; pass++) {
    for (const young of limits) {
      const t = startThread(here, renderer, { youngMb: young, rounds });
      const r = (await t.drawn)!;
      await ended(t);
      timed.push({ young, r, committed: t.counts.at(-1)!.committed });
    }
  }
  const first = limits[0]!;
  const sum = (young: number, pick: (r: Rounds) => number) =>
    timed.filter((t) => t.young === young).reduce((s, t) => s + pick(t.r), 0);
  for (const young of limits) {
    const gc = sum(young, (r) => r.gcMs);
    const all = sum(young, (r) => r.ms);
    const committed = timed.find((t) => t.young === young)!.committed;
    log(
      `young generation ${young} MB: ${rounds} rounds × 2 (sprite, scene, UI piece): ${all.toFixed(0)} ms, gc ${gc.toFixed(0)} ms in ${sum(young, (r) => r.gcs)} pauses (gc ${(gc / sum(first, (r) => r.gcMs)).toFixed(2)}×, whole ${(all / sum(first, (r) => r.ms)).toFixed(2)}× of ${first} MB); heap committed after the four pieces ${mb(committed)} MB`,
    );
  }
}
