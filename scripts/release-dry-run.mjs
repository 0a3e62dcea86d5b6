#!/usr/bin/env node
/**
 * A release rehearsal (issue #21): what `changeset version` + `pnpm publish -r` would publish, done
 * on a throwaway copy of the working tree so nothing here changes.
 *
 *   node scripts/release-dry-run.mjs [--verbose] [--keep]   (pnpm release:dry-run)
 *
 * 1. builds what is stale here (scripts/ensure-built.mjs: nothing when the tree is built), then
 *    copies the tracked and untracked-but-not-ignored files to a temp directory, with each public
 *    package's published folders as built here (its package.json "files": dist, bin …); node_modules
 *    are linked (the root one) and copied as link farms (the packages');
 * 2. runs `changeset version` there: pending changesets become versions and CHANGELOG entries;
 * 3. runs `pnpm publish -r --dry-run --no-git-checks --ignore-scripts` there: each public package is
 *    listed as npm would publish it; nothing is uploaded. The packages are built once, here, not again
 *    by each prepack in the copy (CI built every package three times before: here, in `npm test`'s
 *    build and in the ecosystem's `pnpm pack`); the prepack builds themselves run in `pnpm pack:all`.
 *    What a version bump would change in a build (the MCP server's version string) is not rebuilt;
 * 4. prints a summary: package, version now → version to publish, files, packed size.
 * Exits non-zero when a step fails. Works with CI=true and no stdin.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const log = (line) => process.stderr.write(`[release:dry-run] ${line}\n`);
const keep = process.argv.includes('--keep');

function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', npm_config_update_notifier: 'false' },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout}\n${result.stderr}\n`);
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}) in ${cwd}`);
  }
  return `${result.stdout}\n${result.stderr}`;
}

const publicPackages = (dir) => {
  const list = JSON.parse(run(bin('pnpm'), ['-r', 'ls', '--depth', '-1', '--json'], dir));
  return list
    .filter((p) => p.private !== true && p.name && p.path !== dir)
    .map((p) => ({ name: p.name, version: p.version, path: p.path }));
};

const work = mkdtempSync(join(tmpdir(), 'assetloom-release-'));
let failed = false;
try {
  // 1. the packages built here, then the throwaway copy
  const published = publicPackages(root);
  log(`building what is stale of ${published.length} public packages`);
  run(process.execPath, [join(root, 'scripts', 'ensure-built.mjs'), ...published.map((p) => p.name)], root);
  const files = run('git', ['ls-files', '-co', '--exclude-standard', '-z'], root).split('\0').filter(Boolean);
  let copied = 0;
  for (const file of files) {
    const from = join(root, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(work, file)), { recursive: true });
    cpSync(from, join(work, file), { dereference: false });
    copied++;
  }
  // what each public package publishes, as built here (dist and the like are git-ignored)
  for (const pkg of published) {
    const manifest = JSON.parse(readFileSync(join(pkg.path, 'package.json'), 'utf8'));
    const rel = pkg.path.slice(root.length + 1);
    for (const entry of manifest.files ?? []) {
      const from = join(pkg.path, entry);
      if (existsSync(from)) cpSync(from, join(work, rel, entry), { recursive: true, force: true });
    }
  }
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  const before = publicPackages(root);
  for (const pkg of JSON.parse(run(bin('pnpm'), ['-r', 'ls', '--depth', '-1', '--json'], root))) {
    const modules = join(pkg.path, 'node_modules');
    if (pkg.path === root || !existsSync(modules)) continue;
    const rel = pkg.path.slice(root.length + 1);
    cpSync(modules, join(work, rel, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  }
  log(`copied ${copied} files to ${work}`);

  // 2. versions from the pending changesets
  const pending = existsSync(join(work, '.changeset'))
    ? run('git', ['ls-files', '-co', '--exclude-standard', '.changeset'], root)
        .split('\n')
        .filter((f) => f.endsWith('.md') && !f.endsWith('README.md')).length
    : 0;
  log(`changeset version (${pending} pending changesets)`);
  run(bin('changeset'), ['version'], work);
  const after = publicPackages(work);

  // 3. the publish rehearsal
  log('pnpm publish -r --dry-run --ignore-scripts (the packages as built above)');
  const output = run(
    bin('pnpm'),
    ['publish', '-r', '--dry-run', '--no-git-checks', '--ignore-scripts', '--access', 'public'],
    work,
  );

  // 4. summary
  const summary = [];
  for (const pkg of after) {
    const was = before.find((p) => p.name === pkg.name)?.version ?? '?';
    const section = output.split(/npm notice 📦\s+/).find((s) => s.startsWith(`${pkg.name}@${pkg.version}`));
    const files = section ? /total files:\s+(\d+)/.exec(section)?.[1] : undefined;
    const size = section ? /package size:\s+([\d.]+ \w+)/.exec(section)?.[1] : undefined;
    const hasLicense = section ? /\bLICENSE\b/.test(section) : false;
    summary.push({ name: pkg.name, was, version: pkg.version, files, size, hasLicense, listed: !!section });
  }
  // The full npm listing only on request: CI keeps the tail of its output, and that tail belongs to the tests.
  if (process.argv.includes('--verbose')) process.stdout.write(`${output.replace(/^\s+$/gm, '').trim()}\n\n`);
  process.stdout.write('would publish:\n');
  for (const s of summary) {
    process.stdout.write(
      `  ${s.name.padEnd(26)} ${s.was.padStart(7)} → ${s.version.padEnd(7)} ${s.listed ? `${s.files} files, ${s.size}${s.hasLicense ? ', LICENSE' : ', NO LICENSE'}` : 'NOT LISTED by pnpm publish'}\n`,
    );
  }
  const problems = summary.filter((s) => !s.listed || !s.hasLicense);
  if (problems.length) {
    failed = true;
    log(`problems: ${problems.map((p) => p.name).join(', ')}`);
  }
  const changelog = join(work, 'packages', 'sdk', 'CHANGELOG.md');
  if (existsSync(changelog)) {
    process.stdout.write(
      `\n@assetloom/sdk CHANGELOG.md would start:\n${readFileSync(changelog, 'utf8').slice(0, 800)}\n`,
    );
  }
} catch (error) {
  failed = true;
  log(String(error?.message ?? error));
} finally {
  if (keep) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
