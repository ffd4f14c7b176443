import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The cross-runtime suite (run by ../run.sh once the pinned runtimes are installed). Files run one
// after another: each already runs its runtimes in parallel.
export default defineConfig({
  resolve: { alias: { '@agent-assistant/harness/agent-relay': fileURLToPath(new URL('../../src/agent-relay/index.ts', import.meta.url)) } },
  test: {
    root: import.meta.dirname,
    include: ['*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: '.vitest-runtimes-results.json' }]],
  },
});
