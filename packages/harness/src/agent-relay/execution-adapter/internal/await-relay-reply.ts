import {
  AGENT_RELAY_EXECUTION_EVENT_TYPE,
  type DecodedExecutionEventMessage,
  type DecodedExecutionResultMessage,
  type RelayDecodeFailureReason,
} from '../../protocol/message-types.js';
import { eventFromBody } from '../../protocol/execution-event-message.js';
import { resultFromBody } from '../../protocol/execution-result-message.js';
import { parseBody, typeOf } from '../../protocol/parse-body.js';
import type { RelayInboundMessage, RelayTransport } from '../../protocol/relay-transport.js';

/** Why a message that reached the orchestrator's name was not taken as this turn's reply. */
export type IgnoredMessageReason = RelayDecodeFailureReason | 'wrong_sender' | 'wrong_thread';

/** Counts of ignored messages by reason, plus the first few of them for the trace. */
export interface IgnoredMessages {
  counts: Partial<Record<IgnoredMessageReason, number>>;
  total: number;
  /** At most `MAX_NOTED` entries: reason, the relay's message id and the sender (both cut short). */
  noted: { reason: IgnoredMessageReason; id: string; from: string; at: number }[];
}

/** How the wait ended. */
export type RelayWaitOutcome =
  | { kind: 'reply'; message: DecodedExecutionResultMessage; inbound: RelayInboundMessage; at: number }
  | { kind: 'timeout'; at: number }
  | { kind: 'aborted'; at: number }
  | { kind: 'connection_lost'; error: Error; at: number };

/** What identifies this turn's reply. */
export interface RelayWaitTarget {
  transport: RelayTransport;
  orchestratorName: string;
  workerName: string;
  requestId: string;
  turnId: string;
  threadId: string;
  timeoutMs: number;
  maxReplyChars: number;
  signal?: AbortSignal | undefined;
  now: () => number;
  /**
   * Receives this request's event messages (from the worker, on the thread) until the reply; a
   * listener must not throw. Without it this request's event messages are ignored as `foreign`
   * (other requests' are dropped silently, like their results).
   */
  onEvents?: ((message: DecodedExecutionEventMessage) => void) | undefined;
}

/** A wait in progress. `outcome` settles once; `dispose` ends the wait early and frees everything. */
export interface RelayWait {
  outcome: Promise<RelayWaitOutcome>;
  ignored: IgnoredMessages;
  dispose(): void;
}

const MAX_NOTED = 20;

/**
 * Subscribes to the orchestrator's name and waits for the reply to one request: a result message
 * carrying the request id (or, from shorthand workers that send none, the turn id), from the
 * worker, on the thread. The request's event messages, checked the same way, go to `onEvents`
 * until then. Everything else is ignored and counted. Ends on the reply, the timeout or
 * the signal; on any ending the subscription, the timer and the abort listener are removed.
 */
export function awaitRelayReply(target: RelayWaitTarget): RelayWait {
  const ignored: IgnoredMessages = { counts: {}, total: 0, noted: [] };
  const seen = new Set<string>();
  let settle!: (outcome: RelayWaitOutcome) => void;
  let settled = false;
  const outcome = new Promise<RelayWaitOutcome>((resolve) => {
    settle = resolve;
  });

  const ignore = (reason: IgnoredMessageReason, inbound: RelayInboundMessage) => {
    ignored.counts[reason] = (ignored.counts[reason] ?? 0) + 1;
    ignored.total += 1;
    if (ignored.noted.length < MAX_NOTED) {
      ignored.noted.push({ reason, id: String(inbound.id).slice(0, 120), from: String(inbound.from).slice(0, 120), at: target.now() });
    }
  };

  const onMessage = (inbound: RelayInboundMessage) => {
    if (settled) return;
    try {
      if (seen.has(inbound.id)) return;
      seen.add(inbound.id);
      const body = parseBody(inbound.text, { maxChars: target.maxReplyChars });
      if (!body.ok) {
        ignore(body.reason, inbound);
        return;
      }
      const decoded = typeOf(body.message) === AGENT_RELAY_EXECUTION_EVENT_TYPE ? eventFromBody(body.message) : resultFromBody(body.message);
      if (!decoded.ok) {
        ignore(decoded.reason, inbound);
        return;
      }
      const message = decoded.message;
      const mine = message.requestId === undefined ? message.turnId === target.turnId : message.requestId === target.requestId;
      if (!mine) return; // Another turn's message, or a late one: not this turn's business.
      if (inbound.from !== target.workerName) {
        ignore('wrong_sender', inbound);
        return;
      }
      const thread = message.threadId ?? inbound.threadId;
      if (thread !== target.threadId || (inbound.threadId !== undefined && inbound.threadId !== target.threadId)) {
        ignore('wrong_thread', inbound);
        return;
      }
      if (!('seq' in message)) finish({ kind: 'reply', message, inbound, at: target.now() });
      else if (target.onEvents === undefined) ignore('foreign', inbound); // Events this turn did not ask for.
      else target.onEvents(message);
    } catch {
      // A hostile message (throwing getters and the like) is ignored like any malformed one.
      ignore('malformed', inbound);
    }
  };

  let unwatch: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => finish({ kind: 'aborted', at: target.now() });
  const release = () => {
    if (timer !== undefined) clearTimeout(timer);
    target.signal?.removeEventListener('abort', onAbort);
    for (const stop of [unsubscribe, unwatch]) {
      try {
        stop?.();
      } catch {
        // The transport's fault; the wait is over either way.
      }
    }
  };
  function finish(ending: RelayWaitOutcome) {
    if (settled) return;
    settled = true;
    release();
    settle(ending);
  }

  // Declared after `release`, which only runs once it exists: the relay delivers asynchronously.
  const unsubscribe = target.transport.subscribe(target.orchestratorName, onMessage);
  try {
    unwatch = target.transport.watchConnection?.((error) => finish({ kind: 'connection_lost', error, at: target.now() }));
  } catch {
    // A relay whose watch fails is waited on without it.
  }
  if (settled) {
    release(); // The watch reported a loss while being set up: free what was set up after it.
  } else {
    timer = setTimeout(() => finish({ kind: 'timeout', at: target.now() }), target.timeoutMs);
    target.signal?.addEventListener('abort', onAbort, { once: true });
    if (target.signal?.aborted === true) onAbort();
  }
  return { outcome, ignored, dispose: () => finish({ kind: 'aborted', at: target.now() }) };
}
