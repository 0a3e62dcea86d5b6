import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  compareV1Tags,
  ensureFerretDB,
  type FerretDBBuildOptions,
  PINNED_FERRETDB_TAG,
  parseV1Tags,
  resolveFerretDBTag,
  startFerretDB,
} from './ferretdb.js';
import { run } from './internal/process.js';

// A stand-in for the go tool: enough of `version`, `list -m -versions`, `mod download -json` and
// `build -o OUT ./cmd/ferretdb` to drive ensureFerretDB through success and every failure.
const FAKE_GO = `#!/bin/sh
case "$1" in
  version) echo "go version go1.99.0 fake/amd64" ;;
  list)
    if [ "$FAKE_GO_LIST" = fail ]; then echo "go: reading list: 403 Forbidden" >&2; exit 1; fi
    echo "$FAKE_GO_LIST" ;;
  mod)
    if [ "$FAKE_GO_MODE" = fail-download ]; then
      echo '{"Path":"github.com/FerretDB/FerretDB","Error":"module lookup disabled"}'
      echo "go: module lookup disabled" >&2; exit 1
    fi
    printf '{"Path":"github.com/FerretDB/FerretDB","Dir":"%s"}\\n' "$FAKE_GO_MODDIR" ;;
  build)
    echo build >> "$FAKE_GO_COUNT"
    sleep 0.2
    if [ "$FAKE_GO_MODE" = fail-build ]; then echo "cmd/ferretdb/main.go:1:1: syntax error: boom" >&2; exit 1; fi
    out=""; prev=""
    for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done
    v=$(cat build/version/version.txt)
    if [ "$FAKE_GO_MODE" = bad-binary ]; then
      printf '#!/bin/sh\\necho "panic: Invalid build/version/version.txt" >&2\\nexit 2\\n' > "$out"
    else
      printf '#!/bin/sh\\necho "version: %s"\\n' "$v" > "$out"
    fi
    chmod +x "$out" ;;
  *) echo "fake go: unexpected $*" >&2; exit 3 ;;
esac
`;

let dir: string;
let cacheRoot: string;
let go: string;
let counter: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assetloom-ferretdb-test-'));
  cacheRoot = join(dir, 'cache');
  go = join(dir, 'go');
  counter = join(dir, 'builds.txt');
  await writeFile(go, FAKE_GO, { mode: 0o755 });
  // A read-only module tree, like the Go module cache.
  const moduleDir = join(dir, 'mod');
  await mkdir(join(moduleDir, 'build', 'version'), { recursive: true });
  await mkdir(join(moduleDir, 'cmd', 'ferretdb'), { recursive: true });
  await writeFile(join(moduleDir, 'build', 'version', 'mongodb.txt'), '7.0.42\n');
  await writeFile(join(moduleDir, 'cmd', 'ferretdb', 'main.go'), 'package main\n');
  for (const sub of ['build/version', 'build', 'cmd/ferretdb', 'cmd', '.'])
    await chmod(join(moduleDir, sub), 0o555);
});

afterEach(async () => {
  await chmod(join(dir, 'mod'), 0o755).catch(() => undefined);
  await run('chmod', ['-R', 'u+w', dir]);
  await rm(dir, { recursive: true, force: true });
});

function options(
  mode: string,
  list = 'github.com/FerretDB/FerretDB v1.23.1 v1.24.0 v2.0.0',
): FerretDBBuildOptions {
  return {
    go,
    cacheRoot,
    env: {
      ...process.env,
      ASSETLOOM_FERRETDB_TAG: '',
      FAKE_GO_MODE: mode,
      FAKE_GO_LIST: list,
      FAKE_GO_COUNT: counter,
      FAKE_GO_MODDIR: join(dir, 'mod'),
    },
  };
}

const builds = async () =>
  (await readFile(counter, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

async function fakeCachedBinary(tag: string) {
  await mkdir(join(cacheRoot, tag), { recursive: true });
  await writeFile(join(cacheRoot, tag, 'ferretdb'), `#!/bin/sh\necho "version: ${tag}"\n`, { mode: 0o755 });
}

describe('parseV1Tags', () => {
  it.each([
    [
      'typical go list output',
      {
        given: 'github.com/FerretDB/FerretDB v0.9.0 v1.0.0 v1.9.0 v1.10.0 v1.24.0',
        want: ['v1.0.0', 'v1.9.0', 'v1.10.0', 'v1.24.0'],
      },
    ],
    ['drops pre-releases and v2', { given: 'm v1.24.0 v1.25.0-rc.1 v2.0.0 v2.7.0', want: ['v1.24.0'] }],
    [
      'unordered and repeated',
      { given: 'm v1.2.10 v1.2.9 v1.2.10\nv1.11.0', want: ['v1.2.9', 'v1.2.10', 'v1.11.0'] },
    ],
    ['no versions', { given: 'github.com/FerretDB/FerretDB', want: [] }],
    ['garbage', { given: '\u0000{not output}', want: [] }],
  ])('%s', (_name, { given, want }) => {
    expect(parseV1Tags(given)).toEqual(want);
  });

  it('orders tags numerically', () => {
    expect(['v1.10.0', 'v1.9.3', 'v1.9.10'].sort(compareV1Tags)).toEqual(['v1.9.3', 'v1.9.10', 'v1.10.0']);
  });
});

describe('resolveFerretDBTag', () => {
  it('takes the last v1 release that go list reports', async () => {
    await expect(resolveFerretDBTag(options('ok', 'm v1.9.0 v1.10.2 v1.10.10 v2.0.0'))).resolves.toEqual({
      tag: 'v1.10.10',
      source: 'go-list',
    });
  });

  it('falls back to the pinned tag when the proxy will not list, saying why', async () => {
    const resolved = await resolveFerretDBTag(options('ok', 'fail'));
    expect(resolved).toMatchObject({ tag: PINNED_FERRETDB_TAG, source: 'pinned' });
    expect(resolved.note).toContain('403 Forbidden');
  });

  it('prefers the newest cached build when the proxy will not list', async () => {
    await fakeCachedBinary('v1.3.0');
    await fakeCachedBinary('v1.20.1');
    await mkdir(join(cacheRoot, 'v1.30.0'), { recursive: true }); // no binary: not a cached build
    await expect(resolveFerretDBTag(options('ok', 'fail'))).resolves.toMatchObject({
      tag: 'v1.20.1',
      source: 'cache',
    });
  });

  it('honours ASSETLOOM_FERRETDB_TAG and refuses anything but a v1 release tag', async () => {
    const base = options('ok');
    await expect(
      resolveFerretDBTag({ ...base, env: { ...base.env, ASSETLOOM_FERRETDB_TAG: 'v1.20.0' } }),
    ).resolves.toEqual({
      tag: 'v1.20.0',
      source: 'env',
    });
    for (const bad of ['v2.0.0', 'latest', 'v1.2', '../../etc']) {
      await expect(
        resolveFerretDBTag({ ...base, env: { ...base.env, ASSETLOOM_FERRETDB_TAG: bad } }),
      ).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    }
  });
});

describe('ensureFerretDB', () => {
  it('builds once with version.txt written, then reuses the cached binary', async () => {
    const lines: string[] = [];
    const first = await ensureFerretDB({ ...options('ok'), log: (line) => lines.push(line) });
    expect(first).toMatchObject({ tag: 'v1.24.0', tagSource: 'go-list', built: true });
    expect(first.binary).toBe(join(cacheRoot, 'v1.24.0', 'ferretdb'));
    const version = await run(first.binary, ['--version']);
    expect(version.stdout.trim()).toBe('version: v1.24.0');
    expect(JSON.parse(await readFile(join(cacheRoot, 'v1.24.0', 'build.json'), 'utf8'))).toMatchObject({
      tag: 'v1.24.0',
      goVersion: 'go version go1.99.0 fake/amd64',
    });
    expect(lines.some((line) => line.startsWith('building FerretDB v1.24.0'))).toBe(true);

    const second = await ensureFerretDB(options('ok'));
    expect(second).toMatchObject({ binary: first.binary, built: false, buildMs: null });
    expect(await builds()).toBe(1);
    // Only the tag directory stays: no build directories, no lock file.
    expect(await readdir(cacheRoot)).toEqual(['v1.24.0']);
  });

  it('lets concurrent callers wait for one build instead of building twice', async () => {
    const lines: string[] = [];
    const results = await Promise.all(
      [1, 2, 3].map(() => ensureFerretDB({ ...options('ok'), log: (line) => lines.push(line) })),
    );
    expect(await builds()).toBe(1);
    expect(results.filter((result) => result.built)).toHaveLength(1);
    expect(new Set(results.map((result) => result.binary)).size).toBe(1);
    expect(lines.some((line) => line.includes('is building FerretDB v1.24.0; waiting'))).toBe(true);
  });

  it.each([
    ['go build fails', { mode: 'fail-build', step: 'go build', output: 'syntax error: boom' }],
    [
      'the module download fails',
      { mode: 'fail-download', step: 'go mod download', output: 'module lookup disabled' },
    ],
    [
      'the built binary does not run',
      { mode: 'bad-binary', step: 'ferretdb --version', output: 'panic: Invalid' },
    ],
  ])('reports go output when %s, and caches nothing', async (_name, { mode, step, output }) => {
    const error = await ensureFerretDB(options(mode)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'FERRETDB_BUILD_FAILED' });
    const message = (error as Error).message;
    expect(message).toMatch(/^\[assetloom\/testing\] building FerretDB v1\.24\.0 failed/);
    expect(message).toContain(`at "${step}"`);
    expect(message).toContain(output);
    expect(message).toContain('MONGODB_URI');
    expect(await readdir(cacheRoot)).toEqual([]);
  });

  it('says GO_MISSING when there is no go and nothing cached', async () => {
    await expect(ensureFerretDB({ ...options('ok'), go: join(dir, 'no-such-go') })).rejects.toMatchObject({
      code: 'GO_MISSING',
      message: expect.stringContaining('Install Go'),
    });
  });

  it('needs no go at all once a binary is cached', async () => {
    await fakeCachedBinary('v1.22.0');
    await expect(ensureFerretDB({ ...options('ok'), go: join(dir, 'no-such-go') })).resolves.toMatchObject({
      tag: 'v1.22.0',
      tagSource: 'cache',
      built: false,
    });
  });
});

describe('startFerretDB failures', () => {
  it('reports an early exit with what the process printed', async () => {
    const binary = join(dir, 'crashing-ferretdb');
    await writeFile(binary, '#!/bin/sh\necho "FATAL: sqlite directory is not writable" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const error = await startFerretDB(binary, { startTimeoutMs: 5_000, attempts: 1 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'FERRETDB_START_FAILED' });
    expect((error as Error).message).toContain('FATAL: sqlite directory is not writable');
    expect((error as Error).message).toContain('FerretDB exited (code 1');
  });

  it('gives up on a process that never answers ping', async () => {
    const binary = join(dir, 'silent-ferretdb');
    await writeFile(binary, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    await expect(startFerretDB(binary, { startTimeoutMs: 300, attempts: 1 })).rejects.toMatchObject({
      code: 'FERRETDB_START_FAILED',
      message: expect.stringContaining('not met within 300 ms'),
    });
  });

  it('reports a binary that does not exist', async () => {
    await expect(
      startFerretDB(join(dir, 'missing'), { startTimeoutMs: 2_000, attempts: 1 }),
    ).rejects.toMatchObject({
      code: 'FERRETDB_START_FAILED',
      message: expect.stringContaining('ENOENT'),
    });
  });
});
