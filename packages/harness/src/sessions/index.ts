// Engine sessions: long-lived coding engines (ACP, codex app-server, Claude Code stream-json)
// behind the execution contract. Node.js only at run time: `node:` modules load lazily when a
// session starts, so importing this folder keeps the root entry Worker-safe.
export { SessionPoolError } from './session-pool.js';
export * from './claude-code-session/index.js';
export * from './codex-app-server/index.js';
export * from './acp/index.js';
export * from './probe-engine-sessions.js';
export * from './omp-rpc/index.js';
export * from './claude-agent-sdk/index.js';
