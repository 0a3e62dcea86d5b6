import { createStoreOver } from './store/asset-store.js';
import { createNedbDatabase } from './store/nedb-driver.js';
import type { Store } from './store.js';

export interface EmbeddedStoreOptions {
  /**
   * Folder holding one append-only file per collection (created when missing, compacted on open
   * and on close). Without it the store lives in memory only (the mock and browsers use that).
   */
  dir?: string;
  /** Compact a collection's file after this many writes to it (default 20 000). */
  compactEvery?: number;
}

/**
 * The embedded store on @seald-io/nedb: the asset API's repositories (store/asset-store.ts, the
 * same code the MongoDB store runs) over the NeDB collection driver (store/nedb-driver.ts):
 * Mongo-like queries, unique indexes, one file-backed append log per collection under `dir` (or
 * memory only). Every operation runs through NeDB's own queue, so a unique-index check and its
 * insert are atomic within the process. One process per `dir`. A write is applied only if its
 * append to the data file succeeds: when the append fails the change is undone in memory and the
 * call rejects, so an operation that fails leaves no trace.
 */
export function createEmbeddedStore(options: EmbeddedStoreOptions = {}): Store {
  const dir = options.dir === undefined ? undefined : String(options.dir).replace(/[\\/]+$/, '');
  if (dir !== undefined && dir.length === 0) {
    throw new TypeError(
      '[assetloom/core] createEmbeddedStore: dir must be a non-empty path, or omitted for memory',
    );
  }
  return createStoreOver(
    createNedbDatabase({
      ...(dir === undefined ? {} : { dir }),
      ...(options.compactEvery === undefined ? {} : { compactEvery: options.compactEvery }),
    }),
  );
}
