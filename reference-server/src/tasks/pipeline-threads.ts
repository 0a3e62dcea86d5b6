/**
 * Pipeline threads: the generation worker's CPU work (drawing, quality checks, pixelize, PNG
 * encoding) runs on worker threads, so the process's event loop keeps serving HTTP, WebSocket
 * streams and database writes while tasks are drawn, and a worker process uses more than one core.
 * Progress events stay on the main thread: a thread asks for each event and waits for the answer, so
 * durability, ordering and back-pressure are those of an in-process run. Files do too, except when
 * they go to the server's filesystem driver: a thread then writes them itself with the driver's rules
 * (storage/fs-writer.ts). See docs/decisions/0025-pipeline-threads.md and 0026.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { resvgModule, sharedCatalog, sharedDrawingsFile } from '@assetloom/drawings';
import { sharedWordnetLinks } from '@assetloom/generator';
import type { PipelineRequest, PipelineResult, RunPipelineOptions, StoragePort } from '@assetloom/pipeline';
import { sharedLexicon } from '@assetloom/pipeline/interpret';
import type { ImageProviderSettings } from '../image-provider.js';
import type { FsWriterSettings } from '../storage/fs-writer.js';
import {
  type MainMessage,
  type ThreadMessage,
  type ThreadSettings,
  toWireError,
  type WireError,
} from './pipeline-thread-protocol.js';

/**
 * What a run's caller tells the pool about its files beyond `options.storage`: the worker's attempt
 * wraps the server's storage (the attempt's abort signal on every put) and counts the bytes stored.
 */
export interface RunFiles {
  /**
   * The storage behind `options.storage`: when it is the pool's `files.storage`, the thread writes
   * the run's files itself.
   */
  storage: StoragePort;
  /** Told the bytes a thread wrote itself for the run (the storage budget). */
  countStoredBytes(bytes: number): void;
}

/** Runs the pipeline the way `runPipeline` does, on a pipeline thread. */
export type PipelineRunner = (
  request: PipelineRequest,
  options: RunPipelineOptions,
  files?: RunFiles,
) => Promise<PipelineResult>;

export interface PipelineThreadPool {
  run: PipelineRunner;
  /** Threads started so far (they start with the first runs, up to the pool's size). */
  readonly started: number;
  /**
   * Threads alive now: started, less those that died and those that retired after `idleMs` without
   * a run (decision 0077).
   */
  readonly live: number;
  /** Threads ended because they had run nothing for `idleMs` (decision 0077). */
  readonly retired: number;
  readonly size: number;
  /**
   * The drawings' files (sets, fonts) the threads have read so far: each was read once, here, and
   * every thread that asked got the same SharedArrayBuffer.
   */
  readonly sharedFiles: readonly string[];
  /** Ends every thread; runs still in flight reject. */
  close(): Promise<void>;
}

export interface PipelineThreadPoolOptions {
  /** Threads at most (≥ 1). */
  size: number;
  /** The server's IMAGE_PROVIDER settings (a thread builds its own provider from them). */
  imageProvider: ImageProviderSettings | null;
  /**
   * The server's filesystem driver and its folder: runs whose storage (`files.storage` of the run,
   * else its `options.storage`) is this very object write their files on the thread. Any other
   * storage (S3, a wrapper, a test double) is asked for on the main thread.
   */
  files?: { storage: StoragePort; settings: FsWriterSettings };
  /** Told when a thread dies (its runs reject; the next run starts a new thread). */
  onThreadError?: (error: Error) => void;
  /**
   * A thread other than the oldest alive that has run nothing for this long, ms, is ended, so a
   * server after a burst of tasks goes back to one thread's memory (PIPELINE_THREAD_IDLE_MS;
   * decision 0077). 0 or absent: threads stay until the pool closes.
   */
  idleMs?: number;
}

/**
 * A pipeline thread's young generation, MB (its two semi-spaces are committed whole once used):
 * bench/startup.bench.ts, +103 → +79 MB at 8 (issue #27); bench/thread-memory.bench.ts counts what
 * each limit commits and costs in garbage-collection time (decision 0072).
 */
const YOUNG_GENERATION_MB = 4;

/** A thread ended or failed while runs were in flight on it. */
export class PipelineThreadError extends Error {
  override readonly name = 'PipelineThreadError';
}

interface Run {
  resolve: (result: PipelineResult) => void;
  reject: (error: Error) => void;
  options: RunPipelineOptions;
  files: RunFiles | undefined;
  detach: () => void;
}

interface Thread {
  worker: Worker;
  runs: Map<number, Run>;
  dead: boolean;
  /** Set while the thread has no run: ends it when `idleMs` has passed (decision 0077). */
  idle: ReturnType<typeof setTimeout> | null;
}

/**
 * Where the thread's code is: `pipeline-thread.js` beside the built server (dist/), or the
 * TypeScript source when the server runs from src/ (tsx, vitest), loaded through tsx's ESM hooks.
 */
function threadEntry(): { code: URL | string; eval: boolean } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { code: new URL('./pipeline-thread.js', here), eval: false };
  const tsxPackage = createRequire(here).resolve('tsx/package.json');
  const api = pathToFileURL(join(dirname(tsxPackage), 'dist', 'esm', 'api', 'index.mjs')).href;
  const source = new URL('./pipeline-thread.ts', here).href;
  return {
    eval: true,
    code: `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); }).catch((error) => { console.error(error); process.exit(1); });`,
  };
}

export function createPipelineThreadPool(options: PipelineThreadPoolOptions): PipelineThreadPool {
  if (!Number.isSafeInteger(options.size) || options.size < 1) {
    throw new RangeError(
      `[assetloom/server] a pipeline thread pool needs at least one thread (got ${options.size})`,
    );
  }
  const threads: Thread[] = [];
  /** The drawings' files handed to the threads (each one SharedArrayBuffer for all of them). */
  const files = new Set<string>();
  let nextRun = 1;
  let closed = false;
  let started = 0;
  let retired = 0;
  const idleMs = options.idleMs ?? 0;
  const settings: ThreadSettings = {
    imageProvider: options.imageProvider,
    files: options.files?.settings ?? null,
    renderer: null,
    texts: null,
  };
  // resvg compiled once, at the first run, for every thread the pool starts (bench/startup.bench.ts),
  // and the generated word lists made bytes once, one SharedArrayBuffer each, for every thread
  // (decision 0079)
  let renderer: Promise<unknown> | null = null;
  const compiled = () =>
    (renderer ??= Promise.all([
      resvgModule().then(
        (module) => {
          settings.renderer = module;
        },
        () => {
          // each thread compiles its own, as before
        },
      ),
      sharedWordnetLinks().then(
        (wordnetLinks) => {
          settings.texts = { catalog: sharedCatalog(), lexicon: sharedLexicon(), wordnetLinks };
        },
        () => {
          // each thread reads the modules' own text, as before
        },
      ),
    ]));

  function fail(thread: Thread, error: Error): void {
    if (thread.dead) return;
    thread.dead = true;
    awake(thread);
    const index = threads.indexOf(thread);
    if (index >= 0) threads.splice(index, 1);
    for (const run of thread.runs.values()) {
      run.detach();
      run.reject(error);
    }
    thread.runs.clear();
    if (!closed) options.onThreadError?.(error);
  }

  function answer(thread: Thread, callId: number, work: () => void | Promise<void>): void {
    Promise.resolve()
      .then(work)
      .then(
        () => post(thread, { t: 'answer', callId }),
        (error: unknown) => post(thread, { t: 'answer', callId, error: toWireError(error) }),
      );
  }

  /** A thread that has a run again (or ends) is not idle. */
  function awake(thread: Thread): void {
    if (thread.idle !== null) clearTimeout(thread.idle);
    thread.idle = null;
  }

  /** A thread whose last run ended: ended after `idleMs` without a new one, unless it is the oldest. */
  function idle(thread: Thread): void {
    if (idleMs <= 0 || thread.runs.size > 0 || thread.dead) return;
    awake(thread);
    thread.idle = setTimeout(() => retire(thread), idleMs);
    // an idle pool does not keep the process alive
    thread.idle.unref();
  }

  /**
   * Ends an idle thread. It leaves `threads` in this same turn of the event loop, before it is
   * terminated: `pick` runs synchronously, so a run is never handed to a thread being ended — the
   * next run goes to a live thread or starts a new one. The oldest live thread stays (a warm start
   * for the next task: its modules loaded, resvg compiled).
   */
  function retire(thread: Thread): void {
    thread.idle = null;
    if (closed || thread.dead || thread.runs.size > 0) return;
    const index = threads.indexOf(thread);
    if (index <= 0) return;
    threads.splice(index, 1);
    thread.dead = true;
    retired += 1;
    thread.worker.terminate().catch(() => {
      // already gone
    });
  }

  function post(thread: Thread, message: MainMessage): void {
    if (!thread.dead) thread.worker.postMessage(message);
  }

  function spawn(): Thread {
    const entry = threadEntry();
    const worker = new Worker(entry.code, {
      eval: entry.eval,
      workerData: settings,
      // a pipeline thread's garbage is pictures (large objects, old space) and short-lived arrays: a
      // small young generation keeps each thread's resident memory down (the renderer's compiled code
      // is shared, see `compiled`; the drawings' catalog, WordNet's lists and the fonts are read in
      // place, decoded as used, decision 0063; set files and fonts shared, decision 0072; the generated
      // word lists' bytes shared, decision 0079)
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    const thread: Thread = { worker, runs: new Map(), dead: false, idle: null };
    started += 1;
    worker.on('message', (message: ThreadMessage) => {
      if (message.t === 'file') {
        // read once in this thread, the same SharedArrayBuffer for every thread (decision 0072)
        const callId = message.callId;
        sharedDrawingsFile(message.name).then(
          (bytes) => {
            files.add(message.name);
            post(thread, { t: 'bytes', callId, bytes });
          },
          (error: unknown) => post(thread, { t: 'bytes', callId, error: toWireError(error) }),
        );
        return;
      }
      const run = thread.runs.get(message.id);
      if (run === undefined) return;
      switch (message.t) {
        case 'put':
          answer(thread, message.callId, () =>
            run.options.storage.put(message.key, message.bytes, message.contentType),
          );
          return;
        case 'event':
          // Bytes the thread wrote itself since its last event, for the storage budget.
          if (message.storedBytes !== undefined && message.storedBytes > 0) {
            run.files?.countStoredBytes(message.storedBytes);
          }
          answer(thread, message.callId, () => run.options.onEvent?.(message.event));
          return;
        case 'read': {
          // The picture's bytes are read here (object storage) and moved to the thread, which decodes them.
          const callId = message.callId;
          const source = run.options.pictures;
          Promise.resolve()
            .then(() => {
              if (source === undefined) throw new Error('the run reads no pictures');
              return source.read(message.ref, run.options.signal);
            })
            .then(
              (bytes) => {
                // a copy the thread may own (the storage's buffer may be shared or pooled)
                const copy = bytes.slice();
                if (!thread.dead)
                  thread.worker.postMessage({ t: 'bytes', callId, bytes: copy }, [copy.buffer]);
              },
              (error: unknown) => post(thread, { t: 'bytes', callId, error: toWireError(error) }),
            );
          return;
        }
        case 'done':
          thread.runs.delete(message.id);
          idle(thread);
          run.detach();
          run.resolve(message.result);
          return;
        case 'crashed':
          thread.runs.delete(message.id);
          idle(thread);
          run.detach();
          run.reject(new PipelineThreadError(`the pipeline thread's run failed: ${message.error.message}`));
          return;
      }
    });
    worker.on('error', (error) =>
      fail(thread, new PipelineThreadError(`a pipeline thread failed: ${error.message}`)),
    );
    worker.on('exit', (code) =>
      fail(thread, new PipelineThreadError(`a pipeline thread exited (code ${code})`)),
    );
    threads.push(thread);
    return thread;
  }

  /** The least busy live thread, or a new one while the pool is below its size. */
  function pick(): Thread {
    let best: Thread | undefined;
    for (const t of threads) if (best === undefined || t.runs.size < best.runs.size) best = t;
    if (best === undefined || (best.runs.size > 0 && threads.length < options.size)) return spawn();
    return best;
  }

  const run: PipelineRunner = (request, runOptions, files) =>
    compiled().then(() => start(request, runOptions, files));

  const start: PipelineRunner = (request, runOptions, files) =>
    new Promise<PipelineResult>((resolve, reject) => {
      if (closed) {
        reject(new PipelineThreadError('the pipeline thread pool is closed'));
        return;
      }
      const llm = runOptions.providers?.prompt?.llm ?? null;
      if (llm?.fetch !== undefined || runOptions.providers?.image != null || runOptions.now !== undefined) {
        reject(
          new RangeError(
            '[assetloom/server] pipeline threads take providers from the settings only: run injected providers, fetch or clocks in the event loop',
          ),
        );
        return;
      }
      const thread = pick();
      awake(thread);
      const id = nextRun++;
      const signal = runOptions.signal;
      const onAbort = () => {
        const reason: WireError = toWireError(signal?.reason ?? new Error('aborted'));
        post(thread, { t: 'abort', id, reason });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      thread.runs.set(id, {
        resolve,
        reject,
        options: runOptions,
        files,
        detach: () => signal?.removeEventListener('abort', onAbort),
      });
      post(thread, {
        t: 'run',
        id,
        request,
        options: {
          ...(runOptions.maxRetries === undefined ? {} : { maxRetries: runOptions.maxRetries }),
          ...(runOptions.startSeq === undefined ? {} : { startSeq: runOptions.startSeq }),
          ...(runOptions.deadline === undefined ? {} : { deadline: { ...runOptions.deadline } }),
          ...(runOptions.pictures === undefined ? {} : { pictures: true }),
          llm,
          // On the thread, where the thread's own abort reaches the writes.
          ...(options.files !== undefined && (files?.storage ?? runOptions.storage) === options.files.storage
            ? { localFiles: true }
            : {}),
        },
      });
      if (signal?.aborted) onAbort();
    });

  return {
    run,
    get started() {
      return started;
    },
    get live() {
      return threads.length;
    },
    get retired() {
      return retired;
    },
    size: options.size,
    get sharedFiles() {
      return [...files].sort();
    },
    async close() {
      closed = true;
      const all = [...threads];
      await Promise.all(
        all.map(async (t) => {
          fail(t, new PipelineThreadError('the pipeline thread pool was closed'));
          await t.worker.terminate();
        }),
      );
    },
  };
}
