import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  // The reference server is consumed from source in the tests that start one (its dist may lag behind).
  resolve: {
    alias: {
      '@assetloom/server': fileURLToPath(new URL('../../reference-server/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // a hang guard, not a speed goal: generation tests share 2 cores with the rest of the run
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
