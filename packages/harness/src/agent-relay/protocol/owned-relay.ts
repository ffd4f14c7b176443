import type { RelayTransport } from './relay-transport.js';

/** A relay the adapter started itself and must stop. */
export interface OwnedRelay extends RelayTransport {
  start(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * What `AgentRelayExecutionAdapter` loads, by package name, when it has no injected relay: the
 * `./agent-relay` subpath and its `RelayAdapter`. Declared here, below both, so the adapter never
 * imports the broker client; `src/agent-relay/index.test.ts` checks the entry against it.
 */
export interface OwnedRelayModule {
  RelayAdapter: new (options: { cwd?: string; channels: string[] }) => OwnedRelay;
}
