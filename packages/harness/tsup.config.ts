import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    'testing-node': 'src/testing/node/index.ts',
    // Spawned by createNodeResumeGuardClaimers, found beside testing-node.
    'resume-guard-claimer': 'src/testing/node/resume-guard-claimer.ts',
    'agent-relay': 'src/agent-relay/index.ts',
    // The protocol plumbing of each folder, named after it (the main entry holds what users build with).
    providers: 'src/providers/subpath.ts',
    local: 'src/local/subpath.ts',
    sessions: 'src/sessions/subpath.ts',
    tools: 'src/tools/subpath.ts',
    'worker-bridge': 'src/worker-bridge/index.ts',
    'agent-assistant-worker': 'src/worker-bridge/bin/agent-assistant-worker.ts',
    'agent-assistant': 'src/cli/bin/agent-assistant.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  splitting: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  noExternal: ['eventsource-parser'],
  // Optional peer, loaded lazily by ./agent-relay; never bundled.
  external: ['@agent-relay/harness-driver'],
  // Readable output: users' stack traces point at real names, and their own bundlers minify.
  minify: false,
  sourcemap: false,
});
