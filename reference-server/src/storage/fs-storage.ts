import { randomUUID } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  rmdir,
  statfs,
  unlink,
} from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { contentTypeFromKey, isValidContentType } from './internal/content-type.js';
import {
  codeOf,
  ioError,
  isAbsentCode,
  isInside,
  KNOWN_DIRS_ENTRIES,
  leavesRoot,
  META_DIR,
  type MetaFile,
  messageOf,
  metaPathOf,
  objectPathOf,
  putObjectFiles,
  renameIntoPlace,
  TMP_DIR,
} from './internal/fs-layout.js';
import { assertPutArguments } from './internal/put-arguments.js';
import { assertObjectKey, assertObjectPrefix } from './keys.js';
import { assertTtlSeconds, FileUrlSigner, normalizeBaseUrl } from './signing.js';
import {
  type LocalRoot,
  type ObjectStorage,
  ObjectStorageError,
  type OpenedObject,
  type SignedUrlOptions,
  type SignedUrlVerifier,
  type StoredObject,
} from './types.js';

/** Options of {@link createFsStorage}. */
export interface FsStorageOptions {
  /** The folder holding the objects (DATA_DIR/objects by default in the server); created when missing. */
  root: string;
  /** The HMAC secret of download tokens (≥ 32 bytes), or a ready signer. */
  secret: string | Uint8Array | FileUrlSigner;
  /** Fixed origin (and path prefix) of signed URLs, e.g. `https://assets.example.com`; wins over `baseUrl`. */
  publicBaseUrl?: string | null;
  /** Lifetime of signed URLs when the caller gives none (seconds, default 3600). */
  defaultTtlSeconds?: number;
  /** Flush each object to disk before it becomes visible (default true). */
  fsync?: boolean;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
  /**
   * `check()` fails with "storage full" when fewer bytes than this are free on the folder's file
   * system (STORAGE_MIN_FREE_BYTES; default 0: no minimum). The readiness check calls `check()`.
   */
  minFreeBytes?: number;
}

/** The filesystem driver: also signs and checks `/files/<key>?e=&token=` URLs and opens objects for streaming. */
export interface FsObjectStorage extends ObjectStorage {
  readonly kind: 'fs';
  /** The absolute storage folder. */
  readonly root: string;
  /** Whether each object is flushed to disk before it becomes visible. */
  readonly fsync: boolean;
  readonly signer: FileUrlSigner;
  /** The clock the driver signs with (milliseconds). */
  now(): number;
  /** Opens an object for streaming, or null when there is none (or the path would leave the root). */
  open(key: string): Promise<OpenedObject | null>;
  /** Checks the `/files/<key>?e=&token=` URLs it signed (the files router): `signer` at `now()`. */
  readonly urlVerifier: SignedUrlVerifier;
  /** `root` and `fsync`: pipeline threads write the driver's objects there themselves (fs-writer.ts). */
  readonly localRoot: LocalRoot;
}

const NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;
const DEFAULT_TTL_SECONDS = 3600;
const META_CACHE_ENTRIES = 4096;

/**
 * Objects as plain files under `root`: `<root>/<key>` holds the bytes. The content type is the one
 * the extension implies (png, jpg, gif, webp, json, tres, txt); any other type given to `put` is
 * kept in the sidecar `<root>/.meta/<key>.json` with the size and SHA-256 (keys start with a letter
 * or digit, so no key reaches `.meta` or `.tmp`). Writes go to `<root>/.tmp` first and are renamed into place. Every path is resolved
 * under the root and re-checked after resolving symlinks; a file reached through a link that leaves
 * the root does not exist as far as this driver is concerned.
 */
export function createFsStorage(options: FsStorageOptions): FsObjectStorage {
  const root = resolve(options.root);
  const signer = options.secret instanceof FileUrlSigner ? options.secret : new FileUrlSigner(options.secret);
  const defaultTtl = assertTtlSeconds(options.defaultTtlSeconds ?? DEFAULT_TTL_SECONDS);
  let publicBase: string | null = null;
  if (options.publicBaseUrl !== undefined && options.publicBaseUrl !== null) {
    publicBase = normalizeBaseUrl(options.publicBaseUrl);
    if (publicBase === null) {
      throw new ObjectStorageError(
        'invalid_argument',
        `publicBaseUrl must be an absolute http(s) URL without query or fragment (got ${JSON.stringify(options.publicBaseUrl)})`,
      );
    }
  }
  const fsync = options.fsync ?? true;
  const now = options.now ?? Date.now;

  let ready: Promise<string> | undefined;
  /** Creates the folders once and answers the real path of the root. */
  const realRoot = (): Promise<string> => {
    ready ??= (async () => {
      await mkdir(join(root, TMP_DIR), { recursive: true });
      await mkdir(join(root, META_DIR), { recursive: true });
      return realpath(root);
    })().catch((error: unknown) => {
      ready = undefined;
      throw new ObjectStorageError(
        'io',
        `cannot use the storage folder ${root}: ${messageOf(error)}; point DATA_DIR at a writable folder`,
        { cause: error },
      );
    });
    return ready;
  };

  const objectPath = (key: string) => objectPathOf(root, key);
  const metaPath = (key: string) => metaPathOf(root, key);

  /** Throws when `dir` (which exists) resolves outside the root. */
  async function assertInside(dir: string, real: string, key: string): Promise<void> {
    const resolved = await realpath(dir);
    if (!isInside(real, resolved)) throw leavesRoot(key);
  }

  /**
   * Folders already created and found inside the root. A put into a known folder goes straight to
   * the rename; deletions forget what they remove.
   */
  const knownDirs = new Set<string>();

  async function prepareDir(parent: string, real: string, key: string): Promise<void> {
    if (knownDirs.has(parent)) return;
    await mkdir(parent, { recursive: true });
    await assertInside(parent, real, key);
    if (knownDirs.size >= KNOWN_DIRS_ENTRIES) knownDirs.clear();
    knownDirs.add(parent);
  }

  function forgetDirs(under: string): void {
    for (const dir of knownDirs) {
      if (dir === under || dir.startsWith(`${under}${sep}`)) knownDirs.delete(dir);
    }
  }

  async function writeAtomically(
    target: string,
    bytes: Uint8Array,
    real: string,
    key: string,
    signal?: AbortSignal,
  ): Promise<void> {
    const temp = join(root, TMP_DIR, `${randomUUID()}.part`);
    let handle: FileHandle | undefined;
    try {
      handle = await open(temp, 'wx', 0o644);
      await handle.writeFile(bytes);
      if (fsync) await handle.datasync();
      await handle.close();
      handle = undefined;
      // A cancelled put leaves nothing: checked once more before the file becomes visible.
      signal?.throwIfAborted();
      await renameIntoPlace(temp, target, {
        prepareDir: (parent) => prepareDir(parent, real, key),
        forgetDir: (parent) => knownDirs.delete(parent),
        rename,
      });
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Sidecars of recently read objects, keyed by key and validated by the object's inode, size and
   * modification time: every put renames a new file (a new inode) into place, so a hit is current.
   */
  const metaCache = new Map<string, { ino: number; size: number; mtimeMs: number; meta: MetaFile | null }>();
  async function cachedMeta(key: string, st: { ino: number; size: number; mtimeMs: number }) {
    const hit = metaCache.get(key);
    if (hit !== undefined && hit.ino === st.ino && hit.size === st.size && hit.mtimeMs === st.mtimeMs) {
      return hit.meta;
    }
    const meta = await readMeta(key);
    if (metaCache.size >= META_CACHE_ENTRIES) {
      const oldest = metaCache.keys().next();
      if (oldest.done !== true) metaCache.delete(oldest.value);
    }
    metaCache.set(key, { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, meta });
    return meta;
  }

  async function readMeta(key: string): Promise<MetaFile | null> {
    try {
      const text = await readFile(metaPath(key), { encoding: 'utf8', flag: fsConstants.O_RDONLY | NOFOLLOW });
      if (text.length > 4096) return null;
      const parsed = JSON.parse(text) as Partial<MetaFile> | null;
      if (
        parsed === null ||
        typeof parsed !== 'object' ||
        parsed.v !== 1 ||
        !isValidContentType(parsed.contentType) ||
        typeof parsed.size !== 'number' ||
        typeof parsed.sha256 !== 'string' ||
        !/^[A-Za-z0-9_-]{43}$/.test(parsed.sha256)
      ) {
        return null;
      }
      return parsed as MetaFile;
    } catch {
      return null;
    }
  }

  async function openObject(key: string): Promise<OpenedObject | null> {
    assertObjectKey(key);
    const real = await realRoot();
    const path = objectPath(key);
    let handle: FileHandle;
    try {
      handle = await open(path, fsConstants.O_RDONLY | NOFOLLOW);
    } catch (error) {
      if (isAbsentCode(codeOf(error))) return null;
      throw ioError(`reading ${JSON.stringify(key)}`, error);
    }
    try {
      const st = await handle.stat();
      if (!st.isFile()) {
        await handle.close();
        return null;
      }
      // The file was opened without following a final symlink; where it really lies must be inside the root.
      if (!isInside(real, await openedPath(handle, path))) {
        await handle.close();
        return null;
      }
      const meta = await cachedMeta(key, st);
      const consistent = meta !== null && meta.size === st.size;
      const opened = handle;
      let closed = false;
      return {
        size: st.size,
        contentType: consistent ? meta.contentType : contentTypeFromKey(key),
        etag: consistent
          ? `"${meta.sha256}"`
          : `W/"${st.ino.toString(36)}-${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}"`,
        lastModified: st.mtime,
        stream() {
          closed = true;
          // The handle pins the inode: a concurrent put renames a new file into place and never
          // writes into this one, so reading to its end yields exactly the object opened.
          return opened.createReadStream({ start: 0, autoClose: true });
        },
        async read() {
          if (closed)
            throw new ObjectStorageError('invalid_argument', 'this opened object was already consumed');
          closed = true;
          try {
            const bytes = new Uint8Array(st.size);
            let offset = 0;
            while (offset < bytes.length) {
              const { bytesRead } = await opened.read(bytes, offset, bytes.length - offset, offset);
              if (bytesRead === 0) break;
              offset += bytesRead;
            }
            return offset === bytes.length ? bytes : bytes.subarray(0, offset);
          } finally {
            await opened.close();
          }
        },
        async close() {
          if (closed) return;
          closed = true;
          await opened.close();
        },
      };
    } catch (error) {
      await handle.close().catch(() => undefined);
      if (isAbsentCode(codeOf(error))) return null;
      throw ioError(`reading ${JSON.stringify(key)}`, error);
    }
  }

  /** Removes empty folders from `dir` up to (not including) the root of its tree. */
  async function prune(dir: string, top: string): Promise<void> {
    let current = dir;
    while (current !== top && isInside(top, current)) {
      try {
        knownDirs.delete(current);
        await rmdir(current);
      } catch {
        return;
      }
      current = dirname(current);
    }
  }

  const put: ObjectStorage['put'] = async (key, bytes, contentType, options) => {
    assertPutArguments(key, bytes, contentType);
    const signal = options?.signal;
    signal?.throwIfAborted();
    const real = await realRoot();
    await putObjectFiles(root, key, bytes, contentType, {
      removeSidecar: (path) =>
        unlink(path).catch((error: unknown) => {
          if (!isAbsentCode(codeOf(error))) throw error;
        }),
      writeAtomically: (target, data) => writeAtomically(target, data, real, key, signal),
    });
  };

  return {
    kind: 'fs',
    root,
    fsync,
    signer,
    now: () => now(),
    urlVerifier: {
      now: () => now(),
      verify: (key, e, token, nowSeconds) => signer.verify(key, e, token, nowSeconds),
    },
    // Direct writes stand for this put only: a wrapper with a put of its own is written through it.
    localRoot: { root, fsync, put },

    put,

    async get(key): Promise<StoredObject | null> {
      const opened = await openObject(key);
      if (opened === null) return null;
      try {
        return { bytes: await opened.read(), contentType: opened.contentType };
      } catch (error) {
        throw ioError(`reading ${JSON.stringify(key)}`, error);
      }
    },

    async exists(key) {
      const opened = await openObject(key);
      if (opened === null) return false;
      await opened.close();
      return true;
    },

    async delete(keys) {
      if (!Array.isArray(keys))
        throw new ObjectStorageError('invalid_argument', 'delete needs an array of keys');
      for (const key of keys) assertObjectKey(key);
      const real = await realRoot();
      for (const key of new Set(keys)) {
        for (const [path, top] of [
          [objectPath(key), root],
          [metaPath(key), join(root, META_DIR)],
        ] as const) {
          try {
            await assertInside(dirname(path), real, key);
            await unlink(path);
            await prune(dirname(path), top);
          } catch (error) {
            if (error instanceof ObjectStorageError) continue; // outside the root: nothing of ours
            const code = codeOf(error);
            if (isAbsentCode(code) || code === 'EISDIR' || code === 'EPERM') continue;
            throw ioError(`deleting ${JSON.stringify(key)}`, error);
          }
        }
      }
    },

    async deletePrefix(prefix) {
      const folder = assertObjectPrefix(prefix);
      const real = await realRoot();
      const segments = folder.slice(0, -1).split('/');
      for (const [dir, top] of [
        [join(root, ...segments), root],
        [join(root, META_DIR, ...segments), join(root, META_DIR)],
      ] as const) {
        try {
          await assertInside(dirname(dir), real, folder);
          // rm never follows a link it meets: a linked folder is unlinked, its target untouched.
          forgetDirs(dir);
          // A put racing the delete (a worker still writing a task of a deleted project) can add a
          // file between rm's listing and its rmdir (ENOTEMPTY): rm then lists and removes again.
          await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 10 });
          await prune(dirname(dir), top);
        } catch (error) {
          if (error instanceof ObjectStorageError) continue;
          if (isAbsentCode(codeOf(error))) continue;
          throw ioError(`deleting the prefix ${JSON.stringify(folder)}`, error);
        }
      }
    },

    async signedUrl(key, options: SignedUrlOptions = {}) {
      assertObjectKey(key);
      const ttl = assertTtlSeconds(options.ttlSeconds ?? defaultTtl);
      let base = publicBase;
      if (base === null && options.baseUrl !== undefined) {
        base = normalizeBaseUrl(options.baseUrl);
        if (base === null) {
          throw new ObjectStorageError(
            'invalid_argument',
            `baseUrl must be an absolute http(s) URL without query or fragment (got ${JSON.stringify(String(options.baseUrl)).slice(0, 120)})`,
          );
        }
      }
      const expiresAt = Math.floor(now() / 1000) + ttl;
      // Keys hold only URL-safe characters, so the key is its own path.
      return `${base ?? ''}/files/${key}?e=${expiresAt}&token=${signer.token(key, expiresAt)}`;
    },

    async check() {
      const real = await realRoot();
      const minFree = options.minFreeBytes ?? 0;
      if (minFree > 0) {
        const fsStats = await statfs(real);
        const free = fsStats.bavail * fsStats.bsize;
        if (free < minFree) {
          throw new ObjectStorageError(
            'io',
            `storage full: ${free} bytes free under ${root}, below STORAGE_MIN_FREE_BYTES (${minFree}); free space on that volume`,
            { cause: Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }) },
          );
        }
      }
      await sweepTemp(join(real, TMP_DIR), now());
      const probe = join(real, TMP_DIR, `probe-${randomUUID()}`);
      try {
        await writeAtomically(probe, new Uint8Array([0]), real, 'probe');
        await unlink(probe);
      } catch (error) {
        throw new ObjectStorageError(
          'io',
          `the storage folder ${root} is not writable: ${messageOf(error)}; point DATA_DIR at a writable folder`,
          { cause: error },
        );
      }
    },

    open: openObject,
  };
}

/**
 * The real path of an opened file: on Linux the kernel's own answer for the descriptor (immune to
 * renames and link swaps after the open), elsewhere the resolved folder plus the file name (the
 * file itself was opened with O_NOFOLLOW).
 */
async function openedPath(handle: FileHandle, path: string): Promise<string> {
  try {
    const linked = await readlink(`/proc/self/fd/${handle.fd}`);
    // A file replaced by a concurrent put is unlinked; the kernel then appends " (deleted)".
    // Keys hold no spaces, so the suffix cannot be part of a real name.
    if (isAbsolute(linked)) return linked.endsWith(' (deleted)') ? linked.slice(0, -10) : linked;
  } catch {
    // No /proc: fall through.
  }
  return join(await realpath(dirname(path)), basename(path));
}

/** Removes temporary files older than an hour, left behind by a process killed mid-write. */
async function sweepTemp(dir: string, nowMs: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith('.part')) continue;
    const path = join(dir, name);
    try {
      const st = await lstat(path);
      if (st.isFile() && nowMs - st.mtimeMs > 3_600_000) await unlink(path);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}
