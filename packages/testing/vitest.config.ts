import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'testing',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One MongoDB target (MONGODB_URI or a cached FerretDB) for the whole run, handed to tests via inject().
    globalSetup: ['./src/mongo-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
