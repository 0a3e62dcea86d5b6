export { applyDefaults, type QuestionSetWithDefaults, type QuestionWithDefaults } from './defaults.js';
export { QuestionSetError, type QuestionSetErrorCode } from './errors.js';
export { questionSetSchema } from './generated/schema.js';
export {
  type Grade,
  type GradeOptions,
  type GradeStatus,
  gradeAnswer,
  gradeQuestionSet,
  normalizeText,
  type SetGrade,
  type UnknownResponse,
} from './grade.js';
export type {
  IssueSource,
  LocatedIssue,
  ParseResult,
  ValidateOptions,
  ValidationIssue,
  ValidationResult,
} from './issues.js';
export { type LintRule, lintQuestionSet, TYPE_CODES } from './lint.js';
export type * from './types.js';
export { assertQuestionSet, isQuestionSet, parseQuestionSet, validateQuestionSet } from './validate.js';
