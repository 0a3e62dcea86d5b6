import { describe, expectTypeOf, it } from 'vitest';
import {
  type Grade,
  type GradeStatus,
  gradeAnswer,
  gradeQuestionSet,
  type LocatedIssue,
  type OptionLetter,
  parseQuestionSet,
  type Question,
  type QuestionSet,
  type SetGrade,
  type SubQuestion,
  type UnknownResponse,
  type ValidationIssue,
  validateQuestionSet,
} from './index.js';

describe('public types', () => {
  it('narrows results to a QuestionSet or issues', () => {
    const result = validateQuestionSet(JSON.parse('{}'));
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<QuestionSet>();
    else expectTypeOf(result.errors).toEqualTypeOf<ValidationIssue[]>();
    const parsed = parseQuestionSet('{}');
    if (!parsed.ok) expectTypeOf(parsed.errors).toEqualTypeOf<LocatedIssue[]>();
  });

  it('discriminates questions by type', () => {
    const q = {} as Question;
    if (q.type === 'single_choice') expectTypeOf(q.answer).toEqualTypeOf<OptionLetter>();
    if (q.type === 'multiple_choice') expectTypeOf(q.answer).toEqualTypeOf<OptionLetter[]>();
    if (q.type === 'true_false') expectTypeOf(q.answer).toEqualTypeOf<boolean>();
    if (q.type === 'fill_blank') expectTypeOf(q.answer).toEqualTypeOf<string[]>();
    if (q.type === 'short_answer') expectTypeOf(q.answer).toEqualTypeOf<string>();
    if (q.type === 'code_reading') {
      expectTypeOf(q.code).toEqualTypeOf<string>();
      expectTypeOf(q.sub_questions).toEqualTypeOf<SubQuestion[]>();
    }
    if (q.type === 'scenario') expectTypeOf(q.context).toEqualTypeOf<string>();
    expectTypeOf(q.source).toEqualTypeOf<string | null | undefined>();
  });

  it('discriminates sub-questions by type', () => {
    const s = {} as SubQuestion;
    expectTypeOf(s.index).toEqualTypeOf<number>();
    if (s.type === 'multiple_choice') expectTypeOf(s.answer).toEqualTypeOf<OptionLetter[]>();
    if (s.type === 'scenario') expectTypeOf(s.answer).toEqualTypeOf<unknown>();
  });

  it('pins schema_version and grades any question', () => {
    expectTypeOf<QuestionSet['schema_version']>().toEqualTypeOf<'1.0.0'>();
    expectTypeOf(gradeAnswer).returns.toEqualTypeOf<Grade>();
    expectTypeOf(gradeAnswer).parameter(0).toEqualTypeOf<Question | SubQuestion>();
  });

  it('types unanswered, the counts and the unknown responses of a set grade', () => {
    expectTypeOf<'unanswered'>().toExtend<GradeStatus>();
    expectTypeOf(gradeQuestionSet).returns.toEqualTypeOf<SetGrade>();
    expectTypeOf<SetGrade['counts']>().toEqualTypeOf<Record<GradeStatus, number>>();
    expectTypeOf<SetGrade['unknown']>().toEqualTypeOf<UnknownResponse[]>();
    expectTypeOf<UnknownResponse>().toEqualTypeOf<{
      questionId: string;
      response: unknown;
      severity: 'warning';
      message: string;
    }>();
  });
});
