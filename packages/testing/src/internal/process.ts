import { spawn } from 'node:child_process';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved, trimmed to the last `maxOutput` characters. */
  output: string;
  stdout: string;
  timedOut: boolean;
  /** Set when the program could not be started at all (ENOENT, EACCES, …). */
  spawnError?: NodeJS.ErrnoException;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  maxOutput?: number;
  /** Called with each complete line the program prints (stdout and stderr). */
  onLine?: (line: string) => void;
}

/** Runs a program to completion and never rejects: failures are described in the result. */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const maxOutput = options.maxOutput ?? 64 * 1024;
  return new Promise((resolve) => {
    let output = '';
    let stdout = '';
    let partial = '';
    let timedOut = false;
    let settled = false;
    const append = (chunk: Buffer, isStdout: boolean) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-maxOutput);
      if (isStdout) stdout = (stdout + text).slice(-maxOutput);
      if (options.onLine) {
        partial += text;
        const lines = partial.split(/\r?\n/);
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) options.onLine(line);
      }
    };
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, options.timeoutMs);
    const finish = (result: Omit<RunResult, 'output' | 'stdout' | 'timedOut'>) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      if (options.onLine && partial.trim()) options.onLine(partial);
      resolve({ ...result, output, stdout, timedOut });
    };
    child.stdout.on('data', (chunk: Buffer) => append(chunk, true));
    child.stderr.on('data', (chunk: Buffer) => append(chunk, false));
    child.once('error', (error: NodeJS.ErrnoException) =>
      finish({ code: null, signal: null, spawnError: error }),
    );
    child.once('close', (code, signal) => finish({ code, signal }));
  });
}
