import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { Ajv, addFormats } from '@modelcontextprotocol/server/validators/ajv';
import { type Language, say, type TextKey } from './messages.js';

/** One refused argument: where (`params.resolution`), what rule, and the sentence for the agent. */
export interface ArgumentProblem {
  field: string;
  rule: string;
  message: string;
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}
type Compiled = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
/** Compiled once per schema object (the tool schemas are module constants), for every server instance. */
const compiled = new WeakMap<object, Compiled>();

function compile(schema: JsonSchemaType): Compiled {
  let fn = compiled.get(schema as object);
  if (fn === undefined) {
    fn = ajv.compile(schema as object) as unknown as Compiled;
    compiled.set(schema as object, fn);
  }
  return fn;
}

/** `/params/frames/directions` → `params.frames.directions`; array items as `references[0]`. */
function fieldOf(pointer: string, child?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce(
    (out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part),
    '',
  );
}

const KNOWN = new Set<string>([
  'required',
  'additionalProperties',
  'type',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'maxProperties',
  'enum',
  'pattern',
  'propertyNames',
  'oneOf',
]);

/** Ajv's errors as one problem per field, in the agent's language, most specific first. */
export function problemsOf(errors: readonly AjvError[], language: Language): ArgumentProblem[] {
  // `taskStyle` is a map or null: a bad map also fails the null branch and the oneOf; keep the map's.
  const meaningful = errors.filter((e) => !(e.keyword === 'type' && e.params.type === 'null'));
  const out: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const error of meaningful) {
    let field = fieldOf(error.instancePath);
    let limit: unknown;
    if (error.keyword === 'required')
      field = fieldOf(error.instancePath, String(error.params.missingProperty));
    else if (error.keyword === 'additionalProperties')
      field = fieldOf(error.instancePath, String(error.params.additionalProperty));
    else if (error.keyword === 'enum') limit = (error.params.allowedValues as unknown[]).join(', ');
    else if (error.keyword === 'type') limit = error.params.type;
    else limit = error.params.limit;
    if (
      error.keyword === 'oneOf' &&
      meaningful.some((e) => e !== error && e.instancePath.startsWith(error.instancePath))
    )
      continue;
    const key = `${field}|${error.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const textKey = (KNOWN.has(error.keyword) ? error.keyword : 'invalid') as TextKey;
    out.push({
      field: field || '(arguments)',
      rule: error.keyword,
      message: say(language, textKey, { field: field || '(arguments)', limit: String(limit ?? '') }),
    });
  }
  return out;
}

/**
 * The JSON Schema validator of the tools' inputs: the MCP SDK's bundled Ajv, with messages that name
 * each refused field in the agent's language (the SDK's own are Ajv's English, `data/params/…`).
 */
export function localizedValidator(language: () => Language, tool: string): jsonSchemaValidator {
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const check = compile(schema);
      return (input: unknown) => {
        if (check(input)) return { valid: true, data: input as T, errorMessage: undefined };
        const lang = language();
        const problems = problemsOf(check.errors ?? [], lang);
        return {
          valid: false,
          data: undefined,
          errorMessage: say(lang, 'invalidArguments', {
            tool,
            problems: problems.map((p) => p.message).join(lang === 'zh' ? '；' : '; '),
          }),
        };
      };
    },
  };
}
