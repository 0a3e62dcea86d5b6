import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  assertTtlSeconds,
  deriveFilesSigningSecret,
  FileUrlSigner,
  normalizeBaseUrl,
  ObjectStorageError,
} from '../../src/storage/index.js';
import { SECRET } from './helpers.js';

describe('FileUrlSigner', () => {
  const signer = new FileUrlSigner(SECRET);
  const key = 'projects/p1/tasks/t1/sprite.png';

  it('tokens are base64url HMAC-SHA256 over key + "\\n" + e', () => {
    const want = createHmac('sha256', SECRET).update(`${key}\n1700000000`).digest('base64url');
    expect(signer.token(key, 1_700_000_000)).toBe(want);
    expect(want).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('accepts its own token until the expiry second, inclusive', () => {
    const token = signer.token(key, 1000);
    expect(signer.verify(key, '1000', token, 999)).toEqual({ ok: true, expiresAt: 1000 });
    expect(signer.verify(key, '1000', token, 1000)).toEqual({ ok: true, expiresAt: 1000 });
    expect(signer.verify(key, '1000', token, 1001)).toEqual({ ok: false, problem: 'expired' });
  });

  const token = signer.token(key, 5000);
  const flipped = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
  const refusals: [string, { e: unknown; token: unknown; key?: string; want: string }][] = [
    ['no e', { e: undefined, token, want: 'missing' }],
    ['no token', { e: '5000', token: undefined, want: 'missing' }],
    ['a repeated e', { e: ['5000', '5000'], token, want: 'malformed' }],
    ['a repeated token', { e: '5000', token: [token, token], want: 'malformed' }],
    ['a negative e', { e: '-5000', token, want: 'malformed' }],
    ['a fractional e', { e: '5000.0', token, want: 'malformed' }],
    ['a padded token', { e: '5000', token: `${token}=`, want: 'malformed' }],
    ['a short token', { e: '5000', token: token.slice(1), want: 'malformed' }],
    ['a token with other characters', { e: '5000', token: `${token.slice(1)}+`, want: 'malformed' }],
    ['one flipped character', { e: '5000', token: flipped, want: 'mismatch' }],
    ['a later e (extended lifetime)', { e: '5001', token, want: 'mismatch' }],
    ['another key', { e: '5000', token, key: 'projects/p1/tasks/t1/other.png', want: 'mismatch' }],
    ['e with a leading zero', { e: '05000', token, want: 'malformed' }],
  ];
  it.each(refusals)('refuses %s', (_name, c) => {
    expect(signer.verify(c.key ?? key, c.e, c.token, 10)).toEqual({ ok: false, problem: c.want });
  });

  it('a token from another secret does not pass', () => {
    const other = new FileUrlSigner(`${SECRET}-other`);
    expect(signer.verify(key, '5000', other.token(key, 5000), 10)).toEqual({
      ok: false,
      problem: 'mismatch',
    });
  });

  it('refuses secrets shorter than 32 bytes', () => {
    expect(() => new FileUrlSigner('short')).toThrow(ObjectStorageError);
    expect(() => new FileUrlSigner(new Uint8Array(31))).toThrow(/at least 32 bytes/);
  });
});

describe('deriveFilesSigningSecret', () => {
  it('is deterministic, 32 bytes, and differs from the JWT secret and between JWT secrets', () => {
    const a = deriveFilesSigningSecret(SECRET);
    expect(a).toHaveLength(32);
    expect(Buffer.from(a).equals(Buffer.from(deriveFilesSigningSecret(SECRET)))).toBe(true);
    expect(Buffer.from(a).equals(Buffer.from(SECRET).subarray(0, 32))).toBe(false);
    expect(Buffer.from(a).equals(Buffer.from(deriveFilesSigningSecret(`${SECRET}x`)))).toBe(false);
    // A token signed with the JWT secret itself is not a valid download token.
    const derived = new FileUrlSigner(a);
    const withJwt = new FileUrlSigner(SECRET);
    expect(derived.verify('a.png', '9', withJwt.token('a.png', 9), 1).ok).toBe(false);
  });
});

describe('normalizeBaseUrl', () => {
  const cases: [string, { given: unknown; want: string | null }][] = [
    ['an origin', { given: 'https://assets.example.com', want: 'https://assets.example.com' }],
    ['a trailing slash', { given: 'http://127.0.0.1:8080/', want: 'http://127.0.0.1:8080' }],
    ['a path prefix', { given: 'https://example.com/assetloom/', want: 'https://example.com/assetloom' }],
    ['the default port', { given: 'https://example.com:443', want: 'https://example.com' }],
    ['a query', { given: 'https://example.com/?a=1', want: null }],
    ['an empty query', { given: 'https://example.com/?', want: null }],
    ['a fragment', { given: 'https://example.com/#x', want: null }],
    ['credentials', { given: 'https://u:p@example.com', want: null }],
    ['another scheme', { given: 'javascript:alert(1)', want: null }],
    ['a relative path', { given: '/files', want: null }],
    ['not a string', { given: 42, want: null }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(normalizeBaseUrl(given)).toBe(want);
  });
});

describe('assertTtlSeconds', () => {
  it.each([1, 3600, 604_800])('accepts %s', (ttl) => expect(assertTtlSeconds(ttl)).toBe(ttl));
  it.each([0, -1, 1.5, 604_801, Number.NaN, '60', null])('refuses %s', (ttl) => {
    expect(() => assertTtlSeconds(ttl)).toThrow(/ttlSeconds must be an integer/);
  });
});
