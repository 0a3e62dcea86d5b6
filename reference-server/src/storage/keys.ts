import { objectKeyProblem } from '@assetloom/core/http';
import { ObjectStorageError } from './types.js';

// The key rules (OBJECT_KEY_PATTERN, objectKeyProblem, isValidObjectKey) live in @assetloom/core: the
// download operation checks keys before any driver does.

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
