import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'vfs', include: ['src/**/*.test.ts'], environment: 'node' },
});
