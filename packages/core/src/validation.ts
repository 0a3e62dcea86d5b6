import { assetApiDocument, type OpenApiDocument } from '@assetloom/openapi';
import type { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type {
  AnimateCharacterInput,
  CreateCharacterInput,
  RotateCharacterInput,
} from './characters/service.js';
import { errors, MAX_FIELD_ERRORS } from './errors.js';
import type { AllowedValue, FieldLocation, FieldProblem } from './messages.js';
import { stylePointers, styleProblems } from './styles.js';
import type {
  ChangePasswordInput,
  CreateProjectInput,
  GenerateInput,
  LoginInput,
  PageInput,
  PromptOptimizeInput,
  RegisterInput,
  StyleInput,
  UpdateProjectInput,
} from './types.js';
import type { UploadBody } from './uploads/service.js';
import type { CreateWebhookInput, UpdateWebhookInput } from './webhooks/service.js';

type Json = Record<string, unknown>;

/** What a transport hands the validator: raw path params, query, headers and the parsed body. */
export interface RawRequest {
  params?: Record<string, unknown>;
  /** A query object (values string or string[]) or URLSearchParams. */
  query?: Record<string, unknown> | URLSearchParams;
  /** Header names in any case; only the operation's declared headers are read. */
  headers?: Record<string, unknown> | Headers;
  body?: unknown;
}

/** The validated, normalized input of one operation (header names lower-cased). */
export interface ValidatedRequest<B = unknown, Q = Record<string, unknown>, P = Record<string, unknown>> {
  params: P;
  query: Q;
  headers: Record<string, string>;
  body: B;
}

type NoQuery = Record<string, never>;

/** Typed inputs of the operations the asset service consumes. */
export interface OperationInputs {
  getHealth: ValidatedRequest<undefined, NoQuery>;
  getStyleCatalog: ValidatedRequest<undefined, NoQuery>;
  getCapabilities: ValidatedRequest<undefined, NoQuery>;
  getReadiness: ValidatedRequest<undefined, NoQuery>;
  register: ValidatedRequest<RegisterInput, NoQuery>;
  login: ValidatedRequest<LoginInput, NoQuery>;
  getMe: ValidatedRequest<undefined, NoQuery>;
  changePassword: ValidatedRequest<ChangePasswordInput, NoQuery>;
  optimizePrompt: ValidatedRequest<PromptOptimizeInput, NoQuery>;
  listProjects: ValidatedRequest<undefined, PageInput>;
  createProject: ValidatedRequest<CreateProjectInput, NoQuery>;
  getProject: ValidatedRequest<undefined, NoQuery, { projectId: string }>;
  updateProject: ValidatedRequest<UpdateProjectInput, NoQuery, { projectId: string }>;
  deleteProject: ValidatedRequest<undefined, NoQuery, { projectId: string }>;
  listProjectTasks: ValidatedRequest<undefined, PageInput, { projectId: string }>;
  getProjectStyle: ValidatedRequest<undefined, NoQuery, { projectId: string }>;
  replaceProjectStyle: ValidatedRequest<StyleInput, NoQuery, { projectId: string }>;
  generate: ValidatedRequest<GenerateInput, NoQuery, Record<string, never>>;
  getTask: ValidatedRequest<undefined, NoQuery, { taskId: string }>;
  getTaskAssets: ValidatedRequest<undefined, NoQuery, { taskId: string }>;
  streamTaskProgress: ValidatedRequest<undefined, { since?: number }, { taskId: string }>;
  downloadAsset: ValidatedRequest<undefined, { key: string }>;
  getSignedFile: ValidatedRequest<undefined, { e: number; token: string }, { key: string }>;
  listWebhooks: ValidatedRequest<undefined, NoQuery, { projectId: string }>;
  createWebhook: ValidatedRequest<CreateWebhookInput, NoQuery, { projectId: string }>;
  getWebhook: ValidatedRequest<undefined, NoQuery, { projectId: string; webhookId: string }>;
  updateWebhook: ValidatedRequest<UpdateWebhookInput, NoQuery, { projectId: string; webhookId: string }>;
  deleteWebhook: ValidatedRequest<undefined, NoQuery, { projectId: string; webhookId: string }>;
  pingWebhook: ValidatedRequest<undefined, NoQuery, { projectId: string; webhookId: string }>;
  listWebhookDeliveries: ValidatedRequest<undefined, PageInput, { projectId: string; webhookId: string }>;
  /** The body is the picture's bytes as the transport read them (never validated as JSON). */
  uploadImage: ValidatedRequest<UploadBody, NoQuery>;
  getUpload: ValidatedRequest<undefined, NoQuery, { uploadId: string }>;
  deleteUpload: ValidatedRequest<undefined, NoQuery, { uploadId: string }>;
  listCharacters: ValidatedRequest<undefined, PageInput, { projectId: string }>;
  createCharacter: ValidatedRequest<CreateCharacterInput, NoQuery, { projectId: string }>;
  getCharacter: ValidatedRequest<undefined, NoQuery, { characterId: string }>;
  updateCharacter: ValidatedRequest<{ name: string }, NoQuery, { characterId: string }>;
  deleteCharacter: ValidatedRequest<undefined, NoQuery, { characterId: string }>;
  animateCharacter: ValidatedRequest<AnimateCharacterInput, NoQuery, { characterId: string }>;
  rotateCharacter: ValidatedRequest<RotateCharacterInput, NoQuery, { characterId: string }>;
  listCharacterTasks: ValidatedRequest<undefined, PageInput, { characterId: string }>;
}

export interface RequestValidator {
  /** The operationIds this validator knows. */
  readonly operations: readonly string[];
  /**
   * Validates and normalizes one request: defaults applied, query integers coerced from strings,
   * unknown body fields rejected, unknown query parameters dropped. Throws AssetloomError 400
   * 参数错误 (or 400 prompt 不能为空 for generate) with the validation errors in `details`.
   */
  validate<K extends keyof OperationInputs>(operationId: K, raw: RawRequest): OperationInputs[K];
  validate(operationId: string, raw: RawRequest): ValidatedRequest;
}

interface ParamSpec {
  name: string;
  key: string;
  required: boolean;
  schema: Json;
  kind: 'integer' | 'number' | 'boolean' | 'string' | 'other';
}

interface CompiledOperation {
  path: ParamSpec[];
  query: ParamSpec[];
  header: ParamSpec[];
  validateParams: ValidateFunction;
  validateQuery: ValidateFunction;
  validateHeaders: ValidateFunction;
  /** `styles`: where the body holds style maps (their known keys' values are checked, decision 0037). */
  body: { required: boolean; validate: ValidateFunction; styles: string[][] } | undefined;
}

const DOC_ID = 'https://assetloom.dev/openapi/asset-api.json';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep copy whose document-local `$ref`s ("#/components/...") point into the registered document. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rebase(v);
  }
  return out;
}

/** Follows a local "#/a/b" reference inside the document (for parameter and requestBody objects). */
function deref(document: OpenApiDocument, value: unknown): Json {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 16; hops++) {
    const pointer = current.$ref;
    if (!pointer.startsWith('#/')) throw new Error(`[assetloom/core] unsupported $ref ${pointer}`);
    let target: unknown = document;
    for (const raw of pointer.slice(2).split('/')) {
      const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObject(target) ? target[part] : undefined;
    }
    if (target === undefined) throw new Error(`[assetloom/core] unresolvable $ref ${pointer}`);
    current = target;
  }
  if (!isObject(current)) throw new Error('[assetloom/core] expected an object in the OpenAPI document');
  return current;
}

/** The primitive a parameter's schema expects (after following a $ref), for string coercion. */
function kindOf(document: OpenApiDocument, schema: Json): ParamSpec['kind'] {
  const resolved = typeof schema.$ref === 'string' ? deref(document, schema) : schema;
  const type = resolved.type;
  if (type === 'integer' || type === 'number' || type === 'boolean' || type === 'string') return type;
  return 'other';
}

const INTEGER_TEXT = /^-?(?:0|[1-9]\d{0,15})$/;
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Query/path text → the parameter's type; anything not cleanly convertible stays text (and fails). */
function coerce(kind: ParamSpec['kind'], value: string): unknown {
  if (kind === 'integer' && INTEGER_TEXT.test(value)) return Number(value);
  if (kind === 'number' && NUMBER_TEXT.test(value)) return Number(value);
  if (kind === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function objectSchema(specs: ParamSpec[]): Json {
  const properties: Json = {};
  for (const p of specs) properties[p.key] = rebase(p.schema);
  return {
    type: 'object',
    properties,
    required: specs.filter((p) => p.required).map((p) => p.key),
  };
}

function readQuery(query: RawRequest['query']): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (query === undefined || query === null) return out;
  if (typeof URLSearchParams !== 'undefined' && query instanceof URLSearchParams) {
    for (const [k, v] of query) out.set(k, [...(out.get(k) ?? []), v]);
    return out;
  }
  if (!isObject(query)) throw errors.invalid([{ in: 'query', path: '', rule: 'type', type: 'object' }]);
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v))
      out.set(
        k,
        v.map((x) => String(x)),
      );
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      out.set(k, [String(v)]);
    else throw errors.invalid([{ in: 'query', path: pointerOf(k), rule: 'type', type: 'string' }]);
  }
  return out;
}

function readHeader(headers: RawRequest['headers'], name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  if (!isObject(headers)) return undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== lower) continue;
    if (Array.isArray(v)) {
      if (v.length > 1) throw errors.invalid([{ in: 'header', path: pointerOf(lower), rule: 'repeated' }]);
      return v[0] === undefined ? undefined : String(v[0]);
    }
    return v === undefined || v === null ? undefined : String(v);
  }
  return undefined;
}

/** `/name` of a property or parameter name, JSON-pointer escaped (`~0` for `~`, `~1` for `/`). */
export function pointerOf(name: string): string {
  return `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

const COMPOSITE = new Set(['oneOf', 'anyOf', 'if', 'not']);
const LIMITS = new Set([
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

/** The JSON type an ajv `type` error expected (the first that is not null). */
function expectedType(type: unknown): string {
  const types = Array.isArray(type) ? type.map(String) : String(type).split(',');
  return types.find((t) => t !== 'null') ?? types[0] ?? 'string';
}

const isNullBranch = (e: ErrorObject) =>
  e.keyword === 'type' && expectedType(e.params.type) === 'null' && !String(e.params.type).includes(',');

/**
 * ajv's errors as refused fields: one per field and rule, in the order ajv found them. The `null`
 * branch of a nullable field and a composite's own error (oneOf, anyOf, if) are left out when a more
 * precise error names the same field or one under it; the inner error of a refused property name is
 * left out beside its `propertyNames` error.
 */
export function fieldProblems(
  where: FieldLocation,
  errs: readonly ErrorObject[] | null | undefined,
): FieldProblem[] {
  const all = (errs ?? []).filter((e) => (e as { propertyName?: unknown }).propertyName === undefined);
  const precise = all.filter((e) => !COMPOSITE.has(e.keyword) && !isNullBranch(e));
  const kept = all.filter((e) => {
    if (!COMPOSITE.has(e.keyword) && !isNullBranch(e)) return true;
    const under = (other: ErrorObject) =>
      other.instancePath === e.instancePath || other.instancePath.startsWith(`${e.instancePath}/`);
    return !precise.some(under);
  });
  const out: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const e of kept) {
    const params = e.params as Record<string, unknown>;
    let path = e.instancePath;
    const problem: FieldProblem = { in: where, path, rule: e.keyword };
    if (e.keyword === 'required') path += pointerOf(String(params.missingProperty));
    else if (e.keyword === 'additionalProperties') path += pointerOf(String(params.additionalProperty));
    else if (e.keyword === 'propertyNames') path += pointerOf(String(params.propertyName));
    else if (e.keyword === 'type') problem.type = expectedType(params.type);
    else if (e.keyword === 'enum') problem.allowed = params.allowedValues as AllowedValue[];
    else if (e.keyword === 'const') problem.allowed = [params.allowedValue as AllowedValue];
    else if (e.keyword === 'format') problem.format = String(params.format);
    else if (e.keyword === 'multipleOf') problem.limit = Number(params.multipleOf);
    else if (LIMITS.has(e.keyword)) problem.limit = Number(params.limit);
    else if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if' || e.keyword === 'not')
      problem.rule = 'oneOf';
    if (e.message !== undefined) problem.text = e.message;
    problem.path = path;
    // One message per field: the first rule it broke (an empty name is not also "bad format").
    const key = `${problem.in}\u0000${problem.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(problem);
    if (out.length >= MAX_FIELD_ERRORS) break;
  }
  return out.length > 0 ? out : [{ in: where, path: '', rule: 'oneOf' }];
}

function fail400(where: FieldLocation, errs: ErrorObject[] | null | undefined): never {
  throw errors.invalid(fieldProblems(where, errs), {
    where,
    errors: (errs ?? []).map((e) => ({ path: e.instancePath, keyword: e.keyword, message: e.message })),
  });
}

/**
 * Compiles (once, with ajv 2020 + ajv-formats) the request schemas of every operation of an
 * OpenAPI 3.1 document — the asset API by default — and validates requests against them. The Koa
 * server and the msw mock share it, so both answer the same 400s.
 */
export function createRequestValidator(document: OpenApiDocument = assetApiDocument): RequestValidator {
  const ajv = new Ajv2020({
    strict: false,
    // Every refused field is named at once (data.errors), not only the first; bodies are bounded
    // (bodyLimitBytes, MAX_BODY_DEPTH) and the list is cut at MAX_FIELD_ERRORS.
    allErrors: true,
    useDefaults: true,
    coerceTypes: false,
    removeAdditional: false,
    validateFormats: true,
  });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: document.components ?? {} });

  const compiled = new Map<string, CompiledOperation>();
  for (const pathItem of Object.values(document.paths ?? {})) {
    if (!isObject(pathItem)) continue;
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of HTTP_METHODS) {
      const op = pathItem[method];
      if (!isObject(op) || typeof op.operationId !== 'string') continue;
      const own = Array.isArray(op.parameters) ? op.parameters : [];
      const byKey = new Map<string, ParamSpec>();
      for (const raw of [...shared, ...own]) {
        const p = deref(document, raw);
        const location = String(p.in);
        const name = String(p.name);
        const schema = isObject(p.schema) ? p.schema : {};
        const key = location === 'header' ? name.toLowerCase() : name;
        byKey.set(`${location}:${key}`, {
          name,
          key,
          required: p.required === true,
          schema,
          kind: kindOf(document, schema),
        });
      }
      const specs = [...byKey.entries()];
      const pick = (location: string) =>
        specs.filter(([k]) => k.startsWith(`${location}:`)).map(([, v]) => v);
      const path = pick('path');
      const query = pick('query');
      const header = pick('header');

      let body: CompiledOperation['body'];
      if (op.requestBody !== undefined) {
        const rb = deref(document, op.requestBody);
        const content = isObject(rb.content) ? rb.content : {};
        const json = content['application/json'];
        const schema = isObject(json) && isObject(json.schema) ? json.schema : {};
        body = {
          required: rb.required === true,
          validate: ajv.compile(rebase(schema) as Json),
          styles: stylePointers(document, schema),
        };
      }
      compiled.set(op.operationId, {
        path,
        query,
        header,
        validateParams: ajv.compile(objectSchema(path)),
        validateQuery: ajv.compile(objectSchema(query)),
        validateHeaders: ajv.compile(objectSchema(header)),
        body,
      });
    }
  }

  function validate(operationId: string, raw: RawRequest): ValidatedRequest {
    const op = compiled.get(operationId);
    if (!op) {
      throw new Error(
        `[assetloom/core] unknown operationId "${operationId}"; use one of ${[...compiled.keys()].join(', ')}`,
      );
    }
    const request = isObject(raw) ? (raw as RawRequest) : {};

    const params: Json = {};
    const rawParams = isObject(request.params) ? request.params : {};
    for (const p of op.path) {
      const value = rawParams[p.name];
      if (value === undefined) continue;
      if (typeof value !== 'string')
        throw errors.invalid([{ in: 'path', path: pointerOf(p.name), rule: 'type', type: 'string' }]);
      params[p.key] = coerce(p.kind, value);
    }
    if (!op.validateParams(params)) fail400('path', op.validateParams.errors);

    const queryValues = readQuery(request.query);
    const query: Json = {};
    for (const p of op.query) {
      const values = queryValues.get(p.name);
      if (values === undefined || values.length === 0) continue;
      if (values.length > 1)
        throw errors.invalid([{ in: 'query', path: pointerOf(p.name), rule: 'repeated' }]);
      query[p.key] = coerce(p.kind, values[0]!);
    }
    if (!op.validateQuery(query)) fail400('query', op.validateQuery.errors);

    const headers: Json = {};
    for (const p of op.header) {
      const value = readHeader(request.headers, p.name);
      if (value !== undefined) headers[p.key] = coerce(p.kind, value);
    }
    if (!op.validateHeaders(headers)) fail400('header', op.validateHeaders.errors);

    let body: unknown = request.body;
    if (op.body) {
      if (body === undefined) {
        if (op.body.required) throw errors.invalid([{ in: 'body', path: '', rule: 'required' }]);
      } else {
        if (operationId === 'generate' && isObject(body)) {
          const prompt = body.prompt;
          if (
            prompt === undefined ||
            prompt === null ||
            (typeof prompt === 'string' && prompt.trim() === '')
          ) {
            throw errors.emptyPrompt({ body: 'prompt missing, empty or blank' });
          }
        }
        // Validate a private copy: defaults are written into it, never into the caller's object.
        body = structuredCloneJson(body);
        const valid = op.body.validate(body);
        // The known style keys' values (the contract states them in words, not in the schema).
        const styles = styleProblems(body, op.body.styles);
        if (!valid) {
          const problems = fieldProblems('body', op.body.validate.errors);
          // One entry per field: a value the schema refuses is not also named as an unread style value.
          const named = new Set(problems.map((p) => p.path));
          const more = styles.filter((p) => !named.has(p.path));
          throw errors.invalid([...problems, ...more].slice(0, MAX_FIELD_ERRORS), {
            where: 'body',
            errors: (op.body.validate.errors ?? []).map((e) => ({
              path: e.instancePath,
              keyword: e.keyword,
              message: e.message,
            })),
          });
        }
        if (styles.length > 0) throw errors.invalid(styles);
        // Params are validated here, by the contract's schema, and normalised once, by the service
        // (submitTask → normalizeParams): the validator does not repeat the service's rules.
      }
    } else {
      body = undefined;
    }
    return { params, query, headers: headers as Record<string, string>, body };
  }

  return {
    operations: [...compiled.keys()],
    validate: validate as RequestValidator['validate'],
  };
}

/** No request body of this API nests deeper than a few levels; far deeper input is refused early. */
const MAX_BODY_DEPTH = 32;

/** A JSON-only deep copy (the body came from JSON.parse or a test literal); too deep → 400. */
function structuredCloneJson(value: unknown, depth = 0): unknown {
  if (depth > MAX_BODY_DEPTH)
    throw errors.invalid([{ in: 'body', path: '', rule: 'maxDepth', limit: MAX_BODY_DEPTH }]);
  if (Array.isArray(value)) return value.map((v) => structuredCloneJson(v, depth + 1));
  if (isObject(value)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty keeps a "__proto__" key as data (it is then rejected as an unknown field).
      Object.defineProperty(out, k, {
        value: structuredCloneJson(v, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
