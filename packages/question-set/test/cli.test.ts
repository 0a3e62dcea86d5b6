import { execFile } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../src/internal/cli-run.js';
import { fixturesDir } from './corpus.js';

const run = promisify(execFile);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'qs-cli-'));
  mkdirSync(join(dir, 'sets/nested'), { recursive: true });
  mkdirSync(join(dir, 'empty-dir'));
  copyFileSync(join(fixturesDir, 'valid/single-choice.json'), join(dir, 'sets/good.json'));
  copyFileSync(join(fixturesDir, 'valid/scenario.json'), join(dir, 'sets/nested/good2.json'));
  copyFileSync(join(fixturesDir, 'invalid/multiple-choice-answer-duplicate.json'), join(dir, 'bad.json'));
  copyFileSync(join(fixturesDir, 'lint/duplicate-id.json'), join(dir, 'lint.json'));
  copyFileSync(join(fixturesDir, 'invalid/question-type-unknown.json'), join(dir, 'essay.json'));
  writeFileSync(join(dir, 'empty.json'), '');
  writeFileSync(join(dir, 'broken.json'), '{\n  "topic": "x",\n  "questions": [1, 2,]\n}\n');
  writeFileSync(join(dir, 'latin1.json'), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]));
  writeFileSync(join(dir, 'sets/notes.txt'), 'not json');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    cwd: dir,
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readStdin: async () => Buffer.from(stdin),
    version: '9.9.9',
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

describe('assetloom-qs validate', () => {
  it.each([
    ['valid files', 0, ['validate', 'sets/good.json']],
    ['a directory (every .json below it)', 0, ['validate', 'sets']],
    ['a glob', 0, ['validate', 'sets/**/*.json']],
    ['an invalid file', 1, ['validate', 'bad.json']],
    ['valid and invalid', 1, ['validate', 'sets', 'bad.json']],
    ['a lint problem without --strict', 0, ['validate', 'lint.json']],
    ['a lint problem with --strict', 1, ['validate', '--strict', 'lint.json']],
    ['an empty file', 1, ['validate', 'empty.json']],
    ['invalid JSON', 1, ['validate', 'broken.json']],
    ['a file that is not UTF-8', 1, ['validate', 'latin1.json']],
    ['a missing file', 2, ['validate', 'missing.json']],
    ['a missing file next to an invalid one', 2, ['validate', 'bad.json', 'missing.json']],
    ['a glob that matches nothing', 2, ['validate', 'nothing/**/*.json']],
    ['a directory without .json files', 2, ['validate', 'empty-dir']],
    ['a file over --max-bytes', 2, ['validate', '--max-bytes', '100', 'sets/good.json']],
    ['no command', 2, []],
    ['an unknown command', 2, ['check', 'a.json']],
    ['no files', 2, ['validate']],
    ['an unknown option', 2, ['validate', '--fast', 'sets']],
    ['a bad --format', 2, ['validate', '--format', 'xml', 'sets']],
    ['a bad --max-bytes', 2, ['validate', '--max-bytes', '-1', 'sets']],
    ['--help', 0, ['--help']],
  ])('%s → exit %i', async (_, want, args) => {
    expect((await cli(args)).code).toBe(want);
  });

  it('prints file:line:column, the message and the rule', async () => {
    const { stdout } = await cli(['validate', 'bad.json', 'broken.json', 'sets/good.json']);
    expect(stdout).toContain(
      'bad.json:23:7  questions[0] (mc-001): answer must be an array of unique capital letters A-Z, at least 1 ("A" appears more than once)  [question.answer/uniqueItems]',
    );
    expect(stdout).toContain(
      "broken.json:3:22  invalid JSON at line 3, column 22: trailing comma before ']' is not allowed in JSON",
    );
    expect(stdout).toMatch(/^ok {4}sets\/good\.json \(2 questions\)$/m);
    expect(stdout).toMatch(/3 checked: 1 valid, 2 invalid, 0 unreadable\n$/);
  });

  it('prints one problem for one bad type, also with --strict', async () => {
    const { code, stdout } = await cli(['validate', '--strict', 'essay.json']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAIL {2}essay\.json \(1 problem\)$/m);
    expect(stdout).toContain('[question.type/enum]');
    expect(stdout).not.toContain('lint/set-type');
  });

  it('reports IO problems without a stack trace', async () => {
    const { stdout } = await cli(['validate', 'missing.json']);
    expect(stdout).toContain('error missing.json: no such file or directory: "missing.json"');
    expect(stdout).not.toMatch(/at \w+ \(/);
  });

  it('writes a JSON report with --format json', async () => {
    const { stdout, code } = await cli([
      'validate',
      '--format',
      'json',
      '--strict',
      'lint.json',
      'sets/good.json',
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.valid).toBe(false);
    expect(report.summary).toEqual({ checked: 2, valid: 1, invalid: 1, unreadable: 0 });
    expect(report.files[0].errors[0]).toMatchObject({
      rule: 'lint/unique-id',
      pointer: '/questions/1/id',
      line: 19,
      column: 7,
    });
  });

  it('reads standard input for -', async () => {
    const text = readFileSync(join(fixturesDir, 'valid/true-false.json'), 'utf8');
    expect((await cli(['validate', '-'], text)).stdout).toContain('ok    <stdin> (2 questions)');
    expect((await cli(['validate', '-'], '{')).code).toBe(1);
  });

  it('caps the issues shown per file unless asked', async () => {
    const questions = Array.from({ length: 80 }, (_, i) => ({ id: `bad-${i}` }));
    writeFileSync(
      join(dir, 'many.json'),
      JSON.stringify({ topic: 't', type: 'true_false', schema_version: '1.0.0', questions }),
    );
    const capped = await cli(['validate', 'many.json']);
    expect(capped.stdout).toMatch(/… \d+ more; pass --max-errors 0 to see them all/);
    const all = await cli(['validate', '--max-errors', '0', 'many.json']);
    expect(all.stdout).not.toContain('more; pass');
  });

  it('validates a very large file', async () => {
    const q = JSON.parse(readFileSync(join(fixturesDir, 'valid/single-choice.json'), 'utf8')).questions[0];
    const questions = Array.from({ length: 20_000 }, (_, i) => ({
      ...q,
      id: `sc-${String(i % 1000).padStart(3, '0')}`,
    }));
    writeFileSync(
      join(dir, 'large.json'),
      JSON.stringify({ topic: 't', type: 'single_choice', schema_version: '1.0.0', questions }),
    );
    const { code, stdout } = await cli(['validate', 'large.json']);
    expect(code).toBe(0);
    expect(stdout).toContain('(20000 questions)');
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)(
    'reports an unreadable file as an IO error',
    async () => {
      writeFileSync(join(dir, 'locked.json'), '{}');
      chmodSync(join(dir, 'locked.json'), 0o000);
      const { code, stdout } = await cli(['validate', 'locked.json']);
      expect(code).toBe(2);
      expect(stdout).toContain('permission denied');
    },
  );
});

describe('the assetloom-qs executable', () => {
  const cliPath = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
  it('runs as a process and exits with the status', async () => {
    // cwd is the package, so `--import tsx` resolves; the files are given as absolute paths.
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const ok = await run(process.execPath, ['--import', 'tsx', cliPath, 'validate', join(dir, 'sets')], {
      cwd,
    });
    expect(ok.stdout).toContain('2 checked: 2 valid');
    const bad = await run(process.execPath, ['--import', 'tsx', cliPath, 'validate', join(dir, 'bad.json')], {
      cwd,
    }).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('bad.json:23:7');
    const version = await run(process.execPath, ['--import', 'tsx', cliPath, '--version'], { cwd });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 30_000);
});
