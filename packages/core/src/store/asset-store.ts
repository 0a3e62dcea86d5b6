import type { CharacterDoc } from '../characters/records.js';
import { CHARACTER_COLLECTIONS, characterRepository } from '../characters/repositories.js';
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
} from '../internal/documents.js';
import {
  type AssetRepository,
  activeKeyFor,
  type ClaimRepository,
  claimKeyOf,
  DuplicateKeyError,
  type EventRepository,
  idemKeyFor,
  type ProjectRepository,
  requireDate,
  requireInt,
  requireString,
  type Store,
  sanitizeWindow,
  styleToPairs,
  type TaskRepository,
  type UserRepository,
} from '../store.js';
import { ACTIVE_TASK_STATUSES, type TaskStatus } from '../types.js';
import type { UploadDeletionDoc, UploadDoc, UploadSlotDoc, UploadUseDoc } from '../uploads/records.js';
import { UPLOAD_COLLECTIONS, uploadRepository } from '../uploads/repositories.js';
import { legacyUsernameKey, usernameKeyOf } from '../usernames.js';
import type { WebhookDeliveryDoc, WebhookDoc } from '../webhooks/documents.js';
import { WEBHOOK_COLLECTIONS, webhookRepositories } from '../webhooks/repositories.js';
import type { Collection, CollectionSpec, Database, Filter } from './driver.js';

/**
 * The asset API's store, written once over the collection driver (decision 0038): the same
 * repositories run on NeDB (createEmbeddedStore) and on MongoDB or FerretDB (createMongoStore).
 * Where FerretDB v1 differs (its updates are read-modify-write, so `$inc` and filtered updates are
 * not atomic across processes), the repository asks `traits.atomicUpdates()` and takes the path
 * that is correct there; NeDB and MongoDB take the plain one.
 */

interface CounterDoc {
  _id: string;
  seq: number;
  /** When a reservation was taken (password-change reservations only). */
  at?: Date;
}

/** The counter recording which scheme the users' `usernameKey`s were made with. */
const USERNAME_KEYS_COUNTER = 'usernameKeys';
/** 1: case and width (decision 0027); 2: and the confusables skeleton (decision 0043). */
const USERNAME_KEY_SCHEME = 2;

/** Rounds a task count on a non-atomic database may take to settle (see countNewTask). */
const COUNT_ROUNDS = 64;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A password-change reservation older than this whose change never landed may be taken over. */
const STALE_PASSWORD_RESERVATION_MS = 60_000;

const ID = { name: '_id_', key: { _id: 1 }, unique: true, builtin: true } as const;

/** The collections of the asset API and their indexes (unique ones are probed in this order). */
export const STORE_COLLECTIONS = {
  users: {
    name: 'users',
    frozenReads: true,
    indexes: [
      // First: an id drawn twice (processes sharing a counter FerretDB does not increment
      // atomically) also collides on the e-mail slot derived from it (`u:<id>`); the service then
      // draws another id instead of answering "e-mail taken".
      { ...ID, reports: 'id' },
      { name: 'users_username_unique', key: { username: 1 }, unique: true, reports: 'username' },
      { name: 'users_usernameKey_unique', key: { usernameKey: 1 }, unique: true, reports: 'username' },
      { name: 'users_emailKey_unique', key: { emailKey: 1 }, unique: true, reports: 'email' },
    ],
  },
  projects: {
    name: 'projects',
    frozenReads: true,
    indexes: [{ name: 'projects_owner_newest', key: { ownerId: 1, createdAt: -1, _id: -1 } }],
  },
  tasks: {
    name: 'tasks',
    frozenReads: true,
    indexes: [
      { name: 'tasks_project_newest', key: { projectId: 1, createdAt: -1, _id: -1 } },
      // a character's tasks, newest first (decision 0057); tasks of no character have no such field
      { name: 'tasks_character_newest', key: { characterId: 1, createdAt: -1, _id: -1 } },
      { name: 'tasks_activeKey_unique', key: { activeKey: 1 }, unique: true, reports: 'dedupeKey' },
      { name: 'tasks_idemKey_unique', key: { idemKey: 1 }, unique: true, reports: 'idempotencyKey' },
      { name: 'tasks_status_lease', key: { status: 1, 'lease.until': 1 } },
      { name: 'tasks_owner_bytes', key: { ownerId: 1, storedBytes: 1 } },
    ],
  },
  events: {
    name: 'events',
    indexes: [
      {
        name: 'events_taskId_seq_unique',
        key: { taskId: 1, seq: 1 },
        unique: true,
        reports: 'seq',
        embeddedField: 'evKey',
      },
      { name: 'events_task', key: { taskId: 1 }, only: 'embedded' },
    ],
  },
  assets: {
    name: 'assets',
    frozenReads: true,
    indexes: [
      { name: 'assets_key_unique', key: { key: 1 }, unique: true, reports: 'key' },
      { name: 'assets_task', key: { taskId: 1, createdAt: 1 } },
      { name: 'assets_project', key: { projectId: 1 } },
    ],
  },
  counters: { name: 'counters', indexes: [{ ...ID, reports: 'id' }] },
  claims: {
    name: 'task_claims',
    frozenReads: true,
    indexes: [
      { ...ID, reports: 'claim' },
      { name: 'task_claims_task_attempt', key: { taskId: 1, attempt: -1 } },
    ],
  },
} as const satisfies Record<string, CollectionSpec>;

/**
 * Runs read-modify-write updates of one document one at a time within this process. MongoDB's $inc
 * is atomic anyway; FerretDB v1 (SQLite) loses concurrent $inc updates of one document, and this
 * keeps a single server process correct there too.
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

function ids(list: unknown, what: string, method: string): string[] {
  if (!Array.isArray(list)) throw new TypeError(`[assetloom/core] ${method} expects an array of ${what}s`);
  return list.map((id) => requireString(id, what));
}

/** What the repositories share: the store's opening, its collections and the database's traits. */
interface Shared {
  /** Opens the store once (indexes included); every repository method waits for it. */
  use(): Promise<void>;
  serial: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  /** Whether the database applies $inc and filtered updates atomically (not FerretDB v1). */
  atomic(): Promise<boolean>;
  /** Whether a top-level $or goes through indexes (MongoDB), not a scan of every document (NeDB). */
  indexedOr: boolean;
  users: Collection<UserDoc>;
  projects: Collection<ProjectDoc>;
  tasks: Collection<TaskDoc>;
  events: Collection<EventDoc>;
  assets: Collection<AssetDoc>;
  counters: Collection<CounterDoc>;
  claims: Collection<ClaimDoc>;
}

/** The next user id on a server whose $inc is not atomic: taken by inserting its reservation. */
async function reserveUserId(s: Shared): Promise<number> {
  const { counters } = s;
  const start = (await counters.findOne({ _id: 'users' }, (d) => d.seq)) ?? 0;
  if (!Number.isSafeInteger(start)) throw new Error('[assetloom/core] the user id counter is corrupt');
  for (let id = start + 1; id <= start + 1000; id++) {
    try {
      await counters.insertOne({ _id: `users#${id}`, seq: id });
    } catch (err) {
      if (err instanceof DuplicateKeyError) continue;
      throw err;
    }
    await counters
      .updateOne({ _id: 'users' }, { $max: { seq: id } }, { upsert: true })
      .catch((err: unknown) => {
        // two first-ever upserts race on _id: the other one wrote the counter
        if (!(err instanceof DuplicateKeyError)) throw err;
      });
    return id;
  }
  throw new Error('[assetloom/core] could not reserve a user id (1000 taken in a row)');
}

/**
 * The password change from `version - 1` on a server whose filtered updates are read-modify-write
 * (FerretDB v1, where two filtered updates can both match): the change is taken by INSERTING its
 * reservation (unique by _id), which exactly one racer wins; only the winner writes the user.
 */
async function reservedPasswordChange(
  s: Shared,
  userId: number,
  version: number,
  write: () => Promise<boolean>,
): Promise<boolean> {
  const { counters, users } = s;
  const reservation = `users#${userId}#tv#${version}`;
  for (let round = 0; round < 2; round++) {
    try {
      await counters.insertOne({ _id: reservation, seq: version, at: new Date() });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // Taken. A reservation whose change never landed (its process died in between) would block
      // every later change from this version: once stale, it may be taken over.
      const heldAt = await counters.findOne({ _id: reservation }, (d) => d.at);
      const current = await users.findOne({ _id: userId }, (d) => d.tokenVersion);
      const stale = heldAt instanceof Date && Date.now() - heldAt.getTime() > STALE_PASSWORD_RESERVATION_MS;
      if (round > 0 || !stale || current !== version - 1) return false;
      if (!(await counters.deleteOne({ _id: reservation, at: heldAt }))) return false;
      continue;
    }
    return write();
  }
  return false;
}

function userRepository(s: Shared): UserRepository {
  const { use, serial, atomic, users, counters } = s;
  return {
    async nextId() {
      await use();
      if (!(await atomic())) return serial('counter:users', () => reserveUserId(s));
      return serial('counter:users', async () => {
        for (let attempt = 0; ; attempt++) {
          try {
            const doc = await counters.findOneAndUpdate(
              { _id: 'users' },
              { $inc: { seq: 1 } },
              { upsert: true },
            );
            if (!doc || !Number.isSafeInteger(doc.seq))
              throw new Error('[assetloom/core] the user id counter is corrupt');
            return doc.seq;
          } catch (err) {
            // Two first-ever upserts can race on _id; the loser simply retries.
            if (err instanceof DuplicateKeyError && attempt < 3) continue;
            throw err;
          }
        }
      });
    },
    async insert(user) {
      requireInt(user.id, 'user id');
      requireString(user.username, 'username');
      await use();
      await users.insertOne(userToDoc(user));
    },
    async byId(id) {
      const filter = { _id: requireInt(id, 'user id') };
      await use();
      return users.findOne(filter, docToUser);
    },
    async byUsername(name) {
      const filter = { username: requireString(name, 'username') };
      await use();
      return users.findOne(filter, docToUser);
    },
    async byUsernameKey(key) {
      const filter = { usernameKey: requireString(key, 'username key') };
      await use();
      return users.findOne(filter, docToUser);
    },
    async updatePassword(id, passwordHash, tokenVersion, at) {
      const userId = requireInt(id, 'user id');
      const version = requireInt(tokenVersion, 'token version');
      const filter = { _id: userId, tokenVersion: version - 1 };
      const $set = {
        passwordHash: requireString(passwordHash, 'password hash'),
        tokenVersion: version,
        updatedAt: requireDate(at, 'updatedAt'),
      };
      await use();
      const write = () => users.updateOne(filter, { $set });
      // MongoDB and NeDB apply a filtered single-document update atomically: one racer matches.
      if (await atomic()) return write();
      return serial(`password:${userId}`, () => reservedPasswordChange(s, userId, version, write));
    },
  };
}

function projectRepository(s: Shared): ProjectRepository {
  const { use, serial, atomic, projects, tasks } = s;
  return {
    async insert(project) {
      requireString(project.id, 'project id');
      requireInt(project.ownerId, 'owner id');
      await use();
      await projects.insertOne(projectToDoc(project));
    },
    async byId(id) {
      const filter = { _id: requireString(id, 'project id') };
      await use();
      return projects.findOne(filter, docToProject);
    },
    async listByOwner(ownerId, window) {
      const owner = requireInt(ownerId, 'owner id');
      const win = sanitizeWindow(window);
      await use();
      return projects.page('ownerId', owner, win, docToProject);
    },
    async update(id, patch) {
      const $set: { updatedAt: Date; name?: string; style?: ProjectDoc['style'] } = {
        updatedAt: requireDate(patch.updatedAt, 'updatedAt'),
      };
      if (patch.name !== undefined) $set.name = requireString(patch.name, 'name');
      if (patch.style !== undefined) $set.style = styleToPairs(patch.style);
      const filter = { _id: requireString(id, 'project id') };
      await use();
      const doc = await projects.findOneAndUpdate(filter, { $set });
      return doc ? docToProject(doc) : null;
    },
    async delete(id) {
      const filter = { _id: requireString(id, 'project id') };
      await use();
      return projects.deleteOne(filter);
    },
    async touch(id, touch) {
      const projectId = requireString(id, 'project id');
      const update = {
        $inc: { taskCount: requireInt(touch.taskCountDelta, 'taskCountDelta') },
        $max: { lastActivityAt: requireDate(touch.lastActivityAt, 'lastActivityAt') },
      };
      await use();
      return serial(`project:${projectId}`, () => projects.updateOne({ _id: projectId }, update));
    },
    async countNewTask(id, lastActivityAt) {
      const projectId = requireString(id, 'project id');
      const at = requireDate(lastActivityAt, 'lastActivityAt');
      await use();
      if (await atomic()) {
        return projects.updateOne(
          { _id: projectId },
          { $inc: { taskCount: 1 }, $max: { lastActivityAt: at } },
        );
      }
      // FerretDB v1 applies an update as read-modify-write, so concurrent $inc from two processes
      // can lose one. The count of the project's tasks is the truth: write it with $max, then count
      // again; a writer whose value is below the new count (another process raced it, or wrote a
      // smaller count over it) writes again. The last writer always checks after its write, so the
      // value ends at least at the number of tasks, and $max never writes it lower. A writer leaves
      // only once its own write was found current: one that gave up after a few rounds while tasks
      // were still arriving could be the last writer and leave a count one short (a burst of 48
      // submissions to two processes under load did). Rounds after the second wait a little,
      // jittered, so that writers racing for one project spread out.
      const filter = { projectId };
      let count = await tasks.count(filter);
      for (let round = 0; round < COUNT_ROUNDS; round++) {
        if (round >= 2) await sleep(Math.random() * Math.min(50, 2 * round));
        const doc = await projects.findOneAndUpdate(
          { _id: projectId },
          { $max: { taskCount: count, lastActivityAt: at } },
        );
        if (!doc) return false;
        const again = await tasks.count(filter);
        if (doc.taskCount >= again) return true;
        count = again;
      }
      // Still moving after every round: the task itself is stored; its count is settled by the
      // next submission rather than failing this one.
      return true;
    },
  };
}

function taskRepository(s: Shared): TaskRepository {
  const { use, tasks } = s;
  return {
    async insert(task) {
      requireString(task.id, 'task id');
      requireInt(task.ownerId, 'owner id');
      requireString(task.projectId, 'project id');
      requireString(task.dedupeKey, 'dedupe key');
      await use();
      await tasks.insertOne(taskToDoc(task));
    },
    async byId(id) {
      const filter = { _id: requireString(id, 'task id') };
      await use();
      return tasks.findOne(filter, docToTask);
    },
    async listByProject(projectId, window) {
      const project = requireString(projectId, 'project id');
      const win = sanitizeWindow(window);
      await use();
      return tasks.page('projectId', project, win, docToTask);
    },
    async listByCharacter(characterId, window) {
      const character = requireString(characterId, 'character id');
      const win = sanitizeWindow(window);
      await use();
      return tasks.page('characterId', character, win, docToTask);
    },
    async activeByOwner(ownerId, limit) {
      const owner = requireInt(ownerId, 'owner id');
      const n = Math.max(1, Math.min(1000, requireInt(limit, 'limit')));
      await use();
      // The unique active key is `a:<owner>:<dedupe>` exactly while a task runs or saves.
      const docs = await tasks.find({ activeKey: { $gte: `a:${owner}:`, $lt: `a:${owner};` } }, { limit: n });
      return docs.map(docToTask);
    },
    async storedBytesByOwner(ownerId) {
      const owner = requireInt(ownerId, 'owner id');
      await use();
      return tasks.sum({ ownerId: owner, storedBytes: { $gt: 0 } }, 'storedBytes');
    },
    async findActiveByDedupeKey(ownerId, key) {
      const filter = {
        activeKey: activeKeyFor(requireInt(ownerId, 'owner id'), requireString(key, 'dedupe key')),
      };
      await use();
      return tasks.findOne(filter, docToTask);
    },
    async findByIdempotencyKey(ownerId, key) {
      const filter = {
        idemKey: idemKeyFor(requireInt(ownerId, 'owner id'), requireString(key, 'idempotency key')),
      };
      await use();
      return tasks.findOne(filter, docToTask);
    },
    async update(id, patch) {
      const taskId = requireString(id, 'task id');
      requireDate(patch?.updatedAt, 'updatedAt');
      await use();
      const doc = await tasks.findOneAndUpdate({ _id: taskId }, { $set: taskPatchToSet(taskId, patch) });
      return doc ? docToTask(doc) : null;
    },
    async updateIfClaimed(id, attempts, patch) {
      const taskId = requireString(id, 'task id');
      requireDate(patch?.updatedAt, 'updatedAt');
      const filter: Filter<TaskDoc> = {
        _id: taskId,
        attempts: requireInt(attempts, 'attempts'),
        status: { $in: ACTIVE_TASK_STATUSES },
      };
      await use();
      const doc = await tasks.findOneAndUpdate(filter, { $set: taskPatchToSet(taskId, patch) });
      return doc ? docToTask(doc) : null;
    },
    async idsByProject(projectId) {
      const filter = { projectId: requireString(projectId, 'project id') };
      await use();
      const docs = await tasks.find(filter, { fields: ['_id'] });
      return docs.map((d) => String(d._id));
    },
    async listClaimable(now, limit, options) {
      const at = requireDate(now, 'now');
      const n = requireInt(limit, 'limit');
      if (n < 1 || n > 1000) throw new TypeError('[assetloom/core] listClaimable: limit must be 1-1000');
      const except = (options?.exceptOwners ?? []).map((o) => requireInt(o, 'owner id'));
      await use();
      const docs = await tasks.find(
        {
          status: { $in: ACTIVE_TASK_STATUSES },
          $or: [{ lease: null }, { 'lease.until': { $lte: at } }],
          ...(except.length > 0 ? { ownerId: { $nin: except } } : {}),
        },
        { sort: { createdAt: 1, _id: 1 }, limit: n },
      );
      return docs.map(docToTask);
    },
    async leasedCountsByOwner(now) {
      const at = requireDate(now, 'now');
      await use();
      // Bounded by the workers' slots: only tasks running under a live lease match.
      const docs = await tasks.find(
        { status: { $in: ACTIVE_TASK_STATUSES }, 'lease.until': { $gt: at } },
        { fields: ['ownerId'], limit: 10_000 },
      );
      const counts = new Map<number, number>();
      for (const d of docs) counts.set(d.ownerId, (counts.get(d.ownerId) ?? 0) + 1);
      return counts;
    },
    async deleteByProject(projectId) {
      const filter = { projectId: requireString(projectId, 'project id') };
      await use();
      return tasks.deleteMany(filter);
    },
    async statusByIds(list) {
      const wanted = ids(list, 'task id', 'statusByIds');
      const out = new Map<string, TaskStatus>();
      if (wanted.length === 0) return out;
      await use();
      const docs = await tasks.find({ _id: { $in: wanted } }, { fields: ['status'] });
      for (const d of docs) out.set(String(d._id), d.status);
      return out;
    },
  };
}

function claimRepository(s: Shared): ClaimRepository {
  const { use, claims } = s;
  return {
    async insert(claim) {
      requireString(claim.taskId, 'task id');
      requireInt(claim.attempt, 'attempt');
      requireString(claim.owner, 'owner');
      requireDate(claim.until, 'until');
      requireDate(claim.at, 'at');
      await use();
      await claims.insertOne(claimToDoc(claim));
    },
    async get(taskId, attempt) {
      const filter = { _id: claimKeyOf(requireString(taskId, 'task id'), requireInt(attempt, 'attempt')) };
      await use();
      return claims.findOne(filter, docToClaim);
    },
    async latest(taskId) {
      const filter = { taskId: requireString(taskId, 'task id') };
      await use();
      const [doc] = await claims.find(filter, { sort: { attempt: -1 }, limit: 1 });
      return doc ? docToClaim(doc) : null;
    },
    async renew(taskId, attempt, owner, until) {
      const filter = {
        _id: claimKeyOf(requireString(taskId, 'task id'), requireInt(attempt, 'attempt')),
        owner: requireString(owner, 'owner'),
      };
      const $set = { until: requireDate(until, 'until') };
      await use();
      return claims.updateOne(filter, { $set });
    },
    async markOutlived(taskId, attempt, owner, at) {
      const filter = {
        _id: claimKeyOf(requireString(taskId, 'task id'), requireInt(attempt, 'attempt')),
        owner: requireString(owner, 'owner'),
      };
      const $set = { outlivedAt: requireDate(at, 'at') };
      await use();
      await claims.updateOne(filter, { $set });
    },
    async listByTask(taskId) {
      const filter = { taskId: requireString(taskId, 'task id') };
      await use();
      return (await claims.find(filter, { sort: { attempt: 1 } })).map(docToClaim);
    },
    async deleteByTask(taskIds) {
      const list = ids(taskIds, 'task id', 'deleteByTask');
      if (list.length === 0) return 0;
      await use();
      return claims.deleteMany({ taskId: { $in: list } });
    },
  };
}

function eventRepository(s: Shared): EventRepository {
  const { use, events, indexedOr } = s;
  return {
    async append(event) {
      requireString(event.taskId, 'task id');
      requireInt(event.seq, 'seq');
      requireDate(event.at, 'at');
      await use();
      await events.insertOne(eventToDoc(event));
    },
    async appendMany(list) {
      if (!Array.isArray(list)) throw new TypeError('[assetloom/core] appendMany expects an array of events');
      if (list.length === 0) return;
      const docs = list.map((event) => {
        requireString(event.taskId, 'task id');
        requireInt(event.seq, 'seq');
        requireDate(event.at, 'at');
        return eventToDoc(event);
      });
      await use();
      await events.insertMany(docs);
    },
    async list(taskId, afterSeq) {
      const filter = {
        taskId: requireString(taskId, 'task id'),
        seq: { $gt: requireInt(afterSeq, 'afterSeq') },
      };
      await use();
      return (await events.find(filter, { sort: { seq: 1 } })).map(docToEvent);
    },
    async listForTasks(cursors) {
      if (!Array.isArray(cursors))
        throw new TypeError('[assetloom/core] listForTasks expects an array of cursors');
      if (cursors.length === 0) return [];
      // Where each follower stands; a task followed twice is read from the lower of its seqs.
      const after = new Map<string, number>();
      const bySeq = new Map<number, string[]>();
      for (const c of cursors) {
        const taskId = requireString(c?.taskId, 'task id');
        const afterSeq = requireInt(c?.afterSeq, 'afterSeq');
        const known = after.get(taskId);
        if (known === undefined || afterSeq < known) after.set(taskId, afterSeq);
        const list = bySeq.get(afterSeq);
        if (list === undefined) bySeq.set(afterSeq, [taskId]);
        else list.push(taskId);
      }
      await use();
      const taskIds = [...after.keys()];
      // MongoDB: one branch per distinct seq (followers mostly stand at a few), each over the tasks
      // there. NeDB answers a top-level $or by testing every document of the collection against
      // every branch (decision 0026): one indexed read of the tasks' events, filtered here.
      const branches = [...bySeq].map(([seq, list]) => ({
        taskId: list.length === 1 ? (list[0] ?? '') : { $in: list },
        seq: { $gt: seq },
      }));
      const filter: Filter<EventDoc> = indexedOr
        ? ((branches.length === 1 ? branches[0] : undefined) ?? { $or: branches })
        : { taskId: taskIds.length === 1 ? (taskIds[0] ?? '') : { $in: taskIds } };
      const docs = await events.find(filter, { sort: { taskId: 1, seq: 1 } });
      return docs.filter((d) => d.seq > (after.get(d.taskId) ?? Number.POSITIVE_INFINITY)).map(docToEvent);
    },
    async deleteByTask(taskIds) {
      const list = ids(taskIds, 'task id', 'deleteByTask');
      if (list.length === 0) return 0;
      await use();
      return events.deleteMany({ taskId: { $in: list } });
    },
  };
}

function assetRepository(s: Shared): AssetRepository {
  const { use, assets } = s;
  return {
    async insertMany(list) {
      if (!Array.isArray(list)) throw new TypeError('[assetloom/core] insertMany expects an array of assets');
      if (list.length === 0) return;
      const docs = list.map((a) => {
        requireString(a.key, 'asset key');
        requireString(a.taskId, 'task id');
        requireString(a.projectId, 'project id');
        return assetToDoc(a);
      });
      await use();
      await assets.insertMany(docs);
    },
    async listByTask(taskId) {
      const filter = { taskId: requireString(taskId, 'task id') };
      await use();
      return (await assets.find(filter, { sort: { createdAt: 1, key: 1 } })).map(docToAsset);
    },
    async byKey(key) {
      const filter = { key: requireString(key, 'asset key') };
      await use();
      return assets.findOne(filter, docToAsset);
    },
    async deleteByProject(projectId) {
      const filter = { projectId: requireString(projectId, 'project id') };
      await use();
      const docs = await assets.find(filter, { fields: ['key'] });
      await assets.deleteMany(filter);
      return docs.map((d) => String(d.key));
    },
  };
}

/** The asset API's Store over a database (NeDB or MongoDB). */
export function createStoreOver(db: Database): Store {
  const label = db.kind === 'mongodb' ? 'MongoDB store' : 'embedded store';
  const users = db.collection<UserDoc>(STORE_COLLECTIONS.users);
  const projects = db.collection<ProjectDoc>(STORE_COLLECTIONS.projects);
  const tasks = db.collection<TaskDoc>(STORE_COLLECTIONS.tasks);
  const events = db.collection<EventDoc>(STORE_COLLECTIONS.events);
  const assets = db.collection<AssetDoc>(STORE_COLLECTIONS.assets);
  const counters = db.collection<CounterDoc>(STORE_COLLECTIONS.counters);
  const claims = db.collection<ClaimDoc>(STORE_COLLECTIONS.claims);
  const hooks = db.collection<WebhookDoc>(WEBHOOK_COLLECTIONS.webhooks);
  const deliveries = db.collection<WebhookDeliveryDoc>(WEBHOOK_COLLECTIONS.deliveries);
  const uploads = db.collection<UploadDoc>(UPLOAD_COLLECTIONS.uploads);
  const uploadUses = db.collection<UploadUseDoc>(UPLOAD_COLLECTIONS.uses);
  const uploadSlots = db.collection<UploadSlotDoc>(UPLOAD_COLLECTIONS.slots);
  const uploadDeletions = db.collection<UploadDeletionDoc>(UPLOAD_COLLECTIONS.deletions);
  const characters = db.collection<CharacterDoc>(CHARACTER_COLLECTIONS.characters);
  const serial = keyedSerial();

  let ready: Promise<void> | undefined;
  let initialized = false;
  let closed = false;

  async function doInit(): Promise<void> {
    await db.open();
    await db.ensureIndexes(STORE_COLLECTIONS.users, ['users_username_unique', 'users_emailKey_unique']);
    await backfillUsernameKeys();
    await db.ensureIndexes(STORE_COLLECTIONS.users, ['users_usernameKey_unique']);
    await migrateUsernameKeys();
    for (const spec of [
      STORE_COLLECTIONS.projects,
      STORE_COLLECTIONS.tasks,
      STORE_COLLECTIONS.events,
      STORE_COLLECTIONS.assets,
      STORE_COLLECTIONS.claims,
      UPLOAD_COLLECTIONS.uploads,
      UPLOAD_COLLECTIONS.uses,
      UPLOAD_COLLECTIONS.slots,
      UPLOAD_COLLECTIONS.deletions,
      CHARACTER_COLLECTIONS.characters,
      WEBHOOK_COLLECTIONS.webhooks,
      WEBHOOK_COLLECTIONS.deliveries,
    ]) {
      await db.ensureIndexes(spec);
    }
  }

  /**
   * Users stored before usernames had a uniqueness key get one (usernames.ts); a later user whose
   * name shares an earlier user's key keeps working under `legacyUsernameKey(id)` (found by its
   * exact name only). Idempotent; several processes starting at once write the same values.
   */
  async function backfillUsernameKeys(): Promise<void> {
    const missing = await users.find({ usernameKey: { $exists: false } }, { sort: { _id: 1 } });
    for (const doc of missing) {
      let key = usernameKeyOf(String(doc.username));
      const holder = await users.findOne({ usernameKey: key }, (d) => d._id);
      if (holder !== null && holder !== doc._id) key = legacyUsernameKey(Number(doc._id));
      await users.updateOne(
        { _id: doc._id, usernameKey: { $exists: false } },
        { $set: { usernameKey: key } },
      );
    }
  }

  /**
   * Keys made before the confusables skeleton (decision 0043) are made again, once per database (the
   * counter `usernameKeys` records the scheme): an old user whose new key an older-keyed user already
   * holds keeps working under `legacyUsernameKey(id)`, found by its exact name, as in the backfill.
   * Idempotent; a process starting at once with another writes the same values (guarded by the old key).
   */
  async function migrateUsernameKeys(): Promise<void> {
    const done = await counters.findOne({ _id: USERNAME_KEYS_COUNTER }, (d) => d.seq);
    if (done !== null && done >= USERNAME_KEY_SCHEME) return;
    const docs = await users.find({}, { sort: { _id: 1 }, fields: ['username', 'usernameKey'] });
    for (const doc of docs) {
      const old = doc.usernameKey;
      if (typeof old !== 'string' || old.startsWith('\uFFFF')) continue;
      const key = usernameKeyOf(String(doc.username));
      if (old === key) continue;
      const holder = await users.findOne({ usernameKey: key }, (d) => d._id);
      const next = holder !== null && holder !== doc._id ? legacyUsernameKey(Number(doc._id)) : key;
      try {
        await users.updateOne({ _id: doc._id, usernameKey: old }, { $set: { usernameKey: next } });
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        await users.updateOne(
          { _id: doc._id, usernameKey: old },
          { $set: { usernameKey: legacyUsernameKey(Number(doc._id)) } },
        );
      }
    }
    try {
      await counters.updateOne(
        { _id: USERNAME_KEYS_COUNTER },
        { $set: { seq: USERNAME_KEY_SCHEME } },
        { upsert: true },
      );
    } catch (error) {
      // another process starting at once upserted it first (MongoDB and FerretDB race upserts)
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }

  /** Opens the store once (indexes included); every repository method waits for it. */
  function use(): Promise<void> {
    if (closed) return Promise.reject(new Error(`[assetloom/core] the ${label} is closed; create a new one`));
    if (initialized) return Promise.resolve();
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

  const hookRepositories = webhookRepositories(use, hooks, deliveries);

  const shared: Shared = {
    use,
    serial,
    atomic: () => db.traits.atomicUpdates(),
    indexedOr: db.traits.indexedOr,
    users,
    projects,
    tasks,
    events,
    assets,
    counters,
    claims,
  };

  return {
    kind: db.kind,
    webhooks: hookRepositories.webhooks,
    webhookDeliveries: hookRepositories.webhookDeliveries,
    uploads: uploadRepository(use, uploads, uploadUses, uploadSlots, uploadDeletions),
    characters: characterRepository(use, characters),
    init: use,
    async close() {
      if (closed) return;
      closed = true;
      const wasReady = ready;
      await wasReady?.catch(() => undefined);
      await db.close();
    },

    users: userRepository(shared),
    projects: projectRepository(shared),
    tasks: taskRepository(shared),
    claims: claimRepository(shared),
    events: eventRepository(shared),
    assets: assetRepository(shared),
  };
}
