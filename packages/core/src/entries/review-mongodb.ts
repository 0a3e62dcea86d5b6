// `@assetloom/core/review/mongodb`: deprecated alias of `@assetloom/core/store/mongodb`, kept because 0.1 was
// published with it (decision 0039). It will be removed in a later minor.
import {
  createMongoReviewStore as create,
  type MongoReviewStoreOptions as Options,
} from './store-mongodb.js';

/** @deprecated Import `createMongoReviewStore` from `@assetloom/core/store/mongodb`. */
export const createMongoReviewStore: typeof create = create;
/** @deprecated Import `MongoReviewStoreOptions` from `@assetloom/core/store/mongodb`. */
export type MongoReviewStoreOptions = Options;
