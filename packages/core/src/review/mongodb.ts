import { type Collection, type Db, MongoClient, type MongoClientOptions, MongoServerError } from 'mongodb';
import { requireDate, requireInt, requireString } from '../store.js';
import {
  checkNewUser,
  docToSession,
  docToSetting,
  docToUser,
  emailTaken,
  MAX_ID_ATTEMPTS,
  REVIEW_COLLECTIONS,
  type ReviewSessionDoc,
  type ReviewSettingDoc,
  type ReviewStore,
  type ReviewUserDoc,
  sessionToDoc,
  settingDocs,
  userToDoc,
} from './store.js';

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

function isDuplicate(err: unknown): err is MongoServerError {
  return err instanceof MongoServerError && (err.code === 11000 || err.code === 11001);
}

function databaseNameOf(uri: string): string | undefined {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri);
  const name = match?.[1] ? decodeURIComponent(match[1]) : undefined;
  return name && name.length > 0 ? name : undefined;
}

/**
 * The review helper's MongoDB adapter (official driver; MongoDB ≥ 6 and FerretDB v1). Only unique
 * inserts decide races: user ids are "largest + 1, retry on E11000" (no $inc counters, which
 * FerretDB v1 loses under concurrency), settings are inserted one by one with duplicates tolerated
 * (never upserts), and expired sessions are deleted by query (no TTL indexes). Every filter is an
 * explicit `$eq` over a checked primitive.
 */
export function createMongoReviewStore(options: MongoReviewStoreOptions): ReviewStore {
  if (!options || (typeof options.uri !== 'string' && !options.client && !options.db)) {
    throw new TypeError(
      '[assetloom/core] createMongoReviewStore: pass { uri } (a mongodb:// connection string), { client } or { db }',
    );
  }
  const ownsClient = !options.client && !options.db;
  const client = options.db
    ? undefined
    : (options.client ??
      new MongoClient(options.uri as string, { serverSelectionTimeoutMS: 10_000, ...options.clientOptions }));
  const dbName = options.dbName ?? databaseNameOf(options.uri ?? '') ?? 'assetloom';

  let db: Db | undefined;
  let ready: Promise<Db> | undefined;
  let closed = false;

  async function doInit(): Promise<Db> {
    let d: Db;
    if (options.db) {
      d = options.db;
    } else {
      if (ownsClient) await (client as MongoClient).connect();
      d = (client as MongoClient).db(dbName);
    }
    // Indexes are created at start-up, on empty collections where new (FerretDB cannot build a
    // unique index over existing duplicates).
    await d
      .collection(REVIEW_COLLECTIONS.users)
      .createIndexes([{ key: { email: 1 }, name: 'review_users_email_unique', unique: true }]);
    await d
      .collection(REVIEW_COLLECTIONS.settings)
      .createIndexes([{ key: { userId: 1, key: 1 }, name: 'review_settings_user_key' }]);
    await d
      .collection(REVIEW_COLLECTIONS.sessions)
      .createIndexes([{ key: { expiresAt: 1 }, name: 'review_sessions_expires' }]);
    db = d;
    return d;
  }

  function use(): Promise<Db> {
    if (closed) {
      return Promise.reject(
        new Error('[assetloom/core] the MongoDB review store is closed; create a new one'),
      );
    }
    if (db) return Promise.resolve(db);
    if (!ready) {
      ready = doInit();
      ready.catch(() => {
        ready = undefined;
      });
    }
    return ready;
  }

  const users = async () => (await use()).collection<ReviewUserDoc>(REVIEW_COLLECTIONS.users);
  const settings = async () => (await use()).collection<ReviewSettingDoc>(REVIEW_COLLECTIONS.settings);
  const sessions = async () => (await use()).collection<ReviewSessionDoc>(REVIEW_COLLECTIONS.sessions);

  async function largestUserId(c: Collection<ReviewUserDoc>): Promise<number> {
    const top = await c
      .find({}, { projection: { _id: 1 } })
      .sort({ _id: -1 })
      .limit(1)
      .toArray();
    const id = top[0]?._id;
    return typeof id === 'number' && Number.isSafeInteger(id) ? id : 0;
  }

  return {
    kind: 'mongodb',
    async init() {
      await use();
    },
    async close() {
      if (closed) return;
      closed = true;
      await ready?.catch(() => undefined);
      if (ownsClient) await (client as MongoClient).close();
    },

    users: {
      async create(user) {
        checkNewUser(user);
        const c = await users();
        for (let attempt = 1; ; attempt++) {
          const doc = userToDoc((await largestUserId(c)) + 1, user);
          try {
            await c.insertOne(doc);
            return docToUser(doc);
          } catch (err) {
            if (!isDuplicate(err)) throw err;
            // FerretDB v1 does not name the index in E11000, so ask: is it the e-mail?
            const taken = (await c.countDocuments({ email: { $eq: doc.email } }, { limit: 1 })) > 0;
            if (taken) throw emailTaken(err);
            if (attempt >= MAX_ID_ATTEMPTS) throw err;
          }
        }
      },
      async byEmail(email) {
        const filter = { email: { $eq: requireString(email, 'email') } };
        const doc = await (await users()).findOne(filter);
        return doc ? docToUser(doc as ReviewUserDoc) : null;
      },
      async byId(id) {
        const filter = { _id: { $eq: requireInt(id, 'user id') } };
        const doc = await (await users()).findOne(filter);
        return doc ? docToUser(doc as ReviewUserDoc) : null;
      },
      async delete(id) {
        const filter = { _id: { $eq: requireInt(id, 'user id') } };
        const res = await (await users()).deleteOne(filter);
        return res.deletedCount > 0;
      },
    },

    settings: {
      async insertMissing(userId, entries, at) {
        const docs = settingDocs(userId, entries, at);
        const c = await settings();
        let inserted = 0;
        for (const doc of docs) {
          try {
            await c.insertOne(doc);
            inserted++;
          } catch (err) {
            if (!isDuplicate(err)) throw err;
          }
        }
        return inserted;
      },
      async list(userId) {
        const filter = { userId: { $eq: requireInt(userId, 'user id') } };
        const docs = await (await settings()).find(filter).sort({ key: 1 }).toArray();
        return (docs as ReviewSettingDoc[]).map(docToSetting);
      },
      async deleteByUser(userId) {
        const filter = { userId: { $eq: requireInt(userId, 'user id') } };
        const res = await (await settings()).deleteMany(filter);
        return res.deletedCount;
      },
    },

    sessions: {
      async get(id, now) {
        const filter = { _id: { $eq: requireString(id, 'session id') } };
        const at = requireDate(now, 'now');
        const doc = await (await sessions()).findOne(filter);
        if (!doc) return null;
        const record = docToSession(doc as ReviewSessionDoc);
        return record.expiresAt.getTime() > at.getTime() ? record : null;
      },
      async set(record) {
        const { _id, ...rest } = sessionToDoc(record);
        const c = await sessions();
        try {
          await c.replaceOne({ _id: { $eq: _id } }, rest, { upsert: true });
        } catch (err) {
          // Two first saves of one id raced on the insert: the loser replaces the winner's document.
          if (!isDuplicate(err)) throw err;
          await c.replaceOne({ _id: { $eq: _id } }, rest);
        }
      },
      async destroy(id) {
        const filter = { _id: { $eq: requireString(id, 'session id') } };
        await (await sessions()).deleteOne(filter);
      },
      async purgeExpired(now) {
        const filter = { expiresAt: { $lte: requireDate(now, 'now') } };
        const res = await (await sessions()).deleteMany(filter);
        return res.deletedCount;
      },
    },
  };
}
