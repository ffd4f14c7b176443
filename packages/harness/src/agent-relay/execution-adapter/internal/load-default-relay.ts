import type { OwnedRelay, OwnedRelayModule } from '../../protocol/owned-relay.js';

/** The subpath that holds `RelayAdapter`, loaded through the package's own `exports`. */
export const AGENT_RELAY_SUBPATH = '@agent-assistant/harness/agent-relay';

// A parameter, not a literal: a bundler of the main entry (a Worker) neither follows nor wraps the
// Node-only relay client, so the rest of the package stays tree-shakeable.
const importModule = (specifier: string): Promise<unknown> => import(/* @vite-ignore */ specifier);

/**
 * Loads `RelayAdapter` (`./agent-relay`) on first use, so the main entry neither imports the
 * broker client nor any Node module until an adapter without an injected relay executes.
 */
export async function loadDefaultRelay(options: { cwd: string | undefined; channelId: string }): Promise<OwnedRelay> {
  const { RelayAdapter } = (await importModule(AGENT_RELAY_SUBPATH)) as OwnedRelayModule;
  return new RelayAdapter({ ...(options.cwd === undefined ? {} : { cwd: options.cwd }), channels: [options.channelId] });
}
