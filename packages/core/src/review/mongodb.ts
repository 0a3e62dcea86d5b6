import type { Db, MongoClient, MongoClientOptions } from 'mongodb';
import { createMongoDatabase } from '../store/mongodb-driver.js';
import { createReviewRepositories } from './repositories.js';
import type { ReviewStore } from './store.js';

export interface MongoReviewStoreOptions {
  /** A mongodb:// or mongodb+srv:// connection string (the store then owns and closes its client). */
  uri?: string;
  /** Use an existing client instead of `uri` (the store never closes it). */
  client?: MongoClient;
  /** Use an existing database handle (the store never closes its client). */
  db?: Db;
  /** Database name (default: the one in the URI, else "assetloom"). Ignored with `db`. */
  dbName?: string;
  /** Extra driver options for `uri`. */
  clientOptions?: MongoClientOptions;
}

/**
 * The review helper's MongoDB adapter (official driver; MongoDB ≥ 6 and FerretDB v1): the review
 * repositories (./repositories.ts) over the MongoDB collection driver.
 */
export function createMongoReviewStore(options: MongoReviewStoreOptions): ReviewStore {
  if (!options || (typeof options.uri !== 'string' && !options.client && !options.db)) {
    throw new TypeError(
      '[assetloom/core] createMongoReviewStore: pass { uri } (a mongodb:// connection string), { client } or { db }',
    );
  }
  return createReviewRepositories(
    createMongoDatabase(
      options.db
        ? { client: options.db.client, dbName: options.db.databaseName }
        : {
            uri: options.uri,
            client: options.client,
            dbName: options.dbName,
            clientOptions: options.clientOptions,
          },
    ),
  );
}
