import { executionStreamEventSchema } from '../../execution/execution-stream-event-schema.js';
import type { ExecutionStreamEvent } from '../../execution/types.js';
import type { RunContext } from './run-context.js';

/** Most answer text kept to match the final answer against what was streamed, in characters. */
const MAX_TRACKED_TEXT_CHARS = 8_388_608;

/** Forwards a backend's live events into `streamTurn` while `execute` runs. */
export interface BackendStream {
  /** The callback handed to the backend, or `undefined` when nobody streams. */
  readonly onEvent: ((event: ExecutionStreamEvent) => void) | undefined;
  /** Stops forwarding: events a backend sends after its `execute` settled are ignored. */
  close(): void;
  /**
   * Streams what the caller has not seen of the final `text`: all of it when nothing was
   * streamed, the rest when the deltas were a prefix of it, nothing when they diverged.
   */
  finishText(text: string): void;
  /** Facts for the result metadata (events dropped as malformed, deltas that did not match the answer). */
  report(): { droppedStreamEvents?: number; streamedTextDiverged?: boolean };
}

/** Creates the forwarder of one backend run. */
export function createBackendStream(run: RunContext, iteration: number): BackendStream {
  let open = run.streaming;
  let streamed = '';
  let overflow = false;
  let dropped = 0;
  let diverged = false;
  const onEvent = (raw: ExecutionStreamEvent) => {
    if (!open) return;
    let event: ExecutionStreamEvent;
    try {
      const parsed = executionStreamEventSchema.safeParse(raw);
      if (!parsed.success) {
        dropped += 1;
        return;
      }
      event = parsed.data as ExecutionStreamEvent;
    } catch {
      dropped += 1;
      return;
    }
    if (event.type === 'text_delta') {
      if (overflow || streamed.length + event.text.length > MAX_TRACKED_TEXT_CHARS) {
        overflow = true;
        return;
      }
      streamed += event.text;
      run.trace.stream({ type: 'text_delta', iteration, text: event.text });
      return;
    }
    run.trace.stream({ ...event, iteration });
  };
  return {
    onEvent: run.streaming ? onEvent : undefined,
    close() {
      open = false;
    },
    finishText(text) {
      open = false;
      if (!run.streaming || text === '') return;
      if (text.startsWith(streamed)) {
        if (text.length > streamed.length) run.trace.stream({ type: 'text_delta', iteration, text: text.slice(streamed.length) });
        return;
      }
      diverged = true;
    },
    report() {
      return { ...(dropped === 0 ? {} : { droppedStreamEvents: dropped }), ...(diverged ? { streamedTextDiverged: true } : {}) };
    },
  };
}
