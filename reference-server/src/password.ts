import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { RateLimiter } from '@assetloom/core';
import { createHashGate, createMemoryRateLimiter, type HashGate } from '@assetloom/core/http';
import type { AuthSettings } from './config.js';

/** Parameters of one scrypt hash (N = 2^logN). */
export interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Stored hashes with a larger cost are refused (a tampered row must not become a memory bomb). */
const MAX_LOG_N = 20;
const MAX_R = 32;
const MAX_P = 16;
const PREFIX = 'scrypt';

function derive(password: string, salt: Buffer, params: ScryptParams, keyLength: number): Promise<Buffer> {
  const N = 2 ** params.logN;
  // scrypt needs 128 * N * r bytes; allow that plus headroom (Node's default cap is 32 MiB).
  const maxmem = 128 * N * params.r * 2 + 1024 * 1024;
  return new Promise((resolvePromise, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, { N, r: params.r, p: params.p, maxmem }, (err, key) =>
      err ? reject(err) : resolvePromise(key),
    );
  });
}

/**
 * The server's password hasher: scrypt from node:crypto at the OWASP cost (N = 2^17, r = 8, p = 1),
 * a 16-byte random salt and a 32-byte key, compared with `timingSafeEqual`. The stored form is
 * `scrypt$<logN>$<r>$<p>$<salt b64url>$<key b64url>`, so hashes made at another cost stay verifiable.
 */
export class ScryptPasswordHasher {
  private readonly params: ScryptParams;

  constructor(params: Partial<ScryptParams> = {}) {
    this.params = { logN: params.logN ?? 17, r: params.r ?? 8, p: params.p ?? 1 };
    if (!Number.isInteger(this.params.logN) || this.params.logN < 1 || this.params.logN > MAX_LOG_N) {
      throw new RangeError(`[assetloom/server] scrypt logN must be an integer from 1 to ${MAX_LOG_N}`);
    }
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await derive(password, salt, this.params, KEY_BYTES);
    const { logN, r, p } = this.params;
    return [PREFIX, logN, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parsed = parseStored(stored);
    if (parsed === null) return false;
    const key = await derive(password, parsed.salt, parsed.params, parsed.key.length);
    return timingSafeEqual(key, parsed.key);
  }
}

function parseStored(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  if (typeof stored !== 'string') return null;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return null;
  const [, logNText, rText, pText, saltText, keyText] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const numeric = /^\d{1,3}$/;
  if (!numeric.test(logNText) || !numeric.test(rText) || !numeric.test(pText)) return null;
  const params = { logN: Number(logNText), r: Number(rText), p: Number(pText) };
  if (params.logN < 1 || params.logN > MAX_LOG_N || params.r < 1 || params.r > MAX_R) return null;
  if (params.p < 1 || params.p > MAX_P) return null;
  const base64url = /^[A-Za-z0-9_-]+$/;
  if (!base64url.test(saltText) || !base64url.test(keyText)) return null;
  const salt = Buffer.from(saltText, 'base64url');
  const key = Buffer.from(keyText, 'base64url');
  if (salt.length < 8 || key.length < 16 || key.length > 64) return null;
  return { params, salt, key };
}

/**
 * What keeps password hashing from becoming a flood (issue #29, decision 0030), one per process and
 * shared by the asset API and the review helper: the gate on hashes at once and queued, failed logins
 * per address across usernames, and registrations per address.
 */
export interface HashAdmission {
  hashGate: HashGate;
  loginIpLimiter: RateLimiter;
  registerIpLimiter: RateLimiter;
}

export function hashAdmissionFor(
  config: Pick<
    AuthSettings,
    | 'passwordHashConcurrency'
    | 'passwordHashQueue'
    | 'passwordHashMaxWaitMs'
    | 'passwordHashPerClient'
    | 'loginIpMaxFailures'
    | 'loginWindowSeconds'
    | 'registerIpMax'
    | 'registerWindowSeconds'
  >,
): HashAdmission {
  return {
    hashGate: createHashGate({
      concurrency: config.passwordHashConcurrency,
      queueSize: config.passwordHashQueue,
      maxWaitMs: config.passwordHashMaxWaitMs,
      perKey: config.passwordHashPerClient,
      suspectTtlMs: config.loginWindowSeconds * 1000,
    }),
    loginIpLimiter: createMemoryRateLimiter({
      limit: config.loginIpMaxFailures,
      windowMs: config.loginWindowSeconds * 1000,
    }),
    registerIpLimiter: createMemoryRateLimiter({
      limit: config.registerIpMax,
      windowMs: config.registerWindowSeconds * 1000,
    }),
  };
}
