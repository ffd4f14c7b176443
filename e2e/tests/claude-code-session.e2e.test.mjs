// The real `claude` CLI (@anthropic-ai/claude-code, pinned) as a live stream-json session under
// ClaudeCodeSessionExecutionAdapter and createHarness (the shared Claude session suite).
import { describeClaudeSession } from '../claude-session-suite.mjs';
import { adapterOptions, cli } from '../helpers.mjs';

describeClaudeSession('Claude Code 2.1.332 (real) as a live session — end to end', {
  name: 'claude-session',
  kind: 'claude-code-session.session',
  makeBackend: (context, env, options) => context.harness.createClaudeCodeSessionAdapter({ command: cli('claude'), ...adapterOptions(context.home, env), ...options }),
  enginePid: (result) => (result.metadata.engine ?? result.metadata.backendMetadata.engine).pid,
});
