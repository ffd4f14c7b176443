export { CLAUDE_AGENT_SDK_BACKEND_ID, ClaudeAgentSdkExecutionAdapter, createClaudeAgentSdkAdapter, type ClaudeAgentSdkAdapterOptions } from './claude-agent-sdk-adapter.js';
export { CLAUDE_AGENT_SDK_PACKAGE } from './load-claude-agent-sdk.js';
