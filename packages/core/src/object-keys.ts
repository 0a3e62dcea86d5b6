/** The characters and length of an object key (both drivers). */
export const OBJECT_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,1023}$/;
/**
 * The longest segment of a key and the most segments: 127 characters and 8 segments (1023
 * characters at most in all). File names stay far below the 255 that filesystems and file-backed
 * S3 servers hold, so every driver holds every valid key: a download of anything longer is 400 on
 * every driver, never a 500 from below. Pipeline keys have 5 short segments
 * (`projects/<pid>/tasks/<tid>/<file>`). openapi/asset-api.yaml `ObjectKey` states the whole rule
 * as one pattern, which these bounds keep free of lookarounds.
 */
export const MAX_SEGMENT_LENGTH = 127;
export const MAX_SEGMENTS = 8;

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
  const segments = key.split('/');
  if (segments.length > MAX_SEGMENTS) return `must not have more than ${MAX_SEGMENTS} segments`;
  for (const segment of segments) {
    if (segment === '.' || segment === '..') return 'must not contain a "." or ".." segment';
    if (segment.length > MAX_SEGMENT_LENGTH) {
      return `must not have a segment longer than ${MAX_SEGMENT_LENGTH} characters`;
    }
  }
  return null;
}

export function isValidObjectKey(key: unknown): key is string {
  return objectKeyProblem(key) === null;
}
