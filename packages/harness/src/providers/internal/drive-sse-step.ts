import type { HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';
import { HarnessModelHttpError } from '../http/harness-model-http-error.js';
import { httpErrorToInvalidOutput } from '../http/http-error-to-invalid-output.js';
import type { SseEvent } from '../sse/read-sse-events.js';
import type { StreamCallOutcome } from './create-provider-transport.js';
import { outputMetadata, outputUsage, type OutputContext } from './transport-failure-output.js';

/** What one SSE event means to a provider: text to stream, the end of the stream, or a final output. */
export interface SseStepUpdate {
  text?: string;
  end?: boolean;
  output?: HarnessModelOutput;
}

/** A provider's stream protocol. */
export interface SseStepHandler {
  onEvent(event: SseEvent): SseStepUpdate | undefined;
  /** The output after the stream ended (normally or early: the handler knows whether it was complete). */
  finish(): HarnessModelOutput;
}

/**
 * Reads an open stream through `handler`, yielding `text_delta` parts as they come and exactly one
 * `output` part at the end. A broken, silent or cancelled stream ends with the matching `invalid`
 * output instead of hanging; the connection is closed in every case, also when the consumer stops early.
 */
export async function* driveSseStep(
  stream: Extract<StreamCallOutcome, { type: 'stream' }>,
  handler: SseStepHandler,
  context: OutputContext,
): AsyncGenerator<HarnessModelStreamPart, void, undefined> {
  let final: HarnessModelOutput | undefined;
  try {
    for await (const event of stream.events) {
      const update = handler.onEvent(event);
      if (update === undefined) continue;
      if (update.text !== undefined && update.text !== '') yield { type: 'text_delta', text: context.redactor.exact(update.text) };
      if (update.output !== undefined) {
        final = update.output;
        break;
      }
      if (update.end === true) break;
    }
  } catch (error) {
    if (!HarnessModelHttpError.isInstance(error)) throw error;
    final = httpErrorToInvalidOutput(error, { usage: outputUsage(context), metadata: outputMetadata(context) });
  } finally {
    stream.close();
  }
  yield { type: 'output', output: final ?? handler.finish() };
}
