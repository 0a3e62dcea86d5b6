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
    process.stderr.write('[assetloom/mcp] this install has no dist/main.js: reinstall @assetloom/mcp.\n');
    process.exit(4);
  }
  // stdout is the MCP channel: the build reports on stderr only
  const built = spawnSync(process.execPath, [fileURLToPath(ensureBuilt), '@assetloom/mcp'], {
    stdio: ['ignore', 2, 2],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(main.href);
