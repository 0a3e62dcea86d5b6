import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const fixture = fileURLToPath(new URL('./fixture/', import.meta.url));
const vitestBin = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

test('a run closes on one plain line that counts passes, failures (a broken file is one) and skips', () => {
  const run = spawnSync(process.execPath, [vitestBin, 'run'], {
    cwd: fixture,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', FORCE_COLOR: '1', VITEST: undefined, VITEST_MODE: undefined },
    timeout: 60_000,
  });
  expect(run.status).toBe(1);
  const lines = run.stdout.trimEnd().split('\n');
  // Last, alone on its line, no escape codes even when Vitest colours everything else.
  expect(lines.at(-1)).toBe('tests: 2 passed, 2 failed, 2 skipped');
  expect(run.stdout).toContain('\u001b[');
});
