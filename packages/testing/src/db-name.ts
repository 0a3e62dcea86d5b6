import { randomBytes } from 'node:crypto';

/** MongoDB limits database names to 63 bytes; FerretDB v1 also allows only [a-zA-Z0-9_-]. */
export const MAX_DB_NAME_LENGTH = 63;

/**
 * A database name no other suite, worker or run uses: `<prefix>_<time>_<random>`. The prefix is
 * lower-cased and reduced to [a-z0-9_] (anything else becomes `_`) and shortened so the whole
 * name fits MongoDB's and FerretDB's rules; an empty prefix becomes `t`.
 */
export function uniqueDbName(prefix = 't'): string {
  const suffix = `_${Date.now().toString(36)}_${randomBytes(5).toString('hex')}`;
  const cleaned = String(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  const head = (cleaned || 't').slice(0, MAX_DB_NAME_LENGTH - suffix.length);
  return `${head}${suffix}`;
}
