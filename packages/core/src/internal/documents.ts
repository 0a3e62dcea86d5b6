import {
  type AssetRecord,
  activeKeyOf,
  type ClaimRecord,
  claimKeyOf,
  type EventRecord,
  emailKeyOf,
  idemKeyOf,
  type ProjectRecord,
  pairsToStyle,
  type StylePair,
  styleToPairs,
  type TaskPatch,
  type TaskRecord,
  type UserRecord,
} from '../store.js';
import type { TaskParams } from '../types.js';
import { usernameKeyOf } from '../usernames.js';

/**
 * Database document shapes shared by the NeDB and MongoDB adapters. User-keyed maps (styles) are
 * stored as [key, value] pairs and opaque objects (events, asset metadata) as JSON text, so no
 * client-chosen key ever becomes a document field name.
 */
export interface UserDoc {
  _id: number;
  username: string;
  /** The case- and width-insensitive uniqueness key of the username (usernames.ts, unique). */
  usernameKey: string;
  email: string | null;
  emailKey: string;
  passwordHash: string;
  tokenVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectDoc {
  _id: string;
  ownerId: number;
  name: string;
  style: StylePair[];
  taskCount: number;
  lastActivityAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface TaskDoc extends Omit<TaskRecord, 'id' | 'taskStyle'> {
  _id: string;
  taskStyle: StylePair[] | null;
  activeKey: string;
  idemKey: string;
}

export interface EventDoc {
  evKey: string;
  taskId: string;
  seq: number;
  eventJson: string;
  at: Date;
}

export interface AssetDoc {
  key: string;
  taskId: string;
  projectId: string;
  ownerId: number;
  format: string;
  width: number;
  height: number;
  metadataJson: string;
  contentType: string;
  createdAt: Date;
}

// Always a fresh Date: records must never share a mutable object with the stored document.
const asDate = (v: unknown): Date =>
  v instanceof Date ? new Date(v.getTime()) : new Date(v as string | number);

export function userToDoc(u: UserRecord): UserDoc {
  return {
    _id: u.id,
    username: u.username,
    usernameKey: usernameKeyOf(u.username),
    email: u.email,
    emailKey: emailKeyOf(u),
    passwordHash: u.passwordHash,
    tokenVersion: u.tokenVersion,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  };
}

export function docToUser(d: UserDoc): UserRecord {
  return {
    id: Number(d._id),
    username: d.username,
    email: d.email ?? null,
    passwordHash: d.passwordHash,
    tokenVersion: d.tokenVersion,
    createdAt: asDate(d.createdAt),
    updatedAt: asDate(d.updatedAt),
  };
}

export function projectToDoc(p: ProjectRecord): ProjectDoc {
  return {
    _id: p.id,
    ownerId: p.ownerId,
    name: p.name,
    style: styleToPairs(p.style),
    taskCount: p.taskCount,
    lastActivityAt: p.lastActivityAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export function docToProject(d: ProjectDoc): ProjectRecord {
  return {
    id: d._id,
    ownerId: d.ownerId,
    name: d.name,
    style: pairsToStyle(d.style),
    taskCount: d.taskCount,
    lastActivityAt: asDate(d.lastActivityAt),
    createdAt: asDate(d.createdAt),
    updatedAt: asDate(d.updatedAt),
  };
}

function cloneParams(p: TaskParams): TaskParams {
  const out: TaskParams = { resolution: p.resolution, format: p.format };
  if (p.width !== undefined) out.width = p.width;
  if (p.height !== undefined) out.height = p.height;
  if (p.frames)
    out.frames = { directions: p.frames.directions, framesPerDirection: p.frames.framesPerDirection };
  if (p.seed !== undefined) out.seed = p.seed;
  if (p.animation) {
    const { fps, loop, frameDurations } = p.animation;
    out.animation = { fps, loop, ...(frameDurations ? { frameDurations: [...frameDurations] } : {}) };
  }
  if (p.tileset) out.tileset = { kind: p.tileset.kind, tileSize: p.tileset.tileSize };
  if (p.level) {
    const { columns, rows, tileSize, tilesetTaskId, terrains } = p.level;
    out.level = {
      columns,
      rows,
      tileSize,
      ...(tilesetTaskId === undefined ? {} : { tilesetTaskId }),
      ...(terrains === undefined ? {} : { terrains: [...terrains] }),
    };
  }
  if (p.placeholder === true) out.placeholder = true;
  // a kept character's action and the rig identity it is drawn from (decision 0055)
  if (p.character) {
    const { characterId, action, identity } = p.character;
    out.character = { characterId, action, identity: structuredClone(identity) };
  }
  // image inputs (decision 0034): the uploads a task names, kept with it
  if (p.image) out.image = { uploadId: p.image.uploadId, strength: p.image.strength };
  if (p.mask) out.mask = { uploadId: p.mask.uploadId };
  if (p.references) out.references = p.references.map((r) => ({ uploadId: r.uploadId }));
  if (p.paletteFrom)
    out.paletteFrom = { uploadId: p.paletteFrom.uploadId, maxColors: p.paletteFrom.maxColors };
  return out;
}

export function taskToDoc(t: TaskRecord): TaskDoc {
  return {
    _id: t.id,
    ownerId: t.ownerId,
    projectId: t.projectId,
    prompt: t.prompt,
    assetType: t.assetType,
    taskStyle: t.taskStyle === null ? null : styleToPairs(t.taskStyle),
    params: cloneParams(t.params),
    status: t.status,
    stage: t.stage,
    progress: t.progress,
    retryCount: t.retryCount,
    error: t.error,
    dedupeKey: t.dedupeKey,
    idempotencyKey: t.idempotencyKey,
    lastSeq: t.lastSeq,
    lease: t.lease === null ? null : { owner: t.lease.owner, until: t.lease.until },
    attempts: t.attempts,
    ...(t.storedBytes === undefined ? {} : { storedBytes: t.storedBytes }),
    ...(t.inputPixels === undefined ? {} : { inputPixels: t.inputPixels }),
    ...(t.characterId === undefined ? {} : { characterId: t.characterId }),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    activeKey: activeKeyOf(t),
    idemKey: idemKeyOf(t),
  };
}

export function docToTask(d: TaskDoc): TaskRecord {
  return {
    id: d._id,
    ownerId: d.ownerId,
    projectId: d.projectId,
    prompt: d.prompt,
    assetType: d.assetType,
    taskStyle: d.taskStyle === null || d.taskStyle === undefined ? null : pairsToStyle(d.taskStyle),
    params: cloneParams(d.params),
    status: d.status,
    stage: d.stage,
    progress: d.progress,
    retryCount: d.retryCount,
    error: d.error ?? null,
    dedupeKey: d.dedupeKey,
    idempotencyKey: d.idempotencyKey ?? null,
    lastSeq: d.lastSeq,
    lease: d.lease ? { owner: d.lease.owner, until: asDate(d.lease.until) } : null,
    attempts: d.attempts,
    ...(typeof d.storedBytes === 'number' ? { storedBytes: d.storedBytes } : {}),
    ...(typeof d.inputPixels === 'number' ? { inputPixels: d.inputPixels } : {}),
    ...(typeof d.characterId === 'string' ? { characterId: d.characterId } : {}),
    createdAt: asDate(d.createdAt),
    updatedAt: asDate(d.updatedAt),
  };
}

/** The $set of a task patch, with the derived unique slots kept in step. */
export function taskPatchToSet(id: string, patch: TaskPatch): Record<string, unknown> {
  const set: Record<string, unknown> = { updatedAt: patch.updatedAt };
  if (patch.status !== undefined) {
    set.status = patch.status;
    // Leaving running/saving frees the dedupe slot; entering them never happens after insert.
    if (patch.status === 'completed' || patch.status === 'failed') set.activeKey = `d:${id}`;
  }
  if (patch.stage !== undefined) set.stage = patch.stage;
  if (patch.progress !== undefined) set.progress = patch.progress;
  if (patch.retryCount !== undefined) set.retryCount = patch.retryCount;
  if (patch.error !== undefined) set.error = patch.error;
  if (patch.lastSeq !== undefined) set.lastSeq = patch.lastSeq;
  if (patch.lease !== undefined) set.lease = patch.lease === null ? null : { ...patch.lease };
  if (patch.attempts !== undefined) set.attempts = patch.attempts;
  if (patch.storedBytes !== undefined) set.storedBytes = patch.storedBytes;
  if (patch.idempotencyKey === null) {
    set.idempotencyKey = null;
    set.idemKey = `n:${id}`;
  }
  return set;
}

export function eventToDoc(e: EventRecord): EventDoc {
  return {
    evKey: `${e.taskId}#${e.seq}`,
    taskId: e.taskId,
    seq: e.seq,
    eventJson: JSON.stringify(e.event),
    at: e.at,
  };
}

export function docToEvent(d: EventDoc): EventRecord {
  return { taskId: d.taskId, seq: d.seq, event: JSON.parse(d.eventJson) as object, at: asDate(d.at) };
}

export function assetToDoc(a: AssetRecord): AssetDoc {
  return {
    key: a.key,
    taskId: a.taskId,
    projectId: a.projectId,
    ownerId: a.ownerId,
    format: a.format,
    width: a.width,
    height: a.height,
    metadataJson: JSON.stringify(a.metadata ?? {}),
    contentType: a.contentType,
    createdAt: a.createdAt,
  };
}

export function docToAsset(d: AssetDoc): AssetRecord {
  return {
    taskId: d.taskId,
    projectId: d.projectId,
    ownerId: d.ownerId,
    key: d.key,
    format: d.format,
    width: d.width,
    height: d.height,
    metadata: JSON.parse(d.metadataJson) as Record<string, unknown>,
    contentType: d.contentType,
    createdAt: asDate(d.createdAt),
  };
}

export interface ClaimDoc {
  _id: string;
  taskId: string;
  attempt: number;
  owner: string;
  until: Date;
  at: Date;
  outlivedAt?: Date;
}

export function claimToDoc(c: ClaimRecord): ClaimDoc {
  return {
    _id: claimKeyOf(c.taskId, c.attempt),
    taskId: c.taskId,
    attempt: c.attempt,
    owner: c.owner,
    until: c.until,
    at: c.at,
    ...(c.outlivedAt === undefined ? {} : { outlivedAt: c.outlivedAt }),
  };
}

export function docToClaim(d: ClaimDoc): ClaimRecord {
  return {
    taskId: d.taskId,
    attempt: d.attempt,
    owner: d.owner,
    until: asDate(d.until),
    at: asDate(d.at),
    ...(d.outlivedAt === undefined || d.outlivedAt === null ? {} : { outlivedAt: asDate(d.outlivedAt) }),
  };
}
