/**
 * The built server (dist/main.js) as a child process, as it is deployed: for benchmarks whose client
 * must not share the server's event loop or CPU accounting.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The settings every bench server starts with (loopback, a random port, cheap password hashing). */
export function benchServerEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    SCRYPT_COST: '10',
    REGISTER_IP_MAX: '100000',
    ...extra,
  };
}

/**
 * The generation benches' server: 4 workers, no submission limit, `threads` pipeline threads
 * (PIPELINE_THREADS: `auto`, `0`, a count).
 */
export function startGenerationServer(dataDir: string, threads: string): Promise<BuiltServer> {
  return startBuiltServer(
    benchServerEnv(dataDir, {
      WORKER_CONCURRENCY: '4',
      GENERATE_MAX_REQUESTS: '100000',
      PIPELINE_THREADS: threads,
    }),
  );
}

export interface BuiltServer {
  url: string;
  /** The server's process id (to attach tools such as strace). */
  pid: number;
  close(): Promise<void>;
}

/**
 * Starts the server's bin (bin/assetloom-server.js → dist/main.js, as deployed) with `env` (plus PATH)
 * and resolves once it logs `listening`. `dir`: another build of the server package (a checkout of
 * the code before a change, for a bench's "before" figures).
 */
export async function startBuiltServer(
  env: Record<string, string>,
  options: { dir?: string } = {},
): Promise<BuiltServer> {
  const dir = options.dir ?? serverDir;
  // This checkout's server is built first when its sources (or a package it runs) changed since
  // the last build: a bench or an eye review of a stale dist measures code that is no longer there
  // (two reviews of 2026-11-29 judged the morning's generator after the day's merges).
  if (options.dir === undefined) {
    const built = spawnSync(
      process.execPath,
      [join(serverDir, '..', 'scripts', 'ensure-built.mjs'), '@assetloom/server'],
      {
        stdio: 'inherit',
      },
    );
    if (built.status !== 0)
      throw new Error('[assetloom/server] building the server for the bench failed (see above)');
  }
  const main = join(dir, 'bin', 'assetloom-server.js');
  if (!existsSync(join(dir, 'dist', 'main.js'))) {
    throw new Error('[assetloom/server] the built server is missing (dist/main.js): run `pnpm build` first');
  }
  const child = spawn(process.execPath, [main], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start within 30 s')), 30_000);
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      try {
        const record = JSON.parse(line) as { msg?: string; url?: string };
        if (record.msg === 'listening' && record.url) {
          clearTimeout(timer);
          // From here on the logs are drained unread: parsing them would spend the client's CPU,
          // which the bench's client shares with the server on a small machine.
          lines.close();
          child.stdout?.resume();
          resolve(record.url);
        }
      } catch {
        // not a log line
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening`));
    });
  });
  return {
    url,
    pid: child.pid as number,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
