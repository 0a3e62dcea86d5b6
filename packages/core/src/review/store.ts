import { requireDate, requireInt, requireString } from '../store.js';

/** A review-helper user (spec 001). */
export interface ReviewUserRecord {
  /** Integer id, assigned at creation (max + 1). */
  id: number;
  /** Unique; stored trimmed and lower-cased. */
  email: string;
  /** Salted one-way hash; the password itself is never stored. */
  passwordHash: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What {@link ReviewUserRepository.create} needs: everything but the id, which the store assigns. */
export type NewReviewUser = Omit<ReviewUserRecord, 'id'>;

/** One key/value setting of one user; (userId, key) is unique. */
export interface ReviewSettingRecord {
  userId: number;
  key: string;
  value: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A server-side session. `id` is what the store is keyed by — the HTTP layer passes a digest of
 * the cookie value, so a copy of the database holds no usable cookie. `data` is opaque JSON text.
 */
export interface ReviewSessionRecord {
  id: string;
  data: string;
  /** The signed-in user, for housekeeping (null for an anonymous session). */
  userId: number | null;
  expiresAt: Date;
  updatedAt: Date;
}

export interface ReviewUserRepository {
  /**
   * Assigns the next integer id (the largest id + 1; on a collision with a concurrent insert it
   * reads again and retries) and inserts. Throws DuplicateKeyError('email') when the e-mail exists.
   */
  create(user: NewReviewUser): Promise<ReviewUserRecord>;
  byEmail(email: string): Promise<ReviewUserRecord | null>;
  byId(id: number): Promise<ReviewUserRecord | null>;
  /** true when a user was deleted (used to undo a registration whose settings failed). */
  delete(id: number): Promise<boolean>;
}

export interface ReviewSettingRepository {
  /**
   * Inserts each entry whose (userId, key) does not exist yet; an existing key is left unchanged
   * (a duplicate insert is tolerated, never an upsert). Answers how many were inserted.
   */
  insertMissing(
    userId: number,
    entries: ReadonlyArray<{ key: string; value: string }>,
    at: Date,
  ): Promise<number>;
  /** A user's settings, by key. */
  list(userId: number): Promise<ReviewSettingRecord[]>;
  deleteByUser(userId: number): Promise<number>;
}

export interface ReviewSessionRepository {
  /** The session, or null when absent or expired at `now`. */
  get(id: string, now: Date): Promise<ReviewSessionRecord | null>;
  /** Creates or replaces the session with that id. */
  set(record: ReviewSessionRecord): Promise<void>;
  destroy(id: string): Promise<void>;
  /** Deletes every session expired at `now` (no TTL indexes on FerretDB v1); answers how many. */
  purgeExpired(now: Date): Promise<number>;
}

/**
 * The review helper's storage port: users, settings and sessions. Its repositories are written
 * once (review/repositories.ts) and served on NeDB by `@assetloom/core/store/embedded` and on
 * MongoDB by `@assetloom/core/store/mongodb`; every argument is checked to be a primitive before
 * any I/O, so no client object can become a query operator.
 */
export interface ReviewStore {
  readonly kind: 'embedded' | 'mongodb' | 'memory';
  /** Opens the store and creates its indexes; idempotent. */
  init(): Promise<void>;
  close(): Promise<void>;
  readonly users: ReviewUserRepository;
  readonly settings: ReviewSettingRepository;
  readonly sessions: ReviewSessionRepository;
}

/** Collection names (prefixed, so the review helper can share a database with the asset API). */
export const REVIEW_COLLECTIONS = {
  users: 'review_users',
  settings: 'review_settings',
  sessions: 'review_sessions',
} as const;

/** How often `create` re-reads the largest id after losing a race for one. */
export const MAX_ID_ATTEMPTS = 16;

// ---- document shapes (./repositories.ts) ----

export interface ReviewUserDoc {
  _id: number;
  email: string;
  passwordHash: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ReviewSettingDoc {
  /** `<userId>:<key>` — the unique (userId, key) slot, always present (no compound partial index needed). */
  _id: string;
  userId: number;
  key: string;
  value: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ReviewSessionDoc {
  _id: string;
  data: string;
  userId: number | null;
  expiresAt: Date;
  updatedAt: Date;
}

export function settingId(userId: number, key: string): string {
  return `${userId}:${key}`;
}

export function checkNewUser(user: NewReviewUser): void {
  requireString(user?.email, 'email');
  requireString(user.passwordHash, 'password hash');
  requireDate(user.createdAt, 'createdAt');
  requireDate(user.updatedAt, 'updatedAt');
}

export function userToDoc(id: number, user: NewReviewUser): ReviewUserDoc {
  return {
    _id: id,
    email: user.email,
    passwordHash: user.passwordHash,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

export function docToUser(doc: ReviewUserDoc): ReviewUserRecord {
  return {
    id: doc._id,
    email: doc.email,
    passwordHash: doc.passwordHash,
    createdAt: new Date(doc.createdAt),
    updatedAt: new Date(doc.updatedAt),
  };
}

export function settingDocs(
  userId: number,
  entries: ReadonlyArray<{ key: string; value: string }>,
  at: Date,
): ReviewSettingDoc[] {
  requireInt(userId, 'user id');
  requireDate(at, 'at');
  if (!Array.isArray(entries))
    throw new TypeError('[assetloom/core] insertMissing expects an array of entries');
  return entries.map((e) => {
    const key = requireString(e?.key, 'setting key');
    const value = requireString(e.value, 'setting value');
    return { _id: settingId(userId, key), userId, key, value, createdAt: at, updatedAt: at };
  });
}

export function docToSetting(doc: ReviewSettingDoc): ReviewSettingRecord {
  return {
    userId: doc.userId,
    key: doc.key,
    value: doc.value,
    createdAt: new Date(doc.createdAt),
    updatedAt: new Date(doc.updatedAt),
  };
}

export function sessionToDoc(record: ReviewSessionRecord): ReviewSessionDoc {
  const id = requireString(record?.id, 'session id');
  const data = requireString(record.data, 'session data');
  const userId = record.userId === null ? null : requireInt(record.userId, 'user id');
  return {
    _id: id,
    data,
    userId,
    expiresAt: requireDate(record.expiresAt, 'expiresAt'),
    updatedAt: requireDate(record.updatedAt, 'updatedAt'),
  };
}

export function docToSession(doc: ReviewSessionDoc): ReviewSessionRecord {
  return {
    id: doc._id,
    data: doc.data,
    userId: doc.userId ?? null,
    expiresAt: new Date(doc.expiresAt),
    updatedAt: new Date(doc.updatedAt),
  };
}
