import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export interface TokenClaims {
  sub: number;
  tv: number;
}

export interface JwtTokenServiceOptions {
  secret: string;
  /**
   * Secrets of a key rotation in progress (JWT_SECRET_PREVIOUS): tokens they signed are still
   * accepted until they expire; new tokens are signed with `secret` only.
   */
  previousSecrets?: readonly string[];
  ttlSeconds: number;
  /** Seconds since the epoch; injectable for tests. */
  now?: () => number;
  /**
   * How many verified tokens to remember until their `exp` (0 turns the cache off). A hit skips the
   * HMAC and the JSON parsing: the key is the whole token string, so only the exact bytes that were
   * verified before can hit, and `exp` is still checked against the clock on every hit.
   */
  cacheSize?: number;
}

const ISSUER = 'assetloom';
const AUDIENCE = 'assetloom-api';
const ALGORITHM = 'HS256' as const;
/** A JWT longer than this is refused before any parsing. */
const MAX_TOKEN_LENGTH = 4096;
/** How many verified tokens are remembered (oldest forgotten first). */
const DEFAULT_CACHE_SIZE = 10_000;

interface CachedClaims extends TokenClaims {
  exp: number;
}

/**
 * HS256 access tokens (jsonwebtoken). The algorithm is pinned on both sides (an `alg: none` or RS/ES
 * token is refused), `exp` is required and checked, and the `tv` claim carries the user's token
 * version so that a password change invalidates older tokens (the service compares it).
 */
export class JwtTokenService {
  /**
   * The secret as a KeyObject, made once: given a string, jsonwebtoken builds a KeyObject on every
   * call, which costs ~20× the HMAC itself (measured by `pnpm bench`).
   */
  private readonly secret: KeyObject;
  /** The current secret first, then the retiring ones (verification tries them in order). */
  private readonly verifyKeys: KeyObject[];
  private readonly ttlSeconds: number;
  private readonly now: () => number;
  private readonly cacheSize: number;
  private readonly verified = new Map<string, CachedClaims>();

  constructor(options: JwtTokenServiceOptions) {
    for (const secret of [options.secret, ...(options.previousSecrets ?? [])]) {
      if (Buffer.byteLength(secret, 'utf8') < 32) {
        throw new RangeError('[assetloom/server] the JWT secret must be at least 32 bytes');
      }
    }
    if (!Number.isInteger(options.ttlSeconds) || options.ttlSeconds < 1) {
      throw new RangeError('[assetloom/server] the token lifetime must be a positive integer of seconds');
    }
    this.secret = createSecretKey(Buffer.from(options.secret, 'utf8'));
    this.verifyKeys = [
      this.secret,
      ...(options.previousSecrets ?? []).map((secret) => createSecretKey(Buffer.from(secret, 'utf8'))),
    ];
    this.ttlSeconds = options.ttlSeconds;
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.cacheSize = options.cacheSize ?? DEFAULT_CACHE_SIZE;
  }

  async issue(claims: TokenClaims): Promise<{ token: string; expiresIn: number }> {
    const iat = this.now();
    const token = jwt.sign({ tv: claims.tv, iat, exp: iat + this.ttlSeconds }, this.secret, {
      algorithm: ALGORITHM,
      subject: String(claims.sub),
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    return { token, expiresIn: this.ttlSeconds };
  }

  async verify(token: string): Promise<TokenClaims | null> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
    const now = this.now();
    const cached = this.verified.get(token);
    if (cached) {
      if (now < cached.exp) return { sub: cached.sub, tv: cached.tv };
      this.verified.delete(token);
    }
    let payload: string | jwt.JwtPayload | undefined;
    for (const key of this.verifyKeys) {
      try {
        payload = jwt.verify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          clockTimestamp: now,
        });
        break;
      } catch (error) {
        // Only a signature made with another key is worth the next key; expiry, claims or shape are final.
        if (!(error instanceof jwt.JsonWebTokenError) || error.message !== 'invalid signature') return null;
      }
    }
    if (typeof payload !== 'object' || payload === null) return null;
    if (typeof payload.exp !== 'number') return null;
    const sub =
      typeof payload.sub === 'string' && /^[1-9]\d{0,15}$/.test(payload.sub) ? Number(payload.sub) : NaN;
    const tv = payload.tv;
    if (!Number.isSafeInteger(sub) || typeof tv !== 'number' || !Number.isSafeInteger(tv) || tv < 0)
      return null;
    this.remember(token, { sub, tv, exp: payload.exp });
    return { sub, tv };
  }

  private remember(token: string, claims: CachedClaims): void {
    if (this.cacheSize <= 0) return;
    if (this.verified.size >= this.cacheSize) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(token, claims);
  }
}
