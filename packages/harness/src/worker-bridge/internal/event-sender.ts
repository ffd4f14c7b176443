import type { ExecutionStreamEvent } from '../../execution/types.js';
import { encodeExecutionEventMessage } from '../../agent-relay/protocol/execution-event-message.js';
import { MAX_EVENTS_PER_MESSAGE } from '../../agent-relay/protocol/message-types.js';

/** How long events gather before they go out as one message, in milliseconds. */
const FLUSH_MS = 40;
/** Characters (as JSON) of the events of one message at most, unless the bridge's reply limit is lower. */
const MAX_MESSAGE_CHARS = 262_144;
/** Room left in a message for its envelope (type, ids, time, seq). */
const ENVELOPE_CHARS = 512;
/** Characters (as JSON) of events waiting or being sent at most; later events are dropped. */
const MAX_QUEUED_CHARS = 4_194_304;

/** Sends a run's live events as event messages, in order, ahead of its result. */
export interface EventSender {
  /** Queues one event of the runner; ignored once closed. Never throws. */
  push(event: ExecutionStreamEvent): void;
  /** Sends what is queued and stops taking events; resolves once the last message was sent or failed. */
  close(): Promise<void>;
}

/** What an event message needs besides its events. */
export interface EventEnvelope {
  requestId: string;
  turnId: string;
  threadId: string;
}

/**
 * Creates the sender of one run. Events gather for a few milliseconds and go out together
 * (adjacent text deltas merged), one message at a time, numbered from 0. Once one text delta is
 * dropped, later ones are dropped too, so the text the orchestrator streamed stays a prefix of the
 * answer and the result completes it.
 */
export function createEventSender(envelope: EventEnvelope, send: (text: string) => Promise<void>, maxReplyChars: number): EventSender {
  const maxMessageChars = Math.max(64, Math.min(MAX_MESSAGE_CHARS, maxReplyChars - ENVELOPE_CHARS));
  let queue: { event: ExecutionStreamEvent; chars: number }[] = [];
  let queuedChars = 0;
  /** Characters of messages handed to the relay and not yet sent: a slow relay holds them. */
  let sendingChars = 0;
  let seq = 0;
  let textBroken = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();

  /** After a lost text delta no later one is sent, so the orchestrator's streamed text stays a prefix. */
  const drop = (event: ExecutionStreamEvent) => {
    if (event.type === 'text_delta') textBroken = true;
  };

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const pending = queue;
    queue = [];
    queuedChars = 0;
    let head = 0;
    while (head < pending.length) {
      const batch: ExecutionStreamEvent[] = [];
      let chars = 0;
      while (head < pending.length && batch.length < MAX_EVENTS_PER_MESSAGE && (batch.length === 0 || chars + pending[head]!.chars <= maxMessageChars)) {
        const next = pending[head]!;
        head += 1;
        batch.push(next.event);
        chars += next.chars;
      }
      const text = encodeExecutionEventMessage({ ...envelope, sentAt: new Date().toISOString(), seq, events: batch });
      seq += 1;
      sendingChars += chars;
      chain = chain
        .then(() => send(text))
        // A message the relay refused is lost like one dropped on the way; the orchestrator sees the gap.
        .then(undefined, () => undefined)
        .then(() => {
          sendingChars -= chars;
        });
    }
  };

  const queueEvent = (event: ExecutionStreamEvent) => {
    const isText = event.type === 'text_delta' && typeof event.text === 'string';
    if (isText && textBroken) return;
    const last = queue.at(-1);
    if (isText && last?.event.type === 'text_delta') {
      // Sized by adding the new text's JSON, not by encoding the merged text again (which would make
      // a stream of one-character deltas quadratic).
      const added = JSON.stringify(event.text).length - 2;
      if (last.chars + added <= maxMessageChars) {
        if (sendingChars + queuedChars + added > MAX_QUEUED_CHARS) {
          drop(event);
          return;
        }
        queue[queue.length - 1] = { event: { type: 'text_delta', text: last.event.text + event.text }, chars: last.chars + added };
        queuedChars += added;
        return;
      }
    }
    const chars = JSON.stringify(event)?.length ?? 0;
    // An event no message can carry within the reply limit is dropped, like one past the queue bound.
    if (chars === 0 || chars > maxMessageChars || sendingChars + queuedChars + chars > MAX_QUEUED_CHARS) {
      drop(event);
      return;
    }
    queue.push({ event, chars });
    queuedChars += chars;
    if (queue.length >= MAX_EVENTS_PER_MESSAGE) flush();
    else timer ??= setTimeout(flush, FLUSH_MS);
  };

  return {
    push(event) {
      if (closed) return;
      try {
        queueEvent(event);
      } catch {
        // An event JSON cannot carry, or one whose fields throw: the orchestrator never sees it.
        textBroken = true;
      }
    },
    close() {
      if (!closed) {
        closed = true;
        flush();
      }
      return chain;
    },
  };
}
