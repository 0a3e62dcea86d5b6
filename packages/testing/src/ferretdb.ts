import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  access,
  chmod,
  constants,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeError, TestingError } from './errors.js';
import { getFreePort } from './free-port.js';
import { acquireFileLock } from './internal/file-lock.js';
import { run, supervise } from './internal/process.js';
import { pingMongo } from './ping.js';
import { waitFor } from './wait-for.js';

export const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';
/**
 * The last v1 release (2024-08-28). Used when the Go module proxy will not list versions
 * (some proxies refuse the `@v/list` request) and nothing is cached yet.
 */
export const PINNED_FERRETDB_TAG = 'v1.24.0';

const V1_TAG = /^v1\.(\d+)\.(\d+)$/;

export type Log = (line: string) => void;

export interface FerretDBBuildOptions {
  /** Environment to read settings from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where binaries are cached (default `$ASSETLOOM_CACHE_DIR/ferretdb` or `${XDG_CACHE_HOME:-~/.cache}/assetloom/ferretdb`). */
  cacheRoot?: string;
  /** The go program (default `$ASSETLOOM_GO` or `go`). */
  go?: string;
  /** Build this tag instead of resolving the last v1 tag (also `$ASSETLOOM_FERRETDB_TAG`). */
  tag?: string;
  log?: Log;
  /** Kill a build that takes longer (default 30 minutes). */
  buildTimeoutMs?: number;
  /** Give up waiting for another process's build after this long (default 30 minutes). */
  lockTimeoutMs?: number;
  /** Timeout for `go list -m -versions` (default 20 s). */
  listTimeoutMs?: number;
}

export type TagSource = 'option' | 'env' | 'go-list' | 'cache' | 'pinned';

export interface ResolvedTag {
  tag: string;
  source: TagSource;
  /** Why `go list` was not used, when it was not. */
  note?: string;
}

export interface FerretDBBinary {
  binary: string;
  tag: string;
  tagSource: TagSource;
  /** True when this call built the binary; false when it was cached. */
  built: boolean;
  /** Wall time of the build in ms, when this call built it. */
  buildMs: number | null;
}

const silent: Log = () => undefined;

/** `$ASSETLOOM_CACHE_DIR/ferretdb`, else `${XDG_CACHE_HOME:-~/.cache}/assetloom/ferretdb`. */
export function ferretdbCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ASSETLOOM_CACHE_DIR?.trim()) return join(env.ASSETLOOM_CACHE_DIR.trim(), 'ferretdb');
  const base = env.XDG_CACHE_HOME?.trim() || join(homedir(), '.cache');
  return join(base, 'assetloom', 'ferretdb');
}

function tagParts(tag: string): [number, number] {
  const match = V1_TAG.exec(tag);
  return match ? [Number(match[1]), Number(match[2])] : [-1, -1];
}

/** Orders v1.MINOR.PATCH tags numerically (v1.9.0 before v1.10.0). */
export function compareV1Tags(a: string, b: string): number {
  const [aMinor, aPatch] = tagParts(a);
  const [bMinor, bPatch] = tagParts(b);
  return aMinor - bMinor || aPatch - bPatch;
}

/**
 * The release tags v1.x.y in the output of `go list -m -versions <module>`, oldest first.
 * Pre-releases, v0 and v2+ tags are left out; anything unparsable yields an empty list.
 */
export function parseV1Tags(goListOutput: string): string[] {
  const tags = new Set<string>();
  for (const word of String(goListOutput).split(/\s+/)) {
    if (V1_TAG.test(word)) tags.add(word);
  }
  return [...tags].sort(compareV1Tags);
}

export function isV1Tag(tag: string): boolean {
  return V1_TAG.test(tag);
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The v1 tags that already have a built binary in the cache, oldest first. */
export async function cachedFerretDBTags(cacheRoot: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(cacheRoot);
  } catch {
    return [];
  }
  const built: string[] = [];
  for (const entry of entries) {
    if (isV1Tag(entry) && (await isExecutable(join(cacheRoot, entry, 'ferretdb')))) built.push(entry);
  }
  return built.sort(compareV1Tags);
}

function goProgram(options: FerretDBBuildOptions): string {
  const env = options.env ?? process.env;
  return options.go ?? (env.ASSETLOOM_GO?.trim() || 'go');
}

/**
 * Which FerretDB tag to use: an explicit option or `$ASSETLOOM_FERRETDB_TAG`, else the last v1 tag
 * that `go list -m -versions` reports, else (when the proxy cannot list) the newest cached build,
 * else the pinned last v1 release.
 */
export async function resolveFerretDBTag(options: FerretDBBuildOptions = {}): Promise<ResolvedTag> {
  const env = options.env ?? process.env;
  const explicit = options.tag ?? env.ASSETLOOM_FERRETDB_TAG?.trim();
  if (explicit) {
    if (!isV1Tag(explicit)) {
      throw new TestingError(
        'INVALID_ARGUMENT',
        `FerretDB tag ${JSON.stringify(explicit)} is not a v1 release tag (v1.MINOR.PATCH). FerretDB v2 needs PostgreSQL with DocumentDB; pick a v1 tag or unset ASSETLOOM_FERRETDB_TAG.`,
      );
    }
    return { tag: explicit, source: options.tag ? 'option' : 'env' };
  }
  const listed = await run(goProgram(options), ['list', '-m', '-versions', FERRETDB_MODULE], {
    env,
    cwd: tmpdir(),
    timeoutMs: options.listTimeoutMs ?? 20_000,
  });
  let note: string;
  if (listed.spawnError) {
    note = `go is not available (${listed.spawnError.message})`;
  } else if (listed.timedOut) {
    note = 'go list timed out';
  } else if (listed.code !== 0) {
    note = `go list failed: ${listed.output.trim().split('\n').slice(0, 2).join(' ')}`;
  } else {
    const tags = parseV1Tags(listed.stdout);
    const last = tags.at(-1);
    if (last) return { tag: last, source: 'go-list' };
    note = 'go list reported no v1 release tags';
  }
  const cacheRoot = options.cacheRoot ?? ferretdbCacheRoot(env);
  const cached = (await cachedFerretDBTags(cacheRoot)).at(-1);
  if (cached) return { tag: cached, source: 'cache', note };
  return { tag: PINNED_FERRETDB_TAG, source: 'pinned', note };
}

async function makeTreeWritable(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await makeTreeWritable(path);
    else if (entry.isFile()) await chmod(path, 0o644);
  }
}

function buildFailed(tag: string, step: string, output: string, cause?: unknown): TestingError {
  const shown = output.trim()
    ? `\n--- go output ---\n${output.trim()}\n--- end of go output ---\n`
    : ' (no output) ';
  return new TestingError(
    'FERRETDB_BUILD_FAILED',
    `building FerretDB ${tag} failed at "${step}".${shown}Check that Go ≥ 1.22 and the Go module proxy are reachable (GOPROXY), or set MONGODB_URI to an existing MongoDB.`,
    { cause },
  );
}

/**
 * Makes sure a FerretDB v1 binary for the resolved tag is in the cache and returns its path.
 * Builds it on first use: downloads the module through the Go module proxy, writes the
 * build/version/version.txt that release builds carry (without it the binary panics at start),
 * and compiles ./cmd/ferretdb with CGO off (the SQLite backend is pure Go). A lock file keeps two
 * processes from building at once; the binary is moved into place only once it runs.
 */
export async function ensureFerretDB(options: FerretDBBuildOptions = {}): Promise<FerretDBBinary> {
  const env = options.env ?? process.env;
  const log = options.log ?? silent;
  const cacheRoot = options.cacheRoot ?? ferretdbCacheRoot(env);
  const resolved = await resolveFerretDBTag({ ...options, cacheRoot });
  const { tag } = resolved;
  if (resolved.note) log(`FerretDB tag ${tag} (${resolved.source}); ${resolved.note}`);
  const dir = join(cacheRoot, tag);
  const binary = join(dir, 'ferretdb');
  const cached = (): FerretDBBinary => ({
    binary,
    tag,
    tagSource: resolved.source,
    built: false,
    buildMs: null,
  });
  if (await isExecutable(binary)) return cached();

  const go = goProgram(options);
  const version = await run(go, ['version'], { env, timeoutMs: 30_000 });
  if (version.spawnError || version.code !== 0) {
    throw new TestingError(
      'GO_MISSING',
      `cannot build FerretDB: "${go} version" failed (${version.spawnError?.message ?? version.output.trim()}). Install Go ≥ 1.22 (or set ASSETLOOM_GO to its path), or set MONGODB_URI to an existing MongoDB.`,
      { cause: version.spawnError },
    );
  }
  const goVersion = version.stdout.trim();

  const lock = await acquireFileLock(join(cacheRoot, `${tag}.lock`), {
    timeoutMs: options.lockTimeoutMs ?? 30 * 60_000,
    onWait: (holder) => log(`another process (${holder}) is building FerretDB ${tag}; waiting for it…`),
  });
  const work = join(cacheRoot, `.build-${tag}-${process.pid}-${randomBytes(4).toString('hex')}`);
  const started = performance.now();
  const heartbeat = setInterval(() => {
    log(`still building FerretDB ${tag} (${Math.round((performance.now() - started) / 1000)} s)…`);
  }, 20_000);
  heartbeat.unref();
  try {
    if (await isExecutable(binary)) return cached();
    log(`building FerretDB ${tag} with ${goVersion} into ${dir} (once; later runs reuse it)…`);
    const goEnv: NodeJS.ProcessEnv = { ...env, CGO_ENABLED: '0', GOFLAGS: '-mod=readonly' };
    const timeoutMs = options.buildTimeoutMs ?? 30 * 60_000;

    log(`downloading ${FERRETDB_MODULE}@${tag} through the Go module proxy…`);
    const download = await run(go, ['mod', 'download', '-json', `${FERRETDB_MODULE}@${tag}`], {
      env: goEnv,
      cwd: tmpdir(),
      timeoutMs,
    });
    let moduleDir: string | undefined;
    try {
      const parsed = JSON.parse(download.stdout) as { Dir?: unknown; Error?: unknown };
      if (typeof parsed.Error === 'string') throw new Error(parsed.Error);
      if (typeof parsed.Dir === 'string') moduleDir = parsed.Dir;
    } catch (error) {
      throw buildFailed(tag, 'go mod download', download.output || describeError(error), error);
    }
    if (download.code !== 0 || !moduleDir) throw buildFailed(tag, 'go mod download', download.output);

    const src = join(work, 'src');
    await mkdir(work, { recursive: true });
    await cp(moduleDir, src, { recursive: true });
    await makeTreeWritable(src);
    await writeFile(join(src, 'build', 'version', 'version.txt'), `${tag}\n`);
    await writeFile(join(src, 'build', 'version', 'package.txt'), 'assetloom-test\n');

    log('compiling ./cmd/ferretdb (go build; about 70 s on 2 cores with empty Go caches)…');
    const output = join(work, 'ferretdb');
    const build = await run(go, ['build', '-trimpath', '-buildvcs=false', '-o', output, './cmd/ferretdb'], {
      env: goEnv,
      cwd: src,
      timeoutMs,
      onLine: (line) => log(`go: ${line.replace(/^go: /, '')}`),
    });
    if (build.timedOut) throw buildFailed(tag, `go build (killed after ${timeoutMs} ms)`, build.output);
    if (build.spawnError || build.code !== 0)
      throw buildFailed(tag, 'go build', build.output, build.spawnError);

    const check = await run(output, ['--version'], { timeoutMs: 30_000 });
    if (check.code !== 0 || !check.stdout.includes(`version: ${tag}`)) {
      throw buildFailed(tag, 'ferretdb --version', check.output, check.spawnError);
    }
    await mkdir(dir, { recursive: true });
    await rename(output, binary);
    const buildMs = Math.round(performance.now() - started);
    await writeFile(
      join(dir, 'build.json'),
      `${JSON.stringify({ tag, tagSource: resolved.source, goVersion, builtAt: new Date().toISOString(), buildMs }, null, 2)}\n`,
    );
    log(`built FerretDB ${tag} in ${(buildMs / 1000).toFixed(1)} s: ${binary}`);
    return { binary, tag, tagSource: resolved.source, built: true, buildMs };
  } finally {
    clearInterval(heartbeat);
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
    await lock.release();
  }
}

export interface StartFerretDBOptions {
  /** Give up when FerretDB does not answer `ping` within this time (default 30 s). */
  startTimeoutMs?: number;
  /** Retries with a new port when the chosen port was taken meanwhile (default 3 attempts). */
  attempts?: number;
  log?: Log;
}

export interface RunningFerretDB {
  uri: string;
  port: number;
  pid: number;
  dataDir: string;
  /** Spawn-to-ping time in ms. */
  startMs: number;
  /** The last lines FerretDB printed. */
  output(): string;
  /** Stops FerretDB (SIGTERM, then SIGKILL after 5 s) and deletes its data directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** Resolves once something accepts a TCP connection on 127.0.0.1:`port`. */
function tcpConnect(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', (error) => {
      socket.destroy();
      reject(error);
    });
  });
}

/**
 * Starts `binary` with the SQLite handler in a fresh temporary directory, on 127.0.0.1 and a free
 * port, telemetry and the debug HTTP listener off, and resolves once it answers `ping`.
 */
export async function startFerretDB(
  binary: string,
  options: StartFerretDBOptions = {},
): Promise<RunningFerretDB> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  let lastError: TestingError | undefined;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const dataDir = await mkdtemp(join(tmpdir(), 'assetloom-ferretdb-'));
    const port = await getFreePort();
    const uri = `mongodb://127.0.0.1:${port}/?directConnection=true`;
    const started = performance.now();
    let output = '';
    const child = spawn(
      binary,
      [
        '--handler=sqlite',
        `--sqlite-url=file:${dataDir}/`,
        `--state-dir=${dataDir}`,
        `--listen-addr=127.0.0.1:${port}`,
        '--telemetry=disable',
        '--debug-addr=-',
        '--log-level=warn',
        '--no-log-uuid',
      ],
      {
        cwd: dataDir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, FERRETDB_TELEMETRY: 'disable' },
      },
    );
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-16 * 1024);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    // reports a crash at once, and kills FerretDB if this process exits without stopping it
    const { exited, bail, stop } = supervise(child, { name: 'FerretDB', program: binary, dir: dataDir });

    try {
      await waitFor(
        async () => {
          // A plain TCP probe first: the driver waits ~500 ms between server checks after a refusal.
          await Promise.race([tcpConnect(port), exited]);
          const ping = await Promise.race([pingMongo(uri, 2_000), exited]);
          if (!ping.ok) throw new Error(ping.error);
          return true;
        },
        {
          timeoutMs: startTimeoutMs,
          intervalMs: 25,
          description: `FerretDB on 127.0.0.1:${port} answering ping`,
          signal: bail,
        },
      );
    } catch (error) {
      await stop();
      const portTaken = /address already in use/i.test(output);
      lastError = new TestingError(
        'FERRETDB_START_FAILED',
        `FerretDB (${binary}) did not start on 127.0.0.1:${port}: ${describeError(error)}${output.trim() ? `\n--- FerretDB output ---\n${output.trim()}\n---` : ''}\nDelete the cached binary to rebuild it, or set MONGODB_URI to an existing MongoDB.`,
        { cause: error },
      );
      if (portTaken && attempt < attempts) {
        options.log?.(`port ${port} was taken before FerretDB bound it; retrying with another port`);
        continue;
      }
      throw lastError;
    }
    child.unref();
    for (const stream of [child.stdout, child.stderr])
      (stream as unknown as { unref?: () => void })?.unref?.();
    return {
      uri,
      port,
      pid: child.pid ?? -1,
      dataDir,
      startMs: Math.round(performance.now() - started),
      output: () => output,
      stop,
    };
  }
  throw lastError ?? new TestingError('FERRETDB_START_FAILED', 'FerretDB did not start');
}
