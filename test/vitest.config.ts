import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'integration',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
  },
});
