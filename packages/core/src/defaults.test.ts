import { describe, expect, it } from 'vitest';
import { ID_PATTERN, randomId } from './defaults.js';

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
