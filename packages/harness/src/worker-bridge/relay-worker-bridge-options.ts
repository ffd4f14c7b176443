import type { ExecutionAdapter } from '../execution/types.js';
import type { RelayTransport } from '../agent-relay/protocol/relay-transport.js';
import type { CliRunner } from './cli-runner.js';

/** Configuration of {@link createRelayWorkerBridge}. */
export interface RelayWorkerBridgeConfig {
  /**
   * The relay to listen and reply on, already started (e.g. `RelayAdapter` from
   * `@agent-assistant/harness/agent-relay`). The caller owns its lifecycle: `dispose()` does not
   * shut it down.
   */
  relay: RelayTransport;
  /** The channel the conversation belongs to; passed along with each reply. */
  channelId: string;
  /** The worker's name on the relay: requests addressed to it are run, and replies come from it. */
  workerName: string;
  /** What runs each request: a {@link CliRunner} (e.g. `createClaudeCliRunner()`) or any `ExecutionAdapter`. */
  runner: CliRunner | ExecutionAdapter;
  /**
   * Longest run of one request, in milliseconds; the request's own `timeoutMs` and `deadline`
   * lower it. On expiry the run is stopped (its process group killed) and the reply is
   * `failed` / `timeout`.
   * @default 120000
   */
  timeoutMs?: number | undefined;
  /** Requests run at the same time; further ones wait in a queue. @default 2 */
  concurrency?: number | undefined;
  /** Requests that may wait for a free slot; beyond that a request is refused at once (`failed`, retryable). @default 100 */
  maxQueue?: number | undefined;
  /**
   * Names whose requests are accepted. A message from any other sender is ignored and counted.
   * @default undefined (any sender)
   */
  allowedSenders?: readonly string[] | undefined;
  /**
   * How long `dispose()` waits for runs in progress before stopping them, in milliseconds.
   * @default 30000
   */
  disposeTimeoutMs?: number | undefined;
  /**
   * After a run was stopped (timeout, cancel, shutdown), how long the bridge waits for the runner
   * to settle before replying without it, in milliseconds. The built-in runners settle once
   * their process group is gone (within twice their `killGraceMs`).
   * @default 10000
   */
  stopGraceMs?: number | undefined;
  /**
   * Largest reply body, in characters. A larger result is replaced by a `failed` /
   * `invalid_backend_output` reply, so the orchestrator is not left waiting for a body it would refuse.
   * @default 1000000
   */
  maxReplyChars?: number | undefined;
  /** Receives what the bridge does, e.g. to log one line per request. Errors it throws are ignored. @default undefined */
  onEvent?: ((event: RelayWorkerBridgeEvent) => void) | undefined;
}

/** Why an inbound message was not run. */
export type RelayWorkerIgnoredReason =
  /** Not text, or JSON that is not an object. */
  | 'not_json'
  /** Longer than the decoder's limit. */
  | 'too_large'
  /** A JSON object of another protocol or type. */
  | 'foreign'
  /** A request or cancel with a broken shape. */
  | 'malformed'
  /** From a sender not in `allowedSenders`. */
  | 'sender'
  /** A request id this bridge already took. */
  | 'duplicate'
  /**
   * A request whose `deadline` (or, without one, `sentAt` + `timeoutMs`) had passed on arrival —
   * e.g. replayed by the broker to a freshly connected worker; its orchestrator stopped waiting.
   */
  | 'expired'
  /** A cancel for a request this bridge does not run (finished, unknown, or from another sender). */
  | 'unknown_cancel';

/** What the bridge reports to `onEvent`. */
export type RelayWorkerBridgeEvent =
  | { type: 'request_received'; requestId: string; turnId: string; from: string; queued: boolean }
  | { type: 'request_started'; requestId: string; turnId: string; from: string; timeoutMs: number }
  | {
      type: 'request_finished';
      requestId: string;
      turnId: string;
      from: string;
      status: string;
      /** The error code of a failed run. */
      errorCode?: string | undefined;
      durationMs: number;
      /** Whether the reply was handed to the relay. */
      replied: boolean;
    }
  | { type: 'request_cancelled'; requestId: string; from: string; reason: string }
  | { type: 'message_ignored'; reason: RelayWorkerIgnoredReason; from: string; detail: string }
  | { type: 'reply_failed'; requestId: string; to: string; detail: string };

/** Counters of one bridge since it started. */
export interface RelayWorkerBridgeStats {
  /** Messages delivered to the worker's name. */
  received: number;
  /** Requests run (or refused) and replied to. */
  finished: number;
  /** Runs that ended `completed`. */
  completed: number;
  /** Runs that ended otherwise (failed, timeout, cancelled, refused). */
  failed: number;
  /** Cancel messages that stopped a run. */
  cancelled: number;
  /** Messages ignored, by reason. */
  ignored: Record<RelayWorkerIgnoredReason, number>;
  /** Replies the relay refused. */
  replyFailures: number;
  /** Runs in progress now. */
  running: number;
  /** Requests waiting for a slot now. */
  queued: number;
}

/** A running bridge. */
export interface RelayWorkerBridge {
  /** The worker's name on the relay. */
  readonly workerName: string;
  /** A snapshot of the counters. */
  stats(): RelayWorkerBridgeStats;
  /**
   * Stops taking work: unsubscribes, refuses queued requests (`failed`, retryable), waits up to
   * `disposeTimeoutMs` (or `options.timeoutMs`) for runs in progress (they still reply), then
   * stops the rest and waits for their processes to end. Resolves when no run is left. Idempotent;
   * a later call with a shorter `timeoutMs` (e.g. `0` on a second Ctrl-C) stops the runs sooner.
   * Does not shut the relay down.
   */
  dispose(options?: { timeoutMs?: number | undefined }): Promise<void>;
}
