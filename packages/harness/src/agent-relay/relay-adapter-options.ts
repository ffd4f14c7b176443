/** Starting a broker when none is found. */
export interface RelayAdapterStartBrokerOptions {
  /** Path of the `agent-relay-broker` binary. Default: the one `@agent-relay/harness-driver` finds. */
  binaryPath?: string;
  /** Extra environment of the broker process (the driver merges it over this process's environment). */
  env?: Record<string, string>;
}

/** Options of `RelayAdapter`. */
export interface RelayAdapterOptions {
  /** The project directory whose `connection.json` names the broker. Default: the process's working directory. */
  cwd?: string;
  /** Channels for a broker this adapter starts (`startBroker`); otherwise informational. */
  channels?: string[];
  /** The broker's URL, e.g. `http://127.0.0.1:3888`. Skips discovery. */
  baseUrl?: string;
  /** The broker's API key (sent as `X-API-Key`). Never logged. */
  apiKey?: string;
  /** A state directory to look in before the project's; default `$AGENT_RELAY_STATE_DIR`. */
  stateDir?: string;
  /** The workspace id to send messages in, for brokers with several. */
  workspaceId?: string;
  /** Timeout of each HTTP call to the broker, in milliseconds. Default 10 000. */
  requestTimeoutMs?: number;
  /**
   * When no broker is found, start one with `HarnessDriverClient.spawn` instead of failing. The
   * adapter then owns it and stops it in `shutdown()`. Default `false`.
   */
  startBroker?: boolean | RelayAdapterStartBrokerOptions;
  /** While someone watches the connection (`watchConnection`), how often to check the broker answers, in milliseconds. Default 1 000. */
  healthCheckIntervalMs?: number;
  /** How many recent event ids to remember for deduplication. Default 10 000. */
  maxRememberedEventIds?: number;
}
