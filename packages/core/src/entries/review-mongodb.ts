/**
 * `@assetloom/core/review/mongodb` — deprecated alias of `@assetloom/core/store/mongodb`, kept
 * because 0.1 was published with it. It will be removed in a later minor.
 *
 * @deprecated Import from `@assetloom/core/store/mongodb`.
 * @packageDocumentation
 */
export {
  /** @deprecated Import from `@assetloom/core/store/mongodb`. */
  createMongoReviewStore,
  /** @deprecated Import from `@assetloom/core/store/mongodb`. */
  type MongoReviewStoreOptions,
} from './store-mongodb.js';
