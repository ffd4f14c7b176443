/**
 * The Agent Relay contract (main entry, Worker-safe): the `RelayTransport` an
 * `AgentRelayExecutionAdapter` sends and listens through. The wire messages, with their encoders
 * and decoders, are in `@agent-assistant/harness/agent-relay`.
 */
export type { RelayInboundMessage, RelaySendInput, RelayTransport } from './relay-transport.js';
