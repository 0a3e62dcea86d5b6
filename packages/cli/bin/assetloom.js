#!/usr/bin/env node
// A committed launcher, so package managers can link the bin before dist/ is built (workspace
// installs link bins first). In the repository, a missing build is made once (scripts/ensure-built.mjs);
// after that every run starts dist/main.js directly, with no rebuild.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  const ensureBuilt = new URL('../../../scripts/ensure-built.mjs', import.meta.url);
  if (!existsSync(fileURLToPath(ensureBuilt))) {
    process.stderr.write('[assetloom/cli] this install has no dist/main.js: reinstall @assetloom/cli.\n');
    process.exit(4);
  }
  process.stderr.write('[assetloom/cli] building the CLI once (scripts/ensure-built.mjs @assetloom/cli)…\n');
  const built = spawnSync(process.execPath, [fileURLToPath(ensureBuilt), '@assetloom/cli'], {
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(main.href);
