// One cold start in a fresh process: import a validator and validate one set. Prints milliseconds.
// Usage: node cold-start.mjs library|ajv-runtime <set.json>
import { readFileSync } from 'node:fs';

const [which, setPath] = process.argv.slice(2);
const set = JSON.parse(readFileSync(setPath, 'utf8'));
const schemaUrl = new URL('../../../openapi/schemas/question-set.schema.json', import.meta.url);
const schemaText = readFileSync(schemaUrl, 'utf8');
const t0 = performance.now();
let ok;
if (which === 'library') {
  const { isQuestionSet } = await import('../dist/index.js');
  ok = isQuestionSet(set);
} else {
  const { Ajv } = await import('ajv');
  const { default: addFormats } = await import('ajv-formats');
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv, ['date-time']);
  ok = ajv.compile(JSON.parse(schemaText))(set);
}
const ms = performance.now() - t0;
if (!ok) throw new Error('the bench set must be valid');
process.stdout.write(`${ms}\n`);
