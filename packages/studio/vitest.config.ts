import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'studio',
    include: ['test/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
