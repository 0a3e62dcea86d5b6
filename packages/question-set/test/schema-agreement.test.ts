/**
 * Three validators must agree on every fixture:
 *   - the precompiled standalone validator the library ships (src/generated/validate.ts),
 *   - ajv compiling the canonical openapi/schemas/question-set.schema.json at run time,
 *   - ajv compiling a schema that ts-json-schema-generator rebuilds from src/types.ts.
 * The last one keeps the TypeScript types from drifting away from the schema.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { createGenerator } from 'ts-json-schema-generator';
import { beforeAll, describe, expect, it } from 'vitest';
import { isQuestionSet, questionSetSchema } from '../src/index.js';
import { jsonCorpus } from './corpus.js';

const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const canonicalPath = fileURLToPath(
  new URL('../../../openapi/schemas/question-set.schema.json', import.meta.url),
);
const corpus = jsonCorpus();

function compile(schema: object) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv, ['date-time']);
  return ajv.compile(schema);
}

describe('canonical schema', () => {
  it('is the schema the library exports', () => {
    expect(questionSetSchema).toEqual(JSON.parse(readFileSync(canonicalPath, 'utf8')));
  });

  it('is draft-07 and names every rule with a described definition', () => {
    expect(questionSetSchema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    for (const [name, def] of Object.entries(questionSetSchema.definitions)) {
      expect(typeof (def as { description?: unknown }).description, name).toBe('string');
    }
  });

  const runtime = compile(JSON.parse(readFileSync(canonicalPath, 'utf8')) as object);
  it.each(corpus.map((c) => [c.name, c] as const))('standalone and runtime ajv agree on %s', (_, c) => {
    expect(runtime(c.value)).toBe(c.schemaValid);
    expect(isQuestionSet(c.value)).toBe(c.schemaValid);
  });
});

describe('TypeScript types (src/types.ts) match the schema', () => {
  let fromTypes: ReturnType<typeof compile>;
  beforeAll(() => {
    const schema = createGenerator({
      path: fileURLToPath(new URL('../src/types.ts', import.meta.url)),
      tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
      type: 'QuestionSet',
      additionalProperties: true,
      skipTypeCheck: true,
      topRef: false,
      expose: 'export',
    }).createSchema('QuestionSet');
    fromTypes = compile(schema);
  }, 60_000);

  it.each(corpus.map((c) => [c.name, c] as const))('the schema built from the types agrees on %s', (_, c) => {
    expect(fromTypes(c.value)).toBe(c.schemaValid);
  });
});
