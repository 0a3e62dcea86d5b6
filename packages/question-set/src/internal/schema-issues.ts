import { questionSetSchema } from '../generated/schema.js';
import type { ValidationIssue } from '../issues.js';
import {
  describeValue,
  fieldPathLabel,
  isRecord,
  plural,
  questionLabel,
  subQuestionLabel,
} from './describe.js';
import { escapePointerSegment, unescapePointerSegment } from './json-scan.js';

/** The part of an ajv error object this module reads. */
export interface AjvErrorLike {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  propertyName?: string;
  message?: string;
}

interface SchemaNode {
  $ref?: string;
  type?: string | readonly string[];
  description?: string;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  required?: readonly string[];
  allOf?: readonly { if?: { properties?: { type?: { const?: string } } }; then?: SchemaNode }[];
  const?: unknown;
  enum?: readonly unknown[];
}

const root = questionSetSchema as unknown as SchemaNode & { definitions: Record<string, SchemaNode> };

type ScopeKind = 'set' | 'question' | 'sub_question';

interface Scope {
  kind: ScopeKind;
  /** "questions[3] (mc-004)" etc.; "" for the set. */
  label: string;
  pointer: string;
  /** Segments below the scope object. */
  rest: string[];
  questionType: string | undefined;
  questionId: string | undefined;
}

const isIndex = (s: string | undefined): s is string => s !== undefined && /^(0|[1-9][0-9]*)$/.test(s);

function at(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return isIndex(key) ? value[Number(key)] : undefined;
  if (isRecord(value)) return Object.hasOwn(value, key) ? value[key] : undefined;
  return undefined;
}

function valueAt(data: unknown, segments: readonly string[]): unknown {
  let v = data;
  for (const s of segments) v = at(v, s);
  return v;
}

function resolveScope(data: unknown, segments: string[]): Scope {
  if (segments[0] === 'questions' && isIndex(segments[1])) {
    const qi = Number(segments[1]);
    const question = at(at(data, 'questions'), segments[1]);
    const questionId = isRecord(question) && typeof question.id === 'string' ? question.id : undefined;
    const rest = segments.slice(2);
    const qLabel = questionLabel(qi, question);
    if (rest[0] === 'sub_questions' && isIndex(rest[1])) {
      const sub = at(at(question, 'sub_questions'), rest[1]);
      return {
        kind: 'sub_question',
        label: `${qLabel} ${subQuestionLabel(Number(rest[1]), sub)}`,
        pointer: `/questions/${qi}/sub_questions/${rest[1]}`,
        rest: rest.slice(2),
        questionType: isRecord(sub) && typeof sub.type === 'string' ? sub.type : undefined,
        questionId,
      };
    }
    return {
      kind: 'question',
      label: qLabel,
      pointer: `/questions/${qi}`,
      rest,
      questionType: isRecord(question) && typeof question.type === 'string' ? question.type : undefined,
      questionId,
    };
  }
  return {
    kind: 'set',
    label: '',
    pointer: '',
    rest: segments,
    questionType: undefined,
    questionId: undefined,
  };
}

function definitionOf(kind: ScopeKind): SchemaNode {
  if (kind === 'set') return root;
  return root.definitions[kind === 'question' ? 'Question' : 'SubQuestion'] ?? {};
}

function typeBranch(kind: ScopeKind, questionType: string | undefined): SchemaNode | undefined {
  if (kind === 'set' || questionType === undefined) return undefined;
  return definitionOf(kind).allOf?.find((b) => b.if?.properties?.type?.const === questionType)?.then;
}

function fieldNode(scope: Scope, field: string): SchemaNode | undefined {
  return (
    typeBranch(scope.kind, scope.questionType)?.properties?.[field] ??
    definitionOf(scope.kind).properties?.[field]
  );
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** What a schema node expects, in words ("an array of strings", "a string or null", …). */
export function expectation(node: SchemaNode | undefined): string {
  if (node === undefined) return 'valid';
  if (node.$ref !== undefined) {
    const def = root.definitions[node.$ref.replace('#/definitions/', '')];
    if (def?.description !== undefined) return def.description;
    return expectation(def);
  }
  if (node.const !== undefined) return `the constant ${JSON.stringify(node.const)}`;
  if (node.enum !== undefined) return `one of ${node.enum.join(', ')}`;
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type as string];
  if (types.length === 1 && types[0] === 'array' && node.items !== undefined) {
    const item = expectation(node.items);
    if (item.startsWith('a ')) return `an array of ${item.slice(2)}s`;
    return `an array whose items are ${item}`;
  }
  if (types.length > 0) return types.map((t) => TYPE_WORDS[t] ?? t).join(' or ');
  return node.description ?? 'valid';
}

function requiredHint(scope: Scope, field: string): string {
  const branch = typeBranch(scope.kind, scope.questionType);
  if (branch?.required?.includes(field)) {
    const what = scope.kind === 'question' ? 'questions' : 'sub-questions';
    return ` (${scope.questionType} ${what} need ${branch.required.join(', ')})`;
  }
  return '';
}

const SCOPE_NOUN: Record<ScopeKind, string> = {
  set: 'the question set',
  question: 'a question',
  sub_question: 'a sub-question',
};

/**
 * Turns ajv errors into readable issues; drops ajv's bookkeeping errors ("must match then schema").
 * One value, one issue: when a value breaks several keywords at once (`5` as a `type` fails both
 * `type` and `enum`; `9.5` as a difficulty fails `type` and `maximum`), only the first ajv reports
 * is kept, because every issue on a field already says everything the field expects. Missing
 * fields are the exception: each one is its own issue, at the object that lacks it.
 */
export function schemaIssues(data: unknown, errors: readonly AjvErrorLike[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const err of errors) {
    if (err.keyword === 'if' || err.propertyName !== undefined) continue;
    const segments =
      err.instancePath === '' ? [] : err.instancePath.split('/').slice(1).map(unescapePointerSegment);
    const scope = resolveScope(data, segments);
    const prefix = scope.label === '' ? '' : `${scope.label}: `;
    let issue: ValidationIssue;
    if (err.keyword === 'required') {
      const missing = String(err.params.missingProperty ?? '');
      issue = {
        pointer: err.instancePath,
        rule: `${scope.kind}.${missing}/required`,
        source: 'schema',
        message:
          scope.kind === 'set'
            ? `the question set is missing required field "${missing}"`
            : `${prefix}missing required field "${missing}"${requiredHint(scope, missing)}`,
      };
    } else {
      const field = scope.rest[0];
      const value = valueAt(data, segments);
      let pointer = err.instancePath;
      let detail: string;
      switch (err.keyword) {
        case 'propertyNames': {
          const name = String(err.params.propertyName ?? '');
          pointer = `${err.instancePath}/${escapePointerSegment(name)}`;
          detail = `key ${JSON.stringify(name)} is not allowed`;
          break;
        }
        case 'minItems':
          detail = `got ${plural(Array.isArray(value) ? value.length : 0, 'item', 'items')}`;
          break;
        case 'minProperties':
          detail = `got ${plural(isRecord(value) ? Object.keys(value).length : 0, 'entry', 'entries')}`;
          break;
        case 'uniqueItems': {
          const j = Number(err.params.j);
          detail = `${describeValue(Array.isArray(value) ? value[j] : undefined)} appears more than once`;
          break;
        }
        default:
          detail =
            scope.rest.length > 1
              ? `${fieldPathLabel(scope.rest)} is ${describeValue(value)}`
              : `got ${describeValue(value)}`;
      }
      if (field === undefined) {
        // Only the object's own type can fail here: everything else fails on a field.
        issue = {
          pointer,
          rule: `${scope.kind}/${err.keyword}`,
          source: 'schema',
          message: `${prefix}${SCOPE_NOUN[scope.kind]} must be ${expectation(definitionOf(scope.kind))} (${detail})`,
        };
      } else {
        issue = {
          pointer,
          rule: `${scope.kind}.${field}/${err.keyword}`,
          source: 'schema',
          message: `${prefix}${field} must be ${expectation(fieldNode(scope, field))} (${detail})`,
        };
      }
    }
    if (scope.questionId !== undefined) issue.questionId = scope.questionId;
    const key = err.keyword === 'required' ? `${issue.pointer}\u0000${issue.rule}` : issue.pointer;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}
