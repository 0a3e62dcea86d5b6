import Datastore from '@seald-io/nedb';
import { makeWritesAtomic } from '../internal/nedb-atomic.js';
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

export interface EmbeddedReviewStoreOptions {
  /**
   * Folder holding one append-only file per collection (`review_users.db`, …) — the same folder
   * as the asset API's embedded store is fine. Without it the store lives in memory only.
   */
  dir?: string;
  /** Compact a collection's file after this many writes to it (default 20 000). */
  compactEvery?: number;
}

type Doc = Record<string, unknown>;

interface Collection {
  db: Datastore<Doc>;
  writes: number;
}

function isUniqueViolation(err: unknown): err is { errorType: string; key: unknown } {
  return (err as { errorType?: unknown } | null)?.errorType === 'uniqueViolated';
}

/**
 * The review helper's embedded store on @seald-io/nedb (memory-only without `dir`, which is what
 * browsers and tests use). NeDB runs each operation through its own queue; the id allocation still
 * retries on a collision, like the MongoDB adapter, so the rule is the same everywhere.
 */
export function createEmbeddedReviewStore(options: EmbeddedReviewStoreOptions = {}): ReviewStore {
  const dir = options.dir === undefined ? undefined : String(options.dir).replace(/[\\/]+$/, '');
  if (dir !== undefined && dir.length === 0) {
    throw new TypeError(
      '[assetloom/core] createEmbeddedReviewStore: dir must be a non-empty path, or omitted for memory',
    );
  }
  const compactEvery = Math.max(100, Math.floor(options.compactEvery ?? 20_000));

  function open(name: string): Collection {
    const db =
      dir === undefined
        ? new Datastore<Doc>({ inMemoryOnly: true })
        : new Datastore<Doc>({ filename: `${dir}/${name}.db` });
    // A write whose append to the file fails is undone in memory (see ../internal/nedb-atomic.ts).
    if (dir !== undefined) makeWritesAtomic(db, `${name}.db`);
    return { db, writes: 0 };
  }

  const users = open(REVIEW_COLLECTIONS.users);
  const settings = open(REVIEW_COLLECTIONS.settings);
  const sessions = open(REVIEW_COLLECTIONS.sessions);
  const all = [users, settings, sessions];

  let ready: Promise<void> | undefined;
  let closed = false;

  async function doInit(): Promise<void> {
    for (const c of all) await c.db.loadDatabaseAsync();
    await users.db.ensureIndexAsync({ fieldName: 'email', unique: true });
    await settings.db.ensureIndexAsync({ fieldName: 'userId' });
    await sessions.db.ensureIndexAsync({ fieldName: 'expiresAt' });
  }

  function use(): Promise<void> {
    if (closed) {
      return Promise.reject(
        new Error('[assetloom/core] the embedded review store is closed; create a new one'),
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

  function wrote(c: Collection, n = 1): void {
    if (dir === undefined || n === 0) return;
    c.writes += n;
    if (c.writes >= compactEvery) {
      c.writes = 0;
      c.db.compactDatafileAsync().catch(() => undefined);
    }
  }

  async function largestUserId(): Promise<number> {
    const docs = await users.db.findAsync({}, { _id: 1 }).sort({ _id: -1 }).limit(1);
    const top = docs[0]?._id;
    return typeof top === 'number' && Number.isSafeInteger(top) ? top : 0;
  }

  return {
    kind: dir === undefined ? 'memory' : 'embedded',
    init: use,
    async close() {
      if (closed) return;
      const wasReady = ready;
      closed = true;
      if (wasReady && dir !== undefined) {
        await wasReady.catch(() => undefined);
        for (const c of all) await c.db.compactDatafileAsync();
      }
    },

    users: {
      async create(user) {
        checkNewUser(user);
        await use();
        for (let attempt = 1; ; attempt++) {
          const id = (await largestUserId()) + 1;
          const doc = userToDoc(id, user);
          try {
            await users.db.insertAsync(doc as unknown as Doc);
            wrote(users);
            return docToUser(doc);
          } catch (err) {
            if (!isUniqueViolation(err)) throw err;
            if (err.key === doc.email) throw emailTaken(err);
            if (attempt >= MAX_ID_ATTEMPTS) throw err;
          }
        }
      },
      async byEmail(email) {
        const filter = { email: requireString(email, 'email') };
        await use();
        const doc = await users.db.findOneAsync(filter);
        return doc ? docToUser(doc as unknown as ReviewUserDoc) : null;
      },
      async byId(id) {
        const filter = { _id: requireInt(id, 'user id') };
        await use();
        const doc = await users.db.findOneAsync(filter);
        return doc ? docToUser(doc as unknown as ReviewUserDoc) : null;
      },
      async delete(id) {
        const filter = { _id: requireInt(id, 'user id') };
        await use();
        const n = await users.db.removeAsync(filter, { multi: false });
        wrote(users, n);
        return n > 0;
      },
    },

    settings: {
      async insertMissing(userId, entries, at) {
        const docs = settingDocs(userId, entries, at);
        await use();
        let inserted = 0;
        for (const doc of docs) {
          try {
            await settings.db.insertAsync(doc as unknown as Doc);
            inserted++;
          } catch (err) {
            if (!isUniqueViolation(err)) throw err;
          }
        }
        wrote(settings, inserted);
        return inserted;
      },
      async list(userId) {
        const filter = { userId: requireInt(userId, 'user id') };
        await use();
        const docs = await settings.db.findAsync(filter).sort({ key: 1 });
        return (docs as unknown as ReviewSettingDoc[]).map(docToSetting);
      },
      async deleteByUser(userId) {
        const filter = { userId: requireInt(userId, 'user id') };
        await use();
        const n = await settings.db.removeAsync(filter, { multi: true });
        wrote(settings, n);
        return n;
      },
    },

    sessions: {
      async get(id, now) {
        const filter = { _id: requireString(id, 'session id') };
        const at = requireDate(now, 'now');
        await use();
        const doc = (await sessions.db.findOneAsync(filter)) as unknown as ReviewSessionDoc | null;
        if (!doc) return null;
        const record = docToSession(doc);
        return record.expiresAt.getTime() > at.getTime() ? record : null;
      },
      async set(record) {
        const doc = sessionToDoc(record);
        await use();
        await sessions.db.updateAsync({ _id: doc._id }, doc as unknown as Doc, {
          upsert: true,
          multi: false,
        });
        wrote(sessions);
      },
      async destroy(id) {
        const filter = { _id: requireString(id, 'session id') };
        await use();
        const n = await sessions.db.removeAsync(filter, { multi: false });
        wrote(sessions, n);
      },
      async purgeExpired(now) {
        const filter = { expiresAt: { $lte: requireDate(now, 'now') } };
        await use();
        const n = await sessions.db.removeAsync(filter, { multi: true });
        wrote(sessions, n);
        return n;
      },
    },
  };
}
