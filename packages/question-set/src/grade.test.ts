import { describe, expect, it } from 'vitest';
import { type Grade, gradeAnswer, gradeQuestionSet, normalizeText } from './grade.js';
import type { Question, QuestionSet, SubQuestion } from './types.js';

const common = { difficulty: 2 as const, tags: [] as string[], question: 'q?', explanation: 'because' };
const sc: Question = {
  ...common,
  id: 'sc-001',
  type: 'single_choice',
  options: { A: 'a', B: 'b', C: 'c' },
  answer: 'B',
};
const mc: Question = {
  ...common,
  id: 'mc-001',
  type: 'multiple_choice',
  options: { A: 'a', B: 'b', C: 'c', D: 'd' },
  answer: ['A', 'C'],
};
const tf: Question = { ...common, id: 'tf-001', type: 'true_false', answer: false };
const fbAny: Question = {
  ...common,
  id: 'fb-001',
  type: 'fill_blank',
  answer: ['TCP', 'Transmission Control Protocol'],
};
const fbAll: Question = {
  ...common,
  id: 'fb-002',
  type: 'fill_blank',
  answer: ['atomicity', 'durability'],
  answer_rule: 'all',
};
const fbOrdered: Question = {
  ...common,
  id: 'fb-003',
  type: 'fill_blank',
  answer: ['physical', 'data link', 'network'],
  answer_rule: 'ordered',
};
const sa: Question = {
  ...common,
  id: 'sa-001',
  type: 'short_answer',
  answer: 'Processes wait on each other in a cycle; acquire locks in a fixed order.',
  keywords: ['wait', 'lock order', 'cycle'],
  scoring_rubric: 'one point per idea',
};
const saNoKeywords: Question = { ...common, id: 'sa-002', type: 'short_answer', answer: 'Serializable' };
const subs: SubQuestion[] = [
  {
    index: 1,
    type: 'single_choice',
    question: 'out?',
    options: { A: '0 1 2', B: '3 3 3' },
    answer: 'B',
    explanation: 'e',
  },
  { index: 2, type: 'true_false', question: 'let fixes it', answer: true, explanation: 'e' },
  { index: 3, type: 'fill_blank', question: 'scope', answer: ['function'], explanation: 'e' },
];
const cr: Question = {
  ...common,
  id: 'cr-001',
  type: 'code_reading',
  code: 'x',
  language: 'js',
  sub_questions: subs,
};
const sn: Question = {
  ...common,
  id: 'sn-001',
  type: 'scenario',
  context: 'ctx',
  sub_questions: [
    { index: 1, type: 'scenario', question: 'json', answer: { steps: ['lock', 'update'] }, explanation: 'e' },
    { index: 2, type: 'code_reading', question: 'text', answer: 'It prints 1', explanation: 'e' },
  ],
};

type Want = Pick<Grade, 'score' | 'maxScore' | 'status'>;
const cases: [string, { question: Question | SubQuestion; response: unknown; want: Want }][] = [
  [
    'single choice right',
    { question: sc, response: 'B', want: { score: 1, maxScore: 1, status: 'correct' } },
  ],
  [
    'single choice lower-case and padded',
    { question: sc, response: ' b ', want: { score: 1, maxScore: 1, status: 'correct' } },
  ],
  [
    'single choice full-width letter',
    { question: sc, response: 'Ｂ', want: { score: 1, maxScore: 1, status: 'correct' } },
  ],
  [
    'single choice wrong',
    { question: sc, response: 'A', want: { score: 0, maxScore: 1, status: 'incorrect' } },
  ],
  [
    'single choice garbage',
    { question: sc, response: { a: 1 }, want: { score: 0, maxScore: 1, status: 'incorrect' } },
  ],
  [
    'multiple choice exact set',
    { question: mc, response: ['C', 'A'], want: { score: 1, maxScore: 1, status: 'correct' } },
  ],
  [
    'multiple choice as text',
    { question: mc, response: 'a, c', want: { score: 1, maxScore: 1, status: 'correct' } },
  ],
  [
    'multiple choice duplicates ignored',
    { question: mc, response: ['A', 'C', 'A'], want: { score: 1, maxScore: 1, status: 'correct' } },
  ],
  [
    'multiple choice subset',
    { question: mc, response: ['A'], want: { score: 0, maxScore: 1, status: 'incorrect' } },
  ],
  [
    'multiple choice superset',
    { question: mc, response: ['A', 'B', 'C'], want: { score: 0, maxScore: 1, status: 'incorrect' } },
  ],
  [
    'multiple choice numbers',
    { question: mc, response: [1, 3], want: { score: 0, maxScore: 1, status: 'incorrect' } },
  ],
  ['true/false right', { question: tf, response: false, want: { score: 1, maxScore: 1, status: 'correct' } }],
  [
    'true/false as text',
    { question: tf, response: 'FALSE', want: { score: 1, maxScore: 1, status: 'correct' } },
  ],
  [
    'true/false wrong',
    { question: tf, response: true, want: { score: 0, maxScore: 1, status: 'incorrect' } },
  ],
  ['true/false null', { question: tf, response: null, want: { score: 0, maxScore: 1, status: 'incorrect' } }],
  [
    'fill any: second accepted answer, other case and spacing',
    {
      question: fbAny,
      response: '  transmission   control protocol ',
      want: { score: 1, maxScore: 1, status: 'correct' },
    },
  ],
  [
    'fill any: one-item array',
    { question: fbAny, response: ['tcp'], want: { score: 1, maxScore: 1, status: 'correct' } },
  ],
  [
    'fill any: wrong',
    { question: fbAny, response: 'UDP', want: { score: 0, maxScore: 1, status: 'incorrect' } },
  ],
  [
    'fill all: any order',
    {
      question: fbAll,
      response: ['Durability', 'atomicity'],
      want: { score: 2, maxScore: 2, status: 'correct' },
    },
  ],
  [
    'fill all: one of two',
    { question: fbAll, response: ['atomicity', 'speed'], want: { score: 1, maxScore: 2, status: 'partial' } },
  ],
  [
    'fill all: a repeated answer counts once',
    {
      question: fbAll,
      response: ['atomicity', 'atomicity'],
      want: { score: 1, maxScore: 2, status: 'partial' },
    },
  ],
  [
    'fill ordered: in order',
    {
      question: fbOrdered,
      response: ['Physical', 'data  link', 'network'],
      want: { score: 3, maxScore: 3, status: 'correct' },
    },
  ],
  [
    'fill ordered: swapped',
    {
      question: fbOrdered,
      response: ['physical', 'network', 'data link'],
      want: { score: 1, maxScore: 3, status: 'partial' },
    },
  ],
  [
    'fill ordered: too few',
    { question: fbOrdered, response: ['physical'], want: { score: 1, maxScore: 3, status: 'partial' } },
  ],
  [
    'fill: number response',
    { question: fbAll, response: 42, want: { score: 0, maxScore: 2, status: 'incorrect' } },
  ],
  [
    'short answer: all keywords',
    {
      question: sa,
      response: 'They WAIT in a cycle; fix the lock   order.',
      want: { score: 3, maxScore: 3, status: 'correct' },
    },
  ],
  [
    'short answer: some keywords',
    { question: sa, response: 'they wait', want: { score: 1, maxScore: 3, status: 'partial' } },
  ],
  [
    'short answer: whole words only',
    { question: sa, response: 'awaiting bicycles', want: { score: 0, maxScore: 3, status: 'incorrect' } },
  ],
  [
    'short answer: not text',
    { question: sa, response: ['wait'], want: { score: 0, maxScore: 3, status: 'incorrect' } },
  ],
  [
    'short answer, no keywords: exact',
    { question: saNoKeywords, response: 'serializable', want: { score: 1, maxScore: 1, status: 'correct' } },
  ],
  [
    'short answer, no keywords: other text',
    {
      question: saNoKeywords,
      response: 'snapshot isolation',
      want: { score: 0, maxScore: 1, status: 'needs_review' },
    },
  ],
  [
    'code reading: array in order',
    { question: cr, response: ['B', true, 'Function'], want: { score: 3, maxScore: 3, status: 'correct' } },
  ],
  [
    'code reading: object by index, one wrong',
    {
      question: cr,
      response: { 1: 'A', 2: true, 3: 'function' },
      want: { score: 2, maxScore: 3, status: 'partial' },
    },
  ],
  [
    'code reading: no response',
    { question: cr, response: undefined, want: { score: 0, maxScore: 3, status: 'incorrect' } },
  ],
  [
    'scenario: open answers',
    {
      question: sn,
      response: [{ steps: ['lock', 'update'] }, 'it prints 1'],
      want: { score: 2, maxScore: 2, status: 'correct' },
    },
  ],
  [
    'scenario: open text differs',
    {
      question: sn,
      response: [{ steps: ['lock', 'update'] }, 'nothing'],
      want: { score: 1, maxScore: 2, status: 'needs_review' },
    },
  ],
  [
    'a sub-question on its own',
    { question: subs[0]!, response: 'B', want: { score: 1, maxScore: 1, status: 'correct' } },
  ],
];

describe('gradeAnswer', () => {
  it.each(cases)('%s', (_, { question, response, want }) => {
    const grade = gradeAnswer(question, response);
    expect({ score: grade.score, maxScore: grade.maxScore, status: grade.status }).toEqual(want);
    expect(grade.feedback.length).toBeGreaterThan(0);
  });

  it('reports matched and missing keywords and the rubric', () => {
    const grade = gradeAnswer(sa, 'they wait');
    expect(grade.keywords).toEqual({ matched: ['wait'], missing: ['lock order', 'cycle'] });
    expect(grade.feedback).toContain('missing: lock order, cycle');
    expect(grade.feedback).toContain('one point per idea');
  });

  it('grades sub-questions one by one', () => {
    const grade = gradeAnswer(cr, ['A', true, 'block']);
    expect(grade.subGrades?.map((g) => [g.id, g.status])).toEqual([
      ['1', 'incorrect'],
      ['2', 'correct'],
      ['3', 'incorrect'],
    ]);
    expect(grade.expected).toEqual(['B', true, ['function']]);
  });

  it('honours caseSensitive', () => {
    expect(gradeAnswer(fbAny, 'tcp', { caseSensitive: true }).status).toBe('incorrect');
    expect(gradeAnswer(fbAny, 'TCP', { caseSensitive: true }).status).toBe('correct');
  });

  it.each([
    ['null', null],
    ['a string', 'sc-001'],
    ['unknown type', { ...sc, type: 'essay' }],
    ['choice without a letter answer', { ...sc, answer: 7 }],
    ['multiple choice without an array', { ...mc, answer: 'A' }],
    ['true/false without a boolean', { ...tf, answer: 'no' }],
    ['fill blank without answers', { ...fbAny, answer: [] }],
    ['short answer without text', { ...sa, answer: null }],
    ['code reading without sub-questions', { ...cr, sub_questions: [] }],
  ])('never throws on a malformed question: %s', (_, question) => {
    const grade = gradeAnswer(question as unknown as Question, 'A');
    expect(grade.status).toBe('ungradable');
    expect(grade.maxScore).toBe(0);
    expect(grade.feedback).toMatch(/^\[assetloom\/question-set\] cannot grade/);
  });

  it('survives deeply nested responses to open sub-questions', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(gradeAnswer(sn, [deep, deep]).status).toBe('incorrect');
  });
});

describe('gradeQuestionSet', () => {
  const set: QuestionSet = {
    topic: 't',
    type: 'single_choice',
    schema_version: '1.0.0',
    questions: [sc, mc, tf],
  };
  it('sums scores and lists unanswered questions', () => {
    const result = gradeQuestionSet(set, { 'sc-001': 'B', 'mc-001': ['A'] });
    expect(result.score).toBe(1);
    expect(result.maxScore).toBe(3);
    expect(result.unanswered).toEqual(['tf-001']);
    expect(result.grades.map((g) => g.id)).toEqual(['sc-001', 'mc-001', 'tf-001']);
  });
  it('does not read inherited properties of the responses', () => {
    const result = gradeQuestionSet({ ...set, questions: [{ ...sc, id: 'toString' as string }] }, {});
    expect(result.unanswered).toEqual(['toString']);
  });
});

describe('normalizeText', () => {
  it.each([
    ['  a \t b\n c ', 'a b c'],
    ['ＴＣＰ', 'tcp'],
    ['Ünïcode', 'ünïcode'],
  ])('%j → %j', (input, want) => {
    expect(normalizeText(input)).toBe(want);
  });
});
