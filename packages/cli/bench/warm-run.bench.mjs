#!/usr/bin/env node
// How long a warm run of the CLI takes (issue #41: each run through `pnpm --filter … start` rebuilt
// 8 packages, 77 s; the goal is under 3 s). Prints the median of N runs of each command line beside
// a bare `node -e 0` measured in the same run, and their ratio. A benchmark, never a test.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/assetloom.js', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
if (!existsSync(new URL('../dist/main.js', import.meta.url))) {
  console.error('[assetloom/cli] bench: build first (node scripts/ensure-built.mjs @assetloom/cli)');
  process.exit(1);
}
const runs = Number(process.env.BENCH_RUNS ?? 7);

function median(command, args, cwd) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    times.push(performance.now() - t0);
    if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const baseline = median(process.execPath, ['-e', '0'], root);
const rows = [
  ['node -e 0 (baseline)', baseline],
  ['node bin/assetloom.js --version', median(process.execPath, [bin, '--version'], root)],
  ['node bin/assetloom.js generate --help', median(process.execPath, [bin, 'generate', '--help'], root)],
  [
    'node bin/assetloom.js pixelize --help (loads the pipeline)',
    median(process.execPath, [bin, 'pixelize', '--help'], root),
  ],
  [
    'npx assetloom --version (repository root)',
    median('npx', ['--no-install', 'assetloom', '--version'], root),
  ],
];
console.log(`warm runs of the CLI, median of ${runs} (goal < 3000 ms)`);
for (const [name, ms] of rows) {
  console.log(`  ${name.padEnd(60)} ${ms.toFixed(0).padStart(6)} ms  ×${(ms / baseline).toFixed(1)}`);
}
