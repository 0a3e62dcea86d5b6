import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'drawings',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
