import type { QuestionSet } from './types.js';

/** Where an issue comes from: the JSON text, the JSON Schema, or the opt-in strict lint. */
export type IssueSource = 'json' | 'schema' | 'lint';

/** One problem found in a question set. */
export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) to the offending value; "" is the whole document. */
  pointer: string;
  /**
   * The rule that failed. Schema rules read `<scope>.<field>/<keyword>`
   * (e.g. `question.answer/uniqueItems`, `set.schema_version/const`, `sub_question/required`);
   * lint rules read `lint/<name>`; JSON text problems read `json/<name>`.
   */
  rule: string;
  source: IssueSource;
  /** A readable sentence naming the question (index and id) and the field. */
  message: string;
  /** The id of the question the issue is in, when it has a string id. */
  questionId?: string;
}

/** An issue with its place in the JSON text (1-based line and column). */
export interface LocatedIssue extends ValidationIssue {
  line: number;
  column: number;
}

export type ValidationResult = { ok: true; value: QuestionSet } | { ok: false; errors: ValidationIssue[] };

export type ParseResult = { ok: true; value: QuestionSet } | { ok: false; errors: LocatedIssue[] };

export interface ValidateOptions {
  /** Also run the strict lint (answer letters among option keys, unique ids, id prefixes, …). */
  strict?: boolean;
}
