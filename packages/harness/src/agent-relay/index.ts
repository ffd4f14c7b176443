/**
 * @module @agent-assistant/harness/agent-relay
 * `RelayAdapter`: an Agent Relay connection over `@agent-relay/harness-driver` (optional peer,
 * Node.js), usable as the `relay` of `AgentRelayExecutionAdapter` and of the worker bridge.
 */
export { RelayAdapter, type RelayAdapterStats } from './relay-adapter.js';
export type { RelayAdapterOptions, RelayAdapterStartBrokerOptions } from './relay-adapter-options.js';
export { RelayConnectionError } from './errors/relay-connection-error.js';
export type { RelayInboundMessage, RelaySendInput, RelayTransport } from '../relay/relay-transport.js';
