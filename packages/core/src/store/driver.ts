import type { Page, PageWindow } from '../store.js';

/**
 * The collection driver every repository is written against, once (decision 0038). Two drivers
 * implement it: NeDB (`./nedb-driver.ts`, the embedded and in-memory stores) and the official
 * MongoDB driver (`./mongodb-driver.ts`, MongoDB and FerretDB). It is deliberately small: the
 * operations the repositories and the durable queue need, in the Mongo dialect both databases
 * speak, and nothing else.
 *
 * Filters are data the repositories build from values they checked (`requireString` and friends).
 * A bare value means equality; the MongoDB driver sends it as `$eq`, so no value can ever become a
 * query operator there, and the NeDB driver (which has no `$eq`) matches it as is.
 */

/** A value a filter compares with. */
export type Scalar = string | number | boolean | Date | null;

/** The comparisons a filter may make on one field. */
export interface Condition {
  readonly $eq?: Scalar;
  readonly $ne?: Scalar;
  readonly $in?: readonly Scalar[];
  readonly $nin?: readonly Scalar[];
  readonly $gt?: Scalar;
  readonly $gte?: Scalar;
  readonly $lt?: Scalar;
  readonly $lte?: Scalar;
  readonly $exists?: boolean;
}

/** Field names of a document, plus dotted paths into its sub-documents (`lease.until`). */
export type FieldOf<D> = (keyof D & string) | `${string}.${string}`;

/** A query: every field condition must hold, and one branch of `$or` when given. */
export type Filter<D> = { readonly [K in FieldOf<D>]?: Scalar | Condition } & {
  readonly $or?: readonly Filter<D>[];
};

/** An update of one document. `$max` raises a field to a value (never lowers it). */
export interface Update<D> {
  readonly $set?: { readonly [K in FieldOf<D>]?: unknown };
  readonly $inc?: { readonly [K in keyof D & string]?: number };
  readonly $max?: { readonly [K in keyof D & string]?: Scalar };
}

export interface FindOptions<D> {
  readonly sort?: { readonly [K in keyof D & string]?: 1 | -1 };
  readonly skip?: number;
  readonly limit?: number;
  /** Only these fields (and `_id`) are read. */
  readonly fields?: readonly (keyof D & string)[];
}

/** One index of a collection. */
export interface IndexSpec {
  /** Fixed, so a MongoDB duplicate-key error names it reliably. */
  readonly name: string;
  readonly key: Readonly<Record<string, 1 | -1>>;
  readonly unique?: boolean;
  /** The field a duplicate of this unique index is reported as (DuplicateKeyError.field). */
  readonly reports?: string;
  /**
   * NeDB indexes one field: the first of `key` unless this names another (a field derived for a
   * compound unique key, such as an event's `evKey` = `<taskId>#<seq>`).
   */
  readonly embeddedField?: string;
  /** `_id`: the database's own unique index, listed only to say what a duplicate of it reports. */
  readonly builtin?: boolean;
  /** Created by one driver only (an index NeDB needs for a compound MongoDB index, for example). */
  readonly only?: 'embedded' | 'mongodb';
}

/** A collection's name and indexes. Unique indexes are probed for a duplicate in this order. */
export interface CollectionSpec {
  readonly name: string;
  readonly indexes: readonly IndexSpec[];
  /**
   * Reads may answer records shared between callers, frozen (`findOne` and `page` on one indexed
   * equality, from NeDB's in-memory index; decision 0026). Without it every read maps a fresh copy.
   */
  readonly frozenReads?: boolean;
}

/** One collection of documents of type D. */
export interface Collection<D extends object> {
  readonly name: string;
  /**
   * The first document matching, mapped. Map with a function that makes a fresh record from the
   * document: the NeDB driver may answer the record it mapped from the same stored document before.
   */
  findOne<R>(filter: Filter<D>, map: (doc: D) => R): Promise<R | null>;
  find(filter: Filter<D>, options?: FindOptions<D>): Promise<D[]>;
  /** A newest-first (createdAt desc, then _id desc) page of the documents whose `field` equals `value`. */
  page<R>(
    field: keyof D & string,
    value: string | number,
    window: PageWindow,
    map: (doc: D) => R,
  ): Promise<Page<R>>;
  count(filter: Filter<D>, options?: { limit?: number }): Promise<number>;
  /** The sum of a numeric field over the matching documents (non-numbers count 0). */
  sum(filter: Filter<D>, field: keyof D & string): Promise<number>;
  /** Throws DuplicateKeyError (the field its spec reports) when a unique index already holds a value. */
  insertOne(doc: D): Promise<void>;
  /** In order; throws DuplicateKeyError at the first duplicate (the documents before it may be stored). */
  insertMany(docs: readonly D[]): Promise<void>;
  /** Updates the first matching document (or inserts one with `upsert`); whether one matched or was inserted. */
  updateOne(filter: Filter<D>, update: Update<D>, options?: { upsert?: boolean }): Promise<boolean>;
  /** Updates every matching document; how many matched. */
  updateMany(filter: Filter<D>, update: Update<D>): Promise<number>;
  /** Updates the first matching document (or inserts one with `upsert`); the document after, or null. */
  findOneAndUpdate(filter: Filter<D>, update: Update<D>, options?: { upsert?: boolean }): Promise<D | null>;
  deleteOne(filter: Filter<D>): Promise<boolean>;
  deleteMany(filter: Filter<D>): Promise<number>;
}

/** What a database does differently, for the few places a repository must choose. */
export interface DatabaseTraits {
  /**
   * Whether the database applies `$inc` and a filtered update of one document atomically across
   * processes. MongoDB and NeDB (one process, one queue) do; FerretDB v1 (read-modify-write) does not.
   */
  atomicUpdates(): Promise<boolean>;
  /** Whether a top-level `$or` is answered through indexes (MongoDB), not by testing every document (NeDB). */
  readonly indexedOr: boolean;
}

/** A database: its collections, opened once. */
export interface Database {
  readonly kind: 'embedded' | 'memory' | 'mongodb';
  readonly traits: DatabaseTraits;
  collection<D extends object>(spec: CollectionSpec): Collection<D>;
  /** Connects (MongoDB) or loads every collection asked for so far (NeDB). */
  open(): Promise<void>;
  /** Creates the indexes of a collection it lacks (all, or those named). Idempotent. */
  ensureIndexes(spec: CollectionSpec, names?: readonly string[]): Promise<void>;
  /** Closes the connection this driver opened (MongoDB) or compacts the files (NeDB). */
  close(): Promise<void>;
}
