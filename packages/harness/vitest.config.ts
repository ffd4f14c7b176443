import { fileURLToPath } from 'node:url';
import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  // The main entry loads ./agent-relay through the package name; tests use the source.
  resolve: { alias: { '@agent-assistant/harness/agent-relay': fileURLToPath(new URL('./src/agent-relay/index.ts', import.meta.url)) } },
  test: {
    name: 'harness',
    include: ['src/**/*.test.ts', 'runtime-tests/**/*.test.ts'],
    // The cross-runtime suite needs its pinned runtimes installed: runtime-tests/run.sh runs it.
    exclude: [...configDefaults.exclude, 'runtime-tests/runtimes/**'],
    environment: 'node',
  },
});
