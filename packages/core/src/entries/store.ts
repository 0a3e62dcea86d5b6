/**
 * `@assetloom/core/store` — the Store port in full, for writing a storage adapter: one repository
 * per collection and the patch, cursor and page types their methods take. The `Store` type itself,
 * the record types and the errors an adapter raises (`DuplicateKeyError`, `StoreWriteError`) are on
 * the root entry; the adapters are `@assetloom/core/store/embedded` and `@assetloom/core/store/mongodb`.
 * The contract suite every adapter passes is in the repository (packages/core/src/*.test.ts).
 *
 * @packageDocumentation
 */
export type {
  AssetRepository,
  ClaimRepository,
  DuplicateField,
  EventCursor,
  EventRepository,
  Page,
  PageWindow,
  ProjectPatch,
  ProjectRepository,
  ProjectTouch,
  TaskLease,
  TaskPatch,
  TaskRepository,
  UserRepository,
} from '../store.js';
