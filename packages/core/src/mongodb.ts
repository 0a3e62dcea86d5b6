import type { MongoClient, MongoClientOptions } from 'mongodb';
import { CHARACTER_COLLECTIONS } from './characters/repositories.js';
import { createStoreOver, STORE_COLLECTIONS } from './store/asset-store.js';
import type { CollectionSpec } from './store/driver.js';
import { createMongoDatabase, duplicateFieldOf as fieldOfIn, isDuplicate } from './store/mongodb-driver.js';
import { DuplicateKeyError, type Store } from './store.js';
import { UPLOAD_COLLECTIONS } from './uploads/repositories.js';
import { WEBHOOK_COLLECTIONS } from './webhooks/repositories.js';

export interface MongoStoreOptions {
  /** A mongodb:// or mongodb+srv:// connection string. */
  uri: string;
  /** Database name (default: the one in the URI, else "assetloom"). */
  dbName?: string;
  /** Extra driver options (timeouts, TLS, pool size). */
  clientOptions?: MongoClientOptions;
  /** Use an existing client instead of `uri` (the store then never closes it). */
  client?: MongoClient;
  /**
   * Whether the server applies $inc atomically across connections (default: asked once through
   * buildInfo: false on FerretDB, true otherwise). When false, task counters are recounted.
   */
  atomicIncrements?: boolean;
}

/** Every unique index of the asset API's collections, for errors whose collection is not known. */
const EVERY_COLLECTION: CollectionSpec = {
  name: '*',
  indexes: [STORE_COLLECTIONS, WEBHOOK_COLLECTIONS, UPLOAD_COLLECTIONS, CHARACTER_COLLECTIONS].flatMap(
    (group) => Object.values(group).flatMap((spec: CollectionSpec) => spec.indexes),
  ),
};

/**
 * The field an E11000 names: from the index name in the message (MongoDB), else from keyPattern.
 * undefined when the server says neither (FerretDB v1 answers only "E11000 duplicate key error
 * collection: db.coll"); the store then finds the colliding field with equality lookups.
 */
export function duplicateFieldOf(err: unknown): string | undefined {
  return fieldOfIn(EVERY_COLLECTION, err);
}

/** E11000 → DuplicateKeyError (field from the error, else 'id'); anything else is rethrown. */
export function mapDuplicateKey(err: unknown): never {
  if (!isDuplicate(err)) throw err;
  throw new DuplicateKeyError(duplicateFieldOf(err) ?? 'id', { cause: err });
}

/**
 * The MongoDB store (official driver): the asset API's repositories (store/asset-store.ts, the same
 * code the embedded store runs) over the MongoDB collection driver (store/mongodb-driver.ts). Works
 * on MongoDB ≥ 6 and on FerretDB v1: no $lookup, no transactions, no change streams, no partial
 * indexes (unique e-mail "where present" and the dedupe slot are plain unique indexes over derived
 * string fields, see store.ts). Every filter is an explicit `$eq` over a value the domain typed and
 * checked.
 */
export function createMongoStore(options: MongoStoreOptions): Store {
  return createStoreOver(createMongoDatabase(options));
}
