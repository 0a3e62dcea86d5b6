/** Messages between the main thread and a pipeline thread (pipeline-threads.ts, pipeline-thread.ts). */

import type { WordnetLinkTexts } from '@assetloom/generator';
import type { LlmConfig, PipelineProgressEvent, PipelineRequest, PipelineResult } from '@assetloom/pipeline';
import type { PictureRef } from '@assetloom/pipeline/inputs';
import type { LexiconTexts } from '@assetloom/pipeline/interpret';
import type { ImageProviderSettings } from '../image-provider.js';
import type { FsWriterSettings } from '../storage/fs-writer.js';

/** What a thread is started with (its `workerData`). */
export interface ThreadSettings {
  /** The server's IMAGE_PROVIDER settings; null: the procedural provider. */
  imageProvider: ImageProviderSettings | null;
  /**
   * The filesystem driver's folder when the server stores objects there: runs marked `localFiles`
   * write their files on the thread (storage/fs-writer.ts) instead of asking the main thread.
   */
  files: FsWriterSettings | null;
  /**
   * resvg's WebAssembly module, compiled once by the main thread: each thread instantiates it
   * (`configureDrawings({ wasm })`) instead of compiling its own copy, and the threads share its
   * compiled code. Null: the thread compiles its own (the module could not be read).
   */
  renderer: WebAssembly.Module | null;
  /**
   * The generated word lists as UTF-8 bytes, each one SharedArrayBuffer made once by the main thread
   * (the drawings' catalog, the pipeline's lexicon, WordNet's links): a thread reads them in place
   * instead of holding the modules' text in its heap (decision 0079). Null: the thread uses the
   * modules' own text (they could not be made).
   */
  texts: { catalog: Uint8Array; lexicon: LexiconTexts; wordnetLinks: WordnetLinkTexts } | null;
}

/** An error as it crosses threads: what the pipeline reads of one (message, `expose`, `code`). */
export interface WireError {
  name: string;
  message: string;
  expose?: boolean;
  code?: string;
}

export interface RunOptionsOnWire {
  maxRetries?: number;
  startSeq?: number;
  deadline?: { cpuMs?: number; wallMs?: number };
  /** LLM settings without an injected fetch (the pool is not used when one is injected). */
  llm: LlmConfig | null;
  /** Write the run's files on the thread (its storage is the server's filesystem driver). */
  localFiles?: boolean;
  /** The run reads stored pictures (`request.inputRefs`) through the main thread (`read` messages). */
  pictures?: boolean;
}

/** Main thread → pipeline thread. */
export type MainMessage =
  | { t: 'run'; id: number; request: PipelineRequest; options: RunOptionsOnWire }
  | { t: 'abort'; id: number; reason: WireError }
  | { t: 'answer'; callId: number; error?: WireError }
  /**
   * A stored picture's PNG bytes (transferred), or a drawings file (shared), or why it could not be
   * read.
   */
  | { t: 'bytes'; callId: number; bytes?: Uint8Array; error?: WireError };

/** Pipeline thread → main thread. */
export type ThreadMessage =
  | { t: 'put'; id: number; callId: number; key: string; bytes: Uint8Array; contentType: string }
  | {
      t: 'event';
      id: number;
      callId: number;
      event: PipelineProgressEvent;
      /** Bytes of files this thread wrote itself for the run since its previous event. */
      storedBytes?: number;
    }
  /**
   * A file of @assetloom/drawings (a set's drawings, a font): the main thread reads each once and
   * answers every thread with the same SharedArrayBuffer (`bytes`; decision 0072).
   */
  | { t: 'file'; callId: number; name: string }
  /** Read a stored picture for run `id` (its PNG is decoded on the thread; issue #37). */
  | { t: 'read'; id: number; callId: number; ref: PictureRef }
  | { t: 'done'; id: number; result: PipelineResult }
  | { t: 'crashed'; id: number; error: WireError };

export function toWireError(error: unknown): WireError {
  if (error instanceof Error) {
    const { expose, code } = error as Error & { expose?: unknown; code?: unknown };
    return {
      name: error.name,
      message: error.message,
      ...(expose === true ? { expose: true } : {}),
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  return { name: 'Error', message: String(error) };
}
