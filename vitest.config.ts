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
    // Vitest's own output, then one plain `tests: N passed, N failed, N skipped` line (the run's last).
    reporters: ['default', './test/reporters/closing-line.ts'],
  },
});
