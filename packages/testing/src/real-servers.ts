/**
 * The real model servers of the test suite (issue #30): ComfyUI and llama.cpp's OpenAI-compatible
 * server, installed by `bash scripts/install-real-servers.sh` (which `bootstrap.sh --test` runs) into
 * the project's `.tools/`, and started here on 127.0.0.1 and a free port, one process per start.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeError, TestingError } from './errors.js';
import { getFreePort } from './free-port.js';
import { supervise } from './internal/process.js';
import { isCI } from './mongo-target.js';
import { waitFor } from './wait-for.js';

/**
 * `comfyui`; `llama`: llama.cpp's own C++ server (the xllamacpp wheel; installed by default);
 * `llama-cpp-python`: llama-cpp-python's server (built from source, opt-in: 12 minutes on 2 cores).
 */
export type RealServerKind = 'comfyui' | 'llama' | 'llama-cpp-python';

/** What `scripts/install-real-servers.sh` left in `.tools/<kind>/`. */
export interface RealServerInstall {
  kind: RealServerKind;
  /** `.tools/<kind>` */
  dir: string;
  /** The venv's python. */
  python: string;
  /** ComfyUI: its `main.py`; llama: `scripts/real-servers/llama_server.py`. */
  entry: string;
  /** ComfyUI: the checkpoint's file name under models/checkpoints; llama: the GGUF's path. */
  model: string;
  /** The versions recorded at install time (installed.json). */
  versions: Record<string, unknown>;
}

export interface RealServerMissing {
  kind: RealServerKind;
  missing: true;
  /** What is missing and the command that installs it. */
  reason: string;
}

const INSTALL_COMMAND = 'bash scripts/install-real-servers.sh';

/** The repository root: `ASSETLOOM_ROOT`, else three folders up from this file. */
export function repositoryRoot(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.ASSETLOOM_ROOT?.trim();
  if (fromEnv) return resolve(fromEnv);
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}

/** Where the install script put a real server, or why it is not there. */
export function findRealServer(
  kind: RealServerKind,
  env: NodeJS.ProcessEnv = process.env,
): RealServerInstall | RealServerMissing {
  const root = repositoryRoot(env);
  const dir = join(root, '.tools', kind);
  const python = join(dir, 'venv', 'bin', 'python');
  let versions: Record<string, unknown> = {};
  try {
    versions = JSON.parse(readFileSync(join(dir, 'installed.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return {
      kind,
      missing: true,
      reason: `${kind} is not installed in ${dir} (no installed.json): run "${INSTALL_COMMAND} ${kind}" (bootstrap.sh --test runs it)`,
    };
  }
  const entry =
    kind === 'comfyui'
      ? join(dir, 'src', 'main.py')
      : kind === 'llama'
        ? join(root, 'scripts', 'real-servers', 'llama_server.py')
        : join(dir, 'venv', 'lib');
  // llama-cpp-python serves the GGUF that the llama part installed
  const model =
    kind === 'comfyui'
      ? String(versions.checkpoint ?? '')
      : kind === 'llama'
        ? join(dir, 'models', String(versions.model ?? ''))
        : String(versions.modelPath ?? '');
  const modelPath = kind === 'comfyui' ? join(dir, 'src', 'models', 'checkpoints', model) : model;
  for (const [what, path] of [
    ['python', python],
    ['entry', entry],
    ['model', modelPath],
  ] as const) {
    if (!existsSync(path)) {
      return {
        kind,
        missing: true,
        reason: `${kind}'s ${what} ${path} is missing: run "${INSTALL_COMMAND} ${kind}"`,
      };
    }
  }
  return { kind, dir, python, entry, model, versions };
}

/**
 * The install, or — outside CI — null with a loud warning so the suite can skip. In CI (`CI` set)
 * a missing real server throws: CI must test against it (issue #30), never skip.
 */
export function requireRealServer(
  kind: RealServerKind,
  suite: string,
  env: NodeJS.ProcessEnv = process.env,
): RealServerInstall | null {
  const found = findRealServer(kind, env);
  if (!('missing' in found)) return found;
  if (isCI(env)) {
    throw new TestingError(
      'REAL_SERVER_MISSING',
      `CI must run "${suite}" against the real ${kind} server: ${found.reason}`,
    );
  }
  console.warn(`[assetloom/testing] ⚠ SKIPPING "${suite}": ${found.reason}`);
  return null;
}

export interface RunningRealServer {
  kind: RealServerKind;
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  pid: number;
  /** Spawn-to-ready time in ms. */
  startMs: number;
  /** This start's own folder (ComfyUI: input, output, temp, user folders and the database). */
  workDir: string;
  /** The last 32 KiB the server printed. */
  output(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs` (default 5 s); removes workDir. Safe to call twice. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL now (a server dying mid-request); removes workDir. */
  kill(): Promise<void>;
}

export interface StartRealServerOptions {
  /** Give up when the server is not ready within this time (default: ComfyUI 300 s, the LLM servers 60 s). */
  startTimeoutMs?: number;
  /** Retries with a new port when the chosen one was taken meanwhile (default 3). */
  attempts?: number;
  log?: (line: string) => void;
  /** llama only: requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** ComfyUI only: extra arguments for main.py. */
  extraArgs?: string[];
  env?: NodeJS.ProcessEnv;
}

/** Ready when `url` answers 2xx (or, with `anyAnswer`, answers at all: a 401 without the key). */
async function ready(url: string, anyAnswer: boolean): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await res.arrayBuffer();
  if (!res.ok && !anyAnswer) throw new Error(`${url} answered HTTP ${res.status}`);
  return true;
}

/**
 * Starts an installed real server on 127.0.0.1 and a free port and resolves once it is ready:
 * ComfyUI when `GET /system_stats` answers (`main.py --cpu`, previews as latent2rgb so `/ws` carries
 * binary preview frames, this start's own input/output/temp/user folders and database); llama.cpp
 * when `GET /health` answers 200 (it answers 503 "Loading model" before).
 */
export async function startRealServer(
  install: RealServerInstall,
  options: StartRealServerOptions = {},
): Promise<RunningRealServer> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const startTimeoutMs = options.startTimeoutMs ?? (install.kind === 'comfyui' ? 300_000 : 60_000);
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const workDir = await mkdtemp(join(tmpdir(), `assetloom-${install.kind}-`));
    const port = await getFreePort();
    const url = `http://127.0.0.1:${port}`;
    let args: string[];
    let probe: string;
    if (install.kind === 'comfyui') {
      for (const sub of ['input', 'output', 'temp', 'user'])
        await mkdir(join(workDir, sub), { recursive: true });
      args = [
        install.entry,
        '--cpu',
        '--listen',
        '127.0.0.1',
        '--port',
        String(port),
        '--disable-auto-launch',
        '--disable-all-custom-nodes',
        '--disable-api-nodes',
        '--preview-method',
        'latent2rgb',
        '--input-directory',
        join(workDir, 'input'),
        '--output-directory',
        join(workDir, 'output'),
        '--temp-directory',
        join(workDir, 'temp'),
        '--user-directory',
        join(workDir, 'user'),
        '--database-url',
        `sqlite:///${join(workDir, 'comfyui.db')}`,
        ...(options.extraArgs ?? []),
      ];
      probe = `${url}/system_stats`;
    } else if (install.kind === 'llama') {
      args = [
        install.entry,
        '--model',
        install.model,
        '--port',
        String(port),
        '--threads',
        '2',
        ...(options.apiKey ? ['--api-key', options.apiKey] : []),
      ];
      probe = `${url}/health`;
    } else {
      args = [
        '-m',
        'llama_cpp.server',
        '--model',
        install.model,
        '--model_alias',
        'smollm2-135m-instruct',
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--n_ctx',
        '2048',
        '--n_threads',
        '2',
        ...(options.apiKey ? ['--api_key', options.apiKey] : []),
      ];
      // the model loads before uvicorn listens: any answer (a 401 without the key) means ready
      probe = `${url}/v1/models`;
    }
    const started = performance.now();
    let output = '';
    const child = spawn(install.python, ['-u', ...args], {
      cwd: install.kind === 'comfyui' ? join(install.dir, 'src') : workDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...(options.env ?? process.env),
        PYTHONUNBUFFERED: '1',
        // ComfyUI: no telemetry or update checks; both: stay on this machine
        HF_HUB_OFFLINE: '1',
        TRANSFORMERS_OFFLINE: '1',
        DO_NOT_TRACK: '1',
      },
    });
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-32 * 1024);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const { exited, bail, stop, alive } = supervise(child, {
      name: install.kind,
      program: install.python,
      dir: workDir,
    });
    try {
      await waitFor(() => Promise.race([ready(probe, install.kind === 'llama-cpp-python'), exited]), {
        timeoutMs: startTimeoutMs,
        intervalMs: 100,
        description: `${install.kind} on ${url} answering ${probe.slice(url.length)}`,
        signal: bail,
      });
    } catch (error) {
      await stop();
      lastError = new TestingError(
        'REAL_SERVER_START_FAILED',
        `${install.kind} did not start on ${url}: ${describeError(error)}${output.trim() ? `\n--- ${install.kind} output (last lines) ---\n${output.trim().split('\n').slice(-40).join('\n')}\n---` : ''}`,
        { cause: error },
      );
      if (/address already in use|error while attempting to bind/i.test(output) && attempt < attempts) {
        options.log?.(`port ${port} was taken before ${install.kind} bound it; retrying with another port`);
        continue;
      }
      throw lastError;
    }
    child.unref();
    for (const stream of [child.stdout, child.stderr])
      (stream as unknown as { unref?: () => void })?.unref?.();
    return {
      kind: install.kind,
      url,
      port,
      pid: child.pid ?? -1,
      startMs: Math.round(performance.now() - started),
      workDir,
      output: () => output,
      alive,
      stop,
      kill: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        return stop(0);
      },
    };
  }
  throw lastError;
}
