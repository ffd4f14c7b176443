import { defineConfig } from 'vitest/config';

// End-to-end tests of the local CLI backends. Each test runs real CLIs (seconds each), so files
// run one after another and timeouts are generous; nothing here asserts wall-clock durations.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['tests/**/*.e2e.test.mjs'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: '.vitest-e2e-results.json' }]],
  },
});
