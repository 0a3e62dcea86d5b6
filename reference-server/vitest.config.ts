import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['@assetloom/testing/mongo-global-setup'],
    // Real servers on real sockets with real scrypt: give slow CI machines room.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'] },
  },
});
