// `npx assetloom-qs` as a user runs it (issue #21: the tarball held only bin/, so it failed with
// ERR_MODULE_NOT_FOUND …/dist/cli.js).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { check } from './project-helpers.mjs';

function qs(...args) {
  const result = spawnSync('npx', ['--no-install', 'assetloom-qs', ...args], { encoding: 'utf8' });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

const valid = qs('validate', 'valid.json', '--strict');
check(valid.status === 0, `a valid set exits 0:\n${valid.out}`);
check(/ok\s+valid\.json/.test(valid.out), `the text report names the file:\n${valid.out}`);

const invalid = qs('validate', 'invalid.json', '--format', 'json');
check(invalid.status === 1, `an invalid set exits 1:\n${invalid.out}`);
check(invalid.out.includes('question.answer/type'), `the report names the failed rule:\n${invalid.out}`);

const missing = qs('validate', 'no-such-file.json');
check(missing.status === 2, `a missing file exits 2:\n${missing.out}`);

// The whole question set the package README shows is valid under --strict.
const blocks = process.env.ASSETLOOM_README_BLOCKS;
check(blocks, 'ASSETLOOM_README_BLOCKS is set by test/ecosystem/run.mjs');
const docs = readdirSync(blocks).filter((f) => f.startsWith('question-set-') && f.endsWith('.json'));
check(docs.length > 0, 'the question-set README shows a whole document');
const readme = qs('validate', '--strict', ...docs.map((f) => join(blocks, f)));
check(readme.status === 0, `the README's question set is valid:\n${readme.out}`);
console.log(`qs-cli: exit codes 0/1/2 as documented; ${docs.length} README document(s) valid`);
