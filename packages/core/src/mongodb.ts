import {
  type Collection,
  type Db,
  type Filter,
  type IndexDescription,
  MongoClient,
  type MongoClientOptions,
  MongoServerError,
} from 'mongodb';
import {
  type AssetDoc,
  assetToDoc,
  type ClaimDoc,
  claimToDoc,
  docToAsset,
  docToClaim,
  docToEvent,
  docToProject,
  docToTask,
  docToUser,
  type EventDoc,
  eventToDoc,
  type ProjectDoc,
  projectToDoc,
  type TaskDoc,
  taskPatchToSet,
  taskToDoc,
  type UserDoc,
  userToDoc,
} from './internal/documents.js';
import {
  activeKeyFor,
  claimKeyOf,
  DuplicateKeyError,
  idemKeyFor,
  MAX_SKIP,
  requireDate,
  requireInt,
  requireString,
  type Store,
  sanitizeWindow,
  styleToPairs,
} from './store.js';
import { ACTIVE_TASK_STATUSES } from './types.js';
import {
  mongoUploadRepository,
  UPLOAD_INDEXES,
  UPLOAD_USES_COLLECTION,
  UPLOADS_COLLECTION,
} from './uploads/mongodb.js';
import { legacyUsernameKey, usernameKeyOf } from './usernames.js';
import {
  mongoWebhookRepositories,
  WEBHOOK_DELIVERIES_COLLECTION,
  WEBHOOK_INDEXES,
  WEBHOOKS_COLLECTION,
} from './webhooks/mongodb.js';

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

interface CounterDoc {
  _id: string;
  seq: number;
  /** When a reservation was taken (password-change reservations only). */
  at?: Date;
}

/** A password-change reservation older than this whose change never landed may be taken over. */
const STALE_PASSWORD_RESERVATION_MS = 60_000;

/** Index name → the field a duplicate of it is reported as. Names are fixed so E11000 maps reliably. */
const UNIQUE_INDEXES: Record<string, string> = {
  users_username_unique: 'username',
  users_usernameKey_unique: 'username',
  users_emailKey_unique: 'email',
  tasks_activeKey_unique: 'dedupeKey',
  tasks_idemKey_unique: 'idempotencyKey',
  events_taskId_seq_unique: 'seq',
  assets_key_unique: 'key',
};

/** Which reported field a key pattern's first field belongs to, when the server names no index. */
const FIELD_OF_KEY: Record<string, string> = {
  username: 'username',
  usernameKey: 'username',
  emailKey: 'email',
  activeKey: 'dedupeKey',
  idemKey: 'idempotencyKey',
  seq: 'seq',
  key: 'key',
  _id: 'id',
};

function isDuplicate(err: unknown): err is MongoServerError {
  return err instanceof MongoServerError && (err.code === 11000 || err.code === 11001);
}

/**
 * The field an E11000 names: from the index name in the message (MongoDB), else from keyPattern.
 * undefined when the server says neither (FerretDB v1 answers only "E11000 duplicate key error
 * collection: db.coll"); the adapter then finds the colliding field with equality lookups.
 */
export function duplicateFieldOf(err: unknown): string | undefined {
  if (!isDuplicate(err)) return undefined;
  const message = String(err.message ?? '');
  const named = /index:\s+(\S+)/.exec(message)?.[1];
  if (named && UNIQUE_INDEXES[named]) return UNIQUE_INDEXES[named];
  const pattern = (err as { keyPattern?: Record<string, unknown> }).keyPattern;
  const keys = pattern ? Object.keys(pattern) : [];
  if (keys.includes('seq')) return 'seq';
  const first = keys[0];
  if (first && FIELD_OF_KEY[first]) return FIELD_OF_KEY[first];
  for (const [index, field] of Object.entries(UNIQUE_INDEXES)) {
    if (message.includes(index)) return field;
  }
  return undefined;
}

/** E11000 → DuplicateKeyError (field from the error, else 'id'); anything else is rethrown. */
export function mapDuplicateKey(err: unknown): never {
  if (!isDuplicate(err)) throw err;
  throw new DuplicateKeyError(duplicateFieldOf(err) ?? 'id', { cause: err });
}

type Probe = readonly [field: string, exists: () => Promise<boolean>];

/** Like mapDuplicateKey, but when the server names no index, asks which unique value already exists. */
async function mapDuplicateKeyBy(err: unknown, probes: readonly Probe[]): Promise<never> {
  if (!isDuplicate(err)) throw err;
  const known = duplicateFieldOf(err);
  if (known) throw new DuplicateKeyError(known, { cause: err });
  for (const [field, exists] of probes) {
    if (await exists().catch(() => false)) throw new DuplicateKeyError(field, { cause: err });
  }
  throw new DuplicateKeyError('id', { cause: err });
}

/**
 * Runs read-modify-write updates of one document one at a time within this process. MongoDB's
 * $inc is atomic anyway; FerretDB v1 (SQLite) loses concurrent $inc updates of one document, and
 * this keeps a single server process correct there too.
 */
function keyedSerial() {
  const tails = new Map<string, Promise<unknown>>();
  return async function serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

function databaseNameOf(uri: string): string | undefined {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri);
  const name = match?.[1] ? decodeURIComponent(match[1]) : undefined;
  return name && name.length > 0 ? name : undefined;
}

/**
 * Creates the indexes a collection lacks, by name. Asking again for indexes that exist is a no-op
 * on MongoDB, but FerretDB v1 drops the connection when one createIndexes call repeats several
 * existing unique indexes (a second process or a restart on the same database), so only the
 * missing ones are sent, one per call. Processes that start together on a fresh database race for
 * the same indexes: a failed call is retried (a few times, jittered) after listing again, and
 * counts as done once the index exists, whoever created it.
 */
/**
 * Users stored before usernames had a uniqueness key get one (usernames.ts); a later user whose
 * name shares an earlier user's key keeps working under `legacyUsernameKey(id)` (found by its exact
 * name only). Idempotent; several processes starting at once write the same values.
 */
async function backfillUsernameKeys(d: Db): Promise<void> {
  const c = d.collection<UserDoc>('users');
  const missing = await c
    .find({ usernameKey: { $exists: false } })
    .sort({ _id: 1 })
    .toArray();
  for (const doc of missing) {
    let key = usernameKeyOf(String(doc.username));
    const holder = await c.findOne({ usernameKey: { $eq: key } });
    if (holder !== null && holder._id !== doc._id) key = legacyUsernameKey(Number(doc._id));
    await c.updateOne(
      { _id: { $eq: doc._id }, usernameKey: { $exists: false } },
      { $set: { usernameKey: key } },
    );
  }
}

async function ensureIndexes(d: Db, name: string, specs: IndexDescription[]): Promise<void> {
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

/**
 * The MongoDB adapter (official driver). Works on MongoDB ≥ 6 and on FerretDB v1: no $lookup, no
 * transactions, no change streams, no partial indexes (unique e-mail "where present" and the dedupe
 * slot are plain unique indexes over derived string fields, see store.ts). Every filter is an
 * explicit `$eq` over a value the domain typed and checked.
 */
export function createMongoStore(options: MongoStoreOptions): Store {
  if (!options || (typeof options.uri !== 'string' && !options.client)) {
    throw new TypeError(
      '[assetloom/core] createMongoStore: pass { uri } (a mongodb:// connection string) or { client }',
    );
  }
  const ownsClient = !options.client;
  const client =
    options.client ??
    new MongoClient(options.uri, { serverSelectionTimeoutMS: 10_000, ...options.clientOptions });
  const dbName = options.dbName ?? databaseNameOf(options.uri ?? '') ?? 'assetloom';

  const serial = keyedSerial();
  let atomic: Promise<boolean> | undefined;
  /**
   * Whether the server applies $inc atomically: MongoDB does; FerretDB (its buildInfo names a
   * ferretdbVersion) does not. Asked once; `atomicIncrements` in the options overrides.
   */
  function atomicIncrements(): Promise<boolean> {
    if (options.atomicIncrements !== undefined) return Promise.resolve(options.atomicIncrements);
    if (atomic === undefined) {
      atomic = use()
        .then((d) => d.admin().command({ buildInfo: 1 }))
        .then((info) => typeof info.ferretdbVersion !== 'string');
      atomic.catch(() => {
        atomic = undefined;
      });
    }
    return atomic;
  }
  let db: Db | undefined;
  let ready: Promise<Db> | undefined;
  let closed = false;

  async function doInit(): Promise<Db> {
    if (ownsClient) await client.connect();
    const d = client.db(dbName);
    await ensureIndexes(d, 'users', [
      { key: { username: 1 }, name: 'users_username_unique', unique: true },
      { key: { emailKey: 1 }, name: 'users_emailKey_unique', unique: true },
    ]);
    await backfillUsernameKeys(d);
    await ensureIndexes(d, 'users', [
      { key: { usernameKey: 1 }, name: 'users_usernameKey_unique', unique: true },
    ]);
    await ensureIndexes(d, 'projects', [
      { key: { ownerId: 1, createdAt: -1, _id: -1 }, name: 'projects_owner_newest' },
    ]);
    await ensureIndexes(d, 'tasks', [
      { key: { projectId: 1, createdAt: -1, _id: -1 }, name: 'tasks_project_newest' },
      { key: { activeKey: 1 }, name: 'tasks_activeKey_unique', unique: true },
      { key: { idemKey: 1 }, name: 'tasks_idemKey_unique', unique: true },
      { key: { status: 1, 'lease.until': 1 }, name: 'tasks_status_lease' },
      { key: { ownerId: 1, storedBytes: 1 }, name: 'tasks_owner_bytes' },
    ]);
    await ensureIndexes(d, 'events', [
      { key: { taskId: 1, seq: 1 }, name: 'events_taskId_seq_unique', unique: true },
    ]);
    await ensureIndexes(d, 'assets', [
      { key: { key: 1 }, name: 'assets_key_unique', unique: true },
      { key: { taskId: 1, createdAt: 1 }, name: 'assets_task' },
      { key: { projectId: 1 }, name: 'assets_project' },
    ]);
    await ensureIndexes(d, 'task_claims', [
      { key: { taskId: 1, attempt: -1 }, name: 'task_claims_task_attempt' },
    ]);
    await ensureIndexes(d, UPLOADS_COLLECTION, [...UPLOAD_INDEXES[UPLOADS_COLLECTION]]);
    await ensureIndexes(d, UPLOAD_USES_COLLECTION, [...UPLOAD_INDEXES[UPLOAD_USES_COLLECTION]]);
    await ensureIndexes(d, WEBHOOKS_COLLECTION, [...WEBHOOK_INDEXES[WEBHOOKS_COLLECTION]]);
    await ensureIndexes(d, WEBHOOK_DELIVERIES_COLLECTION, [
      ...WEBHOOK_INDEXES[WEBHOOK_DELIVERIES_COLLECTION],
    ]);
    db = d;
    return d;
  }

  function use(): Promise<Db> {
    if (closed)
      return Promise.reject(new Error('[assetloom/core] the MongoDB store is closed; create a new one'));
    if (db) return Promise.resolve(db);
    if (!ready) {
      ready = doInit();
      ready.catch(() => {
        ready = undefined;
      });
    }
    return ready;
  }

  async function col<T extends object>(name: string): Promise<Collection<T>> {
    return (await use()).collection<T>(name);
  }

  const users = () => col<UserDoc>('users');
  const projects = () => col<ProjectDoc>('projects');
  const tasks = () => col<TaskDoc>('tasks');
  const events = () => col<EventDoc>('events');
  const assets = () => col<AssetDoc>('assets');
  const counters = () => col<CounterDoc>('counters');
  const claims = () => col<ClaimDoc>('task_claims');

  async function page<D extends object, R>(
    c: Collection<D>,
    filter: Filter<D>,
    window: { skip: number; limit: number },
    map: (d: D) => R,
  ): Promise<{ total: number; items: R[] }> {
    const { skip, limit } = sanitizeWindow(window);
    const total = await c.countDocuments(filter);
    if (skip >= total || skip > MAX_SKIP) return { total, items: [] };
    const docs = await c.find(filter).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit).toArray();
    return { total, items: (docs as D[]).map(map) };
  }

  const webhookRepositories = mongoWebhookRepositories(use, mapDuplicateKey);

  return {
    kind: 'mongodb',
    webhooks: webhookRepositories.webhooks,
    webhookDeliveries: webhookRepositories.webhookDeliveries,
    uploads: mongoUploadRepository(use, mapDuplicateKey),
    async init() {
      await use();
    },
    async close() {
      if (closed) return;
      closed = true;
      await ready?.catch(() => undefined);
      if (ownsClient) await client.close();
    },

    users: {
      async nextId() {
        const c = await counters();
        if (!(await atomicIncrements())) {
          // FerretDB: concurrent $inc from several processes hands the same id out twice, again and
          // again under load. An id is taken by INSERTING its reservation (`users#<id>`, unique by
          // _id), which exactly one racer wins; the counter only says where to start looking.
          return serial('counter:users', async () => {
            const start = (await c.findOne({ _id: { $eq: 'users' } }))?.seq ?? 0;
            if (!Number.isSafeInteger(start))
              throw new Error('[assetloom/core] the user id counter is corrupt');
            for (let id = start + 1; id <= start + 1000; id++) {
              try {
                await c.insertOne({ _id: `users#${id}`, seq: id });
              } catch (err) {
                if (isDuplicate(err)) continue;
                throw err;
              }
              await c
                .updateOne({ _id: { $eq: 'users' } }, { $max: { seq: id } }, { upsert: true })
                .catch((err: unknown) => {
                  // two first-ever upserts race on _id: the other one wrote the counter
                  if (!isDuplicate(err)) throw err;
                });
              return id;
            }
            throw new Error('[assetloom/core] could not reserve a user id (1000 taken in a row)');
          });
        }
        return serial('counter:users', async () => {
          for (let attempt = 0; ; attempt++) {
            try {
              const doc = await c.findOneAndUpdate(
                { _id: { $eq: 'users' } },
                { $inc: { seq: 1 } },
                { upsert: true, returnDocument: 'after' },
              );
              if (!doc || !Number.isSafeInteger(doc.seq))
                throw new Error('[assetloom/core] the user id counter is corrupt');
              return doc.seq;
            } catch (err) {
              // Two first-ever upserts can race on _id; the loser simply retries.
              if (isDuplicate(err) && attempt < 3) continue;
              throw err;
            }
          }
        });
      },
      async insert(user) {
        requireInt(user.id, 'user id');
        requireString(user.username, 'username');
        const c = await users();
        const doc = userToDoc(user);
        await c.insertOne(doc).catch((err: unknown) =>
          mapDuplicateKeyBy(err, [
            // First: an id drawn twice (processes sharing a counter FerretDB does not increment
            // atomically) also collides on the e-mail slot derived from it (`u:<id>`); the service
            // then draws another id instead of answering "e-mail taken".
            ['id', async () => (await c.countDocuments({ _id: { $eq: doc._id } }, { limit: 1 })) > 0],
            [
              'username',
              async () =>
                (await c.countDocuments(
                  { $or: [{ username: { $eq: doc.username } }, { usernameKey: { $eq: doc.usernameKey } }] },
                  { limit: 1 },
                )) > 0,
            ],
            [
              'email',
              async () => (await c.countDocuments({ emailKey: { $eq: doc.emailKey } }, { limit: 1 })) > 0,
            ],
          ]),
        );
      },
      async byId(id) {
        const filter = { _id: { $eq: requireInt(id, 'user id') } };
        const doc = await (await users()).findOne(filter);
        return doc ? docToUser(doc as UserDoc) : null;
      },
      async byUsername(name) {
        const filter = { username: { $eq: requireString(name, 'username') } };
        const doc = await (await users()).findOne(filter);
        return doc ? docToUser(doc as UserDoc) : null;
      },
      async byUsernameKey(key) {
        const filter = { usernameKey: { $eq: requireString(key, 'username key') } };
        const doc = await (await users()).findOne(filter);
        return doc ? docToUser(doc as UserDoc) : null;
      },
      async updatePassword(id, passwordHash, tokenVersion, at) {
        const userId = requireInt(id, 'user id');
        const version = requireInt(tokenVersion, 'token version');
        const filter = { _id: { $eq: userId }, tokenVersion: { $eq: version - 1 } };
        const update = {
          $set: {
            passwordHash: requireString(passwordHash, 'password hash'),
            tokenVersion: version,
            updatedAt: requireDate(at, 'updatedAt'),
          },
        };
        const c = await users();
        if (await atomicIncrements()) {
          // MongoDB applies a filtered single-document update atomically: one racer matches.
          return (await c.updateOne(filter, update)).matchedCount === 1;
        }
        // FerretDB v1 applies updates as read-modify-write, so two filtered updates can both match.
        // The change from version − 1 is taken by INSERTING its reservation (unique by _id), which
        // exactly one racer wins on every target; only the winner writes the user.
        return serial(`password:${userId}`, async () => {
          const reservations = await counters();
          const reservation = `users#${userId}#tv#${version}`;
          for (let round = 0; round < 2; round++) {
            try {
              await reservations.insertOne({ _id: reservation, seq: version, at: new Date() });
            } catch (err) {
              if (!isDuplicate(err)) throw err;
              // Taken. A reservation whose change never landed (its process died in between) would
              // block every later change from this version: once stale, it may be taken over.
              const held = await reservations.findOne({ _id: { $eq: reservation } });
              const current = await c.findOne({ _id: { $eq: userId } });
              const stale =
                held?.at instanceof Date && Date.now() - held.at.getTime() > STALE_PASSWORD_RESERVATION_MS;
              if (round > 0 || !stale || current?.tokenVersion !== version - 1) return false;
              const removed = await reservations.deleteOne({
                _id: { $eq: reservation },
                at: { $eq: held.at },
              });
              if (removed.deletedCount !== 1) return false;
              continue;
            }
            return (await c.updateOne(filter, update)).matchedCount === 1;
          }
          return false;
        });
      },
    },

    projects: {
      async insert(project) {
        requireString(project.id, 'project id');
        requireInt(project.ownerId, 'owner id');
        await (await projects()).insertOne(projectToDoc(project)).catch(mapDuplicateKey);
      },
      async byId(id) {
        const filter = { _id: { $eq: requireString(id, 'project id') } };
        const doc = await (await projects()).findOne(filter);
        return doc ? docToProject(doc as ProjectDoc) : null;
      },
      async listByOwner(ownerId, window) {
        const filter = { ownerId: { $eq: requireInt(ownerId, 'owner id') } };
        const win = sanitizeWindow(window);
        return page(await projects(), filter, win, docToProject);
      },
      async update(id, patch) {
        const set: Partial<ProjectDoc> = { updatedAt: requireDate(patch.updatedAt, 'updatedAt') };
        if (patch.name !== undefined) set.name = requireString(patch.name, 'name');
        if (patch.style !== undefined) set.style = styleToPairs(patch.style);
        const filter = { _id: { $eq: requireString(id, 'project id') } };
        const doc = await (await projects()).findOneAndUpdate(
          filter,
          { $set: set },
          { returnDocument: 'after' },
        );
        return doc ? docToProject(doc as ProjectDoc) : null;
      },
      async delete(id) {
        const filter = { _id: { $eq: requireString(id, 'project id') } };
        const res = await (await projects()).deleteOne(filter);
        return res.deletedCount > 0;
      },
      async touch(id, touch) {
        const projectId = requireString(id, 'project id');
        const update = {
          $inc: { taskCount: requireInt(touch.taskCountDelta, 'taskCountDelta') },
          $max: { lastActivityAt: requireDate(touch.lastActivityAt, 'lastActivityAt') },
        };
        const c = await projects();
        const res = await serial(`project:${projectId}`, () =>
          c.updateOne({ _id: { $eq: projectId } }, update),
        );
        return res.matchedCount > 0;
      },
      async countNewTask(id, lastActivityAt) {
        const projectId = requireString(id, 'project id');
        const at = requireDate(lastActivityAt, 'lastActivityAt');
        if (await atomicIncrements()) {
          const c = await projects();
          const res = await c.updateOne(
            { _id: { $eq: projectId } },
            { $inc: { taskCount: 1 }, $max: { lastActivityAt: at } },
          );
          return res.matchedCount > 0;
        }
        // FerretDB v1 applies an update as read-modify-write, so concurrent $inc from two processes
        // can lose one. The count of the project's tasks is the truth: write it with $max, then count
        // again; a writer whose value is below the new count (another process raced it, or wrote a
        // smaller count over it) writes again. The last writer always checks after its write, so the
        // value ends at least at the number of tasks, and $max never writes it lower on MongoDB.
        const t = await tasks();
        const p = await projects();
        const filter = { projectId: { $eq: projectId } };
        let count = await t.countDocuments(filter);
        for (let round = 0; round < 8; round++) {
          const doc = await p.findOneAndUpdate(
            { _id: { $eq: projectId } },
            { $max: { taskCount: count, lastActivityAt: at } },
            // (no projection: FerretDB v1 does not implement one on findAndModify)
            { returnDocument: 'after' },
          );
          if (!doc) return false;
          const again = await t.countDocuments(filter);
          if ((doc.taskCount as number) >= again) return true;
          count = again;
        }
        return true;
      },
    },

    tasks: {
      async insert(task) {
        requireString(task.id, 'task id');
        requireInt(task.ownerId, 'owner id');
        requireString(task.projectId, 'project id');
        requireString(task.dedupeKey, 'dedupe key');
        const c = await tasks();
        const doc = taskToDoc(task);
        await c.insertOne(doc).catch((err: unknown) =>
          mapDuplicateKeyBy(err, [
            [
              'dedupeKey',
              async () => (await c.countDocuments({ activeKey: { $eq: doc.activeKey } }, { limit: 1 })) > 0,
            ],
            [
              'idempotencyKey',
              async () => (await c.countDocuments({ idemKey: { $eq: doc.idemKey } }, { limit: 1 })) > 0,
            ],
          ]),
        );
      },
      async byId(id) {
        const filter = { _id: { $eq: requireString(id, 'task id') } };
        const doc = await (await tasks()).findOne(filter);
        return doc ? docToTask(doc as TaskDoc) : null;
      },
      async listByProject(projectId, window) {
        const filter = { projectId: { $eq: requireString(projectId, 'project id') } };
        const win = sanitizeWindow(window);
        return page(await tasks(), filter, win, docToTask);
      },
      async activeByOwner(ownerId, limit) {
        const owner = requireInt(ownerId, 'owner id');
        const n = Math.max(1, Math.min(1000, requireInt(limit, 'limit')));
        // The unique active key is `a:<owner>:<dedupe>` exactly while a task runs or saves.
        const docs = await (await tasks())
          .find({ activeKey: { $gte: `a:${owner}:`, $lt: `a:${owner};` } })
          .limit(n)
          .toArray();
        return docs.map((d) => docToTask(d as TaskDoc));
      },
      async storedBytesByOwner(ownerId) {
        const owner = requireInt(ownerId, 'owner id');
        const [row] = await (await tasks())
          .aggregate<{ total: number }>([
            { $match: { ownerId: { $eq: owner }, storedBytes: { $gt: 0 } } },
            { $group: { _id: null, total: { $sum: '$storedBytes' } } },
          ])
          .toArray();
        return typeof row?.total === 'number' ? row.total : 0;
      },
      async findActiveByDedupeKey(ownerId, key) {
        const activeKey = activeKeyFor(requireInt(ownerId, 'owner id'), requireString(key, 'dedupe key'));
        const doc = await (await tasks()).findOne({ activeKey: { $eq: activeKey } });
        return doc ? docToTask(doc as TaskDoc) : null;
      },
      async findByIdempotencyKey(ownerId, key) {
        const idemKey = idemKeyFor(requireInt(ownerId, 'owner id'), requireString(key, 'idempotency key'));
        const doc = await (await tasks()).findOne({ idemKey: { $eq: idemKey } });
        return doc ? docToTask(doc as TaskDoc) : null;
      },
      async update(id, patch) {
        const taskId = requireString(id, 'task id');
        requireDate(patch?.updatedAt, 'updatedAt');
        const set = taskPatchToSet(taskId, patch) as Partial<TaskDoc>;
        const doc = await (await tasks())
          .findOneAndUpdate({ _id: { $eq: taskId } }, { $set: set }, { returnDocument: 'after' })
          .catch(mapDuplicateKey);
        return doc ? docToTask(doc as TaskDoc) : null;
      },
      async updateIfClaimed(id, attempts, patch) {
        const taskId = requireString(id, 'task id');
        requireDate(patch?.updatedAt, 'updatedAt');
        const filter = {
          _id: { $eq: taskId },
          attempts: { $eq: requireInt(attempts, 'attempts') },
          status: { $in: [...ACTIVE_TASK_STATUSES] as TaskDoc['status'][] },
        };
        const set = taskPatchToSet(taskId, patch) as Partial<TaskDoc>;
        const doc = await (await tasks())
          .findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' })
          .catch(mapDuplicateKey);
        return doc ? docToTask(doc as TaskDoc) : null;
      },
      async idsByProject(projectId) {
        const filter = { projectId: { $eq: requireString(projectId, 'project id') } };
        const docs = await (await tasks()).find(filter, { projection: { _id: 1 } }).toArray();
        return docs.map((d) => String(d._id));
      },
      async listClaimable(now, limit) {
        const at = requireDate(now, 'now');
        const n = requireInt(limit, 'limit');
        if (n < 1 || n > 1000) throw new TypeError('[assetloom/core] listClaimable: limit must be 1-1000');
        const docs = await (await tasks())
          .find({
            status: { $in: [...ACTIVE_TASK_STATUSES] },
            $or: [{ lease: { $eq: null } }, { 'lease.until': { $lte: at } }],
          })
          .sort({ createdAt: 1, _id: 1 })
          .limit(n)
          .toArray();
        return (docs as TaskDoc[]).map(docToTask);
      },
      async deleteByProject(projectId) {
        const filter = { projectId: { $eq: requireString(projectId, 'project id') } };
        const res = await (await tasks()).deleteMany(filter);
        return res.deletedCount;
      },
      async statusByIds(ids) {
        if (!Array.isArray(ids))
          throw new TypeError('[assetloom/core] statusByIds expects an array of task ids');
        const out = new Map<string, TaskDoc['status']>();
        if (ids.length === 0) return out;
        const list = ids.map((id) => requireString(id, 'task id'));
        const docs = await (await tasks())
          .find({ _id: { $in: list } }, { projection: { _id: 1, status: 1 } })
          .toArray();
        for (const d of docs) out.set(String(d._id), d.status);
        return out;
      },
    },

    claims: {
      async insert(claim) {
        requireString(claim.taskId, 'task id');
        requireInt(claim.attempt, 'attempt');
        requireString(claim.owner, 'owner');
        requireDate(claim.until, 'until');
        requireDate(claim.at, 'at');
        // The only unique key of the collection is _id, so any E11000 means "already claimed".
        await (await claims()).insertOne(claimToDoc(claim)).catch((err: unknown) => {
          if (isDuplicate(err)) throw new DuplicateKeyError('claim', { cause: err });
          throw err;
        });
      },
      async get(taskId, attempt) {
        const id = claimKeyOf(requireString(taskId, 'task id'), requireInt(attempt, 'attempt'));
        const doc = await (await claims()).findOne({ _id: { $eq: id } });
        return doc ? docToClaim(doc as ClaimDoc) : null;
      },
      async latest(taskId) {
        const filter = { taskId: { $eq: requireString(taskId, 'task id') } };
        const docs = await (await claims()).find(filter).sort({ attempt: -1 }).limit(1).toArray();
        const doc = docs[0];
        return doc ? docToClaim(doc as ClaimDoc) : null;
      },
      async renew(taskId, attempt, owner, until) {
        const id = claimKeyOf(requireString(taskId, 'task id'), requireInt(attempt, 'attempt'));
        const res = await (await claims()).updateOne(
          { _id: { $eq: id }, owner: { $eq: requireString(owner, 'owner') } },
          { $set: { until: requireDate(until, 'until') } },
        );
        return res.matchedCount > 0;
      },
      async markOutlived(taskId, attempt, owner, at) {
        const id = claimKeyOf(requireString(taskId, 'task id'), requireInt(attempt, 'attempt'));
        await (await claims()).updateOne(
          { _id: { $eq: id }, owner: { $eq: requireString(owner, 'owner') } },
          { $set: { outlivedAt: requireDate(at, 'at') } },
        );
      },
      async listByTask(taskId) {
        const filter = { taskId: { $eq: requireString(taskId, 'task id') } };
        const docs = await (await claims()).find(filter).sort({ attempt: 1 }).toArray();
        return docs.map((d) => docToClaim(d as ClaimDoc));
      },
      async deleteByTask(taskIds) {
        if (!Array.isArray(taskIds))
          throw new TypeError('[assetloom/core] deleteByTask expects an array of task ids');
        if (taskIds.length === 0) return 0;
        const ids = taskIds.map((id) => requireString(id, 'task id'));
        const res = await (await claims()).deleteMany({ taskId: { $in: ids } });
        return res.deletedCount;
      },
    },

    events: {
      async append(event) {
        requireString(event.taskId, 'task id');
        requireInt(event.seq, 'seq');
        requireDate(event.at, 'at');
        const c = await events();
        await c
          .insertOne(eventToDoc(event))
          .catch((err: unknown) =>
            mapDuplicateKeyBy(err, [
              [
                'seq',
                async () =>
                  (await c.countDocuments(
                    { taskId: { $eq: event.taskId }, seq: { $eq: event.seq } },
                    { limit: 1 },
                  )) > 0,
              ],
            ]),
          );
      },
      async appendMany(list) {
        if (!Array.isArray(list))
          throw new TypeError('[assetloom/core] appendMany expects an array of events');
        if (list.length === 0) return;
        const docs = list.map((event) => {
          requireString(event.taskId, 'task id');
          requireInt(event.seq, 'seq');
          requireDate(event.at, 'at');
          return eventToDoc(event);
        });
        // The collection's only unique index is (taskId, seq) (_id is generated).
        await (await events()).insertMany(docs, { ordered: true }).catch((err: unknown) => {
          if (isDuplicate(err)) throw new DuplicateKeyError('seq', { cause: err });
          throw err;
        });
      },
      async list(taskId, afterSeq) {
        const filter = {
          taskId: { $eq: requireString(taskId, 'task id') },
          seq: { $gt: requireInt(afterSeq, 'afterSeq') },
        };
        const docs = await (await events()).find(filter).sort({ seq: 1 }).toArray();
        return (docs as EventDoc[]).map(docToEvent);
      },
      async listForTasks(cursors) {
        if (!Array.isArray(cursors))
          throw new TypeError('[assetloom/core] listForTasks expects an array of cursors');
        if (cursors.length === 0) return [];
        // One branch per distinct seq (followers mostly stand at a few), each over the tasks there.
        const bySeq = new Map<number, string[]>();
        for (const c of cursors) {
          const after = requireInt(c?.afterSeq, 'afterSeq');
          const id = requireString(c?.taskId, 'task id');
          const list = bySeq.get(after);
          if (list === undefined) bySeq.set(after, [id]);
          else list.push(id);
        }
        const branches = [...bySeq].map(([after, ids]) => ({
          taskId: ids.length === 1 ? { $eq: ids[0] as string } : { $in: ids },
          seq: { $gt: after },
        }));
        const filter = branches.length === 1 ? (branches[0] as Filter<EventDoc>) : { $or: branches };
        const docs = await (await events()).find(filter).sort({ taskId: 1, seq: 1 }).toArray();
        return (docs as EventDoc[]).map(docToEvent);
      },
      async deleteByTask(taskIds) {
        if (!Array.isArray(taskIds))
          throw new TypeError('[assetloom/core] deleteByTask expects an array of task ids');
        if (taskIds.length === 0) return 0;
        const ids = taskIds.map((id) => requireString(id, 'task id'));
        const res = await (await events()).deleteMany({ taskId: { $in: ids } });
        return res.deletedCount;
      },
    },

    assets: {
      async insertMany(list) {
        if (!Array.isArray(list))
          throw new TypeError('[assetloom/core] insertMany expects an array of assets');
        if (list.length === 0) return;
        const docs = list.map((a) => {
          requireString(a.key, 'asset key');
          requireString(a.taskId, 'task id');
          requireString(a.projectId, 'project id');
          return assetToDoc(a);
        });
        const c = await assets();
        await c
          .insertMany(docs, { ordered: true })
          .catch((err: unknown) =>
            mapDuplicateKeyBy(err, [
              [
                'key',
                async () =>
                  (await c.countDocuments({ key: { $in: docs.map((d) => d.key) } }, { limit: 1 })) > 0,
              ],
            ]),
          );
      },
      async listByTask(taskId) {
        const filter = { taskId: { $eq: requireString(taskId, 'task id') } };
        const docs = await (await assets()).find(filter).sort({ createdAt: 1, key: 1 }).toArray();
        return (docs as AssetDoc[]).map(docToAsset);
      },
      async byKey(key) {
        const filter = { key: { $eq: requireString(key, 'asset key') } };
        const doc = await (await assets()).findOne(filter);
        return doc ? docToAsset(doc as AssetDoc) : null;
      },
      async deleteByProject(projectId) {
        const filter = { projectId: { $eq: requireString(projectId, 'project id') } };
        const c = await assets();
        const docs = await c.find(filter, { projection: { key: 1 } }).toArray();
        await c.deleteMany(filter);
        return docs.map((d) => String(d.key));
      },
    },
  };
}
