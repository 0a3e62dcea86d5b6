// Packs every public workspace package with `pnpm pack` (which runs its prepack release build), the
// way a release would, and answers where each tarball is. The ecosystem projects, the size bench
// and the release dry run all start from these tarballs, never from workspace links.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/** Public (non-private) workspace packages, in dependency order. */
export const PUBLIC_PACKAGES = [
  { name: '@assetloom/openapi', dir: 'openapi' },
  { name: '@assetloom/drawings', dir: 'packages/drawings' },
  { name: '@assetloom/pipeline', dir: 'packages/pipeline' },
  { name: '@assetloom/core', dir: 'packages/core' },
  { name: '@assetloom/sdk', dir: 'packages/sdk' },
  { name: '@assetloom/mock', dir: 'packages/mock' },
  { name: '@assetloom/question-set', dir: 'packages/question-set' },
  { name: '@assetloom/server', dir: 'reference-server' },
];

/** The project's own pnpm (root devDependency), so no global install is needed. */
export function pnpmBin() {
  return join(root, 'node_modules', '.bin', 'pnpm');
}

export function log(line) {
  process.stderr.write(`[ecosystem] ${line}\n`);
}

/**
 * Packs the public packages into `dest` and returns { name → absolute tarball path }.
 * Packs run one after another: each prepack builds its package (build into a temp dir, then swap).
 */
export function packAll(dest, { names } = {}) {
  mkdirSync(dest, { recursive: true });
  const tarballs = {};
  for (const pkg of PUBLIC_PACKAGES) {
    if (names && !names.includes(pkg.name)) continue;
    const manifest = JSON.parse(readFileSync(join(root, pkg.dir, 'package.json'), 'utf8'));
    if (manifest.private) throw new Error(`${pkg.name} is private; it cannot be packed for users`);
    const started = Date.now();
    const result = spawnSync(pnpmBin(), ['pack', '--pack-destination', dest], {
      cwd: join(root, pkg.dir),
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
    });
    if (result.status !== 0) {
      throw new Error(`pnpm pack failed for ${pkg.name}:\n${result.stdout}\n${result.stderr}`);
    }
    const file = `${pkg.name.replace('@', '').replace('/', '-')}-${manifest.version}.tgz`;
    if (!readdirSync(dest).includes(file)) throw new Error(`pnpm pack wrote no ${file} into ${dest}`);
    tarballs[pkg.name] = join(dest, file);
    log(`packed ${pkg.name}@${manifest.version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return tarballs;
}

/** Lists the files inside a tarball (tar is on every CI image this project supports). */
export function tarballFiles(tarball) {
  const result = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tar -tzf ${tarball}: ${result.stderr}`);
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/^package\//, ''));
}
