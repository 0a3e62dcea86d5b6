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
    // ...in one worker whose modules stay loaded from file to file: each file imported the server, the
    // generator and its drawings again (decision 0139). No file mocks modules, stubs the environment or
    // fakes timers (they would leak into the next); every server a file starts is closed by it.
    isolate: false,
    // its own group (a non-isolated project cannot share group 0 with the two-worker projects)
    sequence: { groupOrder: 1 },
    // Real servers on real sockets with real scrypt: give slow CI machines room.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
