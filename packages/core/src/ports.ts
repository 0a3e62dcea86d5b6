/** Where the domain gets the current time from (tests pass a fixed or stepping clock). */
export interface Clock {
  now(): Date;
}

/** Opaque URL-safe ids with at least 96 random bits. */
export interface IdGenerator {
  id(): string;
}

/** Password hashing; the service never sees the algorithm (the server uses scrypt, the mock a fast one). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Must compare in constant time and resolve false (not throw) for a malformed stored hash. */
  verify(password: string, stored: string): Promise<boolean>;
}

/** Claims the service puts into an access token: the user id and the user's token version. */
export interface TokenClaims {
  sub: number;
  tv: number;
}

export interface IssuedToken {
  token: string;
  /** Lifetime in seconds. */
  expiresIn: number;
}

/** Access tokens (server: jsonwebtoken HS256; mock: its own). */
export interface TokenService {
  issue(claims: TokenClaims): Promise<IssuedToken>;
  /** The claims of a valid, unexpired token, or null for anything else. */
  verify(token: string): Promise<TokenClaims | null>;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the key is allowed again (0 when allowed). */
  retryAfterSeconds: number;
}

/** A per-key attempt limiter (fixed window in the memory implementation). */
export interface RateLimiter {
  /** Counts one attempt and reports whether it was within the limit. */
  hit(key: string): Promise<RateLimitResult>;
  /** Reports whether one more attempt would be allowed, without counting. */
  check(key: string): Promise<RateLimitResult>;
  reset(key: string): Promise<void>;
}
