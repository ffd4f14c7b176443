import type { HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';
import type { JsonCallOutcome, ProviderTransport, StreamCallOutcome } from './create-provider-transport.js';
import { driveSseStep, type SseStepHandler } from './drive-sse-step.js';
import { transportFailureOutput, type OutputContext } from './transport-failure-output.js';

/** What differs between HTTP model protocols; the step plumbing around it is shared. */
export interface ModelStepProtocol {
  provider: string;
  model: string;
  buildBody(input: HarnessModelInput, stream: boolean): Record<string, unknown>;
  /** Maps a complete JSON response body to an output. */
  mapJson(value: unknown, context: OutputContext): HarnessModelOutput;
  /** Handles the SSE events of one streamed step. */
  streamHandler(context: OutputContext): SseStepHandler;
}

/** `nextStep` (one JSON call) and `streamStep` (SSE) for a protocol over a transport. */
export function createModelSteps(transport: ProviderTransport, protocol: ModelStepProtocol) {
  const contextFor = (startedAt: number, outcome: JsonCallOutcome | StreamCallOutcome): OutputContext => ({
    provider: protocol.provider,
    model: protocol.model,
    startedAt,
    attempts: 'attempts' in outcome ? outcome.attempts : 0,
    redactor: outcome.redactor,
    now: Date.now,
  });
  return {
    async nextStep(input: HarnessModelInput): Promise<HarnessModelOutput> {
      const startedAt = Date.now();
      const outcome = await transport.sendJson(protocol.buildBody(input, false), { signal: input.signal });
      const context = contextFor(startedAt, outcome);
      return outcome.type === 'json' ? protocol.mapJson(outcome.value, context) : transportFailureOutput(outcome, context);
    },
    async *streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart> {
      const startedAt = Date.now();
      const outcome = await transport.openStream(protocol.buildBody(input, true), { signal: input.signal });
      const context = contextFor(startedAt, outcome);
      if (outcome.type !== 'stream') {
        const output = outcome.type === 'json' ? protocol.mapJson(outcome.value, context) : transportFailureOutput(outcome, context);
        yield { type: 'output', output };
        return;
      }
      yield* driveSseStep(outcome, protocol.streamHandler(context), context);
    },
  };
}
