import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testEnv } from '../helpers.js';

/**
 * An exception nothing catches ends the process with exit code 1, as Node's default does, but
 * logged as one fatal JSON line with the stack (log shippers parse stdout as JSON lines), for the
 * API entry and the worker entry alike.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const throwLater = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'throw-later.mjs');

async function crash(entry: 'main.ts' | 'worker-main.ts', env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', throwLater, join(root, 'src', entry)],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...testEnv({ LOG_LEVEL: 'info', ...env }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  let told = false;
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    // Up: the fixture throws now (a fixed delay failed when the start took longer on a loaded machine).
    if (!told && /"msg":"(listening|worker started)"/.test(stdout)) {
      told = true;
      child.kill('SIGUSR2');
    }
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  const lines = stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, lines, stderr };
}

describe('an uncaught exception', () => {
  it('is one fatal JSON line, then exit 1 (API entry)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assetloom-crash-log-'));
    try {
      const { code, lines, stderr } = await crash('main.ts', { DATA_DIR: dir });
      expect(code).toBe(1);
      expect(lines.some((l) => l.msg === 'listening')).toBe(true);
      const fatal = lines.find((l) => l.msg === 'uncaught exception; exiting') as
        | { level: number; err: { message: string; stack: string } }
        | undefined;
      expect(fatal?.level).toBe(60);
      expect(fatal?.err.message).toBe('boom from a timer');
      expect(fatal?.err.stack).toMatch(/throw-later\.mjs/);
      expect(stderr).not.toMatch(/boom from a timer/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is one fatal JSON line, then exit 1 (worker entry)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assetloom-crash-log-'));
    try {
      const { code, lines } = await crash('worker-main.ts', { DATA_DIR: dir });
      expect(code).toBe(1);
      expect(lines.some((l) => l.msg === 'worker started')).toBe(true);
      const fatal = lines.find((l) => l.msg === 'uncaught exception; exiting') as
        | { level: number; role: string; err: { message: string } }
        | undefined;
      expect(fatal).toMatchObject({ level: 60, role: 'worker', err: { message: 'boom from a timer' } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
