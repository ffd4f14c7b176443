export { AgentRelayExecutionAdapter, createAgentRelayExecutionAdapter } from './agent-relay-execution-adapter.js';
export type { AgentRelayExecutionAdapterOptions, AgentRelayWorkerSpawnOptions } from './agent-relay-adapter-options.js';
export type { RelayInboundMessage, RelaySendInput, RelayTransport } from './relay-transport.js';
export * from './wire/index.js';
