import { describe, expect, it } from 'vitest';
import { type LocatedIssue, parseQuestionSet, validateQuestionSet } from '../src/index.js';
import { unescapePointerSegment } from '../src/internal/json-scan.js';
import { expected, fixtures } from './corpus.js';

/** The offset of a 1-based line:column in text. */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

/** The issue's line:column must point at the key of the member it names (or the array item / object itself). */
function expectLocated(text: string, issue: LocatedIssue) {
  const at = text.slice(offsetOf(text, issue.line, issue.column));
  const last = issue.pointer.split('/').pop();
  if (issue.pointer === '') expect(at.trimStart()[0]).toMatch(/[[{]/);
  else if (last !== undefined && /^\d+$/.test(last)) expect(at).toMatch(/^["{[\-\d tfn]/);
  else expect(at.startsWith(JSON.stringify(unescapePointerSegment(last ?? '')))).toBe(true);
}

describe('valid corpus', () => {
  it.each(fixtures('valid').map((f) => [f.name, f] as const))('%s is valid, also in strict mode', (_, f) => {
    const result = parseQuestionSet(f.text, { strict: true });
    expect(result.ok ? [] : result.errors).toEqual([]);
    expect(validateQuestionSet(JSON.parse(f.text)).ok).toBe(true);
  });
});

describe('invalid corpus: each fixture breaks one rule of spec 002', () => {
  const want = expected<{ rule: string; pointer: string }>('invalid');
  const all = fixtures('invalid');
  it('has an expectation for every fixture and a fixture for every expectation', () => {
    expect(all.map((f) => f.name).sort()).toEqual(Object.keys(want).sort());
  });
  it.each(all.map((f) => [f.name, f] as const))('%s', (name, f) => {
    const result = parseQuestionSet(f.text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map(({ rule, pointer }) => ({ rule, pointer }))).toEqual([want[name]]);
    const [issue] = result.errors;
    expect(issue?.source).toBe('schema');
    expect(issue?.message).not.toMatch(/must match "then" schema|instancePath|schemaPath/);
    if (issue?.pointer.startsWith('/questions/0')) expect(issue.message).toMatch(/^questions\[0\]/);
    if (issue !== undefined) expectLocated(f.text, issue);
  });
  // One problem, one issue: the strict lint only checks what the schema accepts, so it never repeats
  // a schema issue in its own words (an unknown type is not also "disagrees with the set's type", an
  // option key "b" is not also "answer B is not an option").
  it.each(all.map((f) => [f.name, f] as const))('%s in strict mode: the same one issue', (name, f) => {
    const result = parseQuestionSet(f.text, { strict: true });
    expect(result.ok ? [] : result.errors.map(({ rule, pointer }) => ({ rule, pointer }))).toEqual([
      want[name],
    ]);
  });
});

describe('lint corpus: schema-valid sets that break one strict rule', () => {
  const want = expected<{ rule: string; pointer: string }>('lint');
  it.each(fixtures('lint').map((f) => [f.name, f] as const))('%s', (name, f) => {
    expect(parseQuestionSet(f.text).ok).toBe(true);
    const result = parseQuestionSet(f.text, { strict: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map(({ rule, pointer, source }) => ({ rule, pointer, source }))).toEqual([
      { ...want[name], source: 'lint' },
    ]);
    expectLocated(f.text, result.errors[0]!);
  });
});

describe('malformed JSON text', () => {
  const want = expected<{ rule: string; line: number; column: number }>('malformed');
  it.each(fixtures('malformed').map((f) => [f.name, f] as const))('%s', (name, f) => {
    const result = parseQuestionSet(f.text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(1);
    const { rule, line, column } = result.errors[0]!;
    expect({ rule, line, column }).toEqual(want[`${name}.json`]);
  });
});
