/**
 * The filesystem driver's layout and rules, shared by the async driver (fs-storage.ts, the event
 * loop) and the synchronous writer (fs-writer.ts, pipeline threads): where objects, sidecars and
 * temporary files live, what a put accepts, and how its failures are named.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, join, relative, sep } from 'node:path';
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
