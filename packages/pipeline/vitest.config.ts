import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'pipeline',
    // a hang guard, not a speed goal (speed is measured by the benchmarks): generation tests share 2
    // cores with every other project of the full run
    testTimeout: 30_000,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
