/** `AgentRelayExecutionAdapter`: the orchestrator side of Agent Relay (main entry, Worker-safe). */
export { AgentRelayExecutionAdapter, createAgentRelayExecutionAdapter } from './agent-relay-execution-adapter.js';
export type { AgentRelayExecutionAdapterOptions, AgentRelayWorkerSpawnOptions } from './agent-relay-execution-adapter-options.js';
