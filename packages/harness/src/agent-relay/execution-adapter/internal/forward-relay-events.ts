import { capTextDeltas } from '../../../execution/answer-cap.js';
import type { ExecutionStreamEvent } from '../../../execution/types.js';
import type { DecodedExecutionEventMessage } from '../../protocol/message-types.js';

/** What came of a turn's event messages, for the result's `metadata.relay.events`. */
export interface RelayEventStats {
  messages: number;
  forwarded: number;
  /** Events left out: invalid, or text deltas after a gap. */
  dropped: number;
  /** Messages whose `seq` skipped one or more (lost on the way). */
  gaps: number;
  /** Messages seen before (`seq` already taken), ignored. */
  repeats: number;
}

/** Hands a worker's event messages to the turn in `seq` order. */
export interface RelayEventForwarder {
  readonly stats: RelayEventStats;
  receive(message: DecodedExecutionEventMessage): void;
}

/**
 * Forwards each new event message's events to `onEvent`. A repeated `seq` is ignored; after a gap
 * (a message lost on the way) text deltas are no longer forwarded, so the streamed text stays a
 * prefix of the answer and the harness completes it from the result; text deltas past
 * `MAX_ANSWER_CHARS` are dropped like the answer's text. What `onEvent` throws is ignored.
 */
export function forwardRelayEvents(onEvent: (event: ExecutionStreamEvent) => void): RelayEventForwarder {
  const stats: RelayEventStats = { messages: 0, forwarded: 0, dropped: 0, gaps: 0, repeats: 0 };
  let nextSeq = 0;
  let textBroken = false;
  const cap = capTextDeltas();
  return {
    stats,
    receive(message) {
      if (message.seq < nextSeq) {
        stats.repeats += 1;
        return;
      }
      if (message.seq > nextSeq) {
        stats.gaps += 1;
        textBroken = true;
      }
      nextSeq = message.seq + 1;
      stats.messages += 1;
      stats.dropped += message.droppedEvents;
      for (const event of message.events) {
        const capped = event.type === 'text_delta' && textBroken ? undefined : cap(event);
        if (capped === undefined) {
          stats.dropped += 1;
          continue;
        }
        stats.forwarded += 1;
        try {
          onEvent(capped);
        } catch {
          // The listener's fault; the turn goes on.
        }
      }
    },
  };
}
