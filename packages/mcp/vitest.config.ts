import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'mcp',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // builds the server and this package's bin once when their sources changed (the tests run them)
    globalSetup: ['test/global-setup.ts'],
    // a hang guard, not a speed goal: generation tests share 2 cores with the rest of the run
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
