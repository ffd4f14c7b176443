import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'harness',
    include: ['src/**/*.test.ts', 'runtime-tests/**/*.test.ts'],
    environment: 'node',
  },
});
