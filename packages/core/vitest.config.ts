import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'core',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['@assetloom/testing/mongo-global-setup'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
