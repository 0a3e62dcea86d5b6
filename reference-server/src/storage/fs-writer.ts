/**
 * The filesystem driver's put for a pipeline thread: the thread that drew a task's files writes them
 * itself, so a file costs no message to the event loop and no copy of its bytes, and its steps are
 * direct system calls instead of six trips through libuv's thread pool (open, write, sync, close,
 * rename; each a cross-thread wake-up that costs more than the call itself on a small VM). Only the
 * data sync, which waits for the disk, goes to the pool, and the thread draws meanwhile.
 * Same layout, checks, errors and crash safety as `createFsStorage(...).put` (both share
 * internal/fs-layout.ts): bytes go to `<root>/.tmp`, are flushed when `fsync` is on, and are renamed
 * into place; a sidecar goes first. Meant for pipeline threads: on the event loop the direct calls
 * would hold up requests on a slow disk.
 * See docs/decisions/0026-generation-overhead.md.
 */
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  fdatasync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import {
  codeOf,
  isAbsentCode,
  isInside,
  KNOWN_DIRS_ENTRIES,
  leavesRoot,
  putError,
  putObjectFiles,
  renameIntoPlace,
  TMP_DIR,
} from './internal/fs-layout.js';
import { assertPutArguments } from './internal/put-arguments.js';
import type { ObjectStorage } from './types.js';

/** What a thread needs to write into a filesystem driver's folder. */
export interface FsWriterSettings {
  /** The driver's root (FsObjectStorage.root). */
  root: string;
  /** Flush each object before it becomes visible (FsObjectStorage.fsync). */
  fsync: boolean;
}

/**
 * Where a thread may write `storage`'s objects itself: the settings of its `localRoot` capability, or
 * null when its puts must go through it (no local folder: S3; or a wrapper whose own put replaces
 * the driver's, such as a test's held or failing put).
 */
export function directWriteRoot(storage: ObjectStorage): FsWriterSettings | null {
  const local = storage.localRoot;
  if (local === undefined || local.put !== storage.put) return null;
  return { root: local.root, fsync: local.fsync };
}

export interface FsObjectWriter {
  /**
   * Writes one object as the driver's `put` does; rejects with ObjectStorageError. With `signal`
   * aborted before the rename into place, nothing becomes visible (a cancelled task).
   */
  put(key: string, bytes: Uint8Array, contentType: string, signal?: AbortSignal): Promise<void>;
}

export function createFsObjectWriter(settings: FsWriterSettings): FsObjectWriter {
  const root = resolve(settings.root);
  let real: string | undefined;
  const knownDirs = new Set<string>();

  const realRoot = (): string => {
    // The main thread's driver created the folders when the server started (its check()).
    real ??= realpathSync(root);
    return real;
  };

  function prepareDir(parent: string, key: string): void {
    if (knownDirs.has(parent)) return;
    mkdirSync(parent, { recursive: true });
    if (!isInside(realRoot(), realpathSync(parent))) throw leavesRoot(key);
    if (knownDirs.size >= KNOWN_DIRS_ENTRIES) knownDirs.clear();
    knownDirs.add(parent);
  }

  async function writeAtomically(
    target: string,
    bytes: Uint8Array,
    key: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const temp = join(root, TMP_DIR, `${randomUUID()}.part`);
    let fd: number | undefined = openSync(temp, 'wx', 0o644);
    try {
      for (let written = 0; written < bytes.byteLength; ) {
        written += writeSync(fd, bytes, written, bytes.byteLength - written);
      }
      // The one step that waits for the disk goes to the thread pool, so the thread draws meanwhile.
      if (settings.fsync) await dataSync(fd);
      closeSync(fd);
      fd = undefined;
      // A cancelled put leaves nothing: checked once more before the file becomes visible.
      signal?.throwIfAborted();
      await renameIntoPlace(temp, target, {
        prepareDir: (parent) => prepareDir(parent, key),
        forgetDir: (parent) => knownDirs.delete(parent),
        rename: renameSync,
      });
    } catch (error) {
      if (fd !== undefined) closeQuietly(fd);
      unlinkQuietly(temp);
      throw error;
    }
  }

  return {
    async put(key, bytes, contentType, signal) {
      assertPutArguments(key, bytes, contentType);
      signal?.throwIfAborted();
      try {
        realRoot();
      } catch (error) {
        throw putError(error, key, root);
      }
      await putObjectFiles(root, key, bytes, contentType, {
        removeSidecar: (path) => {
          try {
            unlinkSync(path);
          } catch (error) {
            if (!isAbsentCode(codeOf(error))) throw error;
          }
        },
        writeAtomically: (target, data) => writeAtomically(target, data, key, signal),
      });
    },
  };
}

function dataSync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed or never usable: the write has failed anyway.
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}
