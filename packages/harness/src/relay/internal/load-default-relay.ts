import { RelayAdapter } from '../../agent-relay/relay-adapter.js';
import type { RelayTransport } from '../relay-transport.js';

/** A relay the adapter started itself and must stop. */
export interface OwnedRelay extends RelayTransport {
  start(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Creates the `RelayAdapter` (`./agent-relay`) of an adapter without an injected relay. A static
 * import: a dynamic one made bundlers keep, untree-shaken, every chunk it shares with the core.
 * The adapter itself loads the broker client and Node modules only when it starts.
 */
export async function loadDefaultRelay(options: { cwd: string | undefined; channelId: string }): Promise<OwnedRelay> {
  return new RelayAdapter({ ...(options.cwd === undefined ? {} : { cwd: options.cwd }), channels: [options.channelId] });
}
