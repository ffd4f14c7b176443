/** Starting a broker when none is found. */
export interface RelayAdapterStartBrokerOptions {
  /** Path of the `agent-relay-broker` binary. Default: the one `@agent-relay/harness-driver` finds. */
  binaryPath?: string | undefined;
  /** Extra environment of the broker process (the driver merges it over this process's environment). */
  env?: Record<string, string> | undefined;
}

/** Options of `RelayAdapter`. */
export interface RelayAdapterOptions {
  /** The project directory whose `connection.json` names the broker. Default: the process's working directory. */
  cwd?: string | undefined;
  /** Channels for a broker this adapter starts (`startBroker`); otherwise informational. */
  channels?: string[] | undefined;
  /** The broker's URL, e.g. `http://127.0.0.1:3888`. Skips discovery. */
  baseUrl?: string | undefined;
  /** The broker's API key (sent as `X-API-Key`). Never logged. */
  apiKey?: string | undefined;
  /** A state directory to look in before the project's; default `$AGENT_RELAY_STATE_DIR`. */
  stateDir?: string | undefined;
  /** The workspace id to send messages in, for brokers with several. */
  workspaceId?: string | undefined;
  /** Timeout of each HTTP call to the broker, in milliseconds. Default 10 000. */
  requestTimeoutMs?: number | undefined;
  /**
   * When no broker is found, start one with `HarnessDriverClient.spawn` instead of failing. The
   * adapter then owns it and stops it in `shutdown()`. Default `false`.
   */
  startBroker?: boolean | RelayAdapterStartBrokerOptions | undefined;
  /** While someone watches the connection (`watchConnection`), how often to check the broker answers, in milliseconds. Default 1 000. */
  healthCheckIntervalMs?: number | undefined;
  /** How many recent event ids to remember for deduplication. Default 10 000. */
  maxRememberedEventIds?: number | undefined;
}
