import { describe, expect, it } from 'vitest';
import { ID_PATTERN, randomId, sha256Hex } from './defaults.js';

describe('randomId', () => {
  it('issues 22-character URL-safe ids that never start with - or _ (safe after a CLI option)', () => {
    const ids = Array.from({ length: 5000 }, () => randomId());
    for (const id of ids) {
      expect(id).toMatch(ID_PATTERN);
      expect(id).toHaveLength(22);
      expect(id).toMatch(/^[A-Za-z0-9]/);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // every alphabet character shows up after the first position: the other 21 stay 6 random bits
    const rest = new Set(ids.flatMap((id) => [...id.slice(1)]));
    expect(rest.size).toBe(64);
  });
});

describe('sha256Hex', () => {
  const webDigest = async (text: string) => {
    const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
    return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  };

  it('answers the SHA-256 of the UTF-8 text in lower-case hex, as Web Crypto does', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (const text of ['一只绿色的史莱姆 🐉', 'a\u0000b', 'x'.repeat(10_000), '\ud800 lone surrogate']) {
      expect(await sha256Hex(text)).toBe(await webDigest(text));
    }
  });
});
