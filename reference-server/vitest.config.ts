import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['@assetloom/testing/mongo-global-setup'],
    // One file at a time, after the files of the other projects (which run two at a time, see the
    // root vitest.config.ts): many of these files kill, crash or time servers on purpose and count
    // what happens (database commands, writes, a kill at a stage), and a second file beside them on
    // 2 cores changes what they see.
    fileParallelism: false,
    // Real servers on real sockets with real scrypt: give slow CI machines room.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
