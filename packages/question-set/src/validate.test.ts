import { describe, expect, it } from 'vitest';
import { QuestionSetError } from './errors.js';
import {
  applyDefaults,
  assertQuestionSet,
  isQuestionSet,
  parseQuestionSet,
  validateQuestionSet,
} from './index.js';
import type { QuestionSet } from './types.js';

const mcQuestion = (id: string, answer: unknown) => ({
  id,
  type: 'multiple_choice',
  difficulty: 2,
  tags: [],
  question: 'Pick',
  explanation: 'e',
  options: { A: 'a', B: 'b', C: 'c' },
  answer,
});

const set = (questions: unknown[]) => ({
  topic: 'algo',
  type: 'multiple_choice',
  schema_version: '1.0.0',
  questions,
});

describe('validateQuestionSet messages', () => {
  it('names the question index, its id and the field, like the issue asks', () => {
    const value = set([
      mcQuestion('mc-001', ['A']),
      mcQuestion('mc-002', ['B']),
      mcQuestion('mc-003', ['C']),
      mcQuestion('mc-004', 'B'),
    ]);
    const result = validateQuestionSet(value);
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          pointer: '/questions/3/answer',
          rule: 'question.answer/type',
          source: 'schema',
          questionId: 'mc-004',
          message:
            'questions[3] (mc-004): answer must be an array of unique capital letters A-Z, at least 1 (got "B")',
        },
      ],
    });
  });

  it('reports every problem at once, schema and lint together in strict mode', () => {
    const value = set([mcQuestion('mc-001', ['A', 'A']), mcQuestion('mc-001', ['Q']), { id: 'x' }]);
    const result = validateQuestionSet(value, { strict: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.rule)).toEqual([
      'question.answer/uniqueItems',
      'question.type/required',
      'question.difficulty/required',
      'question.tags/required',
      'question.question/required',
      'question.explanation/required',
      'question.id/pattern',
      'lint/unique-id',
      'lint/answer-in-options',
    ]);
    expect(result.errors.find((e) => e.rule === 'lint/answer-in-options')?.message).toBe(
      'questions[1] (mc-001): answer letter "Q" is not one of the option keys (A, B, C)',
    );
  });

  it('keeps strict lint opt-in', () => {
    expect(validateQuestionSet(set([mcQuestion('mc-001', ['Z'])])).ok).toBe(true);
    expect(validateQuestionSet(set([mcQuestion('mc-001', ['Z'])]), { strict: true }).ok).toBe(false);
  });

  it('says which fields a type needs when one is missing', () => {
    const result = validateQuestionSet(set([{ ...mcQuestion('mc-001', ['A']), options: undefined }]));
    expect(result.ok ? '' : result.errors[0]?.message).toBe(
      'questions[0] (mc-001): missing required field "options" (multiple_choice questions need options, answer)',
    );
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['a string', '{}'],
    ['an array', []],
    ['questions of nulls', set([null, null])],
    ['a question with a hostile id', set([{ ...mcQuestion('mc-001', ['A']), id: { toString: null } }])],
    ['an object without a prototype', Object.create(null)],
  ])('never throws on %s', (_, value) => {
    const result = validateQuestionSet(value, { strict: true });
    expect(result.ok).toBe(false);
    if (!result.ok) for (const e of result.errors) expect(e.message.length).toBeGreaterThan(5);
  });

  it('returns the very value on success and isQuestionSet agrees', () => {
    const value = set([mcQuestion('mc-001', ['A'])]);
    const result = validateQuestionSet(value);
    expect(result.ok && result.value).toBe(value);
    expect(isQuestionSet(value)).toBe(true);
    expect(isQuestionSet({})).toBe(false);
  });
});

describe('one problem, one issue (strict mode)', () => {
  /** The issues of a JSON document, as [pointer, rule]. */
  const issuesOf = (text: string) => {
    const result = parseQuestionSet(text, { strict: true });
    return result.ok ? [] : result.errors.map((e) => [e.pointer, e.rule]);
  };
  const doc = (type: string, questions: string) =>
    `{"topic": "algo", "type": "${type}", "schema_version": "1.0.0", "questions": [${questions}]}`;
  const common = '"difficulty": 2, "tags": [], "question": "Pick", "explanation": "e"';
  const mcq = (id: string, rest: string) => `{"id": "${id}", "type": "multiple_choice", ${common}, ${rest}}`;
  const options = '"options": {"A": "a", "B": "b", "C": "c"}';

  it('a wrong type in a type-specific field: the branch that applies reports it once', () => {
    expect(issuesOf(doc('multiple_choice', mcq('mc-001', `${options}, "answer": "B"`)))).toEqual([
      ['/questions/0/answer', 'question.answer/type'],
    ]);
  });

  it('a missing required field: one issue, and the lint does not guess at the missing options', () => {
    expect(issuesOf(doc('multiple_choice', mcq('mc-001', '"answer": ["A"]')))).toEqual([
      ['/questions/0', 'question.options/required'],
    ]);
  });

  it('an unknown question type: the schema reports it, the set-type lint does not repeat it', () => {
    const text = doc('multiple_choice', `{"id": "mc-001", "type": "essay", ${common}, "answer": "x"}`);
    expect(issuesOf(text)).toEqual([['/questions/0/type', 'question.type/enum']]);
  });

  it('a type that is not a string: one issue, not one for "type" and one for "enum"', () => {
    const text = doc('multiple_choice', `{"id": "mc-001", "type": 5, ${common}, "answer": "x"}`);
    expect(issuesOf(text)).toEqual([['/questions/0/type', 'question.type/type']]);
  });

  it('a number that breaks two keywords at once: one issue', () => {
    const text = doc('multiple_choice', mcq('mc-001', `${options}, "answer": ["A"]`)).replace(
      '"difficulty": 2',
      '"difficulty": 9.5',
    );
    expect(issuesOf(text)).toEqual([['/questions/0/difficulty', 'question.difficulty/type']]);
  });

  it('a duplicate id: one issue on the later question', () => {
    const one = mcq('mc-001', `${options}, "answer": ["A"]`);
    expect(issuesOf(doc('multiple_choice', `${one}, ${one}`))).toEqual([
      ['/questions/1/id', 'lint/unique-id'],
    ]);
  });

  it('a duplicated id that breaks the pattern: the pattern issue only, not also "already used"', () => {
    const one = mcq('MC-1', `${options}, "answer": ["A"]`);
    expect(issuesOf(doc('multiple_choice', `${one}, ${one}`))).toEqual([
      ['/questions/0/id', 'question.id/pattern'],
      ['/questions/1/id', 'question.id/pattern'],
    ]);
  });

  it('a bad option key: one issue at the key, not also "answer is not an option"', () => {
    const text = doc(
      'multiple_choice',
      mcq('mc-001', '"options": {"A": "a", "b": "b"}, "answer": ["A", "B"]'),
    );
    expect(issuesOf(text)).toEqual([['/questions/0/options/b', 'question.options/propertyNames']]);
  });

  it('a question whose type alone disagrees (id and set agree): one set-type issue naming both', () => {
    const text = doc('multiple_choice', `{"id": "mc-001", "type": "true_false", ${common}, "answer": true}`);
    const result = validateQuestionSet(JSON.parse(text), { strict: true });
    expect(result.ok ? [] : result.errors).toEqual([
      {
        pointer: '/questions/0/type',
        rule: 'lint/set-type',
        source: 'lint',
        questionId: 'mc-001',
        message:
          'questions[0] (mc-001): type true_false does not agree with the set\'s type multiple_choice (nor with the id prefix "mc")',
      },
    ]);
  });

  it('keeps two issues where there are two problems: the id, the type and the set all disagree', () => {
    const text = doc('multiple_choice', `{"id": "sc-001", "type": "true_false", ${common}, "answer": true}`);
    expect(issuesOf(text)).toEqual([
      ['/questions/0/id', 'lint/id-prefix'],
      ['/questions/0/type', 'lint/set-type'],
    ]);
  });

  it('keeps a lint issue on a value the schema accepts next to a schema issue on another value', () => {
    const text = doc('multiple_choice', mcq('mc-001', `${options}, "answer": ["A", "A", "Z"]`));
    expect(issuesOf(text)).toEqual([
      ['/questions/0/answer', 'question.answer/uniqueItems'],
      ['/questions/0/answer/2', 'lint/answer-in-options'],
    ]);
  });
});

describe('assertQuestionSet', () => {
  it('throws one QuestionSetError carrying the issues', () => {
    let caught: unknown;
    try {
      assertQuestionSet({});
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(QuestionSetError);
    const error = caught as QuestionSetError;
    expect(error.code).toBe('invalid_question_set');
    expect(error.issues).toHaveLength(4);
    expect(error.message).toMatch(/^\[assetloom\/question-set\] the question set is invalid/);
  });
});

describe('parseQuestionSet', () => {
  it('adds line:column to every issue and sorts them in reading order', () => {
    const text = `{
  "topic": "algo",
  "type": "multiple_choice",
  "schema_version": "1.0.0",
  "questions": [
    {"id": "mc-001", "type": "multiple_choice", "difficulty": 9, "tags": [], "question": "q",
     "explanation": "e", "options": {"A": "a", "b": "x"}, "answer": ["A", "a"]}
  ]
}`;
    const result = parseQuestionSet(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.line, e.column, e.rule])).toEqual([
      [6, 49, 'question.difficulty/maximum'],
      [7, 48, 'question.options/propertyNames'],
      [7, 75, 'question.answer/pattern'],
    ]);
  });

  it('ignores a byte-order mark and counts CRLF lines', () => {
    const text =
      '\ufeff{\r\n  "topic": 1,\r\n  "type": "true_false", "schema_version": "1.0.0", "questions": []\r\n}';
    const result = parseQuestionSet(text);
    expect(result.ok ? [] : result.errors.map((e) => [e.line, e.column, e.rule])).toEqual([
      [2, 3, 'set.topic/type'],
    ]);
  });

  it('reports invalid JSON with its position', () => {
    const result = parseQuestionSet('{\n  "topic": "x",,\n}');
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          pointer: '',
          rule: 'json/syntax',
          source: 'json',
          line: 2,
          column: 16,
          message: "invalid JSON at line 2, column 16: expected a property name in double quotes, found ','",
        },
      ],
    });
  });

  it('rejects a non-string argument instead of throwing', () => {
    const result = parseQuestionSet(42 as unknown as string);
    expect(result.ok ? '' : result.errors[0]?.rule).toBe('json/input');
  });

  it('copes with a large set quickly and without recursion limits', () => {
    const questions = Array.from({ length: 5000 }, (_, i) =>
      mcQuestion(`mc-${String(i % 1000).padStart(3, '0')}`, ['A']),
    );
    const text = JSON.stringify(set(questions), null, 1);
    expect(parseQuestionSet(text).ok).toBe(true);
    const strict = parseQuestionSet(text, { strict: true });
    expect(strict.ok ? 0 : strict.errors.filter((e) => e.rule === 'lint/unique-id').length).toBe(4000);
  });
});

describe('applyDefaults', () => {
  it('fills schema defaults without touching the input', () => {
    const value: QuestionSet = {
      topic: 't',
      type: 'fill_blank',
      schema_version: '1.0.0',
      questions: [
        {
          id: 'fb-001',
          type: 'fill_blank',
          difficulty: 1,
          tags: [],
          question: 'q',
          explanation: 'e',
          answer: ['x'],
        },
      ],
    };
    const copy = applyDefaults(value);
    expect(copy.questions[0]).toMatchObject({ source: null, related: [], answer_rule: 'any' });
    expect(value.questions[0]).not.toHaveProperty('source');
    expect(value.questions[0]).not.toHaveProperty('answer_rule');
  });
});
