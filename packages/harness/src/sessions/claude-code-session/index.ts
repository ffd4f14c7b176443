export {
  ClaudeCodeSessionAdapter,
  createClaudeCodeSessionAdapter,
  CLAUDE_CODE_SESSION_BACKEND_ID,
  CLAUDE_CODE_SESSION_KIND,
} from './create-claude-code-session-adapter.js';
export type { ClaudeCodeSessionAdapterOptions, ClaudeCodeSessionPermissionMode } from './claude-code-session-options.js';
