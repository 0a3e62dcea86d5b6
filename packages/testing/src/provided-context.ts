import type { MongoTargetKind } from './mongo-target.js';

/** What `@assetloom/testing/mongo-global-setup` hands to tests through vitest's `inject`. */
export interface MongoProvidedContext {
  /** The MongoDB URI of the run's one target, or null when none could be had (outside CI only). */
  mongoUri: string | null;
  /** Which kind of server answers at `mongoUri`. */
  mongoKind: MongoTargetKind | null;
  /** Why there is no target (`unavailable: …`), else null. */
  mongoUnavailableReason: string | null;
}

declare module 'vitest' {
  interface ProvidedContext extends MongoProvidedContext {}
}
