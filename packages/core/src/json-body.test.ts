import { describe, expect, it } from 'vitest';
import { checkDeclaredLength, isJsonContentType, parseJsonBytes } from './json-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('isJsonContentType', () => {
  it.each([
    [undefined, false, false],
    [null, false, false],
    ['', false, false],
    ['application/json', true, true],
    ['Application/JSON; charset=UTF-8', true, true],
    ['application/json; charset="utf8"', true, true],
    ['application/problem+json', true, true],
    ['application/json; charset=latin1', false, false],
    ['text/json', false, false],
    ['text/plain', false, false],
    ['application/json, application/json', false, true],
    ['application/json, text/plain', false, false],
  ])('%j → %s (repeated values tolerated: %s)', (header, strict, tolerant) => {
    expect(isJsonContentType(header)).toBe(strict);
    expect(isJsonContentType(header, { sameValueRepeated: true })).toBe(tolerant);
  });
});

describe('checkDeclaredLength', () => {
  it.each([
    [undefined, undefined],
    [null, undefined],
    ['0', undefined],
    ['16', undefined],
    ['17', 'too-large'],
    ['99999999999999999999999', 'too-large'],
    ['-1', 'malformed'],
    ['1e3', 'malformed'],
    ['', 'malformed'],
  ])('%j with limit 16 → %s', (header, expected) => {
    expect(checkDeclaredLength(header, 16)).toBe(expected);
  });
});

describe('parseJsonBytes', () => {
  it.each([
    ['{"a":1}', { ok: true, value: { a: 1 } }],
    ['[1,2]', { ok: true, value: [1, 2] }],
    ['null', { ok: true, value: null }],
    ['"ü"', { ok: true, value: 'ü' }],
    ['', { ok: false, error: 'malformed' }],
    ['{', { ok: false, error: 'malformed' }],
    ['{"a":1}{"b":2}', { ok: false, error: 'malformed' }],
    ['{"long":"0123456789"}', { ok: false, error: 'too-large' }],
  ])('%j → %j', (text, expected) => {
    expect(parseJsonBytes(bytes(text), 16)).toEqual(expected);
  });

  it('refuses bytes that are not UTF-8 and takes any size without a limit', () => {
    expect(parseJsonBytes(new Uint8Array([0x22, 0xff, 0x22]))).toEqual({ ok: false, error: 'malformed' });
    expect(parseJsonBytes(bytes(JSON.stringify({ big: 'x'.repeat(100_000) })))).toMatchObject({ ok: true });
  });
});
