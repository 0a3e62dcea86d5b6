import type { CharacterRepository } from './characters/records.js';
import { errors } from './errors.js';
import type { AssetType, StyleMap, TaskParams, TaskStage, TaskStatus } from './types.js';
import type { UploadRepository } from './uploads/records.js';
import type { WebhookDeliveryRepository, WebhookRepository } from './webhooks/records.js';

/** Storage records (not database documents): what the domain reads and writes. */
export interface UserRecord {
  id: number;
  username: string;
  email: string | null;
  passwordHash: string;
  /** Bumped on every password change; tokens carry it and older ones stop working. */
  tokenVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectRecord {
  id: string;
  ownerId: number;
  name: string;
  style: StyleMap;
  /** Maintained with $inc on task insert / project cascade — lists never need $lookup. */
  taskCount: number;
  /** Maintained with $max on task activity. */
  lastActivityAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface TaskLease {
  owner: string;
  until: Date;
}

export interface TaskRecord {
  id: string;
  ownerId: number;
  projectId: string;
  prompt: string;
  assetType: AssetType;
  taskStyle: StyleMap | null;
  params: TaskParams;
  status: TaskStatus;
  stage: TaskStage;
  progress: number;
  retryCount: number;
  error: string | null;
  /**
   * The dedupe key (a hash of user + project + prompt + assetType + normalized params + taskStyle).
   * Adapters keep a unique "active key" derived from it while the task is running or saving, so two
   * concurrent identical submissions can never both insert.
   */
  dedupeKey: string;
  idempotencyKey: string | null;
  lastSeq: number;
  lease: TaskLease | null;
  attempts: number;
  /** Bytes of object storage the task's files take (set when it completes; absent before). */
  storedBytes?: number;
  /**
   * Pixels of the distinct uploaded pictures the task names (issue #37): a worker decodes them, so
   * they count in the task's pixels and the user's pixels in flight beside what it draws.
   */
  inputPixels?: number;
  /**
   * The kept character the task was made through (its base view, an animate or a rotate; decision
   * 0057). Absent for any other task, and on tasks stored before it (read as no character).
   */
  characterId?: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface EventRecord {
  taskId: string;
  seq: number;
  /** A PipelineProgress message (stored opaque). */
  event: object;
  at: Date;
}

/**
 * A worker's claim on one attempt of a task. Claims are made by INSERTING this record under the
 * unique key (taskId, attempt): exactly one racer wins on every target, including FerretDB v1 whose
 * concurrent findOneAndUpdate is not atomic. `until` is moved forward only by the claim's owner.
 */
export interface ClaimRecord {
  taskId: string;
  attempt: number;
  owner: string;
  until: Date;
  at: Date;
  /**
   * When the holder, still alive, found the task taken over (it renewed too late: a slow database
   * or a starved worker) or handed it back (a shutdown). A claim without it was abandoned by a worker that died, as far as anyone
   * knows; only those count towards the queue's `maxAttempts`.
   */
  outlivedAt?: Date;
}

export interface AssetRecord {
  taskId: string;
  projectId: string;
  ownerId: number;
  key: string;
  format: string;
  width: number;
  height: number;
  metadata: Record<string, unknown>;
  contentType: string;
  createdAt: Date;
}

export interface PageWindow {
  skip: number;
  limit: number;
}

export interface Page<T> {
  total: number;
  items: T[];
}

export interface ProjectPatch {
  name?: string;
  style?: StyleMap;
  updatedAt: Date;
}

export interface ProjectTouch {
  taskCountDelta: number;
  lastActivityAt: Date;
}

/** Fields of a task that may change after insert. Setting `idempotencyKey` to null releases the key. */
export interface TaskPatch {
  status?: TaskStatus;
  stage?: TaskStage;
  progress?: number;
  retryCount?: number;
  error?: string | null;
  lastSeq?: number;
  lease?: TaskLease | null;
  attempts?: number;
  idempotencyKey?: null;
  storedBytes?: number;
  updatedAt: Date;
}

/** Unique fields whose violation an adapter reports as DuplicateKeyError. */
export type DuplicateField =
  | 'username'
  | 'email'
  | 'dedupeKey'
  | 'idempotencyKey'
  | 'seq'
  | 'key'
  | 'claim'
  | 'id';

/** A write the embedded store could not append to its data file; it was undone in memory (not applied). */
export class StoreWriteError extends Error {
  constructor(collection: string, cause: unknown) {
    super(`[assetloom/core] the embedded store could not write ${collection}; the write was not applied`, {
      cause,
    });
    this.name = 'StoreWriteError';
  }
}

/** A unique index rejected a write (E11000 in MongoDB, uniqueViolated in NeDB). */
const DUPLICATE_KEY_ERROR = Symbol.for('assetloom.core.DuplicateKeyError');

export class DuplicateKeyError extends Error {
  /** `instanceof` works across copies of this package (ESM/CJS builds, "." and "./mongodb" entries). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[DUPLICATE_KEY_ERROR] === true
    );
  }
  readonly [DUPLICATE_KEY_ERROR] = true;
  override readonly name = 'DuplicateKeyError';
  constructor(
    readonly field: DuplicateField | (string & {}),
    options?: { cause?: unknown },
  ) {
    super(`[assetloom/core] duplicate value for unique field "${field}"`, options);
  }
}

export interface UserRepository {
  nextId(): Promise<number>;
  /** Throws DuplicateKeyError with field 'username' (its uniqueness key is taken) or 'email'. */
  insert(user: UserRecord): Promise<void>;
  byId(id: number): Promise<UserRecord | null>;
  /** The user with exactly this username. */
  byUsername(username: string): Promise<UserRecord | null>;
  /**
   * The user whose username has this uniqueness key (`usernameKeyOf`: case- and width-insensitive),
   * or null. Usernames are unique by this key (DuplicateKeyError 'username').
   */
  byUsernameKey(key: string): Promise<UserRecord | null>;
  /**
   * A compare-and-swap on the credential version: sets the hash and `tokenVersion` only while the
   * stored version is `tokenVersion - 1` (the version the caller read). true when applied; false when
   * another change got there first (or the user is gone), so of several simultaneous changes from
   * the same version exactly one succeeds — on MongoDB by a filtered update, on FerretDB v1 (whose
   * updates are read-modify-write) by inserting a unique reservation first.
   */
  updatePassword(id: number, passwordHash: string, tokenVersion: number, at: Date): Promise<boolean>;
}

export interface ProjectRepository {
  insert(project: ProjectRecord): Promise<void>;
  byId(id: string): Promise<ProjectRecord | null>;
  /** Newest first: createdAt desc, then id desc. */
  listByOwner(ownerId: number, window: PageWindow): Promise<Page<ProjectRecord>>;
  /** The updated record, or null when no project has that id. */
  update(id: string, patch: ProjectPatch): Promise<ProjectRecord | null>;
  /** true when a project was deleted. */
  delete(id: string): Promise<boolean>;
  /** $inc taskCount and $max lastActivityAt; false when no project has that id. */
  touch(id: string, touch: ProjectTouch): Promise<boolean>;
  /**
   * Counts one newly inserted task of the project in its taskCount and moves lastActivityAt
   * forward, correctly when API processes on several machines do it at once on any target (MongoDB
   * applies $inc atomically; FerretDB v1 does not, so the MongoDB adapter recounts the project's
   * tasks there). false when no project has that id. Optional: `touch` with delta 1 otherwise.
   */
  countNewTask?(id: string, lastActivityAt: Date): Promise<boolean>;
}

export interface TaskRepository {
  /** Throws DuplicateKeyError 'dedupeKey' (an identical task is active) or 'idempotencyKey'. */
  insert(task: TaskRecord): Promise<void>;
  byId(id: string): Promise<TaskRecord | null>;
  /** Newest first: createdAt desc, then id desc. */
  listByProject(projectId: string, window: PageWindow): Promise<Page<TaskRecord>>;
  /** The tasks made through one character (decision 0057), newest first: createdAt desc, then id desc. */
  listByCharacter(characterId: string, window: PageWindow): Promise<Page<TaskRecord>>;
  /** The running or saving task of that user with that dedupe key, if any. */
  findActiveByDedupeKey(ownerId: number, dedupeKey: string): Promise<TaskRecord | null>;
  findByIdempotencyKey(ownerId: number, idempotencyKey: string): Promise<TaskRecord | null>;
  /** The updated record, or null when no task has that id. */
  update(id: string, patch: TaskPatch): Promise<TaskRecord | null>;
  /**
   * A guarded update for the worker holding a claim: applied only while the task's `attempts`
   * equals `attempts` and its status is running or saving. null otherwise (the claim was taken over,
   * or the task already ended), so a worker that lost its lease can never overwrite the new owner.
   */
  updateIfClaimed(id: string, attempts: number, patch: TaskPatch): Promise<TaskRecord | null>;
  idsByProject(projectId: string): Promise<string[]>;
  /**
   * Tasks a worker may try to claim: status running or saving with no lease or a lease that ended
   * at or before `now`; oldest first, at most `limit` (1-1000); none of `exceptOwners`' tasks.
   */
  listClaimable(
    now: Date,
    limit: number,
    options?: { exceptOwners?: readonly number[] },
  ): Promise<TaskRecord[]>;
  /**
   * The users holding tasks under a live lease (running now on some worker) and how many each, in
   * ONE database command: the fair claim's view of the workers (issue #37). Optional.
   */
  leasedCountsByOwner?(now: Date): Promise<Map<number, number>>;
  /** The number of tasks deleted. */
  deleteByProject(projectId: string): Promise<number>;
  /**
   * The user's tasks still running or saving (at most `limit`, 1-1000): what the user holds of the
   * workers now (the in-flight pixel budget, decision 0032). One command, on the unique active key.
   */
  activeByOwner(ownerId: number, limit: number): Promise<TaskRecord[]>;
  /** The bytes of object storage the user's completed tasks take (the storage budget). One command. */
  storedBytesByOwner(ownerId: number): Promise<number>;
  /**
   * The status of each of these tasks that exists, in ONE database command (the shared poller's
   * check for tasks that ended without a terminal event or were deleted). Optional.
   */
  statusByIds?(ids: readonly string[]): Promise<Map<string, TaskStatus>>;
}

/** Where a follower of a task's events stands: it has seen every event up to `afterSeq`. */
export interface EventCursor {
  taskId: string;
  afterSeq: number;
}

export interface EventRepository {
  /** Throws DuplicateKeyError 'seq' when (taskId, seq) exists. */
  append(event: EventRecord): Promise<void>;
  /**
   * Several events in ONE database command, in order (a worker's batched progress). Throws
   * DuplicateKeyError 'seq' when one's (taskId, seq) exists; the events before it may have been
   * stored. Optional: the queue appends one by one without it.
   */
  appendMany?(events: readonly EventRecord[]): Promise<void>;
  /** Events with seq > afterSeq, in seq order. */
  list(taskId: string, afterSeq: number): Promise<EventRecord[]>;
  /**
   * The events of several tasks, each after its own seq, in ONE database command (the shared poller
   * of a process's progress streams); ordered by task, then seq. Optional: without it the poller
   * reads each task with `list`.
   */
  listForTasks?(cursors: readonly EventCursor[]): Promise<EventRecord[]>;
  deleteByTask(taskIds: readonly string[]): Promise<number>;
}

export interface ClaimRepository {
  /** Throws DuplicateKeyError 'claim' when (taskId, attempt) is already claimed. */
  insert(claim: ClaimRecord): Promise<void>;
  get(taskId: string, attempt: number): Promise<ClaimRecord | null>;
  /** The newest claim of a task (highest attempt), or null. */
  latest(taskId: string): Promise<ClaimRecord | null>;
  /** Moves `until` of a claim the caller owns (single writer); false when it is not the owner's. */
  renew(taskId: string, attempt: number, owner: string, until: Date): Promise<boolean>;
  /** Records on a claim the caller owns that its holder was alive when it found the task taken over. */
  markOutlived(taskId: string, attempt: number, owner: string, at: Date): Promise<void>;
  /** Every claim of a task, attempt ascending. */
  listByTask(taskId: string): Promise<ClaimRecord[]>;
  deleteByTask(taskIds: readonly string[]): Promise<number>;
}

export interface AssetRepository {
  /** Throws DuplicateKeyError 'key' when a key exists. */
  insertMany(assets: readonly AssetRecord[]): Promise<void>;
  /** In insertion order (createdAt asc, then key asc). */
  listByTask(taskId: string): Promise<AssetRecord[]>;
  byKey(key: string): Promise<AssetRecord | null>;
  /** Deletes a project's asset records and answers their keys (for object-storage cleanup). */
  deleteByProject(projectId: string): Promise<string[]>;
}

/**
 * The storage port. Filters are built only from the typed primitives passed in, as explicit
 * equality; every repository method rejects non-primitive arguments (400 参数错误), so no client
 * object can ever become a query operator.
 */
export interface Store {
  readonly kind: 'embedded' | 'mongodb' | 'memory';
  /** Opens the store and creates its indexes; idempotent. */
  init(): Promise<void>;
  close(): Promise<void>;
  readonly users: UserRepository;
  readonly projects: ProjectRepository;
  readonly tasks: TaskRepository;
  readonly events: EventRepository;
  readonly assets: AssetRepository;
  readonly claims: ClaimRepository;
  /** Registered webhooks of projects (collection `webhooks`). */
  readonly webhooks: WebhookRepository;
  /** The webhook outbox: one record per event and webhook (collection `webhook_deliveries`). */
  readonly webhookDeliveries: WebhookDeliveryRepository;
  /** Uploaded pictures and the tasks that use them (collections `uploads`, `upload_uses`; decision 0034). */
  readonly uploads?: UploadRepository;
  /** Kept characters (collection `characters`). */
  readonly characters?: CharacterRepository;
}

// ---- guards shared by the adapters ----

/** A string id/key argument; anything else (objects such as {$gt:""} included) is rejected. */
export function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string')
    throw errors.badRequest({ reason: `${what} must be a string`, got: typeof value });
  return value;
}

/** A safe-integer argument; anything else is rejected. */
export function requireInt(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw errors.badRequest({ reason: `${what} must be a safe integer`, got: typeof value });
  }
  return value;
}

export function requireDate(value: unknown, what: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw errors.badRequest({ reason: `${what} must be a valid Date` });
  }
  return value;
}

/** Skip/limit sanitised for the adapters (limit 1-1000, skip a non-negative safe integer). */
export function sanitizeWindow(window: PageWindow): PageWindow {
  const skip = requireInt(window?.skip, 'skip');
  const limit = requireInt(window?.limit, 'limit');
  if (skip < 0 || limit < 1 || limit > 1000) throw errors.badRequest({ reason: 'skip/limit out of range' });
  return { skip, limit };
}

/** The unique key of a claim: `<taskId>:<attempt>`. */
export function claimKeyOf(taskId: string, attempt: number): string {
  return `${taskId}:${attempt}`;
}

/** Skips past this are answered with an empty page without asking the database. */
export const MAX_SKIP = 2_147_483_647;

/** One entry of a stored style map. */
export interface StylePair {
  k: string;
  v: string;
}

/**
 * Style maps are stored as a list of {k, v} entries, so keys like "a.b", "$x" or "__proto__" stay
 * plain data and never become field names (nested arrays would be simpler but FerretDB v1 rejects them).
 */
export function styleToPairs(style: StyleMap): StylePair[] {
  return Object.entries(style).map(([k, v]) => ({ k, v }));
}

export function pairsToStyle(pairs: unknown): StyleMap {
  if (!Array.isArray(pairs)) return {};
  const entries: [string, string][] = [];
  for (const pair of pairs) {
    const p = pair as Partial<StylePair> | null;
    if (p && typeof p.k === 'string' && typeof p.v === 'string') entries.push([p.k, p.v]);
  }
  // fromEntries defines own data properties: "__proto__" stays a key, never the prototype.
  return Object.fromEntries(entries);
}

/** The unique "active key" of a task: the dedupe key while running/saving, a per-task value after. */
export function activeKeyOf(task: Pick<TaskRecord, 'id' | 'ownerId' | 'dedupeKey' | 'status'>): string {
  return task.status === 'running' || task.status === 'saving'
    ? `a:${task.ownerId}:${task.dedupeKey}`
    : `d:${task.id}`;
}

export function activeKeyFor(ownerId: number, dedupeKey: string): string {
  return `a:${ownerId}:${dedupeKey}`;
}

/** The unique idempotency slot of a task (a per-task value when it has no key). */
export function idemKeyOf(task: Pick<TaskRecord, 'id' | 'ownerId' | 'idempotencyKey'>): string {
  return task.idempotencyKey === null ? `n:${task.id}` : idemKeyFor(task.ownerId, task.idempotencyKey);
}

export function idemKeyFor(ownerId: number, idempotencyKey: string): string {
  return `i:${ownerId}:${idempotencyKey}`;
}

/**
 * The unique e-mail slot of a user: the lower-cased e-mail when present, `u:<id>` otherwise. This
 * emulates "unique e-mail where present" without partial indexes (FerretDB v1 lacks them).
 */
export function emailKeyOf(user: Pick<UserRecord, 'id' | 'email'>): string {
  return user.email === null ? `u:${user.id}` : `e:${user.email.toLowerCase()}`;
}
