import { ObjectStorageError } from './types.js';

/** The characters and length of an object key (both drivers). */
export const OBJECT_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,1023}$/;
/**
 * The longest segment of a key: 255 characters, the longest file name of common filesystems
 * (NAME_MAX). The filesystem driver and file-backed S3 servers cannot hold a longer one, so no
 * driver accepts it: a download of such a key is 400 everywhere, never a 500 from below.
 * openapi/asset-api.yaml `ObjectKey` states the whole key rule as one pattern.
 */
export const MAX_SEGMENT_LENGTH = 255;

/** Why a key is refused, or null when it is valid. */
export function objectKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string') return 'must be a string';
  if (key.length === 0) return 'must not be empty';
  if (key.length > 1024) return 'must be at most 1024 characters';
  if (key.includes('\0')) return 'must not contain NUL';
  if (key.includes('\\')) return 'must not contain a backslash';
  if (key.startsWith('/')) return 'must not start with a slash';
  if (!OBJECT_KEY_PATTERN.test(key)) return 'may only hold letters, digits, ".", "_", "-" and "/"';
  if (key.includes('//')) return 'must not contain an empty segment ("//")';
  if (key.endsWith('/')) return 'must not end with a slash';
  for (const segment of key.split('/')) {
    if (segment === '.' || segment === '..') return 'must not contain a "." or ".." segment';
    if (segment.length > MAX_SEGMENT_LENGTH) {
      return `must not have a segment longer than ${MAX_SEGMENT_LENGTH} characters (the longest file name filesystems and file-backed S3 servers hold)`;
    }
  }
  return null;
}

export function isValidObjectKey(key: unknown): key is string {
  return objectKeyProblem(key) === null;
}

/** Returns the key, or throws ObjectStorageError `invalid_key`. */
export function assertObjectKey(key: unknown): string {
  const problem = objectKeyProblem(key);
  if (problem !== null) {
    throw new ObjectStorageError(
      'invalid_key',
      `object key ${describe(key)} ${problem}; keys look like projects/<pid>/tasks/<tid>/sprite.png`,
    );
  }
  return key as string;
}

/**
 * A folder prefix (`projects/p1/`) as used by `deletePrefix`: a valid key plus a trailing slash,
 * which is added when missing. Throws ObjectStorageError `invalid_key` otherwise.
 */
export function assertObjectPrefix(prefix: unknown): string {
  const bare = typeof prefix === 'string' && prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  const problem = objectKeyProblem(bare);
  if (problem !== null) {
    throw new ObjectStorageError(
      'invalid_key',
      `object prefix ${describe(prefix)} ${problem}; prefixes look like projects/<pid>/ (deleting everything is not offered)`,
    );
  }
  return `${bare as string}/`;
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return `(${value === null ? 'null' : typeof value})`;
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return JSON.stringify(shown);
}
