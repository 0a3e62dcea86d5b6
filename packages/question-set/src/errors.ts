import type { ValidationIssue } from './issues.js';

export type QuestionSetErrorCode = 'invalid_question_set' | 'invalid_json' | 'invalid_argument';

/** The one error class of @assetloom/question-set; thrown only by the assert-style helpers. */
export class QuestionSetError extends Error {
  override readonly name = 'QuestionSetError';
  readonly code: QuestionSetErrorCode;
  readonly issues: readonly ValidationIssue[];

  constructor(
    code: QuestionSetErrorCode,
    message: string,
    options: { issues?: readonly ValidationIssue[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.issues = options.issues ?? [];
  }
}
