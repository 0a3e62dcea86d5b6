import { QuestionSetError } from './errors.js';
import { validate as validateSchema } from './generated/validate.js';
import { LineIndex, scanJson } from './internal/json-scan.js';
import { type AjvErrorLike, schemaIssues } from './internal/schema-issues.js';
import type {
  LocatedIssue,
  ParseResult,
  ValidateOptions,
  ValidationIssue,
  ValidationResult,
} from './issues.js';
import { lintIssues } from './lint.js';
import type { QuestionSet } from './types.js';

type CompiledValidator = ((data: unknown) => boolean) & { errors?: AjvErrorLike[] | null };
const compiled = validateSchema as CompiledValidator;

/** True when `value` satisfies the schema (no strict lint). The fastest check; no issues are built. */
export function isQuestionSet(value: unknown): value is QuestionSet {
  return compiled(value);
}

/**
 * Validates a parsed value against spec 002 (and, with `{ strict: true }`, the strict lint).
 * Never throws; on failure every issue has a JSON Pointer, the failed rule and a readable message.
 */
export function validateQuestionSet(value: unknown, options: ValidateOptions = {}): ValidationResult {
  const errors: ValidationIssue[] = [];
  if (!compiled(value)) errors.push(...schemaIssues(value, compiled.errors ?? []));
  if (options.strict === true) errors.push(...lintIssues(value, rejectedBy(errors)));
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: value as QuestionSet };
}

/**
 * `rejected(pointer)`: true when a schema issue sits at `pointer` or below it. The lint skips such
 * values, so one problem yields one issue (see lintIssues).
 */
function rejectedBy(schemaErrors: readonly ValidationIssue[]): (pointer: string) => boolean {
  if (schemaErrors.length === 0) return () => false;
  const covered = new Set<string>();
  for (const { pointer } of schemaErrors) {
    for (let p = pointer; p !== '' && !covered.has(p); p = p.slice(0, p.lastIndexOf('/'))) covered.add(p);
  }
  return (pointer) => covered.has(pointer);
}

/** Like validateQuestionSet but throws a QuestionSetError (code "invalid_question_set") listing the issues. */
export function assertQuestionSet(
  value: unknown,
  options: ValidateOptions = {},
): asserts value is QuestionSet {
  const result = validateQuestionSet(value, options);
  if (!result.ok) {
    const shown = result.errors.slice(0, 5).map((e) => `  - ${e.message}`);
    const more = result.errors.length > 5 ? [`  … and ${result.errors.length - 5} more`] : [];
    throw new QuestionSetError(
      'invalid_question_set',
      [
        `[assetloom/question-set] the question set is invalid (${result.errors.length} issue(s)); fix these and validate again:`,
        ...shown,
        ...more,
      ].join('\n'),
      { issues: result.errors },
    );
  }
}

/**
 * Parses JSON text and validates it. Every issue carries line:column (1-based); invalid JSON is
 * reported once, at the place the text breaks. A leading byte-order mark is ignored. Never throws.
 */
export function parseQuestionSet(text: string, options: ValidateOptions = {}): ParseResult {
  if (typeof text !== 'string') {
    return {
      ok: false,
      errors: [
        {
          pointer: '',
          rule: 'json/input',
          source: 'json',
          message: `expected JSON text as a string, got ${text === null ? 'null' : typeof text}; use validateQuestionSet for parsed values`,
          line: 1,
          column: 1,
        },
      ],
    };
  }
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const body = bom === 1 ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (cause) {
    return { ok: false, errors: [syntaxIssue(text, body, bom, cause)] };
  }
  const result = validateQuestionSet(value, options);
  if (result.ok) return result;
  return { ok: false, errors: locateIssues(text, body, bom, result.errors) };
}

function syntaxIssue(text: string, body: string, bom: number, cause: unknown): LocatedIssue {
  if (body.trim() === '') {
    return {
      pointer: '',
      rule: 'json/empty',
      source: 'json',
      message: 'the file is empty: expected a JSON question set object',
      line: 1,
      column: 1,
    };
  }
  const scanned = scanJson(body, new Set());
  let offset: number;
  let reason: string;
  if (scanned.error !== undefined) {
    offset = scanned.error.offset;
    reason = scanned.error.message;
  } else {
    // The scanner accepted what JSON.parse rejected: fall back to V8's own position.
    const m = /position (\d+)/.exec(String(cause));
    offset = m === null ? 0 : Number(m[1]);
    reason = cause instanceof Error ? cause.message : String(cause);
  }
  const { line, column } = new LineIndex(text).position(offset + bom);
  return {
    pointer: '',
    rule: 'json/syntax',
    source: 'json',
    message: `invalid JSON at line ${line}, column ${column}: ${reason}`,
    line,
    column,
  };
}

function locateIssues(text: string, body: string, bom: number, issues: ValidationIssue[]): LocatedIssue[] {
  const wanted = new Set<string>();
  for (const issue of issues) {
    for (let p = issue.pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
      wanted.add(p);
      if (p === '') break;
    }
  }
  const { positions } = scanJson(body, wanted);
  const lines = new LineIndex(text);
  const located = issues.map((issue, order) => {
    // A pointer that names a missing member falls back to its nearest existing parent.
    let p = issue.pointer;
    let offset = positions.get(p);
    while (offset === undefined && p !== '') {
      p = p.slice(0, p.lastIndexOf('/'));
      offset = positions.get(p);
    }
    const at = (offset ?? 0) + bom;
    return { issue: { ...issue, ...lines.position(at) }, at, order };
  });
  // Report in reading order, like a compiler.
  located.sort((a, b) => a.at - b.at || a.order - b.order);
  return located.map((l) => l.issue);
}
