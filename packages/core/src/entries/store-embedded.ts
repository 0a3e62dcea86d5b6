/**
 * `@assetloom/core/store/embedded` — the embedded adapters on NeDB (in memory, or files in a
 * directory): `createEmbeddedStore` for the asset API's Store (its webhook and upload repositories
 * included) and `createEmbeddedReviewStore` for the review helper. No database driver is loaded.
 *
 * @packageDocumentation
 */
export { createEmbeddedStore, type EmbeddedStoreOptions } from '../embedded.js';
export { createEmbeddedReviewStore, type EmbeddedReviewStoreOptions } from '../review/embedded.js';
