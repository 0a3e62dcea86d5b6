/**
 * `@assetloom/core/store/mongodb` — the MongoDB adapters (Node only; `mongodb` is an optional peer
 * dependency, loaded only by this entry): `createMongoStore` for the asset API's Store (its webhook
 * and upload repositories included) and `createMongoReviewStore` for the review helper.
 *
 * @packageDocumentation
 */
export { createMongoStore, type MongoStoreOptions } from '../mongodb.js';
export { createMongoReviewStore, type MongoReviewStoreOptions } from '../review/mongodb.js';
