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
  [
    'true/false null',
    { question: tf, response: null, want: { score: 0, maxScore: 1, status: 'unanswered' } },
  ],
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
    { question: cr, response: undefined, want: { score: 0, maxScore: 3, status: 'unanswered' } },
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

  describe('nothing given is unanswered, not incorrect', () => {
    const nothing: [string, unknown][] = [
      ['undefined', undefined],
      ['null', null],
      ['an empty string', ''],
      ['a blank string', ' \t\u3000'],
      ['an empty array', []],
      ['an array of blanks', ['', null, ' ']],
    ];
    const questions: [string, Question, number][] = [
      ['single_choice', sc, 1],
      ['multiple_choice', mc, 1],
      ['true_false', tf, 1],
      ['fill_blank any', fbAny, 1],
      ['fill_blank ordered', fbOrdered, 3],
      ['short_answer with keywords', sa, 3],
      ['short_answer without keywords', saNoKeywords, 1],
      ['code_reading', cr, 3],
      ['scenario', sn, 2],
    ];
    it.each(
      questions.flatMap(([type, question, maxScore]) =>
        nothing.map(([what, response]) => [type, what, question, maxScore, response] as const),
      ),
    )('%s, %s', (_type, _what, question, maxScore, response) => {
      const grade = gradeAnswer(question, response);
      expect({ score: grade.score, maxScore: grade.maxScore, status: grade.status }).toEqual({
        score: 0,
        maxScore,
        status: 'unanswered',
      });
      expect(grade.feedback).toBe('No answer given.');
      expect(grade.expected).toBeDefined();
    });

    it('a composite question with some sub-questions answered is graded; the rest are unanswered', () => {
      const grade = gradeAnswer(cr, { 1: 'B' });
      expect(grade.status).toBe('partial');
      expect(grade.subGrades?.map((g) => g.status)).toEqual(['correct', 'unanswered', 'unanswered']);
      const wrong = gradeAnswer(cr, { 1: 'A' });
      expect(wrong.status).toBe('incorrect');
    });

    it('a blank that is given next to filled ones is graded, not unanswered', () => {
      const grade = gradeAnswer(fbOrdered, ['physical', '', '']);
      expect([grade.score, grade.maxScore, grade.status]).toEqual([1, 3, 'partial']);
    });

    it('short_answer lists every keyword as missing', () => {
      expect(gradeAnswer(sa, undefined).keywords).toEqual({
        matched: [],
        missing: ['wait', 'lock order', 'cycle'],
      });
    });

    it('an open sub-question whose expected answer is itself empty is answered by that value', () => {
      const open: SubQuestion = {
        index: 1,
        type: 'scenario',
        question: 'left?',
        answer: [],
        explanation: 'e',
      };
      expect(gradeAnswer(open, []).status).toBe('correct');
      expect(gradeAnswer(open, undefined).status).toBe('unanswered');
      expect(gradeAnswer({ ...open, answer: null }, null).status).toBe('correct');
    });

    it('a malformed question stays ungradable when nothing is given', () => {
      expect(gradeAnswer({ ...sc, answer: 7 } as unknown as Question, undefined).status).toBe('ungradable');
    });

    it('wrong shapes are still incorrect', () => {
      expect(gradeAnswer(sc, 0).status).toBe('incorrect');
      expect(gradeAnswer(tf, 'maybe').status).toBe('incorrect');
      expect(gradeAnswer(mc, {}).status).toBe('incorrect');
    });
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
    expect(result.unknown).toEqual([]);
  });

  it('counts unanswered apart from incorrect: missing, null and blank responses alike', () => {
    const result = gradeQuestionSet(set, { 'sc-001': 'A', 'mc-001': null, 'tf-001': '' });
    expect(result.unanswered).toEqual(['mc-001', 'tf-001']);
    expect(result.grades.map((g) => g.status)).toEqual(['incorrect', 'unanswered', 'unanswered']);
    expect(result.counts).toEqual({
      correct: 0,
      partial: 0,
      incorrect: 1,
      unanswered: 2,
      needs_review: 0,
      ungradable: 0,
    });
    expect([result.score, result.maxScore]).toEqual([0, 3]);
  });

  it('reports responses for ids the set does not have, and they change no total', () => {
    const known = { 'sc-001': 'B', 'mc-001': ['A', 'C'] };
    const result = gradeQuestionSet(set, { ...known, 'SC-001': 'B', 'tf-009': true });
    const without = gradeQuestionSet(set, known);
    expect([result.score, result.maxScore]).toEqual([without.score, without.maxScore]);
    expect(result.grades).toEqual(without.grades);
    expect(result.counts).toEqual(without.counts);
    expect(result.unanswered).toEqual(['tf-001']);
    expect(result.unknown).toEqual([
      {
        questionId: 'SC-001',
        response: 'B',
        severity: 'warning',
        message:
          '[assetloom/question-set] the response for "SC-001" was not graded: the set has no question with that id (did you mean "sc-001"?)',
      },
      {
        questionId: 'tf-009',
        response: true,
        severity: 'warning',
        message:
          '[assetloom/question-set] the response for "tf-009" was not graded: the set has no question with that id',
      },
    ]);
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
