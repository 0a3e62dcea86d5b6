import { describe, expect, it } from 'vitest';
import {
  assertObjectKey,
  assertObjectPrefix,
  keyFromPath,
  ObjectStorageError,
  objectKeyProblem,
} from '../../src/storage/index.js';

describe('object keys', () => {
  const valid: [string, string][] = [
    ['a pipeline sheet', 'projects/p_1/tasks/t-2/sprite.png'],
    ['one character', 'a'],
    ['dots inside names', 'projects/p1/a..b/.hidden/x.y.z'],
    [
      '8 segments of 127 characters (1023 in all)',
      Array.from({ length: 8 }, () => 'a'.repeat(127)).join('/'),
    ],
    ['a 127-character segment', `projects/${'a'.repeat(127)}`],
  ];
  it.each(valid)('accepts %s', (_name, key) => {
    expect(objectKeyProblem(key)).toBeNull();
    expect(assertObjectKey(key)).toBe(key);
  });

  const invalid: [string, { given: unknown; want: RegExp }][] = [
    ['empty', { given: '', want: /empty/ }],
    ['not a string', { given: 42, want: /string/ }],
    ['null', { given: null, want: /string/ }],
    ['1025 characters', { given: `a${'b'.repeat(1024)}`, want: /1024/ }],
    ['a 128-character segment', { given: `projects/${'a'.repeat(128)}/x.png`, want: /127/ }],
    ['9 segments', { given: 'a/b/c/d/e/f/g/h/i', want: /8 segments/ }],
    ['a leading slash', { given: '/etc/passwd', want: /slash/ }],
    ['a parent segment', { given: 'projects/../../etc/passwd', want: /"\.\."/ }],
    ['a trailing parent segment', { given: 'projects/..', want: /"\.\."/ }],
    ['a dot segment', { given: 'projects/./x', want: /"\."/ }],
    ['an empty segment', { given: 'projects//x', want: /empty segment/ }],
    ['a trailing slash', { given: 'projects/x/', want: /end with a slash/ }],
    ['a backslash', { given: 'projects\\..\\x', want: /backslash/ }],
    ['NUL', { given: 'projects/x\0.png', want: /NUL/ }],
    ['percent escapes', { given: 'projects/%2e%2e/x', want: /letters, digits/ }],
    ['a leading dot', { given: '.meta/x.json', want: /letters, digits/ }],
    ['a space', { given: 'a b', want: /letters, digits/ }],
    ['a newline', { given: 'a\nb', want: /letters, digits/ }],
    ['non-ASCII', { given: 'projects/ｘ', want: /letters, digits/ }],
  ];
  it.each(invalid)('refuses %s', (_name, { given, want }) => {
    expect(objectKeyProblem(given)).toMatch(want);
    expect(() => assertObjectKey(given)).toThrow(ObjectStorageError);
    try {
      assertObjectKey(given);
    } catch (error) {
      expect((error as ObjectStorageError).code).toBe('invalid_key');
      expect((error as Error).message).toMatch(/^\[assetloom\/server\] object key/);
    }
  });

  const prefixes: [string, { given: unknown; want: string | null }][] = [
    ['a folder with a slash', { given: 'projects/p1/', want: 'projects/p1/' }],
    ['a folder without a slash', { given: 'projects/p1', want: 'projects/p1/' }],
    ['the empty prefix', { given: '', want: null }],
    ['a lone slash', { given: '/', want: null }],
    ['a parent segment', { given: 'projects/../', want: null }],
    ['two trailing slashes', { given: 'projects//', want: null }],
    ['not a string', { given: undefined, want: null }],
  ];
  it.each(prefixes)('prefix: %s', (_name, { given, want }) => {
    if (want === null) expect(() => assertObjectPrefix(given)).toThrow(/object prefix/);
    else expect(assertObjectPrefix(given)).toBe(want);
  });
});

describe('keyFromPath', () => {
  const cases: [string, { given: string; want: string | null }][] = [
    ['a plain key', { given: 'projects/p1/a.png', want: 'projects/p1/a.png' }],
    [
      'an escaped unreserved character',
      { given: 'projects/p1/a%2Dsheet.png', want: 'projects/p1/a-sheet.png' },
    ],
    ['a parent segment', { given: 'projects/../x', want: null }],
    ['an encoded parent segment', { given: 'projects/%2e%2e/x', want: null }],
    ['an upper-case encoded parent segment', { given: '%2E%2E/%2E%2E/etc/passwd', want: null }],
    ['an encoded slash around a parent segment', { given: 'projects%2F..%2Fx', want: null }],
    ['encoded slashes between valid segments', { given: 'projects%2Fp1%2Fa.png', want: 'projects/p1/a.png' }],
    ['a double-encoded slash', { given: 'projects%252Fp1', want: null }],
    ['an encoded backslash', { given: 'projects/..%5Cx', want: null }],
    ['an encoded NUL', { given: 'a%00.png', want: null }],
    ['a double slash (absolute path)', { given: '/etc/passwd', want: null }],
    ['a malformed escape', { given: 'a%zz', want: null }],
    ['an overlong UTF-8 dot', { given: '%c0%ae%c0%ae/x', want: null }],
    ['empty', { given: '', want: null }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(keyFromPath(given)).toBe(want);
  });
});
