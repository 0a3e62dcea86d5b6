/**
 * The filesystem driver's layout and rules, shared by the async driver (fs-storage.ts, the event
 * loop) and the synchronous writer (fs-writer.ts, pipeline threads): where objects, sidecars and
 * temporary files live, what a put accepts, and how its failures are named.
 */
import { createHash } from 'node:crypto';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { ObjectStorageError } from '../types.js';
import { contentTypeFromKey } from './content-type.js';

/** A sidecar: `<root>/.meta/<key>.json`, for a content type the key's extension does not imply. */
export interface MetaFile {
  v: 1;
  contentType: string;
  size: number;
  sha256: string;
}

export const META_DIR = '.meta';
export const TMP_DIR = '.tmp';
/** Folders remembered as created and inside the root, per driver instance. */
export const KNOWN_DIRS_ENTRIES = 4096;

export const objectPathOf = (root: string, key: string): string => join(root, ...key.split('/'));
export const metaPathOf = (root: string, key: string): string =>
  `${join(root, META_DIR, ...key.split('/'))}.json`;

/**
 * The sidecar a put writes, or null when the key's extension says the content type (png, json…):
 * then the put writes one file and removes a sidecar an earlier put may have left.
 */
export function sidecarFor(key: string, bytes: Uint8Array, contentType: string): MetaFile | null {
  if (contentType === contentTypeFromKey(key)) return null;
  return {
    v: 1,
    contentType,
    size: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('base64url'),
  };
}

/** The file steps of a put, as a driver takes them (awaited either way: sync or async). */
export interface PutSteps {
  /** Removes the sidecar at `path` if there is one (absent is not an error). */
  removeSidecar(path: string): void | Promise<void>;
  /** Writes `bytes` to `target` through a temporary file renamed into place. */
  writeAtomically(target: string, bytes: Uint8Array): void | Promise<void>;
}

/**
 * The files of one put (arguments already checked): the object alone when its extension names the
 * content type (an earlier put's sidecar removed first, so it never describes these bytes), else the
 * sidecar first, then the object (a crash between the two renames leaves a readable object or none).
 * Failures come out as {@link putError}.
 */
export async function putObjectFiles(
  root: string,
  key: string,
  bytes: Uint8Array,
  contentType: string,
  steps: PutSteps,
): Promise<void> {
  try {
    const meta = sidecarFor(key, bytes, contentType);
    if (meta === null) {
      await steps.removeSidecar(metaPathOf(root, key));
    } else {
      await steps.writeAtomically(metaPathOf(root, key), Buffer.from(JSON.stringify(meta), 'utf8'));
    }
    await steps.writeAtomically(objectPathOf(root, key), bytes);
  } catch (error) {
    throw putError(error, key, root);
  }
}

/** How a driver makes a folder ready and renames a file into it (sync or async). */
export interface RenameSteps {
  /** Creates `parent` if needed and checks it is inside the root (a driver may remember it). */
  prepareDir(parent: string): void | Promise<void>;
  /** Forgets that `parent` was prepared. */
  forgetDir(parent: string): void;
  rename(from: string, to: string): void | Promise<void>;
}

/**
 * Renames the finished temporary file onto `target`. When the folder was removed after it was
 * prepared (a concurrent deletePrefix), it is prepared again, a few times.
 */
export async function renameIntoPlace(temp: string, target: string, steps: RenameSteps): Promise<void> {
  const parent = dirname(target);
  for (let attempt = 0; ; attempt++) {
    await steps.prepareDir(parent);
    try {
      await steps.rename(temp, target);
      return;
    } catch (error) {
      if (codeOf(error) === 'ENOENT' && attempt < 3) {
        steps.forgetDir(parent);
        continue;
      }
      throw error;
    }
  }
}

/** A put's failure as the driver reports it: bad keys as `invalid_key`, the rest as `io`. */
export function putError(error: unknown, key: string, root: string): ObjectStorageError {
  if (error instanceof ObjectStorageError) return error;
  const code = codeOf(error);
  if (code === 'ENAMETOOLONG') {
    return new ObjectStorageError(
      'invalid_key',
      `object key ${JSON.stringify(key.slice(0, 80))} makes a path longer than the filesystem under ${root} can hold`,
      { cause: error },
    );
  }
  if (code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENOTEMPTY' || code === 'EEXIST') {
    return new ObjectStorageError(
      'invalid_key',
      `object key ${JSON.stringify(key)} collides with a folder of other objects (or one of its folders is an object)`,
      { cause: error },
    );
  }
  return ioError(`writing ${JSON.stringify(key)}`, error);
}

export function leavesRoot(key: string): ObjectStorageError {
  return new ObjectStorageError('invalid_key', `object key ${JSON.stringify(key)} leaves the storage root`);
}

export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Codes that mean "no such object here". ENAMETOOLONG too: a path the filesystem cannot hold (a
 * very deep DATA_DIR plus a long key) can hold no object, so reads answer 404, never 500.
 */
export function isAbsentCode(code: string | undefined): boolean {
  return (
    code === 'ENOENT' ||
    code === 'ENOTDIR' ||
    code === 'ELOOP' ||
    code === 'EISDIR' ||
    code === 'ENAMETOOLONG'
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function ioError(what: string, error: unknown): ObjectStorageError {
  return new ObjectStorageError('io', `${what} in the storage folder failed: ${messageOf(error)}`, {
    cause: error,
  });
}
