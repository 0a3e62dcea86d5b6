#!/usr/bin/env node
/**
 * Packs every public (non-private) workspace package into one folder, the way a release would
 * (`pnpm pack`, so each package's `prepack` build runs), with a manifest — the one way to use the
 * packages outside this repository until they are published (issue #41, decision 0044).
 *
 *   npm run pack:all                          → ./assetloom-packages/*.tgz + manifest.json
 *   npm run pack:all -- --out <dir>           another folder
 *   npm run pack:all -- --only @assetloom/sdk,@assetloom/mock   these and what they depend on
 *
 * The packages are found from pnpm-workspace.yaml (a new public package is packed without a change
 * here), packed in dependency order, and named without their version (`assetloom-sdk.tgz`), so the
 * `npm install ./assetloom-packages/…` lines of the READMEs stay true across releases; the version
 * is in manifest.json with each file's sha256 and what it depends on.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The folder `npm run pack:all` writes and the READMEs' install lines name. */
export const DEFAULT_OUT = 'assetloom-packages';

const log = (line) => process.stderr.write(`[assetloom/pack] ${line}\n`);

/** The folders pnpm-workspace.yaml's `packages:` globs name (`dir` or `dir/*`). */
function workspaceDirs() {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [];
  let inPackages = false;
  for (const line of text.split('\n')) {
    if (/^packages:\s*$/.test(line)) {
      inPackages = true;
      continue;
    }
    if (!inPackages) continue;
    const item = /^\s+-\s+['"]?([^'"#\s]+)['"]?/.exec(line);
    if (item) globs.push(item[1]);
    else if (/^\S/.test(line)) break;
  }
  const dirs = [];
  for (const glob of globs) {
    if (glob.startsWith('!')) continue;
    if (glob.endsWith('/*')) {
      const parent = join(root, glob.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const entry of readdirSync(parent, { withFileTypes: true }).sort((a, b) =>
        a.name.localeCompare(b.name),
      )) {
        if (entry.isDirectory()) dirs.push(join(glob.slice(0, -2), entry.name));
      }
    } else if (!glob.includes('*')) {
      dirs.push(glob);
    } else {
      throw new Error(`[assetloom/pack] pnpm-workspace.yaml has a glob this script does not read: ${glob}`);
    }
  }
  return dirs.filter((dir) => existsSync(join(root, dir, 'package.json')));
}

/**
 * The public workspace packages in dependency order (a package after the workspace packages it
 * needs to build): `[{ name, version, dir, manifest }]`.
 */
export function publicPackages() {
  const all = new Map();
  for (const dir of workspaceDirs()) {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    if (manifest.private === true || typeof manifest.name !== 'string') continue;
    all.set(manifest.name, { name: manifest.name, version: manifest.version, dir, manifest });
  }
  const ordered = [];
  const state = new Map();
  const visit = (name, trail) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting')
      throw new Error(`[assetloom/pack] dependency cycle: ${[...trail, name].join(' → ')}`);
    state.set(name, 'visiting');
    const pkg = all.get(name);
    const { dependencies = {}, devDependencies = {}, peerDependencies = {} } = pkg.manifest;
    for (const dep of Object.keys({ ...dependencies, ...devDependencies, ...peerDependencies }).sort()) {
      if (all.has(dep) && dep !== name) visit(dep, [...trail, name]);
    }
    state.set(name, 'done');
    ordered.push(pkg);
  };
  for (const name of [...all.keys()].sort()) visit(name, []);
  return ordered;
}

/** `@assetloom/sdk` → `assetloom-sdk.tgz`. */
export function tarballName(name) {
  return `${name.replace(/^@/, '').replace('/', '-')}.tgz`;
}

/** The workspace packages `names` need when installed: themselves and their dependencies, transitively. */
export function installClosure(names, packages = publicPackages()) {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const out = [];
  const visit = (name) => {
    if (out.includes(name)) return;
    const pkg = byName.get(name);
    if (!pkg) throw new Error(`[assetloom/pack] ${name} is not a public workspace package`);
    out.push(name);
    for (const dep of Object.keys(pkg.manifest.dependencies ?? {})) if (byName.has(dep)) visit(dep);
  };
  for (const name of names) visit(name);
  return out;
}

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * Packs the public packages (all, or `only` and what they depend on) into `dest`; writes
 * `dest/manifest.json` and answers `{ name → absolute tarball path }`.
 */
export function packAll(dest, { only } = {}) {
  const packages = publicPackages();
  const wanted = only ? new Set(installClosure(only, packages)) : undefined;
  mkdirSync(dest, { recursive: true });
  const scratch = join(dest, '.packing');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);
  const pnpm = join(root, 'node_modules', '.bin', 'pnpm');
  const tarballs = {};
  const entries = [];
  try {
    for (const pkg of packages) {
      if (wanted && !wanted.has(pkg.name)) continue;
      const started = Date.now();
      const result = spawnSync(pnpm, ['pack', '--pack-destination', scratch], {
        cwd: join(root, pkg.dir),
        encoding: 'utf8',
        env: { ...process.env, CI: 'true' },
      });
      if (result.status !== 0) {
        throw new Error(
          `[assetloom/pack] pnpm pack failed for ${pkg.name}:\n${result.stdout}\n${result.stderr}`,
        );
      }
      const packed = readdirSync(scratch).filter((f) => f.endsWith('.tgz'));
      if (packed.length !== 1)
        throw new Error(`[assetloom/pack] pnpm pack wrote ${packed.length} files for ${pkg.name}`);
      const file = join(dest, tarballName(pkg.name));
      renameSync(join(scratch, packed[0]), file);
      tarballs[pkg.name] = file;
      const { dependencies = {}, peerDependencies = {}, peerDependenciesMeta = {} } = pkg.manifest;
      entries.push({
        name: pkg.name,
        version: pkg.version,
        file: basename(file),
        sha256: sha256(file),
        bytes: statSync(file).size,
        // what installing it pulls: the other tarballs (name them in the same npm install) and the registry's packages
        tarballsNeeded: installClosure([pkg.name], packages)
          .filter((n) => n !== pkg.name)
          .map(tarballName),
        dependencies,
        peerDependencies: Object.fromEntries(
          Object.entries(peerDependencies).map(([dep, range]) => [
            dep,
            peerDependenciesMeta[dep]?.optional ? `${range} (optional)` : range,
          ]),
        ),
        ...(pkg.manifest.bin ? { bin: Object.keys(pkg.manifest.bin) } : {}),
      });
      log(
        `${pkg.name}@${pkg.version} → ${relative(process.cwd(), file)} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const manifest = {
    description:
      'Assetloom packages packed from the repository (npm run pack:all). Install with npm install ./<folder>/<file> …, naming every file of tarballsNeeded in the same command; see the root README.',
    packages: entries,
  };
  writeFileSync(join(dest, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return tarballs;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  let out = join(root, DEFAULT_OUT);
  let only;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--out' && args[i + 1]) out = resolve(process.env.INIT_CWD ?? process.cwd(), args[++i]);
    else if (arg === '--only' && args[i + 1]) only = args[++i].split(',').filter(Boolean);
    else if (arg === '-h' || arg === '--help') {
      process.stdout.write(
        `${readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('\n')
          .slice(2, 15)
          .map((l) => l.replace(/^ \* ?/, ''))
          .join('\n')}\n`,
      );
      process.exit(0);
    } else {
      log(`unknown argument "${arg}" (use --out <dir>, --only <names> or --help)`);
      process.exit(2);
    }
  }
  try {
    const packed = packAll(out, { only });
    log(`${Object.keys(packed).length} packages and manifest.json in ${out}`);
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
