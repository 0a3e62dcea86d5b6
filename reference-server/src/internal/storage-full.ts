/**
 * Whether a failed write failed because the storage is full (issue #29, decision 0031): a full disk or
 * quota under the embedded store's files or the object folder (ENOSPC, EDQUOT), SQLite's "database or
 * disk is full" (FerretDB), MongoDB's OutOfDiskSpace (14031). The whole cause chain is looked at: the
 * store wraps the I/O error (StoreWriteError), the storage wraps it (ObjectStorageError).
 */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const FULL_TEXT =
  /storage full|no space left|disk is full|database or disk is full|quota exceeded|out of disk space|OutOfDiskSpace/i;
const MONGO_OUT_OF_DISK = 14031;

export function isStorageFull(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== null && current !== undefined; depth++) {
    if (seen.has(current)) break;
    seen.add(current);
    if (typeof current === 'object') {
      const { code, codeName, message } = current as {
        code?: unknown;
        codeName?: unknown;
        message?: unknown;
      };
      if (typeof code === 'string' && FULL_CODES.has(code)) return true;
      if (code === MONGO_OUT_OF_DISK || codeName === 'OutOfDiskSpace') return true;
      if (typeof message === 'string' && FULL_TEXT.test(message)) return true;
      current = (current as { cause?: unknown }).cause;
    } else {
      return typeof current === 'string' && FULL_TEXT.test(current);
    }
  }
  return false;
}

/** The end-user words for a full storage (no path, no host): what task errors and /ready say. */
export const STORAGE_FULL = 'storage full (no space left on the device)';

/**
 * A put that failed because the storage is full, marked fit for end users (`expose`), so the task's
 * error names the real cause instead of a generic storage failure.
 */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError';
  readonly expose = true;
  constructor(cause: unknown) {
    super(STORAGE_FULL, { cause });
  }
}

/** `put`, with a full storage reported as {@link StorageFullError}. */
export async function putNamingFullStorage(put: () => Promise<void>): Promise<void> {
  try {
    await put();
  } catch (error) {
    throw isStorageFull(error) ? new StorageFullError(error) : error;
  }
}
