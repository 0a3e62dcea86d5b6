import { describeValue, isRecord, questionLabel, subQuestionLabel } from './internal/describe.js';
import type { ValidationIssue } from './issues.js';

/** The id prefix each question type must use. */
export const TYPE_CODES = {
  single_choice: 'sc',
  multiple_choice: 'mc',
  true_false: 'tf',
  fill_blank: 'fb',
  short_answer: 'sa',
  code_reading: 'cr',
  scenario: 'sn',
} as const;

const CODE_TO_TYPE = new Map<string, string>(Object.entries(TYPE_CODES).map(([t, c]) => [c, t]));

/** The strict lint rules, beyond the schema. */
export type LintRule =
  | 'lint/answer-in-options'
  | 'lint/unique-id'
  | 'lint/id-prefix'
  | 'lint/sub-question-index'
  | 'lint/set-type';

const LETTER = /^[A-Z]$/;

/**
 * Strict lint beyond the schema. Works on any value (it never throws and skips parts whose shape
 * is not what it checks), so it can run next to schema validation and report everything at once.
 */
export function lintQuestionSet(value: unknown): ValidationIssue[] {
  return lintIssues(value, () => false);
}

/**
 * The lint, told which values the schema rejected: `rejected(pointer)` is true when the schema
 * reported an issue at that pointer or below it. A check that reads a rejected value is skipped, so
 * one problem yields one issue (the schema's, which names the field and what it expects) and never a
 * second one in the lint's words: an unknown `type` is not also "disagrees with the set's type", an
 * option key "b" is not also "answer B is not an option", an index 0 is not also "must be 1".
 */
export function lintIssues(value: unknown, rejected: (pointer: string) => boolean): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!isRecord(value) || !Array.isArray(value.questions)) return issues;
  const setType = typeof value.type === 'string' ? value.type : undefined;
  const firstById = new Map<string, number>();
  value.questions.forEach((question, qi) => {
    if (!isRecord(question)) return;
    const label = questionLabel(qi, question);
    const base = `/questions/${qi}`;
    const id = typeof question.id === 'string' ? question.id : undefined;
    const type = typeof question.type === 'string' ? question.type : undefined;
    const push = (pointer: string, rule: LintRule, message: string) => {
      const issue: ValidationIssue = { pointer, rule, source: 'lint', message };
      if (id !== undefined) issue.questionId = id;
      issues.push(issue);
    };

    const idOk = id !== undefined && !rejected(`${base}/id`);
    const typeOk = type !== undefined && !rejected(`${base}/type`);
    const code = idOk ? /^([a-z]{2})-/.exec(id)?.[1] : undefined;
    const expected = typeOk ? TYPE_CODES[type as keyof typeof TYPE_CODES] : undefined;
    const prefixDisagrees =
      code !== undefined && expected !== undefined && CODE_TO_TYPE.has(code) && code !== expected;
    const setDisagrees =
      typeOk && setType !== undefined && type !== setType && setType in TYPE_CODES && !rejected('/type');
    // The id and the set agree and only the type differs: that is one problem, the type.
    const typeAlone =
      prefixDisagrees && setDisagrees && code === TYPE_CODES[setType as keyof typeof TYPE_CODES];

    if (id !== undefined) {
      const first = firstById.get(id);
      if (first === undefined) firstById.set(id, qi);
      else if (idOk) {
        push(`${base}/id`, 'lint/unique-id', `${label}: id "${id}" is already used by questions[${first}]`);
      }
      if (prefixDisagrees && !typeAlone) {
        push(
          `${base}/id`,
          'lint/id-prefix',
          `${label}: id prefix "${code}" means ${CODE_TO_TYPE.get(code)}, but the question's type is ${type}; use "${expected}-${id.slice(3)}" or change the type`,
        );
      }
    }

    if (setDisagrees) {
      push(
        `${base}/type`,
        'lint/set-type',
        `${label}: type ${type} does not agree with the set's type ${setType}${typeAlone ? ` (nor with the id prefix "${code}")` : ''}`,
      );
    }

    checkAnswerLetters(question, base, label, push, rejected);

    if (Array.isArray(question.sub_questions)) {
      question.sub_questions.forEach((sub, si) => {
        if (!isRecord(sub)) return;
        const subBase = `${base}/sub_questions/${si}`;
        const subLabel = `${label} ${subQuestionLabel(si, sub)}`;
        if (typeof sub.index === 'number' && sub.index !== si + 1 && !rejected(`${subBase}/index`)) {
          push(
            `${subBase}/index`,
            'lint/sub-question-index',
            `${subLabel}: index must be ${si + 1}, because sub-question indexes run 1..n in order (got ${describeValue(sub.index)})`,
          );
        }
        checkAnswerLetters(sub, subBase, subLabel, push, rejected);
      });
    }
  });
  return issues;
}

function checkAnswerLetters(
  item: Record<string, unknown>,
  base: string,
  label: string,
  push: (pointer: string, rule: LintRule, message: string) => void,
  rejected: (pointer: string) => boolean,
): void {
  if (item.type !== 'single_choice' && item.type !== 'multiple_choice') return;
  // Options the schema rejects (a key "b", a single entry) are that one problem, not also a missing letter.
  if (!isRecord(item.options) || rejected(`${base}/options`) || rejected(`${base}/type`)) return;
  const keys = Object.keys(item.options).filter((k) => LETTER.test(k));
  const keyList = keys.length > 0 ? keys.join(', ') : 'none';
  const check = (letter: unknown, pointer: string) => {
    if (typeof letter === 'string' && LETTER.test(letter) && !keys.includes(letter) && !rejected(pointer)) {
      push(
        pointer,
        'lint/answer-in-options',
        `${label}: answer letter "${letter}" is not one of the option keys (${keyList})`,
      );
    }
  };
  if (item.type === 'single_choice') check(item.answer, `${base}/answer`);
  else if (Array.isArray(item.answer)) {
    item.answer.forEach((l, i) => {
      check(l, `${base}/answer/${i}`);
    });
  }
}
