/**
 * The command line of the built bins (issue #32): `bin/assetloom-server.js` and
 * `bin/assetloom-worker.js` as `npx` runs them, from an empty working directory.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from './helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(root, '..');
const BINS = {
  'assetloom-server': join(root, 'bin', 'assetloom-server.js'),
  'assetloom-worker': join(root, 'bin', 'assetloom-worker.js'),
} as const;
type Bin = keyof typeof BINS;
const VERSION = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

let work: string;
let held: Server;
let heldPort: number;

beforeAll(async () => {
  // The bins run dist/: build it when its sources changed (a no-op when fresh).
  const built = spawnSync(
    process.execPath,
    [join(repo, 'scripts', 'ensure-built.mjs'), '@assetloom/server'],
    {
      cwd: repo,
      encoding: 'utf8',
    },
  );
  if (built.status !== 0) throw new Error(`ensure-built failed:\n${built.stderr}`);
  work = mkdtempSync(join(tmpdir(), 'assetloom-cli-'));
  // A port this test holds: a bin that tried to listen on it would fail with EADDRINUSE.
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  heldPort = (held.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => held.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

/** A fresh empty working directory for one run. */
function emptyDir(): string {
  return mkdtempSync(join(work, 'cwd-'));
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a bin to its exit (20 s at most: a bin that starts a server instead is killed and fails). */
function run(
  bin: Bin,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  nodeArgs: string[] = [],
): Run {
  const result = spawnSync(process.execPath, [...nodeArgs, BINS[bin], ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The environment of a user's first run: no settings but the port, which this test holds. */
function bareEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PORT: String(heldPort), METRICS_PORT: String(heldPort), ...extra };
}

describe.each(Object.keys(BINS) as Bin[])('%s', (bin) => {
  it.each(['--help', '-h'])(
    '%s prints the usage and the main settings, and exits 0 with no side effects',
    (flag) => {
      const cwd = emptyDir();
      const result = run(bin, [flag], bareEnv({ METRICS_ENABLED: 'true' }), cwd);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(`Usage: npx ${bin} [--help] [--version]`);
      for (const setting of [
        'PORT',
        'DATA_DIR',
        'PUBLIC_BASE_URL',
        'JWT_SECRET',
        'MONGODB_URI',
        'STORAGE_DRIVER=s3',
      ]) {
        expect(result.stdout).toContain(setting);
      }
      expect(result.stdout).toContain('npm install mongodb@^6');
      expect(result.stdout).toContain('README');
      // Nothing created (no ./data), nothing logged, nothing listened (the held port would have failed it).
      expect(readdirSync(cwd)).toEqual([]);
      expect(result.stdout).not.toContain('"msg"');
    },
  );

  it.each(['--version', '-v'])('%s prints the version and exits 0 with no side effects', (flag) => {
    const cwd = emptyDir();
    const result = run(bin, [flag], bareEnv(), cwd);
    expect(result).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('an unknown option exits 2 naming it and pointing to --help, with no side effects', () => {
    const cwd = emptyDir();
    const result = run(bin, ['--port', '9000'], bareEnv(), cwd);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${bin}: unknown option "--port". The server takes its settings from environment variables; see ${bin} --help.\n`,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('optional peer dependencies that are not installed', () => {
  // A resolve hook that answers for mongodb and @aws-sdk/* exactly what Node answers when a package
  // is not installed (ERR_MODULE_NOT_FOUND, "Cannot find package '<name>' imported from <file>").
  let hiddenArgs: string[];
  beforeAll(() => {
    const hooks = join(work, 'hide-hooks.mjs');
    writeFileSync(
      hooks,
      `export async function resolve(specifier, context, next) {
  if (specifier === 'mongodb' || specifier.startsWith('@aws-sdk/')) {
    const error = new Error(\`Cannot find package '\${specifier}' imported from \${context.parentURL}\`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}
`,
    );
    const register = join(work, 'hide-register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    hiddenArgs = ['--import', pathToFileURL(register).href];
  });

  it.each(Object.keys(BINS) as Bin[])(
    '%s with MONGODB_URI set names the package to install and exits 1 without a stack',
    (bin) => {
      const cwd = emptyDir();
      const env = testEnv({ MONGODB_URI: 'mongodb://127.0.0.1:9/assetloom', LOG_LEVEL: 'info' });
      const result = run(bin, [], env, cwd, hiddenArgs);
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(
        '[assetloom/server] MONGODB_URI needs the MongoDB store, but mongodb is not installed.\n' +
          'Install it beside @assetloom/server: npm install mongodb@^6.20.0\n',
      );
      expect(result.stdout).not.toContain('"stack"');
      expect(result.stdout).not.toContain('listening');
    },
  );

  it('STORAGE_DRIVER=s3 names both AWS SDK packages to install and exits 1 without a stack', () => {
    const cwd = emptyDir();
    const env = testEnv({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'assets',
      LOG_LEVEL: 'info',
      DATA_DIR: join(cwd, 'data'),
    });
    const result = run('assetloom-server', [], env, cwd, hiddenArgs);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      '[assetloom/server] STORAGE_DRIVER=s3 needs S3 object storage, but @aws-sdk/client-s3 and ' +
        '@aws-sdk/s3-request-presigner are not installed.\n' +
        'Install them beside @assetloom/server: npm install @aws-sdk/client-s3@^3.1162.0 @aws-sdk/s3-request-presigner@^3.1162.0\n',
    );
    expect(result.stdout).not.toContain('"stack"');
  });

  it('the embedded defaults start with neither mongodb nor @aws-sdk resolvable', async () => {
    const cwd = emptyDir();
    const child = spawn(process.execPath, [...hiddenArgs, BINS['assetloom-server']], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...testEnv({ LOG_LEVEL: 'info', DATA_DIR: join(cwd, 'data') }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no listening line within 20 s:\n${output}`)),
          20_000,
        );
        child.stdout.on('data', () => {
          const match = /"msg":"listening"[^\n]*"url":"([^"]+)"|"url":"([^"]+)"[^\n]*"msg":"listening"/.exec(
            output,
          );
          if (match) {
            clearTimeout(timer);
            resolve((match[1] ?? match[2]) as string);
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`exited with ${code} before listening:\n${output}`));
        });
      });
      const health = await fetch(`${url}/api/v1/health`);
      expect(health.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe('start-up errors name their real cause first', () => {
  it('a port in use says so and names PORT, before anything about the store', () => {
    const cwd = emptyDir();
    const result = run(
      'assetloom-server',
      [],
      testEnv({ PORT: String(heldPort), LOG_LEVEL: 'info', DATA_DIR: join(cwd, 'data') }),
      cwd,
    );
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      `[assetloom/server] port ${heldPort} is already in use on 127.0.0.1 (set PORT=… to a free port, or stop the process listening on 127.0.0.1:${heldPort}).`,
    ]);
    expect(result.stdout).not.toMatch(/MONGODB_URI|DATA_DIR/);
    expect(existsSync(join(cwd, 'data'))).toBe(true); // the store was opened, then closed
  });

  it("the worker's metrics port in use names METRICS_PORT", () => {
    const cwd = emptyDir();
    const result = run(
      'assetloom-worker',
      [],
      testEnv({
        METRICS_ENABLED: 'true',
        METRICS_PORT: String(heldPort),
        LOG_LEVEL: 'info',
        DATA_DIR: join(cwd, 'data'),
      }),
      cwd,
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `[assetloom/server] port ${heldPort} is already in use on 127.0.0.1 (set METRICS_PORT=… to a free port, or stop the process listening on 127.0.0.1:${heldPort}).\n`,
    );
  });
});
