import { createNedbDatabase } from '../store/nedb-driver.js';
import { createReviewRepositories } from './repositories.js';
import type { ReviewStore } from './store.js';

export interface EmbeddedReviewStoreOptions {
  /**
   * Folder holding one append-only file per collection (`review_users.db`, …) — the same folder
   * as the asset API's embedded store is fine. Without it the store lives in memory only.
   */
  dir?: string;
  /** Compact a collection's file after this many writes to it (default 20 000). */
  compactEvery?: number;
}

/**
 * The review helper's embedded store on @seald-io/nedb (memory-only without `dir`, which is what
 * browsers and tests use): the review repositories (./repositories.ts) over the NeDB collection
 * driver. NeDB runs each operation through its own queue; the id allocation still retries on a
 * collision, as on MongoDB, so the rule is the same everywhere.
 */
export function createEmbeddedReviewStore(options: EmbeddedReviewStoreOptions = {}): ReviewStore {
  if (options.dir !== undefined && String(options.dir).replace(/[\\/]+$/, '').length === 0) {
    throw new TypeError(
      '[assetloom/core] createEmbeddedReviewStore: dir must be a non-empty path, or omitted for memory',
    );
  }
  return createReviewRepositories(
    createNedbDatabase({ dir: options.dir, compactEvery: options.compactEvery }),
  );
}
