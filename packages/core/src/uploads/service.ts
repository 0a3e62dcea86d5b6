import type { ImageInputRefs, PictureRef, PictureSource } from '@assetloom/pipeline/inputs';
import { ID_PATTERN, randomIds, systemClock } from '../defaults.js';
import { AssetloomError, errors } from '../errors.js';
import { nodeBuiltin } from '../internal/node-builtin.js';
import type { Clock, IdGenerator } from '../ports.js';
import type { Store } from '../store.js';
import type { AuthUser, TaskParams } from '../types.js';
import { uploadErrors } from './errors.js';
import { extractMultipartFile } from './multipart.js';
import type { InputHashes } from './params.js';
import { declaredFormat, type ImageFormat, JPEG_MAX_SCANS, probeImage } from './probe.js';
import type { UploadRecord, UploadRepository, UploadSlotRecord } from './records.js';

/** Limits of uploads (server settings UPLOAD_*, USER_MAX_UPLOAD_BYTES). */
export interface UploadLimits {
  /** Largest body in bytes (413 图片过大). */
  maxBytes: number;
  /** Largest side in pixels, read from the header before decoding (413 图片尺寸过大). */
  maxSide: number;
  /** Most pixels of one picture, read from the header before decoding (413 图片尺寸过大). */
  maxPixels: number;
  /** Bytes of stored uploads per user (413 上传空间已达上限); 0 for no limit. */
  userMaxBytes: number;
  /** How long an upload no task uses is kept after it was made or last named by a submission. */
  ttlSeconds: number;
  /** Most scans (SOS markers) of a JPEG, counted before decoding (413; UPLOAD_JPEG_MAX_SCANS). */
  maxJpegScans: number;
  /**
   * Largest stored PNG as a multiple of the upload's bytes (413; UPLOAD_MAX_EXPANSION); a PNG of at
   * most {@link EXPANSION_FLOOR_BYTES} always passes. 0 for no limit.
   */
  maxExpansion: number;
  /** Uploads of one user in flight at once, across processes (429; UPLOAD_USER_IN_FLIGHT, 1-2). */
  userInFlight: number;
}

export const UPLOAD_DEFAULTS: Readonly<UploadLimits> = Object.freeze({
  maxBytes: 10 * 1024 * 1024,
  maxSide: 4096,
  maxPixels: 4096 * 4096,
  userMaxBytes: 256 * 1024 * 1024,
  ttlSeconds: 24 * 60 * 60,
  maxJpegScans: JPEG_MAX_SCANS,
  maxExpansion: 16,
  userInFlight: 2,
});

/** A stored PNG this small is never refused for its expansion (a tiny JPEG may well grow 40×). */
export const EXPANSION_FLOOR_BYTES = 1024 * 1024;

/** An upload slot whose process has not released it for this long belongs to a process that died. */
const SLOT_TTL_MS = 10 * 60 * 1000;
/** How long an upload waits for one of its user's slots before 429 (two pictures dropped at once). */
const SLOT_WAIT_MS = 1000;
/** A deletion marker this old belongs to a deleter that died: it is ignored and replaced. */
const MARKER_TTL_MS = 5 * 60 * 1000;
/** A use this old whose task does not exist is a submission that died before its task was stored. */
const STALE_USE_MS = 10 * 60 * 1000;

/** A decoded picture: 8-bit RGBA pixels and the same pixels as a PNG without metadata. */
export interface DecodedImage {
  width: number;
  height: number;
  rgba: Uint8Array;
  png: Uint8Array;
}

/**
 * Decodes an upload whose header was already read and found within the limits (the server: sharp;
 * the mock: the pipeline's PNG decoder). Rejects for anything it cannot read (→ 400 图片无法读取).
 */
export interface ImageDecoder {
  decode(
    bytes: Uint8Array,
    header: { format: ImageFormat; width: number; height: number },
    limits: {
      maxPixels: number;
      /**
       * The stored PNG may not be larger than this: a decoder that writes a fast PNG first tries
       * harder (filters, more compression) when the fast one is over it. Absent: no bound.
       */
      maxPngBytes?: number;
    },
  ): Promise<DecodedImage>;
}

/** Where uploads are stored (the server's object storage, the mock's memory storage). */
export interface UploadObjects {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ bytes: Uint8Array } | null>;
  delete(keys: string[]): Promise<void>;
  /**
   * Rejects (the server: 507 存储空间不足) when storing `bytes` more would leave less free space than
   * the storage's minimum (STORAGE_MIN_FREE_BYTES). Called before decoding (0 bytes) and before the
   * put. Absent: no check.
   */
  ensureRoom?(bytes: number): Promise<void>;
}

/** The body of `POST /api/v1/uploads` as the transport read it (bounded by `maxBytes`). */
export interface UploadBody {
  bytes: Uint8Array;
  contentType: string | null;
}

/** An upload as the API answers it (the contract's `Upload`). */
export interface UploadView {
  uploadId: string;
  width: number;
  height: number;
  format: ImageFormat;
  bytes: number;
  animated: boolean;
  createdAt: string;
  expiresAt: string | null;
}

export interface UploadServiceDeps {
  /** The uploads, and the tasks (a use whose task was never stored is dropped once old). */
  store: Pick<Store, 'uploads' | 'tasks'> & Partial<Pick<Store, 'assets'>>;
  objects: UploadObjects;
  decoder: ImageDecoder;
  limits?: Partial<UploadLimits>;
  clock?: Clock;
  ids?: IdGenerator;
  /** Told about cleanup failures it rode over (the server logs them). */
  onBackgroundError?: (error: unknown, context: { what: string; [field: string]: unknown }) => void;
}

/** A task's pictures for the pipeline: what it names, and where their PNGs are read. */
export interface TaskPictures {
  refs: ImageInputRefs;
  pictures: PictureSource;
}

/** What a submission's image inputs are, once checked: their pictures' hashes, upload ids and pixels. */
export interface CheckedInputs {
  hashes: InputHashes;
  /** Each upload once, in the order the params name them. */
  uploadIds: string[];
  /** Pixels of the distinct pictures (width × height as stored): what a worker decodes (issue #37). */
  pixels: number;
}

/** The task a submission is about to create, whose id is chosen before its uploads are pinned. */
export interface PinningTask {
  id: string;
  projectId: string;
  ownerId: number;
}

export interface UploadService {
  readonly limits: Readonly<UploadLimits>;
  upload(user: AuthUser, body: UploadBody): Promise<UploadView>;
  get(user: AuthUser, id: string): Promise<UploadView>;
  delete(user: AuthUser, id: string): Promise<void>;
  /**
   * The image inputs of a submission: each upload the caller's (403 无权访问该上传 / 404 上传不存在),
   * a mask the size of its image (400 参数错误); they count as used now (their lifetime restarts).
   * null when the params name no upload.
   */
  checkInputs(user: AuthUser, params: TaskParams): Promise<CheckedInputs | null>;
  /**
   * Records the uses of the task about to be created (its id chosen before it is stored), then reads
   * the uploads again: one deleted meanwhile, or being deleted, gives the pins back and answers 404
   * 上传不存在. A delete or sweep marks the upload first and counts uses after, so of a submission and
   * a delete racing at least one sees the other and backs out (decision 0043). From here the uploads
   * stay while the task exists; a submission that creates no task calls `unpinInputs`.
   */
  pinInputs(task: PinningTask, uploadIds: readonly string[]): Promise<void>;
  /** Gives back the pins of a task that was not created (a duplicate, a refusal, a failure). */
  unpinInputs(taskId: string, uploadIds: readonly string[]): Promise<void>;
  /** After a project's tasks were deleted: removes the uploads only they used. */
  releaseProject(projectId: string): Promise<void>;
  /** Deletes uploads no task uses whose lifetime ended; answers how many. */
  sweep(limit?: number): Promise<number>;
  /**
   * The pictures a task's params name, as references the pipeline reads and decodes where it runs
   * (a pipeline thread; issue #37), with the source it reads them from. Rejects when one is gone.
   */
  loadInputs(params: TaskParams): Promise<TaskPictures | undefined>;
}

/** `users/<ownerId>/uploads/<id>.png`. */
export function uploadKeyOf(ownerId: number, id: string): string {
  return `users/${ownerId}/uploads/${id}.png`;
}

/** The upload ids a task's params name, in order (image, mask, references, palette). */
export function uploadIdsOf(params: TaskParams): string[] {
  const ids: string[] = [];
  if (params.image) ids.push(params.image.uploadId);
  if (params.mask) ids.push(params.mask.uploadId);
  for (const r of params.references ?? []) ids.push(r.uploadId);
  if (params.paletteFrom) ids.push(params.paletteFrom.uploadId);
  return ids;
}

let nodeCrypto: typeof import('node:crypto') | null | undefined;

/** SHA-256 (hex) of a picture's size and pixels: node:crypto where it exists (no copy), else Web Crypto. */
async function sha256OfPixels(width: number, height: number, rgba: Uint8Array): Promise<string> {
  const head = new TextEncoder().encode(`${width}x${height}:`);
  if (nodeCrypto === undefined) nodeCrypto = nodeBuiltin<typeof import('node:crypto')>('node:crypto') ?? null;
  if (nodeCrypto !== null) return nodeCrypto.createHash('sha256').update(head).update(rgba).digest('hex');
  const all = new Uint8Array(head.length + rgba.length);
  all.set(head, 0);
  all.set(rgba, head.length);
  const digest = await globalThis.crypto.subtle.digest('SHA-256', all);
  let hex = '';
  for (const b of new Uint8Array(digest)) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/**
 * Uploads (decision 0034): every rule of `POST /api/v1/uploads` and of image inputs in one place,
 * over the store's upload repository, an object storage and a decoder the transport provides.
 */
export function createUploadService(deps: UploadServiceDeps): UploadService {
  const limits: UploadLimits = { ...UPLOAD_DEFAULTS, ...deps.limits };
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? randomIds;
  const repo = (): UploadRepository => {
    const r = deps.store.uploads;
    if (r === undefined) throw errors.internal(new Error('[assetloom/core] this store keeps no uploads'));
    return r;
  };
  const ttlMs = limits.ttlSeconds * 1000;
  const report = (what: string, context: Record<string, unknown>) => (error: unknown) => {
    deps.onBackgroundError?.(error, { what, ...context });
  };

  async function view(u: UploadRecord): Promise<UploadView> {
    const used = (await repo().countUses(u.id)) > 0;
    return {
      uploadId: u.id,
      width: u.width,
      height: u.height,
      format: u.format,
      bytes: u.bytes,
      animated: u.animated,
      createdAt: u.createdAt.toISOString(),
      expiresAt: used ? null : new Date(u.lastUsedAt.getTime() + ttlMs).toISOString(),
    };
  }

  async function owned(user: AuthUser, id: string): Promise<UploadRecord> {
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) throw uploadErrors.notFound();
    const u = await repo().byId(id);
    if (u === null) throw uploadErrors.notFound();
    if (u.ownerId !== user.id) throw uploadErrors.forbidden();
    return u;
  }

  /**
   * Whether a task uses the upload. A use older than STALE_USE_MS whose task does not exist was
   * pinned by a submission whose process died before storing its task: it is dropped here.
   */
  async function inUse(id: string, now: Date): Promise<boolean> {
    const r = repo();
    const count = await r.countUses(id);
    if (count === 0) return false;
    const cutoff = now.getTime() - STALE_USE_MS;
    let dropped = 0;
    for (const use of await r.usesOf(id)) {
      if (use.createdAt.getTime() >= cutoff) return true;
      if ((await deps.store.tasks.byId(use.taskId)) !== null) return true;
      await r.deleteUses(use.taskId, [id]);
      dropped++;
    }
    return count - dropped > 0;
  }

  /**
   * Deletes the upload unless a task uses it (decision 0043): its deletion marker is inserted first
   * and the uses counted after, while a submission inserts its uses first and reads the marker after,
   * so at least one of the two sees the other. `busy`: another deleter holds the marker.
   */
  async function removeIfUnused(u: UploadRecord): Promise<'removed' | 'in-use' | 'busy'> {
    const r = repo();
    const now = clock.now();
    if (!(await r.markDeleting(u.id, now))) {
      // A marker older than MARKER_TTL_MS belongs to a deleter that died: it is replaced.
      const stale = new Date(now.getTime() - MARKER_TTL_MS);
      if (!(await r.unmarkDeleting(u.id, stale)) || !(await r.markDeleting(u.id, now))) return 'busy';
    }
    try {
      if (await inUse(u.id, now)) return 'in-use';
      // The record first: from here a pinning submission finds the upload gone.
      await r.delete(u.id);
      await deps.objects
        .delete([u.key])
        .catch(report('deleting an upload object', { key: u.key, uploadId: u.id }));
      return 'removed';
    } finally {
      await r.unmarkDeleting(u.id).catch(report('removing an upload deletion marker', { uploadId: u.id }));
    }
  }

  /**
   * One of the user's UPLOAD_USER_IN_FLIGHT slots, taken by a unique insert (so across processes);
   * an expired one (its process died) is taken over. Waits up to SLOT_WAIT_MS, then 429.
   */
  async function takeSlot(user: AuthUser): Promise<UploadSlotRecord> {
    const r = repo();
    const holder = ids.id();
    const waitUntil = Date.now() + SLOT_WAIT_MS;
    for (let round = 0; ; round++) {
      const now = clock.now();
      for (let i = 0; i < Math.max(1, limits.userInFlight); i++) {
        const slot: UploadSlotRecord = {
          id: `${user.id}:${i}`,
          ownerId: user.id,
          holder,
          bytes: 0,
          createdAt: now,
          expiresAt: new Date(now.getTime() + SLOT_TTL_MS),
        };
        if (await r.takeSlot(slot)) return slot;
        const held = await r.slotById(slot.id);
        if (held !== null && held.expiresAt.getTime() < now.getTime()) {
          if ((await r.releaseSlot(slot.id, held.holder, now)) && (await r.takeSlot(slot))) return slot;
        }
      }
      if (Date.now() >= waitUntil) {
        throw uploadErrors.inFlight(1, { userId: user.id, inFlight: limits.userInFlight });
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * Math.min(round + 1, 4)));
    }
  }

  /** Bytes the user's stored uploads and other uploads in flight take: the slots first, then the records. */
  async function quotaUsed(user: AuthUser, slot: UploadSlotRecord): Promise<number> {
    const reserved = await repo().reservedByOwner(user.id, slot.id, clock.now());
    return reserved + (await repo().bytesByOwner(user.id));
  }

  /** The body's picture bytes and the format the request declared (multipart read). */
  function pictureOf(body: UploadBody): { bytes: Uint8Array; declared: ImageFormat | 'any' } {
    let bytes = body.bytes;
    let declared = declaredFormat(body.contentType);
    if (declared === 'multipart') {
      const part = extractMultipartFile(bytes, body.contentType);
      if (!part.ok) throw uploadErrors.unreadable({ reason: part.detail });
      bytes = part.bytes;
      declared = part.contentType === null ? 'any' : declaredFormat(part.contentType);
      if (declared === 'multipart') declared = null;
    }
    if (declared === null) {
      throw uploadErrors.unreadable({
        reason: `content type ${JSON.stringify(body.contentType)} is not an image type`,
      });
    }
    return { bytes, declared };
  }

  /** Reads the header and refuses what may not be decoded: bombs, many-scan JPEGs, lies. */
  function headerOf(bytes: Uint8Array, declared: ImageFormat | 'any') {
    if (bytes.byteLength > limits.maxBytes)
      throw uploadErrors.tooLarge({ bytes: bytes.byteLength, limit: limits.maxBytes });
    const header = probeImage(bytes, { maxJpegScans: limits.maxJpegScans });
    if (!header.ok) {
      if (header.reason === 'too-many-scans') {
        throw uploadErrors.tooManyScans({ detail: header.detail, limit: limits.maxJpegScans });
      }
      throw uploadErrors.unreadable({ reason: header.reason, detail: header.detail });
    }
    if (declared !== 'any' && declared !== header.format) {
      throw uploadErrors.unreadable({ reason: `declared ${declared} but the bytes are ${header.format}` });
    }
    const { width, height } = header;
    if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) {
      throw uploadErrors.dimensions({ width, height, maxSide: limits.maxSide, maxPixels: limits.maxPixels });
    }
    return header;
  }

  /** Decodes within the limits; the stored PNG is bounded relative to the upload's bytes. */
  async function decodeWithin(
    bytes: Uint8Array,
    header: { format: ImageFormat; width: number; height: number },
  ): Promise<DecodedImage> {
    const maxPngBytes =
      limits.maxExpansion > 0
        ? Math.max(EXPANSION_FLOOR_BYTES, Math.floor(limits.maxExpansion * bytes.byteLength))
        : undefined;
    let decoded: DecodedImage;
    try {
      decoded = await deps.decoder.decode(bytes, header, {
        maxPixels: limits.maxPixels,
        ...(maxPngBytes === undefined ? {} : { maxPngBytes }),
      });
    } catch (error) {
      // the decoder's own refusals (a busy server) pass; anything else is an unreadable picture
      if (error instanceof AssetloomError) throw error;
      throw uploadErrors.unreadable({
        reason: 'decode failed',
        detail: error instanceof Error ? error.message : String(error),
      });
    }
    const { width, height } = header;
    // a JPEG's EXIF orientation may turn the picture a quarter: its sides swap, nothing else
    const turned = decoded.width === height && decoded.height === width;
    if (
      !((decoded.width === width && decoded.height === height) || turned) ||
      decoded.rgba.length !== width * height * 4
    ) {
      throw uploadErrors.unreadable({ reason: 'decoded size differs from the header' });
    }
    if (maxPngBytes !== undefined && decoded.png.byteLength > maxPngBytes) {
      throw uploadErrors.expands({
        bytes: bytes.byteLength,
        stored: decoded.png.byteLength,
        limit: limits.maxExpansion,
      });
    }
    return decoded;
  }

  /** Stores the decoded picture under a new id, inside the user's quota (the slot's reservation). */
  async function store(
    user: AuthUser,
    slot: UploadSlotRecord,
    header: { format: ImageFormat; animated: boolean },
    decoded: DecodedImage,
  ): Promise<UploadRecord> {
    const size = decoded.png.byteLength;
    if (limits.userMaxBytes > 0) {
      // Reserve, then read what the others hold: of two uploads in flight at least one sees the other.
      if (!(await repo().reserve(slot.id, slot.holder, size))) {
        throw uploadErrors.inFlight(1, { reason: 'the upload slot expired', slot: slot.id });
      }
      const used = await quotaUsed(user, slot);
      if (used + size > limits.userMaxBytes) {
        throw uploadErrors.quota({ used, adding: size, limit: limits.userMaxBytes });
      }
    }
    await deps.objects.ensureRoom?.(size);
    const now = clock.now();
    const id = ids.id();
    const record: UploadRecord = {
      id,
      ownerId: user.id,
      key: uploadKeyOf(user.id, id),
      format: header.format,
      width: decoded.width,
      height: decoded.height,
      bytes: size,
      animated: header.animated,
      contentHash: await sha256OfPixels(decoded.width, decoded.height, decoded.rgba),
      createdAt: now,
      lastUsedAt: now,
    };
    await deps.objects.put(record.key, decoded.png, 'image/png');
    try {
      await repo().insert(record);
    } catch (error) {
      await deps.objects.delete([record.key]).catch(() => undefined);
      throw error;
    }
    return record;
  }

  /** An upload a task names, as the pipeline reads it; rejects when it is gone. */
  async function pictureRef(id: string): Promise<PictureRef> {
    const u = await repo().byId(id);
    if (u === null) {
      throw new Error(
        `[assetloom/core] the uploaded picture ${id} is gone (deleted or expired); upload it again`,
      );
    }
    return { uploadId: u.id, key: u.key, width: u.width, height: u.height };
  }

  /** A level's tileset task (issue #42) as the pipeline reads it: its sheet, kind, tile size and terrains. */
  async function tilesetRef(taskId: string): Promise<NonNullable<ImageInputRefs['tileset']>> {
    const assets = (await deps.store.assets?.listByTask(taskId)) ?? [];
    const sheet = assets.find(
      (a) => (a.metadata as { tileset?: unknown } | undefined)?.tileset !== undefined,
    );
    const meta = (
      sheet?.metadata as { tileset?: { kind?: string; tileSize?: number; terrains?: string[] } } | undefined
    )?.tileset;
    if (sheet === undefined || meta === undefined || (meta.kind !== 'wang16' && meta.kind !== 'blob47')) {
      throw new Error(
        `[assetloom/core] the tileset task ${taskId} has no wang16 or blob47 tileset (deleted with its project?): generate the tileset again`,
      );
    }
    return {
      ref: { uploadId: `task:${taskId}`, key: sheet.key, width: sheet.width, height: sheet.height },
      taskId,
      kind: meta.kind,
      tileSize: meta.tileSize ?? 16,
      terrains: [...(meta.terrains ?? [])],
    };
  }

  /** Reads a stored upload's PNG for the pipeline (decoded where the pipeline runs). */
  const pictures: PictureSource = {
    async read(ref) {
      const stored = await deps.objects.get(ref.key);
      if (stored === null) {
        throw new Error(
          `[assetloom/core] the uploaded picture ${ref.uploadId} is gone (deleted or expired); upload it again`,
        );
      }
      return stored.bytes;
    },
  };

  return {
    limits,

    async upload(user, body) {
      const { bytes, declared } = pictureOf(body);
      const header = headerOf(bytes, declared);
      await deps.objects.ensureRoom?.(0);
      const slot = await takeSlot(user);
      try {
        if (limits.userMaxBytes > 0) {
          const used = await quotaUsed(user, slot);
          if (used >= limits.userMaxBytes) throw uploadErrors.quota({ used, limit: limits.userMaxBytes });
        }
        const decoded = await decodeWithin(bytes, header);
        const record = await store(user, slot, header, decoded);
        return {
          uploadId: record.id,
          width: record.width,
          height: record.height,
          format: record.format,
          bytes: record.bytes,
          animated: record.animated,
          createdAt: record.createdAt.toISOString(),
          expiresAt: new Date(record.createdAt.getTime() + ttlMs).toISOString(),
        };
      } finally {
        // After the record: a reader of the quota sees this upload in the slot, the record, or both.
        await repo()
          .releaseSlot(slot.id, slot.holder)
          .catch(report('releasing an upload slot', { slot: slot.id }));
      }
    },

    async get(user, id) {
      return view(await owned(user, id));
    },

    async delete(user, id) {
      for (let attempt = 0; ; attempt++) {
        const u = await owned(user, id);
        const outcome = await removeIfUnused(u);
        if (outcome === 'removed') return;
        if (outcome === 'in-use') throw uploadErrors.inUse();
        // another delete or a sweep holds it now: look again shortly
        if (attempt >= 3) throw uploadErrors.notFound();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },

    async checkInputs(user, params) {
      const all = uploadIdsOf(params);
      if (all.length === 0) return null;
      const records = new Map<string, UploadRecord>();
      for (const id of new Set(all)) records.set(id, await owned(user, id));
      const hashOf = (id: string) => (records.get(id) as UploadRecord).contentHash;
      if (params.image && params.mask) {
        const image = records.get(params.image.uploadId) as UploadRecord;
        const mask = records.get(params.mask.uploadId) as UploadRecord;
        if (image.width !== mask.width || image.height !== mask.height) {
          throw errors.badRequest({
            where: 'body',
            errors: [
              {
                path: '/params/mask',
                keyword: 'image',
                message: `must be the size of params.image (${image.width} × ${image.height}), not ${mask.width} × ${mask.height}`,
              },
            ],
          });
        }
      }
      await repo().touch([...records.keys()], clock.now());
      const hashes: InputHashes = {};
      if (params.image) hashes.image = hashOf(params.image.uploadId);
      if (params.mask) hashes.mask = hashOf(params.mask.uploadId);
      if (params.references) hashes.references = params.references.map((r) => hashOf(r.uploadId));
      if (params.paletteFrom) hashes.paletteFrom = hashOf(params.paletteFrom.uploadId);
      let pixels = 0;
      for (const u of records.values()) pixels += u.width * u.height;
      return { hashes, uploadIds: [...records.keys()], pixels };
    },

    async pinInputs(task, uploadIds) {
      if (uploadIds.length === 0) return;
      const r = repo();
      const at = clock.now();
      await r.addUses(
        uploadIds.map((uploadId) => ({
          uploadId,
          taskId: task.id,
          projectId: task.projectId,
          ownerId: task.ownerId,
          createdAt: at,
        })),
      );
      // Uses first, then the uploads and their deletion markers again (decision 0043).
      const liveAfter = at.getTime() - MARKER_TTL_MS;
      for (const id of uploadIds) {
        const [u, marked] = await Promise.all([r.byId(id), r.deletingSince(id)]);
        if (u === null || u.ownerId !== task.ownerId || (marked !== null && marked.getTime() > liveAfter)) {
          await r
            .deleteUses(task.id, uploadIds)
            .catch(report('giving back the pins of a refused submission', { taskId: task.id }));
          throw uploadErrors.notFound();
        }
      }
    },

    async unpinInputs(taskId, uploadIds) {
      if (uploadIds.length === 0) return;
      await repo().deleteUses(taskId, uploadIds);
    },

    async releaseProject(projectId) {
      const r = deps.store.uploads;
      if (r === undefined) return;
      for (const id of await r.deleteUsesByProject(projectId)) {
        const u = await r.byId(id);
        if (u !== null) await removeIfUnused(u);
      }
    },

    async sweep(limit = 100) {
      const r = deps.store.uploads;
      if (r === undefined) return 0;
      const now = clock.now();
      await r.deleteExpiredSlots(now);
      await r.deleteStaleMarkers(new Date(now.getTime() - MARKER_TTL_MS));
      const before = new Date(now.getTime() - ttlMs);
      let removed = 0;
      for (const u of await r.idleSince(before, limit)) {
        if ((await removeIfUnused(u)) === 'removed') removed++;
      }
      return removed;
    },

    async loadInputs(params) {
      const tilesetTask = params.level?.tilesetTaskId;
      if (uploadIdsOf(params).length === 0 && tilesetTask === undefined) return undefined;
      const refs: ImageInputRefs = {};
      if (tilesetTask !== undefined) refs.tileset = await tilesetRef(tilesetTask);
      if (params.image)
        refs.image = { ref: await pictureRef(params.image.uploadId), strength: params.image.strength };
      if (params.mask) refs.mask = await pictureRef(params.mask.uploadId);
      if (params.references) {
        refs.references = [];
        for (const r of params.references) refs.references.push(await pictureRef(r.uploadId));
      }
      if (params.paletteFrom) {
        refs.paletteFrom = {
          ref: await pictureRef(params.paletteFrom.uploadId),
          maxColors: params.paletteFrom.maxColors,
        };
      }
      return { refs, pictures };
    },
  };
}
