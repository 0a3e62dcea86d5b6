// pnpm bench: validation throughput on a 1,000-question set and cold start, against baselines
// measured in the same run (ajv compiled at run time from the same schema, and @cfworker/json-schema).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@cfworker/json-schema';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { isQuestionSet, validateQuestionSet } from '../dist/index.js';
import { makeQuestionSet } from './make-set.mjs';

const QUESTIONS = 1000;
const ROUNDS = 10;
const ROUND_MS = 400;
const COLD_RUNS = 15;

const schema = JSON.parse(
  readFileSync(new URL('../../../openapi/schemas/question-set.schema.json', import.meta.url), 'utf8'),
);
const set = makeQuestionSet(QUESTIONS);

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv, ['date-time']);
const ajvValidate = ajv.compile(schema);
const ajvFirst = new Ajv({ strict: false });
addFormats(ajvFirst, ['date-time']);
const ajvFirstValidate = ajvFirst.compile(schema);
const cfworker = new Validator(schema, '7', false);

const contenders = [
  ['@assetloom/question-set isQuestionSet (standalone ajv)', () => isQuestionSet(set)],
  ['@assetloom/question-set validateQuestionSet', () => validateQuestionSet(set).ok],
  ['ajv compiled at run time (same schema, allErrors)', () => ajvValidate(set)],
  ['ajv compiled at run time (same schema, default options)', () => ajvFirstValidate(set)],
  ['@cfworker/json-schema (draft-07)', () => cfworker.validate(set).valid],
];

for (const [name, fn] of contenders) {
  if (fn() !== true) throw new Error(`${name} rejected the bench set`);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Questions validated per second: median over rounds, rounds interleaved across contenders. */
const samples = new Map(contenders.map(([name]) => [name, []]));
for (let r = 0; r < ROUNDS; r++) {
  // Rotate who goes first each round so no contender always runs right after the same neighbour.
  const order = contenders.map((_, i) => contenders[(i + r) % contenders.length]);
  for (const [name, fn] of order) {
    let runs = 0;
    const start = performance.now();
    let now = start;
    while (now - start < ROUND_MS) {
      fn();
      runs++;
      now = performance.now();
    }
    samples.get(name).push((runs * QUESTIONS) / ((now - start) / 1000));
  }
}

const rate = Object.fromEntries([...samples].map(([name, xs]) => [name, median(xs)]));
const [lib, libFull, ajvName, ajvFirstName, cfName] = contenders.map(([name]) => name);
const fmt = (n) => Math.round(n).toLocaleString('en-US');

const { loadavg, cpus } = await import('node:os');
console.log(
  `Validation throughput, ${QUESTIONS}-question set, median of ${ROUNDS} interleaved rounds ` +
    `(Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(2)}):`,
);
for (const [name] of contenders)
  console.log(`  ${name.padEnd(60)} ${fmt(rate[name]).padStart(12)} questions/s`);
console.log(`  ratio library / runtime ajv:        ${(rate[lib] / rate[ajvName]).toFixed(2)}x (goal >= 1x)`);
console.log(`  ratio library / runtime ajv default: ${(rate[lib] / rate[ajvFirstName]).toFixed(2)}x`);
console.log(`  ratio validateQuestionSet / ajv:    ${(rate[libFull] / rate[ajvName]).toFixed(2)}x`);
console.log(`  ratio library / @cfworker:          ${(rate[lib] / rate[cfName]).toFixed(1)}x (goal >= 10x)`);

const dir = mkdtempSync(join(tmpdir(), 'qs-bench-'));
try {
  const setPath = join(dir, 'set.json');
  writeFileSync(setPath, JSON.stringify(set));
  const script = fileURLToPath(new URL('./cold-start.mjs', import.meta.url));
  const cold = (which) => {
    const runs = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      runs.push(
        Number(execFileSync(process.execPath, [script, which, setPath], { encoding: 'utf8' }).trim()),
      );
    }
    return median(runs);
  };
  const libCold = cold('library');
  const ajvCold = cold('ajv-runtime');
  console.log(
    `Cold start (import + first validation of the ${QUESTIONS}-question set), median of ${COLD_RUNS} fresh processes:`,
  );
  console.log(`  @assetloom/question-set            ${libCold.toFixed(1)} ms (goal < 30 ms)`);
  console.log(`  ajv import + compile + validate    ${ajvCold.toFixed(1)} ms`);
  console.log(`  ratio ajv / library:               ${(ajvCold / libCold).toFixed(1)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
