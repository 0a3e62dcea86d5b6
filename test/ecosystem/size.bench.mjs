#!/usr/bin/env node
/**
 * Size budgets (issue #21), measured on what users install: the packed tarballs installed with npm
 * into empty projects.
 *
 * - install size of @assetloom/sdk with its dependencies;
 * - install size of @assetloom/mock with its dependencies (and msw, its peer, which npm installs);
 * - the SDK's browser bundle for `createAssetClient` + `login`, tree-shaken, minified and gzipped by
 *   esbuild: goal ≤ 15 KB;
 * - install size of @assetloom/server on its embedded defaults (issue #32): no optional peer
 *   (mongodb, @aws-sdk, sharp) installed. Goal < 30 MB.
 *
 *   node test/ecosystem/size.bench.mjs [--tarballs <tarballs.json>] [--json]
 *
 * Exits 1 when a figure is over its budget. Figures go to docs/benchmarks/package-size.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { log, packAll } from './lib/pack.mjs';

const KB = 1024;
const MB = 1024 * 1024;
// The bundle goal is the issue's; the install budgets are today's figures plus headroom, so that a
// new heavy dependency shows up as a failed budget (figures: docs/benchmarks/package-size.md).
const BUDGETS = {
  sdkBundleGzip: 15 * KB,
  sdkInstall: 6 * MB,
  mockInstall: 30 * MB,
  // Issue #32's and #41's goal: 58.8 MB after the optional peers left (77.2 MB before), under 30 MB
  // since #41 (no source maps, no CommonJS builds, one resvg.wasm, fflate built in, sharp an optional peer).
  serverInstall: 30 * MB,
};
const SERVER_GOAL = 30 * MB;

const args = process.argv.slice(2);
const tarballsArg = args.includes('--tarballs') ? args[args.indexOf('--tarballs') + 1] : undefined;
const work = mkdtempSync(join(tmpdir(), 'assetloom-size-'));

function npm(cwd, ...npmArgs) {
  const result = spawnSync('npm', npmArgs, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', npm_config_update_notifier: 'false' },
  });
  if (result.status !== 0) throw new Error(`npm ${npmArgs.join(' ')} failed in ${cwd}:\n${result.stderr}`);
  return result.stdout;
}

/** Bytes and files under a directory (apparent sizes, as npm's tarball-unpacked size). */
function du(dir) {
  let bytes = 0;
  let files = 0;
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) {
        bytes += statSync(p).size;
        files += 1;
      }
    }
  };
  walk(dir);
  return { bytes, files };
}

/** Whether node_modules holds a package (or a scope) of this name. */
function present(nodeModules, name) {
  try {
    return statSync(join(nodeModules, name)).isDirectory();
  } catch {
    return false;
  }
}

/** The top-level packages of node_modules by size, largest first. */
function largest(nodeModules, count = 5) {
  const sizes = [];
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dirs = entry.name.startsWith('@')
      ? readdirSync(join(nodeModules, entry.name)).map((n) => `${entry.name}/${n}`)
      : [entry.name];
    for (const name of dirs) sizes.push({ name, bytes: du(join(nodeModules, name)).bytes });
  }
  return sizes.sort((a, b) => b.bytes - a.bytes).slice(0, count);
}

function project(name, dependencies) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `size-${name}`, private: true, type: 'module', dependencies }, null, 2),
  );
  npm(dir, 'install', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline');
  return dir;
}

const fmt = (bytes) => (bytes >= MB ? `${(bytes / MB).toFixed(2)} MB` : `${(bytes / KB).toFixed(1)} KB`);

try {
  const tarballs = tarballsArg
    ? JSON.parse(readFileSync(tarballsArg, 'utf8'))
    : packAll(join(work, 'tarballs'), {
        names: [
          '@assetloom/openapi',
          '@assetloom/drawings',
          '@assetloom/pipeline',
          '@assetloom/generator',
          '@assetloom/core',
          '@assetloom/sdk',
          '@assetloom/mock',
          '@assetloom/server',
        ],
      });
  const file = (name) => `file:${tarballs[name]}`;

  const sdkDir = project('sdk', { '@assetloom/sdk': file('@assetloom/sdk'), esbuild: '^0.27.0' });
  // esbuild is the measuring tool, not part of what a user installs: measure without it.
  const sdkModules = join(sdkDir, 'node_modules');
  const all = du(sdkModules);
  const tool = ['esbuild', '@esbuild'].map((n) => {
    try {
      return du(join(sdkModules, n));
    } catch {
      return { bytes: 0, files: 0 };
    }
  });
  const sdkInstall = {
    bytes: all.bytes - tool[0].bytes - tool[1].bytes,
    files: all.files - tool[0].files - tool[1].files,
  };

  const entry = join(sdkDir, 'entry.js');
  writeFileSync(
    entry,
    "import { createAssetClient } from '@assetloom/sdk';\n" +
      "const api = createAssetClient({ baseUrl: '' });\n" +
      "export const login = () => api.login({ username: 'ada', password: 'secret1' });\n",
  );
  const esbuild = await import(join(sdkModules, 'esbuild', 'lib', 'main.js'));
  const built = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    treeShaking: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    absWorkingDir: sdkDir,
  });
  const bundle = built.outputFiles[0].contents;
  const sdkBundle = { minified: bundle.length, gzip: gzipSync(bundle, { level: 9 }).length };

  // The workspace packages the mock and the server depend on, from their tarballs too.
  const workspaceDeps = Object.fromEntries(
    [
      '@assetloom/core',
      '@assetloom/pipeline',
      '@assetloom/generator',
      '@assetloom/drawings',
      '@assetloom/openapi',
    ].map((n) => [n, file(n)]),
  );
  const mockDir = project('mock', { '@assetloom/mock': file('@assetloom/mock'), ...workspaceDeps });
  const mockModules = join(mockDir, 'node_modules');
  const mockInstall = du(mockModules);
  const msw = du(join(mockModules, 'msw'));
  const drivers = ['mongodb', 'bson'].filter((n) => present(mockModules, n));

  const serverDir = project('server', {
    ...workspaceDeps,
    '@assetloom/server': file('@assetloom/server'),
  });
  const serverModules = join(serverDir, 'node_modules');
  const serverInstall = du(serverModules);
  const serverPeers = ['mongodb', 'bson', '@aws-sdk', '@types'].filter((n) => present(serverModules, n));
  const sharpBytes = ['sharp', '@img'].reduce(
    (sum, n) => sum + (present(serverModules, n) ? du(join(serverModules, n)).bytes : 0),
    0,
  );

  const rows = [
    ['SDK browser bundle (createAssetClient + login), min+gzip', sdkBundle.gzip, BUDGETS.sdkBundleGzip],
    ['SDK browser bundle, minified', sdkBundle.minified, undefined],
    [
      `@assetloom/sdk installed with its dependencies (${sdkInstall.files} files)`,
      sdkInstall.bytes,
      BUDGETS.sdkInstall,
    ],
    [
      `@assetloom/mock installed with its dependencies and msw (${mockInstall.files} files)`,
      mockInstall.bytes,
      BUDGETS.mockInstall,
    ],
    ['  of which msw (peer dependency)', msw.bytes, undefined],
    [
      `@assetloom/server on the embedded defaults, with its dependencies (${serverInstall.files} files)`,
      serverInstall.bytes,
      BUDGETS.serverInstall,
    ],
    ['  of which sharp and its prebuilt libvips (@img)', sharpBytes, undefined],
  ];
  let over = 0;
  console.log('\npackage sizes (what npm installs from the packed tarballs)\n');
  for (const [what, bytes, budget] of rows) {
    const verdict =
      budget === undefined
        ? ''
        : bytes <= budget
          ? `ok (budget ${fmt(budget)})`
          : `OVER budget ${fmt(budget)}`;
    if (budget !== undefined && bytes > budget) over++;
    console.log(`  ${what.padEnd(78)} ${fmt(bytes).padStart(10)}  ${verdict}`);
  }
  console.log('\n  largest packages under @assetloom/sdk:');
  for (const p of largest(sdkModules).filter((x) => !x.name.includes('esbuild'))) {
    console.log(`    ${p.name.padEnd(40)} ${fmt(p.bytes).padStart(10)}`);
  }
  console.log('\n  largest packages under @assetloom/mock:');
  for (const p of largest(mockModules)) console.log(`    ${p.name.padEnd(40)} ${fmt(p.bytes).padStart(10)}`);
  console.log('\n  largest packages under @assetloom/server:');
  for (const p of largest(serverModules, 8))
    console.log(`    ${p.name.padEnd(40)} ${fmt(p.bytes).padStart(10)}`);
  console.log(
    `\n  database drivers installed with the mock: ${drivers.length ? drivers.join(', ') : 'none'}`,
  );
  if (drivers.length) over++;
  console.log(
    `  optional peers and @types installed with the server: ${serverPeers.length ? serverPeers.join(', ') : 'none'}`,
  );
  if (serverPeers.length) over++;
  console.log(
    `  server install against issue #32's goal of ${fmt(SERVER_GOAL)}: ${
      serverInstall.bytes < SERVER_GOAL ? 'met' : `not met (${fmt(serverInstall.bytes - SERVER_GOAL)} over)`
    }`,
  );
  if (args.includes('--json')) {
    console.log(
      JSON.stringify(
        { sdkBundle, sdkInstall, mockInstall, msw, drivers, serverInstall, sharpBytes, serverPeers },
        null,
        2,
      ),
    );
  }
  process.exitCode = over ? 1 : 0;
} finally {
  rmSync(work, { recursive: true, force: true });
}
log('size bench done');
