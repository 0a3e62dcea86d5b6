/**
 * TypeScript types of a question set (spec 002). They mirror
 * openapi/schemas/question-set.schema.json; the JSDoc tags (@pattern, @minimum, …) let
 * ts-json-schema-generator rebuild a schema from these types, and test/types-drift.test.ts checks
 * that the rebuilt schema and the canonical one agree on every fixture, so the two cannot drift apart.
 */

/** The seven question types. */
export type QuestionType =
  | 'single_choice'
  | 'multiple_choice'
  | 'true_false'
  | 'fill_blank'
  | 'short_answer'
  | 'code_reading'
  | 'scenario';

/** How a fill_blank answer list is matched (design.md section 3). */
export type AnswerRule = 'any' | 'all' | 'ordered';

/** One capital letter A-Z: an option key. */
export type OptionLetter =
  | 'A'
  | 'B'
  | 'C'
  | 'D'
  | 'E'
  | 'F'
  | 'G'
  | 'H'
  | 'I'
  | 'J'
  | 'K'
  | 'L'
  | 'M'
  | 'N'
  | 'O'
  | 'P'
  | 'Q'
  | 'R'
  | 'S'
  | 'T'
  | 'U'
  | 'V'
  | 'W'
  | 'X'
  | 'Y'
  | 'Z';

/**
 * Choices keyed by one capital letter, with string values; no other keys.
 * @propertyNames {"pattern": "^[A-Z]$"}
 */
export type Options = { [K in OptionLetter]?: string };

/**
 * Choices of a single_choice or multiple_choice question: at least 2 entries.
 * @minProperties 2
 * @propertyNames {"pattern": "^[A-Z]$"}
 */
export type ChoiceOptions = { [K in OptionLetter]?: string };

/**
 * A type code, a hyphen and three digits, e.g. "mc-004".
 * @pattern ^(sc|mc|tf|fb|sa|cr|sn)-[0-9]{3}$
 */
export type QuestionId = string;

/** Difficulty, an integer from 1 to 5. */
export type Difficulty = 1 | 2 | 3 | 4 | 5;

/**
 * An RFC 3339 date-time with a time zone.
 * @format date-time
 */
export type DateTimeString = string;

/**
 * Multiple-choice answer: unique letters, at least 1.
 * @minItems 1
 * @uniqueItems true
 */
export type MultipleChoiceAnswer = OptionLetter[];

/**
 * Fill-blank answer: at least 1 string.
 * @minItems 1
 */
export type FillBlankAnswer = string[];

/** Fields every question has, whatever its type. */
export interface QuestionBase {
  id: QuestionId;
  type: QuestionType;
  difficulty: Difficulty;
  tags: string[];
  question: string;
  explanation: string;
  /** @default null */
  source?: string | null;
  /** @default [] */
  related?: string[];
  /** Object of choices; constrained for choice types only. */
  options?: unknown;
  /** Shape depends on the type. */
  answer?: unknown;
  /** @default "any" */
  answer_rule?: AnswerRule;
  keywords?: string[];
  scoring_rubric?: string;
  code?: string | null;
  language?: string;
  context?: string;
  sub_questions?: SubQuestion[];
}

export interface SingleChoiceQuestion extends QuestionBase {
  type: 'single_choice';
  options: ChoiceOptions;
  answer: OptionLetter;
}

export interface MultipleChoiceQuestion extends QuestionBase {
  type: 'multiple_choice';
  options: ChoiceOptions;
  answer: MultipleChoiceAnswer;
}

export interface TrueFalseQuestion extends QuestionBase {
  type: 'true_false';
  answer: boolean;
}

export interface FillBlankQuestion extends QuestionBase {
  type: 'fill_blank';
  answer: FillBlankAnswer;
}

export interface ShortAnswerQuestion extends QuestionBase {
  type: 'short_answer';
  answer: string;
}

export interface CodeReadingQuestion extends QuestionBase {
  type: 'code_reading';
  code: string;
  language: string;
  /** @minItems 1 */
  sub_questions: SubQuestion[];
}

export interface ScenarioQuestion extends QuestionBase {
  type: 'scenario';
  context: string;
  /** @minItems 1 */
  sub_questions: SubQuestion[];
}

/** A question, discriminated by `type`. */
export type Question =
  | SingleChoiceQuestion
  | MultipleChoiceQuestion
  | TrueFalseQuestion
  | FillBlankQuestion
  | ShortAnswerQuestion
  | CodeReadingQuestion
  | ScenarioQuestion;

/** Fields every sub-question has, whatever its type. */
export interface SubQuestionBase {
  /**
   * Position of the sub-question, from 1.
   * @asType integer
   * @minimum 1
   */
  index: number;
  type: QuestionType;
  question: string;
  explanation: string;
  answer: unknown;
  options?: Options;
  keywords?: string[];
  scoring_rubric?: string;
}

export interface SingleChoiceSubQuestion extends SubQuestionBase {
  type: 'single_choice';
  options: ChoiceOptions;
  answer: OptionLetter;
}

export interface MultipleChoiceSubQuestion extends SubQuestionBase {
  type: 'multiple_choice';
  options: ChoiceOptions;
  answer: MultipleChoiceAnswer;
}

export interface TrueFalseSubQuestion extends SubQuestionBase {
  type: 'true_false';
  answer: boolean;
}

export interface FillBlankSubQuestion extends SubQuestionBase {
  type: 'fill_blank';
  answer: FillBlankAnswer;
}

export interface ShortAnswerSubQuestion extends SubQuestionBase {
  type: 'short_answer';
  answer: string;
}

/** code_reading and scenario sub-questions add no rules: their answer may be any JSON value. */
export interface OpenSubQuestion extends SubQuestionBase {
  type: 'code_reading' | 'scenario';
  answer: unknown;
}

/** A sub-question of a code_reading or scenario question, discriminated by `type`. */
export type SubQuestion =
  | SingleChoiceSubQuestion
  | MultipleChoiceSubQuestion
  | TrueFalseSubQuestion
  | FillBlankSubQuestion
  | ShortAnswerSubQuestion
  | OpenSubQuestion;

/** A question set: one JSON document holding questions on one topic. */
export interface QuestionSet {
  /** Topic slug. */
  topic: string;
  type: QuestionType;
  schema_version: '1.0.0';
  generated?: DateTimeString;
  questions: Question[];
}
