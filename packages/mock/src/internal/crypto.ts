import type { IssuedToken, PasswordHasher, TokenClaims, TokenService } from '@assetloom/core';

const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function randomToken(bytes = 32): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  return base64url(buffer);
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Compares two strings without an early exit (lengths are public). */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * A fast salted SHA-256 password hasher (Web Crypto, so it runs in browsers). Test data only: the
 * server uses scrypt. Stored form: `sha256$<salt>$<hex digest>`.
 */
export function createFastHasher(): PasswordHasher {
  async function digest(salt: string, password: string): Promise<string> {
    return hex(await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(`${salt}\u0000${password}`)));
  }
  return {
    async hash(password) {
      const salt = randomToken(12);
      return `sha256$${salt}$${await digest(salt, password)}`;
    },
    async verify(password, stored) {
      if (typeof stored !== 'string') return false;
      const parts = stored.split('$');
      if (parts.length !== 3 || parts[0] !== 'sha256' || !parts[1] || !parts[2]) return false;
      return constantTimeEqual(await digest(parts[1], password), parts[2]);
    },
  };
}

export interface OpaqueTokenService extends TokenService {
  /** The claims of a live token without awaiting (the WebSocket admission uses it). */
  peek(token: string): TokenClaims | null;
  clear(): void;
}

/**
 * Opaque random access tokens (256 bits, base64url), remembered in memory with their claims and
 * expiry. They look nothing like the server's JWTs on purpose: clients must treat tokens as opaque.
 */
export function createOpaqueTokens(now: () => number, ttlSeconds: number): OpaqueTokenService {
  const live = new Map<string, { claims: TokenClaims; expiresAt: number }>();
  const peek = (token: string): TokenClaims | null => {
    if (typeof token !== 'string' || token.length > 256) return null;
    const entry = live.get(token);
    if (entry === undefined) return null;
    if (now() >= entry.expiresAt) {
      live.delete(token);
      return null;
    }
    return { ...entry.claims };
  };
  return {
    async issue(claims: TokenClaims): Promise<IssuedToken> {
      const token = `mock.${randomToken(32)}`;
      live.set(token, { claims: { sub: claims.sub, tv: claims.tv }, expiresAt: now() + ttlSeconds * 1000 });
      return { token, expiresIn: ttlSeconds };
    },
    async verify(token) {
      return peek(token);
    },
    peek,
    clear: () => live.clear(),
  };
}

/** HMAC-SHA256 signatures of file URLs (`/files/<key>?e=<unix s>&token=<43 chars>`), like the server's. */
export interface UrlSigner {
  token(key: string, expiresAt: number): Promise<string>;
  verify(key: string, e: string | null, token: string | null, nowSeconds: number): Promise<boolean>;
}

export function createUrlSigner(): UrlSigner {
  const secret = new Uint8Array(32);
  globalThis.crypto.getRandomValues(secret);
  let keyPromise: Promise<CryptoKey> | undefined;
  const cryptoKey = () => {
    keyPromise ??= globalThis.crypto.subtle.importKey(
      'raw',
      secret,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    return keyPromise;
  };
  async function token(key: string, expiresAt: number): Promise<string> {
    const mac = await globalThis.crypto.subtle.sign(
      'HMAC',
      await cryptoKey(),
      encoder.encode(`${key}\n${expiresAt}`),
    );
    return base64url(new Uint8Array(mac));
  }
  return {
    token,
    async verify(key, e, given, nowSeconds) {
      if (e === null || given === null) return false;
      if (!/^(?:0|[1-9][0-9]{0,11})$/.test(e) || !/^[A-Za-z0-9_-]{43}$/.test(given)) return false;
      const expiresAt = Number(e);
      if (!constantTimeEqual(await token(key, expiresAt), given)) return false;
      return nowSeconds <= expiresAt;
    },
  };
}
