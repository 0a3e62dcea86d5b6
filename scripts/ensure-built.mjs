#!/usr/bin/env node
/**
 * Builds workspace packages only when their inputs changed since their last build.
 *
 *   node scripts/ensure-built.mjs                      every package that has a build script
 *   node scripts/ensure-built.mjs --deps-of <name>     the workspace packages <name> needs at run time (transitively)
 *   node scripts/ensure-built.mjs <name> [<name> …]    these packages and what they need at run time
 *   add --check to only report what is stale (exit 1 when anything is)
 *
 * A package is fresh when (a) the hash of its inputs (its files outside dist/, node_modules/ and tests,
 * the lockfile, and the input hashes of the workspace packages it depends on) equals the hash recorded at
 * its last build, and (b) every file its package.json points into dist/ (exports, main, types, bin)
 * exists. Stale packages are built in dependency order with their own `build` script, so a warm
 * `pnpm start` costs a few file hashes instead of a rebuild of everything.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line) => process.stderr.write(`[assetloom/build] ${line}\n`);

/** Folders and files that are outputs, caches or tests, never build inputs. */
const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'test',
  'tests',
  'bench',
  'coverage',
  'out',
  'data',
  'test-artifacts',
  '.turbo',
  '.cache',
  '.tsbuild',
]);
const SKIP_FILE = /(\.test\.[cm]?tsx?|\.test-d\.ts|\.tsbuildinfo|\.log|README\.md|CHANGELOG\.md)$/;

function workspacePackages() {
  const dirs = ['openapi', 'reference-server', 'test'];
  for (const group of ['packages', 'examples']) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      if (entry.isDirectory()) dirs.push(join(group, entry.name));
    }
  }
  const packages = new Map();
  for (const dir of dirs) {
    const file = join(root, dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    packages.set(manifest.name, { name: manifest.name, dir: join(root, dir), manifest });
  }
  return packages;
}

/**
 * Workspace packages whose build output a package's build copies into its own dist: built before it
 * and part of its input hash, though not linked dependencies. The server's tsup.config.ts copies the
 * studio's dist to dist/studio (served at /studio); built the other way round, the server carried no
 * studio until something rebuilt it.
 */
const COPIED_BUILDS = { '@assetloom/server': ['@assetloom/studio'] };

/** Workspace packages this one needs at build and run time (dependencies and peer/dev links to the workspace). */
function workspaceDeps(pkg, packages, { runtimeOnly = false } = {}) {
  const { dependencies = {}, devDependencies = {}, peerDependencies = {} } = pkg.manifest;
  const all = runtimeOnly
    ? { ...peerDependencies, ...dependencies }
    : { ...peerDependencies, ...devDependencies, ...dependencies };
  // A copied package's dev link back to the package that copies it is for its tests, not its build.
  const copiers = Object.keys(COPIED_BUILDS).filter((name) => COPIED_BUILDS[name].includes(pkg.name));
  const linked = Object.entries(all)
    .filter(([name, range]) => String(range).startsWith('workspace:') && packages.has(name))
    .map(([name]) => name)
    .filter((name) => !copiers.includes(name));
  const copied = (COPIED_BUILDS[pkg.name] ?? []).filter(
    (name) => packages.has(name) && !linked.includes(name),
  );
  return [...linked, ...copied];
}

function filesOf(dir) {
  const out = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith('.') && entry.name !== '.npmignore') continue;
      const full = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(full);
      } else if (entry.isFile() && !SKIP_FILE.test(entry.name)) {
        out.push(full);
      }
    }
  };
  walk(dir);
  return out.sort();
}

/** Files under dist/ that package.json promises (exports, main, module, types, bin). */
function promisedOutputs(pkg) {
  const found = new Set();
  const visit = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/') || value.startsWith('dist/')) found.add(value.replace(/^\.\//, ''));
    } else if (value && typeof value === 'object') {
      for (const inner of Object.values(value)) visit(inner);
    }
  };
  const { exports, main, module, types, typings, bin } = pkg.manifest;
  visit([exports, main, module, types, typings, bin]);
  return [...found].filter((file) => !file.includes('*'));
}

const lockHash = createHash('sha256')
  .update(existsSync(join(root, 'pnpm-lock.yaml')) ? readFileSync(join(root, 'pnpm-lock.yaml')) : '')
  .digest('hex');

function inputHashes(packages) {
  const memo = new Map();
  const hashOf = (name, trail = []) => {
    if (memo.has(name)) return memo.get(name);
    if (trail.includes(name)) throw new Error(`workspace dependency cycle: ${[...trail, name].join(' → ')}`);
    const pkg = packages.get(name);
    const hash = createHash('sha256').update(lockHash);
    // a build with source maps (ASSETLOOM_SOURCEMAPS=1, opt-in) is another build
    hash.update(`sourcemaps ${process.env.ASSETLOOM_SOURCEMAPS === '1'}\n`);
    for (const dep of workspaceDeps(pkg, packages).sort())
      hash.update(`dep ${dep} ${hashOf(dep, [...trail, name])}\n`);
    for (const file of filesOf(pkg.dir)) {
      hash.update(`file ${relative(pkg.dir, file)}\n`);
      hash.update(readFileSync(file));
    }
    const digest = hash.digest('hex');
    memo.set(name, digest);
    return digest;
  };
  return hashOf;
}

const stampFile = (pkg) => join(pkg.dir, 'node_modules', '.cache', 'assetloom-build.json');

function isFresh(pkg, hash) {
  const file = stampFile(pkg);
  if (!existsSync(file)) return { fresh: false, why: 'never built by this script' };
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return { fresh: false, why: 'unreadable build stamp' };
  }
  if (stamp.inputs !== hash) return { fresh: false, why: 'inputs changed' };
  const missing = promisedOutputs(pkg).filter((out) => !existsSync(join(pkg.dir, out)));
  if (missing.length > 0) return { fresh: false, why: `missing ${missing.join(', ')}` };
  return { fresh: true };
}

function order(targets, packages, options) {
  const sorted = [];
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const dep of workspaceDeps(packages.get(name), packages, options)) visit(dep);
    sorted.push(name);
  };
  for (const name of targets) visit(name);
  return sorted;
}

async function main(argv) {
  const packages = workspacePackages();
  const check = argv.includes('--check');
  const args = argv.filter((arg) => arg !== '--check');
  let targets;
  if (args[0] === '--deps-of') {
    const of = args[1];
    if (!of || !packages.has(of)) {
      log(`--deps-of needs a workspace package name (known: ${[...packages.keys()].join(', ')})`);
      return 2;
    }
    // What <of> needs to run: its runtime workspace dependencies and theirs (not its dev tools).
    const runtime = { runtimeOnly: true };
    targets = order(workspaceDeps(packages.get(of), packages, runtime), packages, runtime);
  } else if (args.length > 0) {
    const unknown = args.filter((name) => !packages.has(name));
    if (unknown.length > 0) {
      log(`unknown package(s): ${unknown.join(', ')} (known: ${[...packages.keys()].join(', ')})`);
      return 2;
    }
    targets = order(args, packages, { runtimeOnly: true });
  } else {
    targets = order([...packages.keys()], packages);
  }
  const buildable = targets.filter((name) => packages.get(name).manifest.scripts?.build);
  const hashOf = inputHashes(packages);
  const stale = [];
  for (const name of buildable) {
    const pkg = packages.get(name);
    const state = isFresh(pkg, hashOf(name));
    if (state.fresh) continue;
    stale.push(name);
    log(`${name}: ${check ? 'stale' : 'building'} (${state.why})`);
  }
  if (stale.length === 0) log(`${buildable.length} package(s) up to date`);
  if (check) return stale.length > 0 ? 1 : 0;
  return buildAll(stale, packages, hashOf);
}

/**
 * Builds the stale packages, each once every stale workspace package it needs is built, up to
 * ASSETLOOM_BUILD_JOBS at once (default: 2, or 1 on a one-core machine). A build is mostly one
 * process on one core (tsup's declaration pass is TypeScript), so two independent packages — the
 * drawings beside the pipeline and core, the SDK beside the generator — share a 2-core machine's
 * time; their outputs go to their own folders (build-swap.mjs), so builds at once never meet.
 */
async function buildAll(stale, packages, hashOf) {
  const jobs = Math.max(1, Number(process.env.ASSETLOOM_BUILD_JOBS) || Math.min(2, availableParallelism()));
  const pnpm = process.env.npm_execpath?.includes('pnpm') ? process.env.npm_execpath : null;
  const localPnpm = join(root, 'node_modules', '.bin', 'pnpm');
  const waiting = new Set(stale);
  const needs = new Map(
    stale.map((name) => [name, allDeps(name, packages).filter((dep) => waiting.has(dep))]),
  );
  const done = new Set();
  const running = new Map();
  let failed = false;
  const start = (name) => {
    const pkg = packages.get(name);
    const started = performance.now();
    // the project's own pnpm (a root devDependency) when pnpm is not on PATH (bin/assetloom.js of the CLI)
    const [command, args] = pnpm
      ? [process.execPath, [pnpm, 'run', 'build']]
      : [existsSync(localPnpm) ? localPnpm : 'pnpm', ['run', 'build']];
    const child = spawn(command, args, { cwd: pkg.dir, stdio: ['ignore', 'ignore', 'inherit'] });
    return new Promise((resolve) => {
      child.on('error', (error) => {
        log(
          `${name}: could not start the build (${error.message}); is pnpm on PATH? (bash scripts/bootstrap.sh installs it into node_modules/.bin)`,
        );
        resolve(false);
      });
      child.on('exit', (code, signal) => {
        if (code !== 0) {
          log(
            `${name}: build failed (exit ${code ?? signal}); run \`pnpm --filter ${name} build\` to see why`,
          );
          resolve(false);
          return;
        }
        mkdirSync(dirname(stampFile(pkg)), { recursive: true });
        writeFileSync(
          stampFile(pkg),
          `${JSON.stringify({ inputs: hashOf(name), builtAt: new Date().toISOString() })}\n`,
        );
        log(`${name}: built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        resolve(true);
      });
    }).then((ok) => ({ name, ok }));
  };
  while (waiting.size > 0 || running.size > 0) {
    if (!failed) {
      for (const name of waiting) {
        if (running.size >= jobs) break;
        if (!needs.get(name).every((dep) => done.has(dep))) continue;
        waiting.delete(name);
        running.set(name, start(name));
      }
    }
    if (running.size === 0) break;
    const { name, ok } = await Promise.race(running.values());
    running.delete(name);
    if (ok) done.add(name);
    else failed = true;
  }
  return failed || waiting.size > 0 ? 1 : 0;
}

/** Every workspace package `name` needs to build, transitively. */
function allDeps(name, packages) {
  const found = new Set();
  const visit = (current) => {
    for (const dep of workspaceDeps(packages.get(current), packages)) {
      if (found.has(dep)) continue;
      found.add(dep);
      visit(dep);
    }
  };
  visit(name);
  return [...found];
}

process.exitCode = await main(process.argv.slice(2));
