import {
  type Db,
  type Document,
  type IndexDescription,
  MongoClient,
  type MongoClientOptions,
  MongoServerError,
} from 'mongodb';
import { DuplicateKeyError, MAX_SKIP, sanitizeWindow } from '../store.js';
import type { Collection, CollectionSpec, Database, IndexSpec, Update } from './driver.js';

/**
 * The collection driver over the official MongoDB driver (decision 0038). Works on MongoDB ≥ 6 and
 * on FerretDB v1: no $lookup, no transactions, no change streams, no partial indexes. Every bare
 * value in a filter is sent as an explicit `$eq`.
 */
export interface MongoDatabaseOptions {
  /** A mongodb:// or mongodb+srv:// connection string. */
  uri?: string;
  /** Database name (default: the one in the URI, else "assetloom"). */
  dbName?: string;
  /** Extra driver options (timeouts, TLS, pool size). */
  clientOptions?: MongoClientOptions;
  /** Use an existing client instead of `uri` (the driver then never closes it). */
  client?: MongoClient;
  /**
   * Whether the server applies $inc and filtered updates atomically across connections (default:
   * asked once through buildInfo: false on FerretDB, true otherwise).
   */
  atomicIncrements?: boolean;
}

export function isDuplicate(err: unknown): err is MongoServerError {
  return err instanceof MongoServerError && (err.code === 11000 || err.code === 11001);
}

function databaseNameOf(uri: string): string | undefined {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri);
  const name = match?.[1] ? decodeURIComponent(match[1]) : undefined;
  return name && name.length > 0 ? name : undefined;
}

const uniqueIndexes = (spec: CollectionSpec): IndexSpec[] =>
  spec.indexes.filter((i) => i.unique === true && i.only !== 'embedded');

/**
 * The field an E11000 of this collection names: from the index name in the message (MongoDB), else
 * from keyPattern. undefined when the server says neither (FerretDB v1 answers only "E11000
 * duplicate key error collection: db.coll"); the driver then probes the unique values.
 */
export function duplicateFieldOf(spec: CollectionSpec, err: unknown): string | undefined {
  if (!isDuplicate(err)) return undefined;
  const unique = uniqueIndexes(spec);
  const message = String(err.message ?? '');
  const named = /index:\s+(\S+)/.exec(message)?.[1];
  const byName = unique.find((i) => i.name === named);
  if (byName !== undefined) return byName.reports ?? 'id';
  const pattern = Object.keys(err.keyPattern ?? {});
  if (pattern.length > 0) {
    const same = unique.find((i) => Object.keys(i.key).join() === pattern.join());
    const first = same ?? unique.find((i) => Object.keys(i.key)[0] === pattern[0]);
    if (first !== undefined) return first.reports ?? 'id';
    if (pattern[0] === '_id') return 'id';
  }
  return unique.find((i) => message.includes(i.name))?.reports;
}

/** Bare values become `$eq`, so no value is ever read as an operator; `$or` branches likewise. */
function toMongoFilter(filter: object): Document {
  const out: Document = {};
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (field === '$or' && Array.isArray(value)) out.$or = value.map((b: object) => toMongoFilter(b));
    else if (value === null || typeof value !== 'object' || value instanceof Date)
      out[field] = { $eq: value };
    else out[field] = value;
  }
  return out;
}

/**
 * Creates the indexes a collection lacks, by name. Asking again for indexes that exist is a no-op
 * on MongoDB, but FerretDB v1 drops the connection when one createIndexes call repeats several
 * existing unique indexes (a second process or a restart on the same database), so only the
 * missing ones are sent, one per call. Processes that start together on a fresh database race for
 * the same indexes: a failed call is retried (a few times, jittered) after listing again, and
 * counts as done once the index exists, whoever created it.
 */
async function ensureIndexes(d: Db, name: string, specs: readonly IndexDescription[]): Promise<void> {
  const collection = d.collection(name);
  const existingNames = () =>
    collection.indexes().then(
      (list) => new Set(list.map((index) => index.name)),
      (err: unknown) => {
        // NamespaceNotFound: the collection does not exist yet, so no index does either.
        if (
          err instanceof MongoServerError &&
          (err.code === 26 || /not found|does not exist/i.test(err.message))
        )
          return new Set<string | undefined>();
        throw err;
      },
    );
  const attempts = 6;
  for (let attempt = 1; ; attempt++) {
    try {
      const existing = await existingNames();
      for (const spec of specs) {
        if (!existing.has(spec.name)) await collection.createIndexes([spec]);
      }
      return;
    } catch (err) {
      if (attempt >= attempts) throw err;
      // Another process is creating the same indexes (or the server dropped the connection on a
      // repeat): wait a little and look again.
      await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt * (0.5 + Math.random())));
    }
  }
}

export function createMongoDatabase(options: MongoDatabaseOptions): Database {
  if (!options || (typeof options.uri !== 'string' && !options.client)) {
    throw new TypeError(
      '[assetloom/core] createMongoStore: pass { uri } (a mongodb:// connection string) or { client }',
    );
  }
  const ownsClient = !options.client;
  const client =
    options.client ??
    new MongoClient(options.uri ?? '', { serverSelectionTimeoutMS: 10_000, ...options.clientOptions });
  const dbName = options.dbName ?? databaseNameOf(options.uri ?? '') ?? 'assetloom';
  let connected: Promise<Db> | undefined;
  let db: Db | undefined;

  function database(): Promise<Db> {
    if (db !== undefined) return Promise.resolve(db);
    if (connected === undefined) {
      connected = (ownsClient ? client.connect() : Promise.resolve(client)).then(() => {
        db = client.db(dbName);
        return db;
      });
      connected.catch(() => {
        connected = undefined;
      });
    }
    return connected;
  }

  let atomic: Promise<boolean> | undefined;
  function atomicUpdates(): Promise<boolean> {
    if (options.atomicIncrements !== undefined) return Promise.resolve(options.atomicIncrements);
    if (atomic === undefined) {
      atomic = database()
        .then((d) => d.admin().command({ buildInfo: 1 }))
        .then((info) => typeof info.ferretdbVersion !== 'string');
      atomic.catch(() => {
        atomic = undefined;
      });
    }
    return atomic;
  }

  function collectionOf<D extends object>(spec: CollectionSpec): Collection<D> {
    const raw = async () => (await database()).collection(spec.name);
    // The documents MongoDB answers are the documents the repositories stored: D by construction.
    const asD = (d: Document): D => d as D;

    /** The duplicate an insert met: named by the server, else the first unique value that exists. */
    async function duplicateOf(err: unknown, docs: readonly object[]): Promise<never> {
      if (!isDuplicate(err)) throw err;
      const known = duplicateFieldOf(spec, err);
      if (known !== undefined) throw new DuplicateKeyError(known, { cause: err });
      const candidates = uniqueIndexes(spec).filter((i) =>
        Object.keys(i.key).every((f) => docs.some((d) => f in d)),
      );
      if (candidates.length === 1)
        throw new DuplicateKeyError(candidates[0]?.reports ?? 'id', { cause: err });
      const c = await raw();
      for (const index of candidates) {
        const fields = Object.keys(index.key);
        const values = (field: string) => docs.map((d) => new Map(Object.entries(d)).get(field));
        const probe: Document =
          fields.length === 1
            ? { [fields[0] as string]: { $in: values(fields[0] as string) } }
            : { $or: docs.map((_, n) => Object.fromEntries(fields.map((f) => [f, { $eq: values(f)[n] }]))) };
        const exists = await c.countDocuments(probe, { limit: 1 }).then(
          (n) => n > 0,
          () => false,
        );
        if (exists) throw new DuplicateKeyError(index.reports ?? 'id', { cause: err });
      }
      throw new DuplicateKeyError('id', { cause: err });
    }

    const rethrow = (err: unknown): never => {
      if (!isDuplicate(err)) throw err;
      throw new DuplicateKeyError(duplicateFieldOf(spec, err) ?? 'id', { cause: err });
    };

    return {
      name: spec.name,
      async findOne(filter, map) {
        const doc = await (await raw()).findOne(toMongoFilter(filter));
        return doc ? map(asD(doc)) : null;
      },
      async find(filter, options = {}) {
        const projection =
          options.fields === undefined ? undefined : Object.fromEntries(options.fields.map((f) => [f, 1]));
        let cursor = (await raw()).find(toMongoFilter(filter), projection ? { projection } : {});
        if (options.sort !== undefined) {
          const sort = Object.entries(options.sort).filter((e): e is [string, 1 | -1] => e[1] !== undefined);
          cursor = cursor.sort(Object.fromEntries(sort));
        }
        if (options.skip !== undefined) cursor = cursor.skip(options.skip);
        if (options.limit !== undefined) cursor = cursor.limit(options.limit);
        return (await cursor.toArray()).map(asD);
      },
      async page(field, value, window, map) {
        const { skip, limit } = sanitizeWindow(window);
        const c = await raw();
        const filter = { [field]: { $eq: value } };
        const total = await c.countDocuments(filter);
        if (skip >= total || skip > MAX_SKIP) return { total, items: [] };
        const docs = await c.find(filter).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit).toArray();
        return { total, items: docs.map((d) => map(asD(d))) };
      },
      async count(filter, options) {
        const c = await raw();
        return c.countDocuments(
          toMongoFilter(filter),
          options?.limit === undefined ? {} : { limit: options.limit },
        );
      },
      async sum(filter, field) {
        const [row] = await (await raw())
          .aggregate<{ total: number }>([
            { $match: toMongoFilter(filter) },
            { $group: { _id: null, total: { $sum: `$${field}` } } },
          ])
          .toArray();
        return typeof row?.total === 'number' ? row.total : 0;
      },
      async insertOne(doc) {
        const c = await raw();
        const copy: Document = { ...doc };
        await c.insertOne(copy).catch((err: unknown) => duplicateOf(err, [doc]));
      },
      async insertMany(docs) {
        if (docs.length === 0) return;
        const c = await raw();
        await c
          .insertMany(
            docs.map((d): Document => ({ ...d })),
            { ordered: true },
          )
          .catch((err: unknown) => duplicateOf(err, docs));
      },
      async updateOne(filter, change, options) {
        const res = await (await raw())
          .updateOne(
            toMongoFilter(filter),
            toMongoUpdate(change),
            options?.upsert === true ? { upsert: true } : {},
          )
          .catch(rethrow);
        return res.matchedCount > 0 || res.upsertedCount > 0;
      },
      async updateMany(filter, change) {
        const res = await (await raw())
          .updateMany(toMongoFilter(filter), toMongoUpdate(change))
          .catch(rethrow);
        return res.matchedCount;
      },
      async findOneAndUpdate(filter, change, options) {
        const doc = await (await raw())
          .findOneAndUpdate(toMongoFilter(filter), toMongoUpdate(change), {
            returnDocument: 'after',
            ...(options?.upsert === true ? { upsert: true } : {}),
          })
          .catch(rethrow);
        return doc ? asD(doc) : null;
      },
      async deleteOne(filter) {
        return (await (await raw()).deleteOne(toMongoFilter(filter))).deletedCount > 0;
      },
      async deleteMany(filter) {
        return (await (await raw()).deleteMany(toMongoFilter(filter))).deletedCount;
      },
    };
  }

  return {
    kind: 'mongodb',
    traits: { atomicUpdates, indexedOr: true },
    collection: collectionOf,
    async open() {
      await database();
    },
    async ensureIndexes(spec, names) {
      const wanted = spec.indexes.filter(
        (i) => !i.builtin && i.only !== 'embedded' && (names === undefined || names.includes(i.name)),
      );
      if (wanted.length === 0) return;
      await ensureIndexes(
        await database(),
        spec.name,
        wanted.map((i) => ({ key: { ...i.key }, name: i.name, ...(i.unique ? { unique: true } : {}) })),
      );
    },
    async close() {
      const wasConnecting = connected;
      db = undefined;
      connected = undefined;
      await wasConnecting?.catch(() => undefined);
      if (ownsClient) await client.close();
    },
  };
}

function toMongoUpdate<D>(change: Update<D>): Document {
  const out: Document = {};
  if (change.$set !== undefined) out.$set = { ...change.$set };
  if (change.$inc !== undefined) out.$inc = { ...change.$inc };
  if (change.$max !== undefined) out.$max = { ...change.$max };
  return out;
}
