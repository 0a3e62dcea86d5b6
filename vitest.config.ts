import { defineConfig } from 'vitest/config';

// One vitest run over every package: each folder below owns a vitest.config.ts
// that names its project (unit tests beside the code, integration suites in test/).
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'reference-server/vitest.config.ts',
      'examples/*/vitest.config.ts',
      'test/vitest.config.ts',
      'test/real-servers/vitest.config.ts',
    ],
    // Two files at a time. Vitest's default on this 2-core machine is cores − 1 = one, and most files
    // spend their time waiting on a server, a browser or the database rather than on the CPU.
    // The reference server's and the real model servers' projects keep one file at a time
    // (fileParallelism: false) and so run after the rest, one file after another.
    maxWorkers: 2,
    // Vitest's own output, then one plain `tests: N passed, N failed, N skipped` line (the run's last).
    reporters: ['default', './test/reporters/closing-line.ts'],
  },
});
