import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { testEnv } from './helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** SIGKILL, then wait for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM, then wait for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/**
 * Spawns the real server (`src/main.ts` through tsx's loader) on 127.0.0.1 with a free port and resolves once it logs
 * `listening` (its JSON log lines on stdout are parsed as they come).
 */
export async function spawnServer(
  env: Record<string, string>,
  timeoutMs = 30_000,
  entry: 'main.ts' | 'worker-main.ts' = 'main.ts',
): Promise<ServerProcess> {
  // `node --import tsx` rather than the tsx CLI: the CLI runs the program in a child process, so a
  // SIGKILL would hit the wrapper and leave the server running.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', entry)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...testEnv({ LOG_LEVEL: 'info', ...env }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  /** The last log lines before `listening`: a start-up failure is logged (fatal) on stdout. */
  const early: string[] = [];
  const output = () => [...early, stderr].join('\n').slice(-4000);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms: ${output()}`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (early.length < 50) early.push(line);
      try {
        const record = JSON.parse(line) as { msg?: string; url?: string };
        if (record.msg === 'listening' && typeof record.url === 'string') {
          clearTimeout(timer);
          resolve(record.url);
        } else if (entry === 'worker-main.ts' && record.msg === 'worker started') {
          clearTimeout(timer);
          resolve('');
        }
      } catch {
        // not a log line
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${output()}`));
    });
  });
  return {
    child,
    url,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
