/**
 * @module @agent-assistant/harness/agent-relay
 * `RelayAdapter`: an Agent Relay connection over `@agent-relay/harness-driver` (optional peer,
 * Node.js), usable as the `relay` of `AgentRelayExecutionAdapter` and of the worker bridge; and
 * the wire protocol both sides speak (Worker-safe): the messages, with their encoders and decoders.
 */
export { RelayAdapter, type RelayAdapterStats } from './broker-client/relay-adapter.js';
export type { RelayAdapterOptions, RelayAdapterStartBrokerOptions } from './broker-client/relay-adapter-options.js';
export { RelayConnectionError } from './broker-client/errors/relay-connection-error.js';
export type { RelayInboundMessage, RelaySendInput, RelayTransport } from './protocol/relay-transport.js';
export * from './protocol/wire.js';
