import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'example-gallery',
    include: ['test/**/*.test.ts'],
  },
});
