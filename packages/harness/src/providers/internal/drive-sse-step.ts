import type { HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';
import { HarnessModelHttpError } from '../http/harness-model-http-error.js';
import { httpErrorToInvalidOutput } from '../http/http-error-to-invalid-output.js';
import { createStreamRedactor } from '../http/stream-redactor.js';
import type { SseEvent } from '../sse/read-sse-events.js';
import type { StreamCallOutcome } from './create-provider-transport.js';
import type { StreamPosition } from './parse-stream-payload.js';
import { invalidOutput, outputMetadata, outputUsage, type OutputContext } from './transport-failure-output.js';

/** What one SSE event means to a provider: text to stream, the end of the stream, or a final output. */
export interface SseStepUpdate {
  text?: string;
  /** Reasoning text to stream as `reasoning_delta` (never mixed into the answer's `text_delta`s). */
  reasoning?: string;
  end?: boolean;
  output?: HarnessModelOutput;
}

/** A provider's stream protocol. */
export interface SseStepHandler {
  /** Reads one event; `position` names it in messages (its 1-based index and SSE event name). */
  onEvent(event: SseEvent, position: StreamPosition): SseStepUpdate | undefined;
  /** The output after the stream ended (normally or early: the handler knows whether it was complete). */
  finish(): HarnessModelOutput;
}

/**
 * Reads an open stream through `handler`, yielding `text_delta` (and `reasoning_delta`) parts as they come and exactly one
 * `output` part at the end. A broken, silent, oversized or cancelled stream ends with the matching
 * `invalid` output instead of hanging; the connection is closed in every case, also when the consumer
 * stops early. Deltas are redacted as one text: the end of a delta that could begin a secret is held
 * back until the next delta (or the end), so a secret split across deltas never reassembles.
 */
export async function* driveSseStep(
  stream: Extract<StreamCallOutcome, { type: 'stream' }>,
  handler: SseStepHandler,
  context: OutputContext,
): AsyncGenerator<HarnessModelStreamPart, void, undefined> {
  let final: HarnessModelOutput | undefined;
  const text = createStreamRedactor(context.redactor);
  const reasoning = createStreamRedactor(context.redactor);
  const position: StreamPosition = { index: 0 };
  try {
    for await (const event of stream.events) {
      position.index += 1;
      position.name = event.event;
      const update = handler.onEvent(event, position);
      if (update === undefined) continue;
      if (update.reasoning !== undefined && update.reasoning !== '') {
        const safe = reasoning.push(update.reasoning);
        if (safe !== '') yield { type: 'reasoning_delta', text: safe };
      }
      if (update.text !== undefined && update.text !== '') {
        const safe = text.push(update.text);
        if (safe !== '') yield { type: 'text_delta', text: safe };
      }
      if (update.output !== undefined) {
        final = update.output;
        break;
      }
      if (update.end === true) break;
    }
  } catch (error) {
    // A broken or silent stream comes as a `HarnessModelHttpError`; anything else is a handler that
    // could not read an event, which reading it again would not change.
    final = HarnessModelHttpError.isInstance(error)
      ? httpErrorToInvalidOutput(error, { usage: outputUsage(context), metadata: outputMetadata(context) })
      : invalidOutput('provider_error', `Stream event ${position.index} could not be read.`, context, { retryable: false, code: 'invalid_response' });
  } finally {
    stream.close();
  }
  const reasoningRest = reasoning.flush();
  if (reasoningRest !== '') yield { type: 'reasoning_delta', text: reasoningRest };
  const rest = text.flush();
  if (rest !== '') yield { type: 'text_delta', text: rest };
  yield { type: 'output', output: final ?? handler.finish() };
}
