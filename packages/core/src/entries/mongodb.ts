// `@assetloom/core/mongodb`: deprecated alias of `@assetloom/core/store/mongodb`, kept because 0.1 was
// published with it (decision 0039). It will be removed in a later minor.
import { createMongoStore as create, type MongoStoreOptions as Options } from './store-mongodb.js';

/** @deprecated Import `createMongoStore` from `@assetloom/core/store/mongodb`. */
export const createMongoStore: typeof create = create;
/** @deprecated Import `MongoStoreOptions` from `@assetloom/core/store/mongodb`. */
export type MongoStoreOptions = Options;
