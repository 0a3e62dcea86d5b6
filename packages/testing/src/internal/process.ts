import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';

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

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

export interface Supervised {
  /** Rejects as soon as the process fails to start or exits (never resolves): race it while waiting for readiness. */
  exited: Promise<never>;
  /** Aborted with the exit's error: a `waitFor` signal. */
  bail: AbortSignal;
  /** SIGTERM, SIGKILL after `graceMs` (default 5 s), then removes `dir`. Safe to call twice. */
  stop(graceMs?: number): Promise<void>;
  alive(): boolean;
}

/**
 * Watches a spawned server: reports its exit at once, kills it (and removes its folder) if this
 * process exits without stopping it, and stops it politely, then firmly.
 */
export function supervise(
  child: ChildProcess,
  { name, program, dir }: { name: string; program: string; dir: string },
): Supervised {
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('error', (error) => reject(new Error(`cannot start ${program}: ${error.message}`)));
    child.once('exit', (code, signal) =>
      reject(new Error(`${name} exited (code ${code}, signal ${signal})`)),
    );
  });
  exited.catch(() => undefined);
  const bail = new AbortController();
  exited.catch((error: unknown) => bail.abort(error));
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const alive = () => child.exitCode === null && child.signalCode === null;
  let stopping: Promise<void> | undefined;
  return {
    exited,
    bail: bail.signal,
    alive,
    stop(graceMs = 5_000) {
      stopping ??= (async () => {
        process.removeListener('exit', killOnExit);
        if (child.pid !== undefined && alive()) {
          child.kill('SIGTERM');
          if (!(await waitForExit(child, graceMs))) {
            child.kill('SIGKILL');
            await waitForExit(child, 5_000);
          }
        }
        await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      })();
      return stopping;
    },
  };
}
