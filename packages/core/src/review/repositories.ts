import type { CollectionSpec, Database } from '../store/driver.js';
import { DuplicateKeyError, requireDate, requireInt, requireString } from '../store.js';
import {
  checkNewUser,
  docToSession,
  docToSetting,
  docToUser,
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

/** `_id`, listed so that a duplicate of it is probed (and reported as 'id') after the others. */
const ID_INDEX = { name: '_id_', key: { _id: 1 }, unique: true, builtin: true, reports: 'id' } as const;

/**
 * The review collections and their indexes (the MongoDB names are those of the first release; NeDB
 * indexes each index's first field). A duplicate user is probed for its e-mail before its id, so an
 * insert that collides on both is reported as the e-mail taken.
 */
export const REVIEW_COLLECTION_SPECS = {
  users: {
    name: REVIEW_COLLECTIONS.users,
    indexes: [
      { name: 'review_users_email_unique', key: { email: 1 }, unique: true, reports: 'email' },
      ID_INDEX,
    ],
  },
  settings: {
    name: REVIEW_COLLECTIONS.settings,
    indexes: [ID_INDEX, { name: 'review_settings_user_key', key: { userId: 1, key: 1 } }],
  },
  sessions: {
    name: REVIEW_COLLECTIONS.sessions,
    indexes: [ID_INDEX, { name: 'review_sessions_expires', key: { expiresAt: 1 } }],
  },
} as const satisfies Record<string, CollectionSpec>;

/**
 * The review helper's store over a collection driver (decision 0038), the same on NeDB, MongoDB
 * and FerretDB v1. Only unique inserts decide races: user ids are "largest + 1, retry on a
 * duplicate id" (no $inc counters, which FerretDB v1 loses under concurrency), settings are
 * inserted one by one with duplicates tolerated (never upserts), two first saves of one session
 * that race on the insert end with the loser replacing the winner, and expired sessions are
 * deleted by query (no TTL indexes). Every argument is checked to be a primitive before any I/O.
 */
export function createReviewRepositories(database: Database): ReviewStore {
  const specs = Object.values(REVIEW_COLLECTION_SPECS);
  const users = database.collection<ReviewUserDoc>(REVIEW_COLLECTION_SPECS.users);
  const settings = database.collection<ReviewSettingDoc>(REVIEW_COLLECTION_SPECS.settings);
  const sessions = database.collection<ReviewSessionDoc>(REVIEW_COLLECTION_SPECS.sessions);
  const name = database.kind === 'mongodb' ? 'MongoDB' : 'embedded';

  let ready: Promise<void> | undefined;
  let closed = false;

  async function doInit(): Promise<void> {
    await database.open();
    // Created at start-up, on empty collections where new (FerretDB cannot build a unique index
    // over existing duplicates).
    for (const spec of specs) await database.ensureIndexes(spec);
  }

  function use(): Promise<void> {
    if (closed) {
      return Promise.reject(
        new Error(`[assetloom/core] the ${name} review store is closed; create a new one`),
      );
    }
    if (!ready) {
      ready = doInit();
      ready.catch(() => {
        ready = undefined;
      });
    }
    return ready;
  }

  /**
   * `filter`, once the store is open. Callers build it from checked values in the call, so a bad
   * argument rejects before any I/O.
   */
  async function opened<F>(filter: F): Promise<F> {
    await use();
    return filter;
  }
  const userFilter = (id: number) => ({ _id: requireInt(id, 'user id') });
  const settingsFilter = (id: number) => ({ userId: requireInt(id, 'user id') });
  const sessionFilter = (id: string) => ({ _id: requireString(id, 'session id') });

  async function largestUserId(): Promise<number> {
    const [top] = await users.find({}, { fields: ['_id'], sort: { _id: -1 }, limit: 1 });
    return typeof top?._id === 'number' && Number.isSafeInteger(top._id) ? top._id : 0;
  }

  /** Inserts `doc`; false when its id is taken (a setting that exists, left unchanged). */
  async function insertNew(doc: ReviewSettingDoc): Promise<boolean> {
    try {
      await settings.insertOne(doc);
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  return {
    kind: database.kind,
    init: use,
    async close() {
      if (closed) return;
      closed = true;
      await ready?.catch(() => undefined);
      await database.close();
    },

    users: {
      async create(user) {
        checkNewUser(user);
        await use();
        for (let attempt = 1; ; attempt++) {
          const doc = userToDoc((await largestUserId()) + 1, user);
          try {
            await users.insertOne(doc);
            return docToUser(doc);
          } catch (err) {
            // The e-mail is taken, or another registration took the id: read the largest again.
            if (!(err instanceof DuplicateKeyError) || err.field === 'email' || attempt >= MAX_ID_ATTEMPTS) {
              throw err;
            }
          }
        }
      },
      byEmail: async (email) =>
        users.findOne(await opened({ email: requireString(email, 'email') }), docToUser),
      byId: async (id) => users.findOne(await opened(userFilter(id)), docToUser),
      delete: async (id) => users.deleteOne(await opened(userFilter(id))),
    },

    settings: {
      async insertMissing(userId, entries, at) {
        const docs = settingDocs(userId, entries, at);
        await use();
        let inserted = 0;
        for (const doc of docs) if (await insertNew(doc)) inserted++;
        return inserted;
      },
      list: async (userId) =>
        (await settings.find(await opened(settingsFilter(userId)), { sort: { key: 1 } })).map(docToSetting),
      deleteByUser: async (userId) => settings.deleteMany(await opened(settingsFilter(userId))),
    },

    sessions: {
      async get(id, now) {
        const filter = sessionFilter(id);
        const at = requireDate(now, 'now');
        const record = await sessions.findOne(await opened(filter), docToSession);
        return record !== null && record.expiresAt.getTime() > at.getTime() ? record : null;
      },
      async set(record) {
        const { _id, ...rest } = sessionToDoc(record);
        await use();
        try {
          await sessions.updateOne({ _id }, { $set: rest }, { upsert: true });
        } catch (err) {
          // Two first saves of one id raced on the insert: the loser replaces the winner's fields.
          if (!(err instanceof DuplicateKeyError)) throw err;
          await sessions.updateOne({ _id }, { $set: rest });
        }
      },
      async destroy(id) {
        await sessions.deleteOne(await opened(sessionFilter(id)));
      },
      purgeExpired: async (now) =>
        sessions.deleteMany(await opened({ expiresAt: { $lte: requireDate(now, 'now') } })),
    },
  };
}
