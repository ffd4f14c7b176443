// Structural types for the parts of `@agent-relay/harness-driver` in use, declared here so our
// type declarations never reference the optional peer.

/** One event of the broker's `/ws` stream; only `relay_inbound` is read. */
export type BrokerEventLike = Record<string, unknown> & { kind?: unknown };

/** The options of `new HarnessDriverClient(...)` in use. */
export interface HarnessDriverClientOptionsLike {
  baseUrl: string;
  apiKey?: string;
  requestTimeoutMs?: number;
}

/** The input of `sendMessage` in use. */
export interface HarnessDriverSendInputLike {
  to: string;
  text: string;
  from?: string;
  threadId?: string;
  workspaceId?: string;
}

/** The client methods in use. */
export interface HarnessDriverClientLike {
  /** The broker's URL (set by the constructor and by `spawn`). */
  readonly baseUrl?: string;
  sendMessage(input: HarnessDriverSendInputLike): Promise<unknown>;
  connectEvents(sinceSeq?: number): void;
  onEvent(listener: (event: BrokerEventLike) => void): () => void;
  healthCheck(): Promise<unknown>;
  shutdown(): Promise<void>;
  disconnect(): void;
}

/** The options of `HarnessDriverClient.spawn(...)` in use. */
export interface HarnessDriverSpawnOptionsLike {
  cwd?: string;
  binaryPath?: string;
  env?: Record<string, string | undefined>;
  channels?: string[];
  requestTimeoutMs?: number;
}

/** The module's exports in use. */
export interface HarnessDriverModuleLike {
  HarnessDriverClient: {
    new (options: HarnessDriverClientOptionsLike): HarnessDriverClientLike;
    spawn(options?: HarnessDriverSpawnOptionsLike): Promise<HarnessDriverClientLike>;
  };
}
