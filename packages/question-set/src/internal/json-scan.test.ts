import { describe, expect, it } from 'vitest';
import { LineIndex, scanJson } from './json-scan.js';

describe('scanJson agrees with JSON.parse on what is JSON', () => {
  const inputs = [
    '{}',
    '[]',
    '0',
    '-0.5e+10',
    '"\\u00e9\\n"',
    'true',
    'null',
    ' [1, {"a": [false]}] ',
    '{"a":1,"a":2}',
    '',
    ' ',
    '{',
    '[1,]',
    '{"a":1,}',
    '{a:1}',
    "'x'",
    '01',
    '1.',
    '.5',
    '+1',
    '"\\x"',
    '"\\u12"',
    '"a\tb"',
    'tru',
    'nul',
    '[1 2]',
    '{"a" 1}',
    '{"a":1}}',
    '[][]',
    '"abc',
    '\u00a0{}',
    '{"a":-}',
    'NaN',
    '[1,,2]',
  ];
  it.each(inputs.map((s) => [JSON.stringify(s), s] as const))('%s', (_, input) => {
    let parses = true;
    try {
      JSON.parse(input);
    } catch {
      parses = false;
    }
    expect(scanJson(input).error === undefined).toBe(parses);
  });
});

describe('scanJson positions', () => {
  const text = '{\n  "a": [10, {"b/c": "x", "~": null}],\n  "": 1\n}';
  const { positions } = scanJson(text);
  it.each([
    ['', 0],
    ['/a', 4],
    ['/a/0', 10],
    ['/a/1', 14],
    ['/a/1/b~1c', 15],
    ['/a/1/~0', 27],
    ['/', 42],
  ])('%s starts at offset %i', (pointer, offset) => {
    expect(positions.get(pointer)).toBe(offset);
  });

  it('records only wanted pointers when asked', () => {
    expect([...scanJson(text, new Set(['/a/0'])).positions.keys()]).toEqual(['/a/0']);
  });

  it('handles nesting far deeper than the call stack', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(scanJson(deep, new Set()).error).toBeUndefined();
    expect(scanJson(`${'['.repeat(200_000)}`, new Set()).error?.message).toMatch(/unexpected end of input/);
    // a bound on the stack, not the clock: 4.7 s alone at load 21, past Vitest's 5 s default in a loaded CI run
  }, 60_000);
});

describe('LineIndex', () => {
  it.each([
    ['a\nbc\r\nd\re', 0, 1, 1],
    ['a\nbc\r\nd\re', 3, 2, 2],
    ['a\nbc\r\nd\re', 6, 3, 1],
    ['a\nbc\r\nd\re', 8, 4, 1],
  ])('%j offset %i is %i:%i', (text, offset, line, column) => {
    expect(new LineIndex(text).position(offset)).toEqual({ line, column });
  });
});
