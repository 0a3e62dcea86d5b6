import type { Question, QuestionSet, SubQuestion } from './types.js';

/** A question with the schema defaults filled in (`source: null`, `related: []`, fill_blank `answer_rule: "any"`). */
export type QuestionWithDefaults = Question & { source: string | null; related: string[] };

export interface QuestionSetWithDefaults extends Omit<QuestionSet, 'questions'> {
  questions: QuestionWithDefaults[];
}

/**
 * Returns a copy of a valid question set with the schema defaults applied; the input is not changed.
 * `answer_rule` is filled for fill_blank questions only, the one type it means something for.
 */
export function applyDefaults(set: QuestionSet): QuestionSetWithDefaults {
  return {
    ...set,
    questions: set.questions.map((q) => {
      const withDefaults = {
        ...q,
        source: q.source === undefined ? null : q.source,
        related: q.related === undefined ? [] : [...q.related],
      } as QuestionWithDefaults;
      if (q.type === 'fill_blank' && q.answer_rule === undefined) withDefaults.answer_rule = 'any';
      if (q.sub_questions !== undefined)
        withDefaults.sub_questions = q.sub_questions.map((s: SubQuestion) => ({ ...s }));
      return withDefaults;
    }),
  };
}
