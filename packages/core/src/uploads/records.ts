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

/** Uploads and their uses (collections `uploads`, `upload_uses`). */
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
