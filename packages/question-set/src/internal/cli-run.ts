import { readFile, stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { glob, isDynamicPattern } from 'tinyglobby';
import type { LocatedIssue } from '../issues.js';
import { parseQuestionSet } from '../validate.js';

export const EXIT_VALID = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE_OR_IO = 2;

export interface CliIo {
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads standard input to the end (for the "-" argument). */
  readStdin: () => Promise<Buffer>;
  version: string;
}

export interface FileReport {
  file: string;
  status: 'valid' | 'invalid' | 'error';
  /** Number of questions in a valid set. */
  questions?: number;
  /** Issues (invalid) or the one IO problem (error). */
  errors: LocatedIssue[] | { message: string }[];
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_ERRORS = 50;

const USAGE = `Usage: assetloom-qs validate <files|globs|directories|-…> [options]

Validates question-set JSON files against spec 002.

Arguments:
  files, globs ("sets/**/*.json"), directories (every *.json below them), or - for standard input

Options:
  --strict            also run the strict lint (answer letters among the option keys, unique ids,
                      id prefix matches the type, sub-question indexes 1..n, set type agrees)
  --format text|json  report format (default text)
  --max-bytes N       refuse files larger than N bytes (default ${DEFAULT_MAX_BYTES})
  --max-errors N      text format: show at most N issues per file, 0 for all (default ${DEFAULT_MAX_ERRORS})
  -h, --help          show this help
  -v, --version       show the version

Exit status: 0 all files valid, 1 some file invalid, 2 usage or IO error.
`;

class UsageError extends Error {}

function positiveInt(name: string, raw: string | undefined, fallback: number, allowZero: boolean): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < (allowZero ? 0 : 1)) {
    throw new UsageError(`--${name} needs a whole number${allowZero ? '' : ' above 0'}, got "${raw}"`);
  }
  return n;
}

interface Target {
  display: string;
  path: string | null;
}

async function expandArgs(args: string[], io: CliIo, problems: FileReport[]): Promise<Target[]> {
  const targets: Target[] = [];
  const seen = new Set<string>();
  const add = (abs: string) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    targets.push({ display: relative(io.cwd, abs) || abs, path: abs });
  };
  for (const arg of args) {
    if (arg === '-') {
      targets.push({ display: '<stdin>', path: null });
      continue;
    }
    if (isDynamicPattern(arg)) {
      const found = await glob(arg, {
        cwd: io.cwd,
        absolute: true,
        onlyFiles: true,
        expandDirectories: false,
      });
      if (found.length === 0) {
        problems.push({
          file: arg,
          status: 'error',
          errors: [{ message: `no files match the pattern "${arg}"` }],
        });
      }
      for (const f of found.sort()) add(f);
      continue;
    }
    const abs = resolve(io.cwd, arg);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(abs);
    } catch (cause) {
      problems.push({ file: arg, status: 'error', errors: [{ message: ioMessage(cause, arg) }] });
      continue;
    }
    if (info.isDirectory()) {
      const found = await glob('**/*.json', {
        cwd: abs,
        absolute: true,
        onlyFiles: true,
        ignore: ['**/node_modules/**'],
      });
      if (found.length === 0) {
        problems.push({
          file: arg,
          status: 'error',
          errors: [{ message: `the directory "${arg}" holds no .json files` }],
        });
      }
      for (const f of found.sort()) add(f);
    } else {
      add(abs);
    }
  }
  return targets;
}

function ioMessage(cause: unknown, file: string): string {
  const code = (cause as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return `no such file or directory: "${file}"`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied reading "${file}"`;
    case 'EISDIR':
      return `"${file}" is a directory`;
    default:
      return `cannot read "${file}": ${cause instanceof Error ? cause.message : String(cause)}`;
  }
}

async function checkTarget(
  target: Target,
  io: CliIo,
  strict: boolean,
  maxBytes: number,
): Promise<FileReport> {
  const file = target.display;
  let bytes: Buffer;
  try {
    if (target.path === null) {
      bytes = await io.readStdin();
    } else {
      const info = await stat(target.path);
      if (!info.isFile())
        return { file, status: 'error', errors: [{ message: `"${file}" is not a regular file` }] };
      if (info.size > maxBytes) {
        return {
          file,
          status: 'error',
          errors: [
            {
              message: `"${file}" is ${info.size} bytes, above the ${maxBytes}-byte limit; raise it with --max-bytes`,
            },
          ],
        };
      }
      bytes = await readFile(target.path);
    }
  } catch (cause) {
    return { file, status: 'error', errors: [{ message: ioMessage(cause, file) }] };
  }
  if (bytes.length > maxBytes) {
    return {
      file,
      status: 'error',
      errors: [
        {
          message: `input is ${bytes.length} bytes, above the ${maxBytes}-byte limit; raise it with --max-bytes`,
        },
      ],
    };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return {
      file,
      status: 'invalid',
      errors: [
        {
          pointer: '',
          rule: 'json/encoding',
          source: 'json',
          message: 'the file is not UTF-8 text',
          line: 1,
          column: 1,
        },
      ],
    };
  }
  const result = parseQuestionSet(text, { strict });
  if (result.ok) return { file, status: 'valid', questions: result.value.questions.length, errors: [] };
  return { file, status: 'invalid', errors: result.errors };
}

function textReport(reports: FileReport[], maxErrors: number): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (r.status === 'valid') {
      lines.push(`ok    ${r.file} (${r.questions} question${r.questions === 1 ? '' : 's'})`);
    } else if (r.status === 'error') {
      for (const e of r.errors) lines.push(`error ${r.file}: ${e.message}`);
    } else {
      const issues = r.errors as LocatedIssue[];
      const shown = maxErrors === 0 ? issues : issues.slice(0, maxErrors);
      lines.push(`FAIL  ${r.file} (${issues.length} problem${issues.length === 1 ? '' : 's'})`);
      for (const e of shown) lines.push(`  ${r.file}:${e.line}:${e.column}  ${e.message}  [${e.rule}]`);
      if (shown.length < issues.length) {
        lines.push(`  … ${issues.length - shown.length} more; pass --max-errors 0 to see them all`);
      }
    }
  }
  const count = (s: FileReport['status']) => reports.filter((r) => r.status === s).length;
  lines.push(
    '',
    `${reports.length} checked: ${count('valid')} valid, ${count('invalid')} invalid, ${count('error')} unreadable`,
  );
  return `${lines.join('\n')}\n`;
}

/** Runs the CLI; returns the exit status. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        strict: { type: 'boolean', default: false },
        format: { type: 'string', default: 'text' },
        'max-bytes': { type: 'string' },
        'max-errors': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
    if (values.help) {
      io.stdout(USAGE);
      return EXIT_VALID;
    }
    if (values.version) {
      io.stdout(`${io.version}\n`);
      return EXIT_VALID;
    }
    const [command, ...files] = positionals;
    if (command === undefined) throw new UsageError('missing the command: assetloom-qs validate <files…>');
    if (command !== 'validate')
      throw new UsageError(`unknown command "${command}"; the only command is validate`);
    if (files.length === 0) throw new UsageError('name at least one file, glob or directory to validate');
    if (values.format !== 'text' && values.format !== 'json') {
      throw new UsageError(`--format must be text or json, got "${values.format}"`);
    }
    const maxBytes = positiveInt('max-bytes', values['max-bytes'], DEFAULT_MAX_BYTES, false);
    const maxErrors = positiveInt('max-errors', values['max-errors'], DEFAULT_MAX_ERRORS, true);

    const reports: FileReport[] = [];
    const targets = await expandArgs(files, io, reports);
    for (const target of targets) reports.push(await checkTarget(target, io, values.strict, maxBytes));

    const anyError = reports.some((r) => r.status === 'error');
    const anyInvalid = reports.some((r) => r.status === 'invalid');
    if (values.format === 'json') {
      io.stdout(
        `${JSON.stringify(
          {
            valid: !anyError && !anyInvalid,
            strict: values.strict,
            files: reports,
            summary: {
              checked: reports.length,
              valid: reports.filter((r) => r.status === 'valid').length,
              invalid: reports.filter((r) => r.status === 'invalid').length,
              unreadable: reports.filter((r) => r.status === 'error').length,
            },
          },
          null,
          2,
        )}\n`,
      );
    } else {
      io.stdout(textReport(reports, maxErrors));
    }
    return anyError ? EXIT_USAGE_OR_IO : anyInvalid ? EXIT_INVALID : EXIT_VALID;
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    io.stderr(`[assetloom/question-set] ${message}\n\n${USAGE}`);
    return EXIT_USAGE_OR_IO;
  }
}
