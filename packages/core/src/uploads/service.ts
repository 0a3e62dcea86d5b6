import type { ImageInputRefs, PictureRef, PictureSource } from '@assetloom/pipeline';
import { ID_PATTERN, randomIds, systemClock } from '../defaults.js';
import { errors } from '../errors.js';
import { nodeBuiltin } from '../internal/node-builtin.js';
import type { Clock, IdGenerator } from '../ports.js';
import type { Store } from '../store.js';
import type { AuthUser, TaskParams } from '../types.js';
import { uploadErrors } from './errors.js';
import { extractMultipartFile } from './multipart.js';
import type { InputHashes } from './params.js';
import { declaredFormat, type ImageFormat, probeImage } from './probe.js';
import type { UploadRecord, UploadRepository } from './records.js';

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
}

export const UPLOAD_DEFAULTS: Readonly<UploadLimits> = Object.freeze({
  maxBytes: 10 * 1024 * 1024,
  maxSide: 4096,
  maxPixels: 4096 * 4096,
  userMaxBytes: 256 * 1024 * 1024,
  ttlSeconds: 24 * 60 * 60,
});

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
    limits: { maxPixels: number },
  ): Promise<DecodedImage>;
}

/** Where uploads are stored (the server's object storage, the mock's memory storage). */
export interface UploadObjects {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ bytes: Uint8Array } | null>;
  delete(keys: string[]): Promise<void>;
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
  store: Pick<Store, 'uploads'>;
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

/** What a submission's image inputs are, once checked: their pictures' hashes and upload ids. */
export interface CheckedInputs {
  hashes: InputHashes;
  uploadIds: string[];
  /** Pixels of the distinct pictures (width × height as stored): what a worker decodes (issue #37). */
  pixels: number;
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
  /** Records that a new task uses these uploads: they are kept while it exists. */
  recordUses(
    task: { id: string; projectId: string; ownerId: number },
    uploadIds: readonly string[],
  ): Promise<void>;
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

  async function remove(u: UploadRecord): Promise<void> {
    await repo().delete(u.id);
    await deps.objects.delete([u.key]).catch((error: unknown) => {
      deps.onBackgroundError?.(error, { what: 'deleting an upload object', key: u.key });
    });
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
      if (bytes.byteLength > limits.maxBytes)
        throw uploadErrors.tooLarge({ bytes: bytes.byteLength, limit: limits.maxBytes });
      const header = probeImage(bytes);
      if (!header.ok) throw uploadErrors.unreadable({ reason: header.reason, detail: header.detail });
      if (declared !== 'any' && declared !== header.format) {
        throw uploadErrors.unreadable({ reason: `declared ${declared} but the bytes are ${header.format}` });
      }
      const { width, height, format } = header;
      if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) {
        throw uploadErrors.dimensions({
          width,
          height,
          maxSide: limits.maxSide,
          maxPixels: limits.maxPixels,
        });
      }
      const used = limits.userMaxBytes > 0 ? await repo().bytesByOwner(user.id) : 0;
      if (limits.userMaxBytes > 0 && used >= limits.userMaxBytes) {
        throw uploadErrors.quota({ used, limit: limits.userMaxBytes });
      }
      let decoded: DecodedImage;
      try {
        decoded = await deps.decoder.decode(bytes, header, { maxPixels: limits.maxPixels });
      } catch (error) {
        throw uploadErrors.unreadable({
          reason: 'decode failed',
          detail: error instanceof Error ? error.message : String(error),
        });
      }
      // a JPEG's EXIF orientation may turn the picture a quarter: its sides swap, nothing else
      const turned = decoded.width === height && decoded.height === width;
      if (
        !((decoded.width === width && decoded.height === height) || turned) ||
        decoded.rgba.length !== width * height * 4
      ) {
        throw uploadErrors.unreadable({ reason: 'decoded size differs from the header' });
      }
      if (limits.userMaxBytes > 0 && used + decoded.png.byteLength > limits.userMaxBytes) {
        throw uploadErrors.quota({ used, adding: decoded.png.byteLength, limit: limits.userMaxBytes });
      }
      const now = clock.now();
      const id = ids.id();
      const record: UploadRecord = {
        id,
        ownerId: user.id,
        key: uploadKeyOf(user.id, id),
        format,
        width: decoded.width,
        height: decoded.height,
        bytes: decoded.png.byteLength,
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
      return {
        uploadId: id,
        width: record.width,
        height: record.height,
        format,
        bytes: record.bytes,
        animated: record.animated,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
      };
    },

    async get(user, id) {
      return view(await owned(user, id));
    },

    async delete(user, id) {
      const u = await owned(user, id);
      if ((await repo().countUses(u.id)) > 0) throw uploadErrors.inUse();
      await remove(u);
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

    async recordUses(task, uploadIds) {
      if (uploadIds.length === 0) return;
      const at = clock.now();
      await repo().addUses(
        uploadIds.map((uploadId) => ({
          uploadId,
          taskId: task.id,
          projectId: task.projectId,
          ownerId: task.ownerId,
          createdAt: at,
        })),
      );
    },

    async releaseProject(projectId) {
      const r = deps.store.uploads;
      if (r === undefined) return;
      for (const id of await r.deleteUsesByProject(projectId)) {
        if ((await r.countUses(id)) > 0) continue;
        const u = await r.byId(id);
        if (u !== null) await remove(u);
      }
    },

    async sweep(limit = 100) {
      const r = deps.store.uploads;
      if (r === undefined) return 0;
      const before = new Date(clock.now().getTime() - ttlMs);
      let removed = 0;
      for (const u of await r.idleSince(before, limit)) {
        if ((await r.countUses(u.id)) > 0) continue;
        await remove(u);
        removed++;
      }
      return removed;
    },

    async loadInputs(params) {
      if (uploadIdsOf(params).length === 0) return undefined;
      const refs: ImageInputRefs = {};
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
