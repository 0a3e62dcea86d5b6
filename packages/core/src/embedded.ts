import Datastore from '@seald-io/nedb';
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
import { mapOnce } from './internal/frozen.js';
import { type AtomicWrites, makeWritesAtomic } from './internal/nedb-atomic.js';
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
import { embeddedUploadRepository, ensureEmbeddedUploadIndexes } from './uploads/embedded.js';
import { legacyUsernameKey, usernameKeyOf } from './usernames.js';
import {
  embeddedWebhookRepositories,
  ensureEmbeddedWebhookIndexes,
  type NedbCollectionOps,
} from './webhooks/embedded.js';

export interface EmbeddedStoreOptions {
  /**
   * Folder holding one append-only file per collection (created when missing, compacted on open
   * and on close). Without it the store lives in memory only (the mock and browsers use that).
   */
  dir?: string;
  /** Compact a collection's file after this many writes to it (default 20 000). */
  compactEvery?: number;
}

type Doc = Record<string, unknown>;

interface Collection {
  name: string;
  db: Datastore<Doc>;
  /** Unique fields, in the order a duplicate is attributed to them. */
  unique: ReadonlyArray<readonly [field: string, reported: string]>;
  writes: number;
  /** File-backed collections only: a write whose append fails is undone (see internal/nedb-atomic.ts). */
  atomic: AtomicWrites | undefined;
}

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/**
 * `docs` newest first, as a new array. NeDB keeps the documents of one index key in the order they
 * were stored, which for documents that are created and not since replaced is oldest first: one
 * pass checks that and the copy is reversed; any other order is sorted.
 */
function newestFirstCopy(docs: readonly Doc[]): Doc[] {
  for (let i = 1; i < docs.length; i++) {
    if (newestFirst(docs[i - 1] as Doc, docs[i] as Doc) < 0) return docs.slice().sort(newestFirst);
  }
  return docs.slice().reverse();
}

/** Pages remembered by one embedded store (see `pageByIndex`). */
const MAX_PAGE_MEMOS = 1024;

interface PageMemo {
  map: unknown;
  skip: number;
  limit: number;
  /** The documents of the index key when the page was made, in NeDB's order. */
  docs: readonly Doc[];
  page: { total: number; items: readonly unknown[] };
}

/** Whether `now` holds the same document objects as `before`, in the same order. */
function sameDocuments(before: readonly Doc[], now: readonly Doc[]): boolean {
  if (before.length !== now.length) return false;
  for (let i = 0; i < now.length; i++) if (before[i] !== now[i]) return false;
  return true;
}

/** The same order as NEWEST_FIRST, as a comparator over stored documents. */
function newestFirst(a: Doc, b: Doc): number {
  const ta = (a.createdAt as Date).getTime();
  const tb = (b.createdAt as Date).getTime();
  if (ta !== tb) return tb - ta;
  const ia = a._id as string;
  const ib = b._id as string;
  return ia < ib ? 1 : ia > ib ? -1 : 0;
}

/**
 * The embedded store on @seald-io/nedb: Mongo-like queries, unique indexes, one file-backed append
 * log per collection under `dir` (or memory only). Every operation runs through NeDB's own queue,
 * so a unique-index check and its insert are atomic within the process. One process per `dir`.
 * A write is applied only if its append to the data file succeeds: when the append fails the
 * change is undone in memory and the call rejects, so an operation that fails leaves no trace.
 */
export function createEmbeddedStore(options: EmbeddedStoreOptions = {}): Store {
  const dir = options.dir === undefined ? undefined : String(options.dir).replace(/[\\/]+$/, '');
  if (dir !== undefined && dir.length === 0) {
    throw new TypeError(
      '[assetloom/core] createEmbeddedStore: dir must be a non-empty path, or omitted for memory',
    );
  }
  const compactEvery = Math.max(100, Math.floor(options.compactEvery ?? 20_000));

  function open(name: string, unique: Collection['unique']): Collection {
    if (dir === undefined) {
      return { name, db: new Datastore<Doc>({ inMemoryOnly: true }), unique, writes: 0, atomic: undefined };
    }
    const db = new Datastore<Doc>({ filename: `${dir}/${name}.db` });
    return { name, db, unique, writes: 0, atomic: makeWritesAtomic(db, `${name}.db`) };
  }

  const users = open('users', [
    ['username', 'username'],
    ['usernameKey', 'username'],
    ['emailKey', 'email'],
  ]);
  const projects = open('projects', []);
  const tasks = open('tasks', [
    ['activeKey', 'dedupeKey'],
    ['idemKey', 'idempotencyKey'],
  ]);
  const events = open('events', [['evKey', 'seq']]);
  const assets = open('assets', [['key', 'key']]);
  const counters = open('counters', []);
  const claims = open('task_claims', [['_id', 'claim']]);
  const webhookHooks = open('webhooks', []);
  const webhookDeliveries = open('webhook_deliveries', [['_id', 'id']]);
  const uploadDocs = open('uploads', [['_id', 'id']]);
  const uploadUses = open('upload_uses', [['_id', 'id']]);
  const all = [
    users,
    projects,
    tasks,
    events,
    assets,
    counters,
    claims,
    webhookHooks,
    webhookDeliveries,
    uploadDocs,
    uploadUses,
  ];

  let ready: Promise<void> | undefined;
  let closed = false;

  async function doInit(): Promise<void> {
    for (const c of all) await c.db.loadDatabaseAsync();
    await users.db.ensureIndexAsync({ fieldName: 'username', unique: true });
    await backfillUsernameKeys();
    await users.db.ensureIndexAsync({ fieldName: 'usernameKey', unique: true });
    await users.db.ensureIndexAsync({ fieldName: 'emailKey', unique: true });
    await projects.db.ensureIndexAsync({ fieldName: 'ownerId' });
    await tasks.db.ensureIndexAsync({ fieldName: 'projectId' });
    await tasks.db.ensureIndexAsync({ fieldName: 'activeKey', unique: true });
    await tasks.db.ensureIndexAsync({ fieldName: 'idemKey', unique: true });
    await events.db.ensureIndexAsync({ fieldName: 'evKey', unique: true });
    await events.db.ensureIndexAsync({ fieldName: 'taskId' });
    await assets.db.ensureIndexAsync({ fieldName: 'key', unique: true });
    await assets.db.ensureIndexAsync({ fieldName: 'taskId' });
    await assets.db.ensureIndexAsync({ fieldName: 'projectId' });
    await tasks.db.ensureIndexAsync({ fieldName: 'status' });
    await tasks.db.ensureIndexAsync({ fieldName: 'ownerId' });
    await claims.db.ensureIndexAsync({ fieldName: 'taskId' });
    await ensureEmbeddedWebhookIndexes(webhookHooks.db, webhookDeliveries.db);
    await ensureEmbeddedUploadIndexes(uploadDocs.db, uploadUses.db);
  }

  /**
   * Users stored before usernames had a uniqueness key get one (usernames.ts). Two older users whose
   * names share a key (`alice` and `ALICE`) both keep working: the later one gets
   * `legacyUsernameKey(id)` as its key, so it is found by its exact name only.
   */
  async function backfillUsernameKeys(): Promise<void> {
    const missing = await users.db.findAsync({ usernameKey: { $exists: false } });
    if (missing.length === 0) return;
    const taken = new Set(
      (await users.db.findAsync({ usernameKey: { $exists: true } })).map((d) => String(d.usernameKey)),
    );
    missing.sort((a, b) => Number(a._id) - Number(b._id));
    for (const doc of missing) {
      let key = usernameKeyOf(String(doc.username));
      if (taken.has(key)) key = legacyUsernameKey(Number(doc._id));
      taken.add(key);
      await users.db.updateAsync({ _id: doc._id }, { $set: { usernameKey: key } }, {});
    }
  }

  function use(): Promise<void> {
    if (closed)
      return Promise.reject(new Error('[assetloom/core] the embedded store is closed; create a new one'));
    if (!ready) {
      ready = doInit();
      ready.then(
        () => {
          initialized = true;
        },
        () => {
          ready = undefined;
        },
      );
    }
    return ready;
  }

  /** True once the store is loaded and while it is open: the index reads then skip the await of `use()`. */
  let initialized = false;
  const usable = (): boolean => initialized && !closed;
  /**
   * Whether the index reads may look at `c`'s indexes now: not while a write is between its
   * in-memory change and the end of its append (it may yet be undone). Reads then queue behind it.
   */
  const settled = (c: Collection): boolean => c.atomic === undefined || !c.atomic.writing;

  /** Counts a write and compacts the file now and then (queued behind the write in NeDB's executor). */
  function wrote(c: Collection, n = 1): void {
    if (dir === undefined) return;
    c.writes += n;
    if (c.writes >= compactEvery) {
      c.writes = 0;
      c.db.compactDatafileAsync().catch(() => undefined);
    }
  }

  function mapDuplicate(c: Collection, err: unknown, doc: Doc | readonly Doc[]): never {
    const e = err as { errorType?: string; key?: unknown };
    if (e?.errorType === 'uniqueViolated') {
      const docs = Array.isArray(doc) ? doc : [doc];
      for (const [field, reported] of c.unique) {
        if (docs.some((d) => d[field] === e.key)) throw new DuplicateKeyError(reported, { cause: err });
      }
      throw new DuplicateKeyError('id', { cause: err });
    }
    throw err;
  }

  async function insert(c: Collection, doc: Doc | Doc[]): Promise<void> {
    await use();
    try {
      await c.db.insertAsync(doc as Doc);
    } catch (err) {
      mapDuplicate(c, err, doc);
    }
    wrote(c, Array.isArray(doc) ? doc.length : 1);
  }

  async function page<D, R>(
    c: Collection,
    query: Doc,
    window: { skip: number; limit: number },
    map: (d: D) => R,
  ): Promise<{ total: number; items: R[] }> {
    await use();
    const { skip, limit } = sanitizeWindow(window);
    const total = await c.db.countAsync(query);
    if (skip >= total || skip > MAX_SKIP) return { total, items: [] };
    const docs = await c.db.findAsync(query).sort(NEWEST_FIRST).skip(skip).limit(limit);
    return { total, items: (docs as unknown as D[]).map(map) };
  }

  /**
   * A newest-first page of the documents whose indexed `field` equals `value`, read straight from
   * NeDB's in-memory index: no query matching, no deep copies (each stored document version is mapped once, to a frozen record),
   * and the total without a second scan. NeDB applies each write to its indexes synchronously, so
   * the read sees every write that has resolved. Falls back to a query when the index is missing.
   */
  /**
   * The mappers of the index reads, remembered per stored document: NeDB replaces a document
   * object on every update and never changes one in place, so each document version maps to one
   * frozen record (see internal/frozen.ts). Reads through a query (copies) map afresh.
   */
  const onceMappers = new Map<unknown, unknown>();
  function once<D, R>(map: (d: D) => R): (d: D) => R {
    let memo = onceMappers.get(map) as ((d: D) => R) | undefined;
    if (memo === undefined) {
      memo = mapOnce(map as (d: D & object) => R) as (d: D) => R;
      onceMappers.set(map, memo);
    }
    return memo;
  }

  /**
   * The last page read per collection, field and value. A page is a function of the stored
   * document versions under that index key (NeDB replaces a document object on every write and
   * never edits one in place) and of the window, so when the key still holds the very same document
   * objects, in the same order, the frozen page made last time is the answer: no copy, no sort, no
   * mapping. The check compares every document of the key by identity, which the sort needed to
   * walk anyway. At most {@link MAX_PAGE_MEMOS} keys are remembered (the oldest goes first).
   */
  const pageMemos = new Map<string, PageMemo>();

  async function pageByIndex<D, R>(
    c: Collection,
    field: string,
    value: string | number,
    window: { skip: number; limit: number },
    map: (d: D) => R,
  ): Promise<{ total: number; items: R[] }> {
    if (!usable()) await use();
    const index = settled(c) ? indexOf(c, field) : undefined;
    if (!index) return page(c, { [field]: value }, window, map);
    const { skip, limit } = sanitizeWindow(window);
    const matching = index.getMatching(value);
    const total = matching.length;
    if (skip >= total || skip > MAX_SKIP) return { total, items: [] };
    const key = `${c.name}\u0000${field}\u0000${typeof value}\u0000${value}`;
    const memo = pageMemos.get(key);
    if (
      memo !== undefined &&
      memo.map === map &&
      memo.skip === skip &&
      memo.limit === limit &&
      sameDocuments(memo.docs, matching)
    ) {
      return memo.page as { total: number; items: R[] };
    }
    const sorted = newestFirstCopy(matching);
    const items = (sorted.slice(skip, skip + limit) as unknown as D[]).map(once(map));
    const result = Object.freeze({ total, items: Object.freeze(items) as R[] });
    if (memo === undefined && pageMemos.size >= MAX_PAGE_MEMOS) {
      pageMemos.delete(pageMemos.keys().next().value as string);
    }
    pageMemos.set(key, { map, skip, limit, docs: matching.slice(), page: result });
    return result;
  }

  /**
   * The document whose indexed field equals a value. Every lookup here is one equality on an
   * indexed field, so it reads NeDB's in-memory index directly (no queue round, no deep copy: each
   * document version maps to one frozen record); a query without a usable index goes through NeDB as usual.
   */
  async function one<D, R>(c: Collection, query: Doc, map: (d: D) => R): Promise<R | null> {
    if (!usable()) await use();
    const fields = Object.keys(query);
    const field = fields.length === 1 ? (fields[0] as string) : undefined;
    const value = field === undefined ? undefined : query[field];
    const index =
      field !== undefined && (typeof value === 'string' || typeof value === 'number') && settled(c)
        ? indexOf(c, field)
        : undefined;
    if (index) {
      const doc = index.getMatching(value)[0];
      return doc ? once(map)(doc as unknown as D) : null;
    }
    const doc = await c.db.findOneAsync(query);
    return doc ? map(doc as unknown as D) : null;
  }

  function indexOf(c: Collection, field: string): { getMatching(v: unknown): Doc[] } | undefined {
    const index = (c.db as unknown as { indexes?: Record<string, { getMatching?: unknown }> }).indexes?.[
      field
    ];
    return index && typeof index.getMatching === 'function'
      ? (index as { getMatching(v: unknown): Doc[] })
      : undefined;
  }

  async function updateOne<D, R>(
    c: Collection,
    id: unknown,
    update: Doc,
    map: (d: D) => R,
  ): Promise<R | null> {
    await use();
    const res = await c.db.updateAsync({ _id: id }, update, { multi: false, returnUpdatedDocs: true });
    if (res.numAffected === 0 || !res.affectedDocuments) return null;
    wrote(c);
    return map(res.affectedDocuments as unknown as D);
  }

  async function remove(c: Collection, query: Doc): Promise<number> {
    await use();
    const n = await c.db.removeAsync(query, { multi: true });
    if (n > 0) wrote(c, n);
    return n;
  }

  const opsOf = (c: Collection): NedbCollectionOps => ({
    db: c.db,
    insert: (doc) => insert(c, doc),
    wrote: (n) => wrote(c, n),
  });
  const webhookRepositories = embeddedWebhookRepositories(use, opsOf(webhookHooks), opsOf(webhookDeliveries));

  return {
    kind: dir === undefined ? 'memory' : 'embedded',
    webhooks: webhookRepositories.webhooks,
    webhookDeliveries: webhookRepositories.webhookDeliveries,
    uploads: embeddedUploadRepository(use, opsOf(uploadDocs), opsOf(uploadUses)),
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
      async nextId() {
        await use();
        const res = await counters.db.updateAsync(
          { _id: 'users' },
          { $inc: { seq: 1 } },
          { upsert: true, returnUpdatedDocs: true, multi: false },
        );
        wrote(counters);
        const doc = res.affectedDocuments as unknown as { seq: number } | null;
        if (!doc || !Number.isSafeInteger(doc.seq))
          throw new Error('[assetloom/core] the user id counter is corrupt');
        return doc.seq;
      },
      async insert(user) {
        requireInt(user.id, 'user id');
        requireString(user.username, 'username');
        await insert(users, userToDoc(user) as unknown as Doc);
      },
      byId: async (id) =>
        one<UserDoc, ReturnType<typeof docToUser>>(users, { _id: requireInt(id, 'user id') }, docToUser),
      byUsername: async (name) => one(users, { username: requireString(name, 'username') }, docToUser),
      byUsernameKey: async (key) =>
        one(users, { usernameKey: requireString(key, 'username key') }, docToUser),
      async updatePassword(id, passwordHash, tokenVersion, at) {
        const version = requireInt(tokenVersion, 'token version');
        const update = {
          $set: {
            passwordHash: requireString(passwordHash, 'password hash'),
            tokenVersion: version,
            updatedAt: requireDate(at, 'updatedAt'),
          },
        };
        await use();
        // NeDB runs every operation through its queue: the match and the write are one step.
        const res = await users.db.updateAsync(
          { _id: requireInt(id, 'user id'), tokenVersion: version - 1 },
          update,
          { multi: false },
        );
        if (res.numAffected === 0) return false;
        wrote(users);
        return true;
      },
    },

    projects: {
      async insert(project) {
        requireString(project.id, 'project id');
        requireInt(project.ownerId, 'owner id');
        await insert(projects, projectToDoc(project) as unknown as Doc);
      },
      byId: async (id) =>
        one<ProjectDoc, ReturnType<typeof docToProject>>(
          projects,
          { _id: requireString(id, 'project id') },
          docToProject,
        ),
      listByOwner: async (ownerId, window) =>
        pageByIndex(projects, 'ownerId', requireInt(ownerId, 'owner id'), window, docToProject),
      async update(id, patch) {
        const set: Doc = { updatedAt: requireDate(patch.updatedAt, 'updatedAt') };
        if (patch.name !== undefined) set.name = requireString(patch.name, 'name');
        if (patch.style !== undefined) set.style = styleToPairs(patch.style);
        return updateOne(projects, requireString(id, 'project id'), { $set: set }, docToProject);
      },
      async delete(id) {
        return (await remove(projects, { _id: requireString(id, 'project id') })) > 0;
      },
      async touch(id, touch) {
        const res = await updateOne(
          projects,
          requireString(id, 'project id'),
          {
            $inc: { taskCount: requireInt(touch.taskCountDelta, 'taskCountDelta') },
            $max: { lastActivityAt: requireDate(touch.lastActivityAt, 'lastActivityAt') },
          },
          () => true,
        );
        return res === true;
      },
    },

    tasks: {
      async insert(task) {
        requireString(task.id, 'task id');
        requireInt(task.ownerId, 'owner id');
        requireString(task.projectId, 'project id');
        requireString(task.dedupeKey, 'dedupe key');
        await insert(tasks, taskToDoc(task) as unknown as Doc);
      },
      byId: async (id) =>
        one<TaskDoc, ReturnType<typeof docToTask>>(tasks, { _id: requireString(id, 'task id') }, docToTask),
      listByProject: async (projectId, window) =>
        pageByIndex(tasks, 'projectId', requireString(projectId, 'project id'), window, docToTask),
      async activeByOwner(ownerId, limit) {
        const owner = requireInt(ownerId, 'owner id');
        const n = Math.max(1, Math.min(1000, requireInt(limit, 'limit')));
        await use();
        // The unique active key is `a:<owner>:<dedupe>` exactly while a task runs or saves.
        const docs = await tasks.db
          .findAsync({ activeKey: { $gte: `a:${owner}:`, $lt: `a:${owner};` } })
          .limit(n);
        return docs.map((d) => docToTask(d as unknown as TaskDoc));
      },
      async storedBytesByOwner(ownerId) {
        const owner = requireInt(ownerId, 'owner id');
        await use();
        const docs = await tasks.db.findAsync(
          { ownerId: owner, storedBytes: { $gt: 0 } },
          { storedBytes: 1 },
        );
        return docs.reduce((sum, d) => sum + (typeof d.storedBytes === 'number' ? d.storedBytes : 0), 0);
      },
      findActiveByDedupeKey: async (ownerId, key) =>
        one(
          tasks,
          { activeKey: activeKeyFor(requireInt(ownerId, 'owner id'), requireString(key, 'dedupe key')) },
          docToTask,
        ),
      findByIdempotencyKey: async (ownerId, key) =>
        one(
          tasks,
          { idemKey: idemKeyFor(requireInt(ownerId, 'owner id'), requireString(key, 'idempotency key')) },
          docToTask,
        ),
      async update(id, patch) {
        const taskId = requireString(id, 'task id');
        requireDate(patch?.updatedAt, 'updatedAt');
        return updateOne(tasks, taskId, { $set: taskPatchToSet(taskId, patch) }, docToTask);
      },
      async statusByIds(ids) {
        if (!Array.isArray(ids))
          throw new TypeError('[assetloom/core] statusByIds expects an array of task ids');
        const out = new Map<string, TaskDoc['status']>();
        if (ids.length === 0) return out;
        await use();
        const list = ids.map((id) => requireString(id, 'task id'));
        const docs = await tasks.db.findAsync({ _id: { $in: list } }, { _id: 1, status: 1 });
        for (const d of docs as unknown as Pick<TaskDoc, '_id' | 'status'>[])
          out.set(String(d._id), d.status);
        return out;
      },
      async updateIfClaimed(id, attempts, patch) {
        const taskId = requireString(id, 'task id');
        requireDate(patch?.updatedAt, 'updatedAt');
        await use();
        const res = await tasks.db.updateAsync(
          {
            _id: taskId,
            attempts: requireInt(attempts, 'attempts'),
            status: { $in: [...ACTIVE_TASK_STATUSES] },
          },
          { $set: taskPatchToSet(taskId, patch) },
          { multi: false, returnUpdatedDocs: true },
        );
        if (res.numAffected === 0 || !res.affectedDocuments) return null;
        wrote(tasks);
        return docToTask(res.affectedDocuments as unknown as TaskDoc);
      },
      async idsByProject(projectId) {
        await use();
        const docs = await tasks.db.findAsync(
          { projectId: requireString(projectId, 'project id') },
          { _id: 1 },
        );
        return docs.map((d) => String(d._id));
      },
      async listClaimable(now, limit) {
        await use();
        const at = requireDate(now, 'now');
        const n = requireInt(limit, 'limit');
        if (n < 1 || n > 1000) throw new TypeError('[assetloom/core] listClaimable: limit must be 1-1000');
        const docs = await tasks.db
          .findAsync({
            status: { $in: [...ACTIVE_TASK_STATUSES] },
            $or: [{ lease: null }, { 'lease.until': { $lte: at } }],
          })
          .sort({ createdAt: 1, _id: 1 })
          .limit(n);
        return (docs as unknown as TaskDoc[]).map(docToTask);
      },
      deleteByProject: async (projectId) =>
        remove(tasks, { projectId: requireString(projectId, 'project id') }),
    },

    claims: {
      async insert(claim) {
        requireString(claim.taskId, 'task id');
        requireInt(claim.attempt, 'attempt');
        requireString(claim.owner, 'owner');
        requireDate(claim.until, 'until');
        requireDate(claim.at, 'at');
        await insert(claims, claimToDoc(claim) as unknown as Doc);
      },
      get: async (taskId, attempt) =>
        one<ClaimDoc, ReturnType<typeof docToClaim>>(
          claims,
          { _id: claimKeyOf(requireString(taskId, 'task id'), requireInt(attempt, 'attempt')) },
          docToClaim,
        ),
      async latest(taskId) {
        await use();
        const docs = await claims.db
          .findAsync({ taskId: requireString(taskId, 'task id') })
          .sort({ attempt: -1 })
          .limit(1);
        const doc = docs[0] as unknown as ClaimDoc | undefined;
        return doc ? docToClaim(doc) : null;
      },
      async renew(taskId, attempt, owner, until) {
        await use();
        const id = claimKeyOf(requireString(taskId, 'task id'), requireInt(attempt, 'attempt'));
        const res = await claims.db.updateAsync(
          { _id: id, owner: requireString(owner, 'owner') },
          { $set: { until: requireDate(until, 'until') } },
          { multi: false },
        );
        if (res.numAffected > 0) wrote(claims);
        return res.numAffected > 0;
      },
      async markOutlived(taskId, attempt, owner, at) {
        await use();
        const id = claimKeyOf(requireString(taskId, 'task id'), requireInt(attempt, 'attempt'));
        const res = await claims.db.updateAsync(
          { _id: id, owner: requireString(owner, 'owner') },
          { $set: { outlivedAt: requireDate(at, 'at') } },
          { multi: false },
        );
        if (res.numAffected > 0) wrote(claims);
      },
      async listByTask(taskId) {
        await use();
        const docs = await claims.db
          .findAsync({ taskId: requireString(taskId, 'task id') })
          .sort({ attempt: 1 });
        return (docs as unknown as ClaimDoc[]).map(docToClaim);
      },
      async deleteByTask(taskIds) {
        if (!Array.isArray(taskIds))
          throw new TypeError('[assetloom/core] deleteByTask expects an array of task ids');
        if (taskIds.length === 0) return 0;
        return remove(claims, { taskId: { $in: taskIds.map((id) => requireString(id, 'task id')) } });
      },
    },

    events: {
      async append(event) {
        requireString(event.taskId, 'task id');
        requireInt(event.seq, 'seq');
        requireDate(event.at, 'at');
        await insert(events, eventToDoc(event) as unknown as Doc);
      },
      async appendMany(list) {
        if (!Array.isArray(list))
          throw new TypeError('[assetloom/core] appendMany expects an array of events');
        if (list.length === 0) return;
        const docs = list.map((event) => {
          requireString(event.taskId, 'task id');
          requireInt(event.seq, 'seq');
          requireDate(event.at, 'at');
          return eventToDoc(event) as unknown as Doc;
        });
        await insert(events, docs);
      },
      async list(taskId, afterSeq) {
        await use();
        const docs = await events.db
          .findAsync({
            taskId: requireString(taskId, 'task id'),
            seq: { $gt: requireInt(afterSeq, 'afterSeq') },
          })
          .sort({ seq: 1 });
        return (docs as unknown as EventDoc[]).map(docToEvent);
      },
      async listForTasks(cursors) {
        if (!Array.isArray(cursors))
          throw new TypeError('[assetloom/core] listForTasks expects an array of cursors');
        if (cursors.length === 0) return [];
        await use();
        // One indexed read of the tasks' events, filtered by each task's seq here: NeDB answers a
        // top-level $or by testing every document of the collection against every branch, a cost
        // that grows with all the events ever stored times the streams open (decision 0026).
        const after = new Map<string, number>();
        for (const c of cursors) {
          const taskId = requireString(c?.taskId, 'task id');
          const afterSeq = requireInt(c?.afterSeq, 'afterSeq');
          const known = after.get(taskId);
          if (known === undefined || afterSeq < known) after.set(taskId, afterSeq);
        }
        const found = await events.db
          .findAsync(
            after.size === 1 ? { taskId: [...after.keys()][0] } : { taskId: { $in: [...after.keys()] } },
          )
          .sort({ taskId: 1, seq: 1 });
        const docs = (found as unknown as EventDoc[]).filter(
          (d) => d.seq > (after.get(d.taskId) ?? Infinity),
        );
        return docs.map(docToEvent);
      },
      async deleteByTask(taskIds) {
        if (!Array.isArray(taskIds))
          throw new TypeError('[assetloom/core] deleteByTask expects an array of task ids');
        if (taskIds.length === 0) return 0;
        return remove(events, { taskId: { $in: taskIds.map((id) => requireString(id, 'task id')) } });
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
          return assetToDoc(a) as unknown as Doc;
        });
        await insert(assets, docs);
      },
      async listByTask(taskId) {
        await use();
        const docs = await assets.db
          .findAsync({ taskId: requireString(taskId, 'task id') })
          .sort({ createdAt: 1, key: 1 });
        return (docs as unknown as AssetDoc[]).map(docToAsset);
      },
      byKey: async (key) => one(assets, { key: requireString(key, 'asset key') }, docToAsset),
      async deleteByProject(projectId) {
        await use();
        const query = { projectId: requireString(projectId, 'project id') };
        const docs = await assets.db.findAsync(query, { key: 1 });
        await remove(assets, query);
        return docs.map((d) => String(d.key));
      },
    },
  };
}
