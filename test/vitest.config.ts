import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  // The reference server is consumed from source (it is private and its dist may lag behind).
  resolve: {
    alias: {
      '@assetloom/server': fileURLToPath(new URL('../reference-server/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'integration',
    include: ['**/*.test.ts'],
    // the real-server suites are their own project (test/real-servers/vitest.config.ts)
    exclude: ['**/node_modules/**', 'real-servers/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
