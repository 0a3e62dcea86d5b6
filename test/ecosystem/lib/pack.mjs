// The public workspace packages and their tarballs, from scripts/pack-all.mjs (`npm run pack:all`):
// the ecosystem projects, the size bench and the README install lines all start from the files
// that command writes, never from workspace links. Packages are discovered from the workspace, so a
// new public package is packed and checked without a change here.
import { spawnSync } from 'node:child_process';
import {
  DEFAULT_OUT,
  installClosure,
  packAll as packAllTo,
  publicPackages,
  root,
  tarballName,
} from '../../../scripts/pack-all.mjs';

export { DEFAULT_OUT, installClosure, root, tarballName };

/** Public (non-private) workspace packages, in dependency order: `[{ name, dir }]`. */
export const PUBLIC_PACKAGES = publicPackages().map(({ name, dir }) => ({ name, dir }));

export function log(line) {
  process.stderr.write(`[ecosystem] ${line}\n`);
}

/**
 * Packs the public packages (or `names` and what they depend on) into `dest` as `npm run pack:all`
 * does (manifest.json included) and returns { name → absolute tarball path }.
 */
export function packAll(dest, { names } = {}) {
  return packAllTo(dest, names ? { only: names } : {});
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
