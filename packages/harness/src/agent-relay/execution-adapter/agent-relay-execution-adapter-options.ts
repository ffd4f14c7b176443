import type { ExecutionCapabilities } from '../../execution/types.js';
import type { RelayTransport } from '../protocol/relay-transport.js';

/**
 * Starting a worker from the adapter. Not supported: the adapter rejects `enabled: true` with a
 * `HarnessConfigError`. Run a worker bridge (`agent-assistant-worker`, or
 * `createRelayWorkerBridge` from `@agent-assistant/harness/worker-bridge`) next to the broker
 * instead. The option exists so configs written for the predecessor fail loudly, not silently.
 */
export interface AgentRelayWorkerSpawnOptions {
  /** Only `false` is accepted. */
  enabled: boolean;
}

/** Options of `AgentRelayExecutionAdapter`. */
export interface AgentRelayExecutionAdapterOptions {
  /** The worker's name on the relay: requests go to it, and only replies from it count. */
  workerName: string;
  /** This adapter's name on the relay: the worker replies to it. Default `agent-assistant`. */
  orchestratorName?: string | undefined;
  /** The channel of the conversation, carried in messages for the worker's logs. Default `agent-assistant-execution`. */
  channelId?: string | undefined;
  /** Where to look for the broker's `connection.json` when no `relay` is given. Default: the process's working directory. */
  cwd?: string | undefined;
  /**
   * How long to wait for the worker's reply, in milliseconds (at most 2 147 483 647). The request's
   * own `timeoutMs`, when shorter, wins. Default 120 000.
   */
  timeoutMs?: number | undefined;
  /**
   * The relay to use. When absent, the adapter starts a `RelayAdapter`
   * (`@agent-assistant/harness/agent-relay`, which needs the optional peer
   * `@agent-relay/harness-driver`) on the first `execute` and stops it in `shutdown()`. An injected
   * relay belongs to the caller: the adapter never starts or stops it.
   */
  relay?: RelayTransport | undefined;
  /** Backend id of the results. Default `agent-relay`. */
  backendId?: string | undefined;
  /** Overrides of the declared capabilities, for workers that can do more (or less) than the default. */
  capabilities?: Partial<ExecutionCapabilities> | undefined;
  /** Replies longer than this many characters are ignored unparsed. Default 4 000 000. */
  maxReplyChars?: number | undefined;
  /** Not supported; see {@link AgentRelayWorkerSpawnOptions}. */
  spawnWorker?: AgentRelayWorkerSpawnOptions | undefined;
}
