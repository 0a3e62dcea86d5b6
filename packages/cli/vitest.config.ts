import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  // The reference server is consumed from source (it is private and its dist may lag behind).
  resolve: {
    alias: {
      '@assetloom/server': fileURLToPath(new URL('../../reference-server/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'example-game-tool',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
