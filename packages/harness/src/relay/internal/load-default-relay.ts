import type { RelayTransport } from '../relay-transport.js';

/** A relay the adapter started itself and must stop. */
export interface OwnedRelay extends RelayTransport {
  start(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Loads `RelayAdapter` (`./agent-relay`) on first use, so the main entry neither imports the
 * broker client nor any Node module until an adapter without an injected relay executes.
 */
export async function loadDefaultRelay(options: { cwd: string | undefined; channelId: string }): Promise<OwnedRelay> {
  const { RelayAdapter } = await import('../../agent-relay/relay-adapter.js');
  return new RelayAdapter({ ...(options.cwd === undefined ? {} : { cwd: options.cwd }), channels: [options.channelId] });
}
