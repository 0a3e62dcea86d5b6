import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'mock',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'] },
  },
});
