import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  // The main entry loads ./agent-relay through the package name; tests use the source.
  resolve: { alias: { '@agent-assistant/harness/agent-relay': fileURLToPath(new URL('./src/agent-relay/index.ts', import.meta.url)) } },
  test: {
    name: 'harness',
    include: ['src/**/*.test.ts', 'runtime-tests/**/*.test.ts'],
    environment: 'node',
  },
});
