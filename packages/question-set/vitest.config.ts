import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'question-set',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
