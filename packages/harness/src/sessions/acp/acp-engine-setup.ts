/** What a preset prepares before its first engine process starts. */
export interface AcpPreparedEngine {
  /** The program to run instead of the configured command (e.g. the native binary behind an npm shim). */
  command?: string | undefined;
  /** Variables added to the engine's environment under the adapter's own `env` (which wins on a clash). */
  env?: Readonly<Record<string, string>> | undefined;
  /** Undoes the preparation (e.g. removes a private home); runs once on `dispose()`. Never rejects. */
  cleanup?: (() => Promise<void>) | undefined;
}

/**
 * A preset's engine set-up: runs once per adapter, lazily (Node.js only), before the first engine
 * process starts; a failure fails that turn and the next turn tries again.
 */
export type AcpEngineSetup = () => Promise<AcpPreparedEngine>;
