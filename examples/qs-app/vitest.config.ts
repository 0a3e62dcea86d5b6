import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'example-qs-app',
    include: ['test/**/*.test.ts'],
  },
});
