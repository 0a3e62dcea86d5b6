import { describeValue, isRecord } from './internal/describe.js';
import type { AnswerRule, Question, QuestionSet, QuestionType, SubQuestion } from './types.js';

export type GradeStatus = 'correct' | 'partial' | 'incorrect' | 'unanswered' | 'needs_review' | 'ungradable';

export interface Grade {
  /** Id of the graded question; for a sub-question, the sub-question's index as a string ("1"). */
  id: string | undefined;
  type: QuestionType | undefined;
  score: number;
  maxScore: number;
  /**
   * correct: full marks; partial: some marks; incorrect: an answer was given and earned none;
   * unanswered: nothing was given (undefined, null, a blank string, an empty array or an array of
   * blanks; for code_reading and scenario, nothing for any sub-question), score 0; needs_review: a
   * short answer with no keywords that did not match the model answer word for word; ungradable:
   * the question itself is malformed.
   */
  status: GradeStatus;
  /** One or two sentences for the person who answered. */
  feedback: string;
  /** The expected answer, for showing after grading. */
  expected: unknown;
  /** The question's explanation, when it has one. */
  explanation: string | undefined;
  /** short_answer only: which scoring keywords the response contains and which it lacks. */
  keywords?: { matched: string[]; missing: string[] };
  /** code_reading and scenario: one grade per sub-question, in order. */
  subGrades?: Grade[];
}

export interface GradeOptions {
  /** Compare fill_blank, short_answer and open answers case-sensitively (default false). */
  caseSensitive?: boolean;
}

/**
 * A response whose key names no question in the set (a typo, a question removed from the set, a
 * different set). A warning, not an error: it is not graded and changes no total, and the grade of
 * every question in the set is still returned. An app that must not lose answers should refuse to
 * submit while `unknown` is not empty.
 */
export interface UnknownResponse {
  /** The key in the responses object. */
  questionId: string;
  /** The response given under that key, as it was. */
  response: unknown;
  severity: 'warning';
  /** Says the response was not graded; suggests the set's id when only case, width or spacing differ. */
  message: string;
}

export interface SetGrade {
  /** Sum over the set's questions; unknown responses add nothing. */
  score: number;
  maxScore: number;
  /** One grade per question of the set, in order. */
  grades: Grade[];
  /** Ids of the questions graded `unanswered`: no response, or an empty one (null, "", []). */
  unanswered: string[];
  /** How many of `grades` have each status (unanswered apart from incorrect). */
  counts: Record<GradeStatus, number>;
  /** Responses for ids the set does not have, in the order of the responses object (warnings). */
  unknown: UnknownResponse[];
}

const LETTER = /^[A-Z]$/;

/** Trims, collapses whitespace, applies Unicode NFKC (full-width letters become ASCII) and, unless asked not to, lower-cases. */
export function normalizeText(text: string, caseSensitive = false): string {
  const n = text.normalize('NFKC').trim().replace(/\s+/gu, ' ');
  return caseSensitive ? n : n.toLowerCase();
}

type Item = Question | SubQuestion;

function base(item: Item, id: string | undefined): Omit<Grade, 'score' | 'maxScore' | 'status' | 'feedback'> {
  return {
    id,
    type: item.type,
    expected: item.answer,
    explanation: typeof item.explanation === 'string' ? item.explanation : undefined,
  };
}

function statusOf(score: number, maxScore: number): GradeStatus {
  if (maxScore > 0 && score >= maxScore) return 'correct';
  return score > 0 ? 'partial' : 'incorrect';
}

function ungradable(item: unknown, id: string | undefined, reason: string): Grade {
  return {
    id,
    type: isRecord(item) && typeof item.type === 'string' ? (item.type as QuestionType) : undefined,
    score: 0,
    maxScore: 0,
    status: 'ungradable',
    feedback: `[assetloom/question-set] cannot grade ${id === undefined ? 'this question' : `"${id}"`}: ${reason}; validate the question set first`,
    expected: isRecord(item) ? item.answer : undefined,
    explanation: isRecord(item) && typeof item.explanation === 'string' ? item.explanation : undefined,
  };
}

/** A blank: undefined, null or a string of only whitespace. */
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Nothing given: a blank, or an array of blanks (an empty array included). */
function isNothing(value: unknown): boolean {
  return isBlank(value) || (Array.isArray(value) && value.every(isBlank));
}

function unanswered(b: ReturnType<typeof base>, maxScore: number): Grade {
  return { ...b, score: 0, maxScore, status: 'unanswered', feedback: 'No answer given.' };
}

function toLetter(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const l = value.normalize('NFKC').trim().toUpperCase();
  return LETTER.test(l) ? l : undefined;
}

/** Accepts ["A", "C"], "A,C", "A C" or "AC". */
function toLetters(value: unknown): string[] | undefined {
  let parts: unknown[];
  if (Array.isArray(value)) parts = value;
  else if (typeof value === 'string') {
    const s = value.normalize('NFKC').trim();
    if (!/^[A-Za-z\s,;]*$/.test(s)) return undefined;
    parts = s.match(/[A-Za-z]/g) ?? [];
  } else return undefined;
  const letters: string[] = [];
  for (const p of parts) {
    const l = toLetter(p);
    if (l === undefined) return undefined;
    if (!letters.includes(l)) letters.push(l);
  }
  return letters;
}

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
  }
  return undefined;
}

function toStrings(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return undefined;
}

function containsKeyword(haystack: string, keyword: string): boolean {
  if (keyword === '') return false;
  const word = /[\p{L}\p{N}_]/u;
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(keyword, from);
    if (at < 0) return false;
    const before = haystack[at - 1];
    const after = haystack[at + keyword.length];
    const startOk = !word.test(keyword[0] ?? '') || before === undefined || !word.test(before);
    const endOk = !word.test(keyword[keyword.length - 1] ?? '') || after === undefined || !word.test(after);
    if (startOk && endOk) return true;
    from = at + 1;
  }
}

function deepEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i], depth + 1));
  }
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k], depth + 1))
    );
  }
  return false;
}

function listLetters(letters: readonly string[]): string {
  return letters.length === 0 ? 'nothing' : [...letters].sort().join(', ');
}

function gradeItem(item: Item, id: string | undefined, response: unknown, options: GradeOptions): Grade {
  const cs = options.caseSensitive === true;
  const b = base(item, id);
  switch (item.type) {
    case 'single_choice': {
      const expected = toLetter(item.answer);
      if (expected === undefined) return ungradable(item, id, 'its answer is not one capital letter');
      if (isNothing(response)) return unanswered(b, 1);
      const given = toLetter(response);
      if (given === undefined) {
        return {
          ...b,
          score: 0,
          maxScore: 1,
          status: 'incorrect',
          feedback: `Expected one option letter, got ${describeValue(response)}.`,
        };
      }
      const ok = given === expected;
      return {
        ...b,
        score: ok ? 1 : 0,
        maxScore: 1,
        status: ok ? 'correct' : 'incorrect',
        feedback: ok ? `Correct: ${expected}.` : `You chose ${given}; the answer is ${expected}.`,
      };
    }
    case 'multiple_choice': {
      const expected = Array.isArray(item.answer) ? toLetters(item.answer) : undefined;
      if (expected === undefined || expected.length === 0) {
        return ungradable(item, id, 'its answer is not an array of capital letters');
      }
      if (isNothing(response)) return unanswered(b, 1);
      const given = toLetters(response);
      if (given === undefined) {
        return {
          ...b,
          score: 0,
          maxScore: 1,
          status: 'incorrect',
          feedback: `Expected option letters, got ${describeValue(response)}.`,
        };
      }
      const ok = given.length === expected.length && given.every((l) => expected.includes(l));
      return {
        ...b,
        score: ok ? 1 : 0,
        maxScore: 1,
        status: ok ? 'correct' : 'incorrect',
        feedback: ok
          ? `Correct: ${listLetters(expected)}.`
          : `You chose ${listLetters(given)}; the answer is exactly ${listLetters(expected)}.`,
      };
    }
    case 'true_false': {
      if (typeof item.answer !== 'boolean') return ungradable(item, id, 'its answer is not a boolean');
      if (isNothing(response)) return unanswered(b, 1);
      const given = toBoolean(response);
      if (given === undefined) {
        return {
          ...b,
          score: 0,
          maxScore: 1,
          status: 'incorrect',
          feedback: `Expected true or false, got ${describeValue(response)}.`,
        };
      }
      const ok = given === item.answer;
      return {
        ...b,
        score: ok ? 1 : 0,
        maxScore: 1,
        status: ok ? 'correct' : 'incorrect',
        feedback: ok ? `Correct: ${item.answer}.` : `The statement is ${item.answer}.`,
      };
    }
    case 'fill_blank':
      return gradeFillBlank(item, b, id, response, cs);
    case 'short_answer':
      return gradeShortAnswer(item, b, id, response, cs);
    case 'code_reading':
    case 'scenario':
      if ('index' in item) return gradeOpen(item, b, response, cs);
      return gradeComposite(item, b, id, response, options);
    default:
      return ungradable(
        item,
        id,
        `its type ${describeValue((item as { type: unknown }).type)} is not one of the seven types`,
      );
  }
}

function gradeFillBlank(
  item: Item,
  b: ReturnType<typeof base>,
  id: string | undefined,
  response: unknown,
  cs: boolean,
): Grade {
  const answers = toStrings(item.answer);
  if (answers === undefined || answers.length === 0 || !Array.isArray(item.answer)) {
    return ungradable(item, id, 'its answer is not an array of strings');
  }
  const rule: AnswerRule = 'answer_rule' in item && item.answer_rule !== undefined ? item.answer_rule : 'any';
  if (isNothing(response)) return unanswered(b, rule === 'any' ? 1 : answers.length);
  const given = toStrings(response);
  if (given === undefined) {
    return {
      ...b,
      score: 0,
      maxScore: rule === 'any' ? 1 : answers.length,
      status: 'incorrect',
      feedback: `Expected text, got ${describeValue(response)}.`,
    };
  }
  const want = answers.map((a) => normalizeText(a, cs));
  const got = given.map((g) => normalizeText(g, cs));
  if (rule === 'any') {
    const first = got.find((g) => g !== '') ?? '';
    const ok = want.includes(first);
    return {
      ...b,
      score: ok ? 1 : 0,
      maxScore: 1,
      status: ok ? 'correct' : 'incorrect',
      feedback: ok ? 'Correct.' : `Accepted answers: ${answers.join(' / ')}.`,
    };
  }
  let score = 0;
  if (rule === 'all') {
    const pool = [...got];
    for (const w of want) {
      const k = pool.indexOf(w);
      if (k >= 0) {
        score++;
        pool.splice(k, 1);
      }
    }
  } else {
    want.forEach((w, i) => {
      if (got[i] === w) score++;
    });
  }
  const maxScore = want.length;
  const status = statusOf(score, maxScore);
  const how = rule === 'all' ? 'in any order' : 'in this order';
  return {
    ...b,
    score,
    maxScore,
    status,
    feedback:
      status === 'correct'
        ? 'Correct.'
        : `${score} of ${maxScore} blanks right; expected ${answers.join(', ')} (${how}).`,
  };
}

function gradeShortAnswer(
  item: Item,
  b: ReturnType<typeof base>,
  id: string | undefined,
  response: unknown,
  cs: boolean,
): Grade {
  if (typeof item.answer !== 'string') return ungradable(item, id, 'its answer is not a string');
  const text = typeof response === 'string' ? normalizeText(response, cs) : undefined;
  const keywords = (Array.isArray(item.keywords) ? item.keywords : []).filter(
    (k): k is string => typeof k === 'string' && normalizeText(k, cs) !== '',
  );
  const rubric = typeof item.scoring_rubric === 'string' ? ` Rubric: ${item.scoring_rubric}` : '';
  if (isNothing(response)) {
    if (keywords.length === 0) return unanswered(b, 1);
    return { ...unanswered(b, keywords.length), keywords: { matched: [], missing: keywords } };
  }
  if (keywords.length > 0) {
    const matched =
      text === undefined ? [] : keywords.filter((k) => containsKeyword(text, normalizeText(k, cs)));
    const missing = keywords.filter((k) => !matched.includes(k));
    const score = matched.length;
    const status = statusOf(score, keywords.length);
    return {
      ...b,
      score,
      maxScore: keywords.length,
      status,
      keywords: { matched, missing },
      feedback:
        text === undefined
          ? `Expected text, got ${describeValue(response)}.`
          : status === 'correct'
            ? `All ${keywords.length} key points covered.`
            : `Covered ${score} of ${keywords.length} key points; missing: ${missing.join(', ')}.${rubric}`,
    };
  }
  if (text === undefined || text === '') {
    return {
      ...b,
      score: 0,
      maxScore: 1,
      status: 'incorrect',
      feedback: `Expected text, got ${describeValue(response)}.`,
    };
  }
  if (text === normalizeText(item.answer, cs)) {
    return { ...b, score: 1, maxScore: 1, status: 'correct', feedback: 'Matches the model answer.' };
  }
  return {
    ...b,
    score: 0,
    maxScore: 1,
    status: 'needs_review',
    feedback: `No scoring keywords: compare with the model answer by hand.${rubric}`,
  };
}

/** A code_reading or scenario sub-question: its answer may be any JSON value. */
function gradeOpen(item: SubQuestion, b: ReturnType<typeof base>, response: unknown, cs: boolean): Grade {
  // An expected answer may itself be empty ([] or null): giving exactly that is an answer.
  if (isNothing(response) && !deepEqual(item.answer, response)) return unanswered(b, 1);
  if (typeof item.answer === 'string' && typeof response === 'string') {
    const ok = normalizeText(item.answer, cs) === normalizeText(response, cs);
    return ok
      ? { ...b, score: 1, maxScore: 1, status: 'correct', feedback: 'Matches the expected answer.' }
      : {
          ...b,
          score: 0,
          maxScore: 1,
          status: 'needs_review',
          feedback: 'Differs from the expected answer: review by hand.',
        };
  }
  const ok = deepEqual(item.answer, response);
  return {
    ...b,
    score: ok ? 1 : 0,
    maxScore: 1,
    status: ok ? 'correct' : 'incorrect',
    feedback: ok ? 'Matches the expected answer.' : 'Does not match the expected answer.',
  };
}

function subResponse(response: unknown, sub: unknown, position: number): unknown {
  if (Array.isArray(response)) return response[position];
  if (isRecord(response) && isRecord(sub) && typeof sub.index === 'number') {
    const key = String(sub.index);
    return Object.hasOwn(response, key) ? response[key] : undefined;
  }
  return undefined;
}

function gradeComposite(
  item: Question,
  b: ReturnType<typeof base>,
  id: string | undefined,
  response: unknown,
  options: GradeOptions,
): Grade {
  const subs = item.sub_questions;
  if (!Array.isArray(subs) || subs.length === 0) return ungradable(item, id, 'it has no sub_questions');
  const subGrades = subs.map((sub, position) => {
    const subId = isRecord(sub) && typeof sub.index === 'number' ? String(sub.index) : String(position + 1);
    if (!isRecord(sub)) return ungradable(sub, subId, 'the sub-question is not an object');
    return gradeItem(sub, subId, subResponse(response, sub, position), options);
  });
  const score = subGrades.reduce((s, g) => s + g.score, 0);
  const maxScore = subGrades.reduce((s, g) => s + g.maxScore, 0);
  if (subGrades.every((g) => g.status === 'unanswered')) {
    return {
      ...unanswered(b, maxScore),
      expected: subs.map((s) => (isRecord(s) ? s.answer : undefined)),
      subGrades,
    };
  }
  const review = subGrades.some((g) => g.status === 'needs_review');
  const status = review && score < maxScore ? 'needs_review' : statusOf(score, maxScore);
  return {
    ...b,
    expected: subs.map((s) => (isRecord(s) ? s.answer : undefined)),
    score,
    maxScore,
    status,
    subGrades,
    feedback: `${score} of ${maxScore} points over ${subs.length} sub-question${subs.length === 1 ? '' : 's'}${review ? '; some need review by hand' : ''}.`,
  };
}

/**
 * Grades one response to a question or sub-question. Never throws: a malformed question yields
 * status "ungradable" with maxScore 0; nothing given (undefined, null, a blank string, an empty
 * array or an array of blanks) is "unanswered" with score 0; a response of the wrong shape is
 * simply incorrect.
 *
 * Responses: single_choice "B"; multiple_choice ["A","C"] (or "A,C"), graded as an exact set;
 * true_false true/false; fill_blank "text" or ["text", …] matched per answer_rule (any: the blank
 * accepts any listed answer; all: every listed answer must appear, in any order, one point each;
 * ordered: every answer in its position, one point each); short_answer "text", one point per
 * keyword found (whole words, case- and whitespace-insensitive); code_reading and scenario an array
 * in sub-question order or an object keyed by sub-question index ({ "1": "A", "2": true }).
 */
export function gradeAnswer(
  question: Question | SubQuestion,
  response: unknown,
  options: GradeOptions = {},
): Grade {
  const item: unknown = question;
  if (!isRecord(item))
    return ungradable(item, undefined, `expected a question object, got ${describeValue(item)}`);
  const id =
    typeof item.id === 'string' ? item.id : typeof item.index === 'number' ? String(item.index) : undefined;
  return gradeItem(item as unknown as Item, id, response, options);
}

/**
 * Grades responses keyed by question id. Questions without a response, or with an empty one, are
 * "unanswered" (0 points, counted apart from incorrect). Responses under ids the set does not have
 * are listed in `unknown` as warnings and change no total.
 */
export function gradeQuestionSet(
  set: QuestionSet,
  responses: Readonly<Record<string, unknown>>,
  options: GradeOptions = {},
): SetGrade {
  const grades: Grade[] = [];
  const unansweredIds: string[] = [];
  const counts: Record<GradeStatus, number> = {
    correct: 0,
    partial: 0,
    incorrect: 0,
    unanswered: 0,
    needs_review: 0,
    ungradable: 0,
  };
  const ids = new Set<string>();
  const given = isRecord(responses) ? responses : {};
  const questions: unknown = isRecord(set) ? set.questions : undefined;
  for (const q of Array.isArray(questions) ? (questions as Question[]) : []) {
    const id = isRecord(q) && typeof q.id === 'string' ? q.id : undefined;
    if (id !== undefined) ids.add(id);
    const has = id !== undefined && Object.hasOwn(given, id);
    const grade = gradeAnswer(q, has ? given[id] : undefined, options);
    if (grade.status === 'unanswered' && id !== undefined) unansweredIds.push(id);
    counts[grade.status] += 1;
    grades.push(grade);
  }
  return {
    score: grades.reduce((s, g) => s + g.score, 0),
    maxScore: grades.reduce((s, g) => s + g.maxScore, 0),
    grades,
    unanswered: unansweredIds,
    counts,
    unknown: unknownResponses(given, ids),
  };
}

const idKey = (id: string) => id.normalize('NFKC').replace(/\s+/gu, '').toLowerCase();

function unknownResponses(given: Record<string, unknown>, ids: ReadonlySet<string>): UnknownResponse[] {
  const out: UnknownResponse[] = [];
  let byKey: Map<string, string> | undefined;
  for (const questionId of Object.keys(given)) {
    if (ids.has(questionId)) continue;
    byKey ??= new Map([...ids].reverse().map((id) => [idKey(id), id]));
    const near = byKey.get(idKey(questionId));
    out.push({
      questionId,
      response: given[questionId],
      severity: 'warning',
      message: `[assetloom/question-set] the response for ${JSON.stringify(questionId)} was not graded: the set has no question with that id${near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`}`,
    });
  }
  return out;
}
