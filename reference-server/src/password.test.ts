import { describe, expect, it } from 'vitest';
import { ScryptPasswordHasher } from './password.js';

describe('ScryptPasswordHasher', () => {
  const fast = new ScryptPasswordHasher({ logN: 10 });

  it('hashes with a random salt and verifies', async () => {
    const a = await fast.hash('correct horse');
    const b = await fast.hash('correct horse');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$10\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await fast.verify('correct horse', a)).toBe(true);
    expect(await fast.verify('correct horsf', a)).toBe(false);
    expect(await fast.verify('', a)).toBe(false);
  });

  it('uses the OWASP cost by default (N = 2^17, r = 8, p = 1)', async () => {
    const owasp = new ScryptPasswordHasher();
    const stored = await owasp.hash('pw');
    expect(stored.startsWith('scrypt$17$8$1$')).toBe(true);
    expect(await owasp.verify('pw', stored)).toBe(true);
  });

  it('verifies hashes made at another cost', async () => {
    const stored = await new ScryptPasswordHasher({ logN: 11 }).hash('pw');
    expect(await fast.verify('pw', stored)).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['another scheme', '$2b$10$abcdefghijklmnopqrstuv'],
    ['a cost bomb', 'scrypt$30$8$1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5'],
    ['too few parts', 'scrypt$10$8$1$abc'],
    ['bad base64', 'scrypt$10$8$1$!!!!$????'],
    ['non-numeric params', 'scrypt$x$8$1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5'],
  ])('answers false (never throws) for %s', async (_case, stored) => {
    expect(await fast.verify('pw', stored)).toBe(false);
  });
});
