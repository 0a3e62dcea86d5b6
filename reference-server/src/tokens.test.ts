import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { JwtTokenService } from './tokens.js';

const SECRET = 'k'.repeat(40);

describe('JwtTokenService', () => {
  it('issues HS256 tokens whose exp - iat is expiresIn, and verifies them', async () => {
    const tokens = new JwtTokenService({ secret: SECRET, ttlSeconds: 600, now: () => 1_000_000 });
    const { token, expiresIn } = await tokens.issue({ sub: 7, tv: 2 });
    expect(expiresIn).toBe(600);
    const header = JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString());
    expect(header.alg).toBe('HS256');
    const payload = jwt.decode(token) as jwt.JwtPayload;
    expect(payload).toMatchObject({ sub: '7', tv: 2, iat: 1_000_000, exp: 1_000_600 });
    expect(await tokens.verify(token)).toEqual({ sub: 7, tv: 2 });
  });

  it('checks exp against its clock', async () => {
    let now = 1_000_000;
    const tokens = new JwtTokenService({ secret: SECRET, ttlSeconds: 60, now: () => now });
    const { token } = await tokens.issue({ sub: 1, tv: 0 });
    now += 59;
    expect(await tokens.verify(token)).not.toBeNull();
    now += 1;
    expect(await tokens.verify(token)).toBeNull();
  });

  it.each([
    ['an empty string', ''],
    ['garbage', 'abc'],
    ['a huge string', 'a'.repeat(10_000)],
    [
      'alg none',
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"1","tv":0}').toString('base64url')}.`,
    ],
  ])('answers null for %s', async (_case, token) => {
    const tokens = new JwtTokenService({ secret: SECRET, ttlSeconds: 60 });
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses tokens with a non-numeric sub or a missing tv', async () => {
    const tokens = new JwtTokenService({ secret: SECRET, ttlSeconds: 60 });
    const options = {
      algorithm: 'HS256' as const,
      issuer: 'assetloom',
      audience: 'assetloom-api',
      expiresIn: 60,
    };
    expect(await tokens.verify(jwt.sign({ sub: 'admin', tv: 0 }, SECRET, options))).toBeNull();
    expect(await tokens.verify(jwt.sign({ sub: '1' }, SECRET, options))).toBeNull();
    expect(
      await tokens.verify(jwt.sign({ sub: '1', tv: 0 }, SECRET, { ...options, audience: 'other' })),
    ).toBeNull();
    expect(await tokens.verify(jwt.sign({ sub: '1', tv: 0 }, SECRET, options))).toEqual({ sub: 1, tv: 0 });
  });

  it('remembers verified tokens, still checking exp on every hit, and forgets the oldest past its size', async () => {
    let now = 1_000_000;
    const tokens = new JwtTokenService({ secret: SECRET, ttlSeconds: 60, now: () => now, cacheSize: 2 });
    const a = (await tokens.issue({ sub: 1, tv: 0 })).token;
    const b = (await tokens.issue({ sub: 2, tv: 0 })).token;
    const c = (await tokens.issue({ sub: 3, tv: 0 })).token;
    for (const t of [a, b, c, a]) expect(await tokens.verify(t)).not.toBeNull();
    // A token differing in one signature byte never hits the cache entry of the original.
    const tampered = `${a.slice(0, -2)}${a.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(tampered)).toBeNull();
    now += 60;
    for (const t of [a, b, c]) expect(await tokens.verify(t)).toBeNull();
  });

  it('refuses a short secret', () => {
    expect(() => new JwtTokenService({ secret: 'short', ttlSeconds: 60 })).toThrow(/32 bytes/);
  });
});
