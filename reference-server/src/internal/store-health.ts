import type { Store } from '@assetloom/core';
import { isStorageFull, STORAGE_FULL } from './storage-full.js';

/**
 * What GET /api/v1/ready knows about the database's WRITES (issue #29, decision 0031): a read ping
 * passes while a full disk refuses every append, so the worker and the request handlers report a
 * refused write here. From then on the readiness check writes a probe (a claim record of a task id
 * no task can have, inserted and deleted) until one succeeds: until then the database check fails
 * with the cause — "storage full (no space left on the device)" or "writes fail" — and /ready
 * answers 503.
 */
export interface StoreWriteHealth {
  /** A write was refused (any process part: worker, request). */
  failed(cause: unknown): void;
  /** Resolves while writes work; rejects with the cause while they do not. */
  check(): Promise<void>;
  /** The cause of the last refused write, while it stands. */
  readonly failing: string | null;
}

const PROBE_TASK = '~readiness-write-probe';

export function createStoreWriteHealth(store: Store): StoreWriteHealth {
  let failing: string | null = null;
  let probe = 0;

  const describe = (cause: unknown) => (isStorageFull(cause) ? STORAGE_FULL : 'the database refuses writes');

  return {
    get failing() {
      return failing;
    },
    failed(cause) {
      failing = describe(cause);
    },
    async check() {
      if (failing === null) return;
      const now = new Date();
      probe += 1;
      try {
        await store.claims.insert({
          taskId: PROBE_TASK,
          attempt: probe,
          owner: 'readiness',
          until: now,
          at: now,
        });
        await store.claims.deleteByTask([PROBE_TASK]);
      } catch (error) {
        failing = describe(error);
        throw new Error(failing);
      }
      failing = null;
    },
  };
}
