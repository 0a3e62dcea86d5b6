/**
 * The body of one pipeline thread (see pipeline-threads.ts): runs @assetloom/pipeline for the main
 * thread's tasks, several at once, with the image provider built from the server's settings.
 * Progress events go back to the main thread, which owns the database, and so do files unless the
 * server stores them in a folder (the filesystem driver), which this thread then writes itself; each
 * event and file waits for its answer or write, so the order and back-pressure of the in-process run
 * are kept.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { configureDrawings } from '@assetloom/drawings';
import { configureWordnetLinks, runPipeline } from '@assetloom/generator';
import { configureLexicon } from '@assetloom/pipeline/interpret';
import { createImageProvider } from '../image-provider.js';
import { putNamingFullStorage } from '../internal/storage-full.js';
import { createFsObjectWriter } from '../storage/fs-writer.js';
import type { MainMessage, ThreadMessage, ThreadSettings, WireError } from './pipeline-thread-protocol.js';

const port = parentPort;
if (port === null) throw new Error('[assetloom/server] pipeline-thread.js runs only as a worker thread');

const settings = workerData as ThreadSettings;
const provider = settings.imageProvider === null ? null : createImageProvider(settings.imageProvider);

const files = settings.files === null ? null : createFsObjectWriter(settings.files);

const runs = new Map<number, AbortController>();
const calls = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
const reads = new Map<number, { resolve: (bytes: Uint8Array) => void; reject: (error: Error) => void }>();
let nextCall = 1;

const send = (message: ThreadMessage) => port.postMessage(message);

// the renderer the main thread compiled once: instantiated here, its compiled code shared; the
// drawings' set files and fonts asked of the main thread, which hands every thread the same bytes
// (one SharedArrayBuffer a file, decision 0072); the generated word lists read in place from the
// bytes the main thread made once (decision 0079): their modules' text is never made in this heap
if (settings.texts !== null) {
  configureLexicon(settings.texts.lexicon);
  configureWordnetLinks(settings.texts.wordnetLinks);
}
configureDrawings({
  ...(settings.renderer === null ? {} : { wasm: settings.renderer }),
  ...(settings.texts === null ? {} : { catalog: settings.texts.catalog }),
  readFile: (name) =>
    new Promise<Uint8Array>((resolve, reject) => {
      const callId = nextCall++;
      reads.set(callId, { resolve, reject });
      send({ t: 'file', callId, name });
    }),
});

/**
 * A full garbage collection of this thread's heap, once it has had no run for IDLE_COLLECT_MS. A
 * drawing's pictures and PNG buffers are promoted out of the small young generation and wait for a
 * major collection, which an idle thread does not get: counted after four pieces, 10 s idle, each of
 * two threads held 3–4 MB more heap and 4–5 MB more ArrayBuffers than after a collection
 * (decision 0073). V8 exposes `gc` only behind its flag: set for the one context made here, then unset.
 */
const IDLE_COLLECT_MS = 2000;
const collect = ((): (() => void) | null => {
  // a process started with --expose-gc already gives this thread's context `gc`
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as () => void;
  // the flag is the process's: another thread may unset it between the two lines, so try again
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as unknown;
      if (typeof gc === 'function') return gc as () => void;
    } catch {
      // no `gc` in the new context: try again
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  return null;
})();
let idleTimer: NodeJS.Timeout | undefined;
/** Called when a run ends: collects once the thread has stayed idle (a new run cancels it). */
function collectWhenIdle(): void {
  if (collect === null || runs.size > 0) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (runs.size === 0) collect();
  }, IDLE_COLLECT_MS);
  // the thread ends when the pool lets it go, whatever this timer says
  idleTimer.unref();
}

function toError(wire: WireError): Error {
  const error = new Error(wire.message) as Error & { expose?: boolean; code?: string };
  error.name = wire.name;
  if (wire.expose) error.expose = true;
  if (wire.code !== undefined) error.code = wire.code;
  return error;
}

/** Asks the main thread to do something for run `id` and waits for its answer. */
function ask(message: (callId: number) => ThreadMessage): Promise<void> {
  const callId = nextCall++;
  return new Promise<void>((resolve, reject) => {
    calls.set(callId, { resolve, reject });
    send(message(callId));
  });
}

port.on('message', (message: MainMessage) => {
  switch (message.t) {
    case 'answer': {
      const call = calls.get(message.callId);
      if (call === undefined) return;
      calls.delete(message.callId);
      if (message.error === undefined) call.resolve();
      else call.reject(toError(message.error));
      return;
    }
    case 'bytes': {
      const read = reads.get(message.callId);
      if (read === undefined) return;
      reads.delete(message.callId);
      if (message.bytes !== undefined) read.resolve(message.bytes);
      else read.reject(toError(message.error ?? { name: 'Error', message: 'the picture could not be read' }));
      return;
    }
    case 'abort':
      runs.get(message.id)?.abort(toError(message.reason));
      return;
    case 'run': {
      const { id, request, options } = message;
      const abort = new AbortController();
      runs.set(id, abort);
      clearTimeout(idleTimer);
      /** Bytes written here since the last event (reported with the next one). */
      let written = 0;
      runPipeline(request, {
        signal: abort.signal,
        maxRetries: options.maxRetries,
        startSeq: options.startSeq,
        ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
        // Stored pictures are read by the main thread (its storage) and decoded here (issue #37).
        ...(options.pictures === true
          ? {
              pictures: {
                read: (ref) =>
                  new Promise<Uint8Array>((resolve, reject) => {
                    const callId = nextCall++;
                    reads.set(callId, { resolve, reject });
                    send({ t: 'read', id, callId, ref });
                  }),
              },
            }
          : {}),
        providers: { prompt: options.llm === null ? null : { llm: options.llm }, image: provider },
        storage:
          options.localFiles === true && files !== null
            ? // The server's filesystem driver: written from this thread (storage/fs-writer.ts).
              // The run's abort (a cancelled task) reaches each put: nothing is renamed into place after it.
              {
                put: async (key, bytes, contentType) => {
                  await putNamingFullStorage(() => files.put(key, bytes, contentType, abort.signal));
                  written += bytes.byteLength;
                },
              }
            : {
                // Copied to the main thread (structured clone): a sheet's files are kilobytes, and the
                // pipeline may hand the same bytes to more than one key.
                put: (key, bytes, contentType) =>
                  ask((callId) => ({ t: 'put', id, callId, key, bytes, contentType })),
              },
        onEvent: (event) =>
          ask((callId) => {
            const storedBytes = written;
            written = 0;
            return { t: 'event', id, callId, event, ...(storedBytes > 0 ? { storedBytes } : {}) };
          }),
      }).then(
        (result) => {
          runs.delete(id);
          send({ t: 'done', id, result });
          collectWhenIdle();
        },
        (error: unknown) => {
          // runPipeline never rejects; a throw here is a defect worth a crash report.
          runs.delete(id);
          collectWhenIdle();
          send({
            t: 'crashed',
            id,
            error: { name: 'Error', message: error instanceof Error ? error.message : String(error) },
          });
        },
      );
      return;
    }
  }
});
