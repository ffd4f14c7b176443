export {
  ClaudeCodeSessionAdapter,
  ClaudeCodeSessionExecutionAdapter,
  createClaudeCodeSessionAdapter,
  CLAUDE_CODE_SESSION_BACKEND_ID,
  CLAUDE_CODE_SESSION_KIND,
} from './claude-code-session-execution-adapter.js';
export type { ClaudeCodeSessionAdapterOptions, ClaudeCodeSessionPermissionMode } from './claude-code-session-options.js';
