import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { SETTINGS } from './settings.js';

/** The files that read environment variables, and the names they read. */
const READERS = ['config.ts', 'storage/config.ts', 'image-provider.ts', 'studio.ts', 'cli.ts', 'main.ts'];
const NAME_READ = /(?:raw|int|bool|text|url)\(\s*'([A-Z][A-Z0-9_]+)'|env\.([A-Z][A-Z0-9_]+)\b/g;

function namesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of READERS) {
    const text = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
    for (const match of text.matchAll(NAME_READ)) names.add(match[1] ?? match[2] ?? '');
  }
  return names;
}

describe('the settings definitions', () => {
  it('define every variable the server reads, and only those', () => {
    const defined = new Set<string>(SETTINGS.map((s) => s.name));
    expect([...namesRead()].filter((name) => !defined.has(name))).toEqual([]);
    expect([...defined].filter((name) => !namesRead().has(name))).toEqual([]);
    expect(defined.size).toBe(SETTINGS.length);
  });

  it('give each integer a default within its bounds, and each row a head', () => {
    for (const s of SETTINGS) {
      if (s.type === 'int' && 'default' in s) {
        expect(s.default, s.name).toBeGreaterThanOrEqual(s.min);
        expect(s.default, s.name).toBeLessThanOrEqual(s.max);
      }
      if ('row' in s)
        expect(
          SETTINGS.some((head) => head.name === s.row && 'doc' in head),
          s.name,
        ).toBe(true);
    }
  });

  it('are what loadConfig applies: an integer past its bounds is named with them', () => {
    const result = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 's'.repeat(32), EVENT_BATCH_MS: '1001' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const batch = SETTINGS.find((s) => s.name === 'EVENT_BATCH_MS');
    expect(result.error.issues).toContainEqual({
      variable: 'EVENT_BATCH_MS',
      message: `must be an integer from ${batch && 'min' in batch ? batch.min : '?'} to ${batch && 'max' in batch ? batch.max : '?'} (got 1001)`,
    });
  });
});
