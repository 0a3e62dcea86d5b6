import type { ImageFormat } from './probe.js';

/** A stored upload: a picture a user may name as an input of generations (decision 0034). */
export interface UploadRecord {
  id: string;
  ownerId: number;
  /** Object-storage key of the stored 8-bit RGBA PNG: `users/<ownerId>/uploads/<id>.png`. */
  key: string;
  /** The format the bytes came in. */
  format: ImageFormat;
  width: number;
  height: number;
  /** Size of the stored PNG (the user's upload quota counts these). */
  bytes: number;
  /** An animated GIF or APNG, stored as its first frame. */
  animated: boolean;
  /** SHA-256 (hex) over the size and the RGBA pixels: the dedupe key's view of the picture. */
  contentHash: string;
  createdAt: Date;
  /** Made or last named by a submission: an upload no task uses is swept UPLOAD_TTL_SECONDS after it. */
  lastUsedAt: Date;
}

/** One task's use of an upload: while it exists, the upload is kept. */
export interface UploadUseRecord {
  uploadId: string;
  taskId: string;
  projectId: string;
  ownerId: number;
  createdAt: Date;
}

/**
 * One of a user's upload slots (decision 0043): an upload in flight holds one from before it is
 * decoded until its record is stored. Taken by a unique insert (`<ownerId>:<slot>`), so at most
 * UPLOAD_USER_IN_FLIGHT uploads of a user are in flight across processes on every database; it holds
 * the upload's stored size once known (`bytes`), which the user's other uploads count against the
 * quota. A slot past `expiresAt` belongs to a process that died: it is taken over and not counted.
 */
export interface UploadSlotRecord {
  /** `<ownerId>:<slot>`. */
  id: string;
  ownerId: number;
  /** Random: whose slot it is (a release or reservation only touches its own). */
  holder: string;
  /** Bytes reserved against the quota (0 until the stored size is known). */
  bytes: number;
  createdAt: Date;
  expiresAt: Date;
}

/** Uploads and their uses (collections `uploads`, `upload_uses`, `upload_slots`, `upload_deletions`). */
export interface UploadRepository {
  insert(upload: UploadRecord): Promise<void>;
  byId(id: string): Promise<UploadRecord | null>;
  /** Bytes of the user's stored uploads (one command). */
  bytesByOwner(ownerId: number): Promise<number>;
  /** Moves `lastUsedAt` forward. */
  touch(ids: readonly string[], at: Date): Promise<void>;
  /** true when a record was deleted. */
  delete(id: string): Promise<boolean>;
  /** Records uses (one per upload and task; repeating one is no error). */
  addUses(uses: readonly UploadUseRecord[]): Promise<void>;
  /** Deletes the uses of a project's tasks and answers the upload ids they named. */
  deleteUsesByProject(projectId: string): Promise<string[]>;
  /** How many uses the upload has. */
  countUses(uploadId: string): Promise<number>;
  /** Uploads last used before `before`, oldest first, at most `limit` (1-1000). */
  idleSince(before: Date, limit: number): Promise<UploadRecord[]>;
  /** The uses of one upload (task ids and when they were recorded). */
  usesOf(uploadId: string): Promise<UploadUseRecord[]>;
  /** Deletes one task's uses of these uploads (a submission that made no task gives its pins back). */
  deleteUses(taskId: string, uploadIds: readonly string[]): Promise<void>;

  /** Takes a slot by inserting it; false when the slot is held. */
  takeSlot(slot: UploadSlotRecord): Promise<boolean>;
  slotById(id: string): Promise<UploadSlotRecord | null>;
  /** Deletes the slot if `holder` holds it (and, with `expiredBefore`, only if it expired). */
  releaseSlot(id: string, holder: string, expiredBefore?: Date): Promise<boolean>;
  /** Writes the holder's reservation into its slot; false when it no longer holds the slot. */
  reserve(id: string, holder: string, bytes: number): Promise<boolean>;
  /** Bytes the user's other live slots (not `exceptId`, not expired at `now`) reserve. */
  reservedByOwner(ownerId: number, exceptId: string, now: Date): Promise<number>;
  /** Deletes slots that expired before `before`; how many. */
  deleteExpiredSlots(before: Date): Promise<number>;

  /**
   * Marks an upload as being deleted (a unique insert, `_id` the upload id): a submission that pins
   * the upload afterwards backs out. false when a marker exists.
   */
  markDeleting(uploadId: string, at: Date): Promise<boolean>;
  /** When the upload was marked as being deleted, or null. */
  deletingSince(uploadId: string): Promise<Date | null>;
  /** Removes the marker (with `before`: only one made before it, a stale one). */
  unmarkDeleting(uploadId: string, before?: Date): Promise<boolean>;
  /** Removes markers made before `before` (their deleter died); how many. */
  deleteStaleMarkers(before: Date): Promise<number>;
}

/** The record as stored (both adapters): `_id` is the upload id. */
export interface UploadDoc {
  _id: string;
  ownerId: number;
  key: string;
  format: ImageFormat;
  width: number;
  height: number;
  bytes: number;
  animated: boolean;
  contentHash: string;
  createdAt: Date;
  lastUsedAt: Date;
}

export interface UploadUseDoc {
  /** `<uploadId>:<taskId>`: one use per upload and task. */
  _id: string;
  uploadId: string;
  taskId: string;
  projectId: string;
  ownerId: number;
  createdAt: Date;
}

/** A slot as stored: `_id` is `<ownerId>:<slot>`. */
export interface UploadSlotDoc {
  _id: string;
  ownerId: number;
  holder: string;
  bytes: number;
  createdAt: Date;
  expiresAt: Date;
}

/** A deletion marker: `_id` is the upload id. */
export interface UploadDeletionDoc {
  _id: string;
  createdAt: Date;
}

export function uploadToDoc(u: UploadRecord): UploadDoc {
  const { id, ...rest } = u;
  return { _id: id, ...rest };
}

export function docToUpload(d: UploadDoc): UploadRecord {
  return {
    id: d._id,
    ownerId: d.ownerId,
    key: d.key,
    format: d.format,
    width: d.width,
    height: d.height,
    bytes: d.bytes,
    animated: d.animated,
    contentHash: d.contentHash,
    createdAt: d.createdAt,
    lastUsedAt: d.lastUsedAt,
  };
}

export function useToDoc(u: UploadUseRecord): UploadUseDoc {
  return { _id: `${u.uploadId}:${u.taskId}`, ...u };
}

export function slotToDoc(s: UploadSlotRecord): UploadSlotDoc {
  const { id, ...rest } = s;
  return { _id: id, ...rest };
}

export function docToSlot(d: UploadSlotDoc): UploadSlotRecord {
  return {
    id: d._id,
    ownerId: d.ownerId,
    holder: d.holder,
    bytes: d.bytes,
    createdAt: d.createdAt,
    expiresAt: d.expiresAt,
  };
}

export function docToUse(d: UploadUseDoc): UploadUseRecord {
  return {
    uploadId: d.uploadId,
    taskId: d.taskId,
    projectId: d.projectId,
    ownerId: d.ownerId,
    createdAt: d.createdAt,
  };
}
