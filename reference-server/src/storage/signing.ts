import { createHmac, createSecretKey, hkdfSync, type KeyObject, timingSafeEqual } from 'node:crypto';
import { ObjectStorageError, type SignatureProblem, type SignedUrlVerifier } from './types.js';

/** Bytes a FILES_SIGNING_SECRET must have at least. */
export const MIN_FILES_SIGNING_SECRET_BYTES = 32;
/** Longest lifetime of a signed URL (7 days, also the S3 presign limit). */
export const MAX_SIGNED_URL_TTL_SECONDS = 7 * 86_400;

const HKDF_SALT = 'assetloom/files-signing';
const HKDF_INFO = 'assetloom files download token v1';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const EXPIRY_PATTERN = /^(?:0|[1-9][0-9]{0,11})$/;

/**
 * The files signing key derived from the JWT secret with HKDF-SHA256, so that a download token
 * and a session token never share a key (knowing one says nothing about the other).
 */
export function deriveFilesSigningSecret(jwtSecret: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', Buffer.from(jwtSecret, 'utf8'), HKDF_SALT, HKDF_INFO, 32));
}

/** Why a signed file request is refused (the storage port's type, @assetloom/core). */
export type { SignatureProblem };

/**
 * Signs and checks the filesystem driver's download credentials:
 * `token = base64url(HMAC-SHA256(secret, key + "\n" + e))`, `e` = expiry in unix seconds.
 */
export class FileUrlSigner implements Pick<SignedUrlVerifier, 'verify'> {
  readonly #key: KeyObject;
  /** Keys being retired (key rotation): their tokens still verify until they expire; none is signed with. */
  readonly #previous: KeyObject[];

  /**
   * @param secret the key new tokens are signed with.
   * @param previous keys of a rotation in progress (FILES_SIGNING_SECRET_PREVIOUS): URLs signed with
   *   them keep working until they expire, so a rotation breaks no link already handed out.
   */
  constructor(secret: string | Uint8Array, previous: ReadonlyArray<string | Uint8Array> = []) {
    this.#key = signingKey(secret);
    this.#previous = previous.map(signingKey);
  }

  /** The token of `key` valid until `expiresAt` (unix seconds). */
  token(key: string, expiresAt: number): string {
    return tokenWith(this.#key, key, expiresAt);
  }

  /**
   * Checks `e` and `token` (raw query values) for `key` at `nowSeconds`. Returns the expiry on
   * success. The comparison runs in constant time over equal-length buffers.
   */
  verify(
    key: string,
    e: unknown,
    token: unknown,
    nowSeconds: number,
  ): { ok: true; expiresAt: number } | { ok: false; problem: SignatureProblem } {
    if (e === undefined || token === undefined) return { ok: false, problem: 'missing' };
    if (typeof e !== 'string' || typeof token !== 'string') return { ok: false, problem: 'malformed' };
    if (!EXPIRY_PATTERN.test(e) || !TOKEN_PATTERN.test(token)) return { ok: false, problem: 'malformed' };
    const expiresAt = Number(e);
    const given = Buffer.from(token, 'ascii');
    // Both are 43 ASCII characters here (TOKEN_PATTERN), so the buffers have equal length. The
    // canonical string is compared rather than decoded bytes, so no second spelling of a token passes.
    // Every key is tried (current first, then the retiring ones) without stopping at a match.
    let matches = false;
    for (const candidate of [this.#key, ...this.#previous]) {
      const expected = Buffer.from(tokenWith(candidate, key, expiresAt), 'ascii');
      if (expected.length === given.length && timingSafeEqual(expected, given)) matches = true;
    }
    if (!matches) return { ok: false, problem: 'mismatch' };
    // Expiry is judged after the MAC so an attacker learns nothing from the order of checks.
    if (nowSeconds > expiresAt) return { ok: false, problem: 'expired' };
    return { ok: true, expiresAt };
  }
}

function signingKey(secret: string | Uint8Array): KeyObject {
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
  if (bytes.length < MIN_FILES_SIGNING_SECRET_BYTES) {
    throw new ObjectStorageError(
      'invalid_argument',
      `the files signing secret must be at least ${MIN_FILES_SIGNING_SECRET_BYTES} bytes (got ${bytes.length})`,
    );
  }
  return createSecretKey(bytes);
}

function tokenWith(secret: KeyObject, key: string, expiresAt: number): string {
  return createHmac('sha256', secret).update(`${key}\n${expiresAt}`, 'utf8').digest('base64url');
}

/** Checks a TTL argument: an integer from 1 to 604800 seconds. */
export function assertTtlSeconds(ttl: unknown): number {
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > MAX_SIGNED_URL_TTL_SECONDS) {
    throw new ObjectStorageError(
      'invalid_argument',
      `ttlSeconds must be an integer from 1 to ${MAX_SIGNED_URL_TTL_SECONDS} (got ${String(ttl)})`,
    );
  }
  return ttl;
}

/**
 * Normalizes a base URL for signed links: an absolute http(s) URL without query, fragment or
 * credentials; the trailing slash removed. Returns null when unusable.
 */
export function normalizeBaseUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return null;
  if (value.includes('?') || value.includes('#')) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
