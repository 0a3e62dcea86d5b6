#!/usr/bin/env node
/**
 * Builds a package into a fresh sibling directory and swaps it in for dist/ only when the whole
 * build succeeded, so a reader (npm/pnpm pack, a type build, a running server) sees either the
 * previous complete dist/ or the new complete one, never a half-written one (issue #21).
 *
 *   node ../../scripts/build-swap.mjs "<build command>"
 *
 * The command runs in the package directory with ASSETLOOM_BUILD_DIR set to the temporary
 * directory (`.dist-tmp-<pid>`, at the depth of dist/ so source-map paths stay right); tsup
 * configs and post-build steps write there. The swap is two renames (dist → .dist-old-<pid>, temp →
 * dist); a failed build leaves dist/ as it was.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const command = process.argv.slice(2).join(' ');
if (!command) {
  process.stderr.write('[assetloom/build-swap] usage: build-swap.mjs "<build command>"\n');
  process.exit(2);
}
const cwd = process.cwd();
const tag = `${process.pid}-${Date.now().toString(36)}`;
const temp = join(cwd, `.dist-tmp-${tag}`);
const old = join(cwd, `.dist-old-${tag}`);
const dist = join(cwd, 'dist');

const result = spawnSync(command, {
  cwd,
  shell: true,
  stdio: 'inherit',
  env: { ...process.env, ASSETLOOM_BUILD_DIR: `.dist-tmp-${tag}` },
});
if (result.status !== 0 || !existsSync(temp)) {
  rmSync(temp, { recursive: true, force: true });
  process.stderr.write(`[assetloom/build-swap] build failed in ${cwd}; dist/ left as it was\n`);
  process.exit(result.status || 1);
}

// Two builds of the same package may finish together: retry until our rename lands.
const olds = [];
for (let attempt = 0; ; attempt++) {
  try {
    if (existsSync(dist)) {
      olds.push(`${old}-${attempt}`);
      renameSync(dist, `${old}-${attempt}`);
    }
    renameSync(temp, dist);
    break;
  } catch (error) {
    if (attempt >= 50) {
      rmSync(temp, { recursive: true, force: true });
      throw error;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
for (const dir of olds) rmSync(dir, { recursive: true, force: true });
