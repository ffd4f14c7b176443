import type { HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';
import { utf8ByteLength } from '../../core/continuation/utf8-byte-length.js';
import { createRedactor } from '../http/redact-secrets.js';
import type { ModelPricing } from '../pricing/model-pricing.js';
import { priceUsage } from '../pricing/price-usage.js';
import type { JsonCallOutcome, ProviderTransport, StreamCallOutcome } from './create-provider-transport.js';
import { driveSseStep, type SseStepHandler } from './drive-sse-step.js';
import { UnsupportedInputError } from './unsupported-input-error.js';
import { invalidOutput, transportFailureOutput, type OutputContext } from './transport-failure-output.js';

/** What differs between HTTP model protocols; the step plumbing around it is shared. */
export interface ModelStepProtocol {
  provider: string;
  model: string;
  buildBody(input: HarnessModelInput, stream: boolean): Record<string, unknown>;
  /** Maps a complete JSON response body to an output. */
  mapJson(value: unknown, context: OutputContext): HarnessModelOutput;
  /** Handles the events (SSE events, or NDJSON lines as `data`) of one streamed step. */
  streamHandler(context: OutputContext): SseStepHandler;
  /** Prices reported tokens into `usage.costUnits` unless the provider reported a cost. */
  pricing?: Readonly<ModelPricing> | undefined;
  /** Largest serialized request body in UTF-8 bytes; a larger step ends `input_too_large` before any call. */
  maxInputBytes?: number | undefined;
}

type Serialized = { ok: true; text: string; bytes: number } | { ok: false; output: HarnessModelOutput };

/**
 * `nextStep` (one JSON call) and `streamStep` (SSE or NDJSON) for a protocol over a transport. The
 * body is serialized once and measured: every output carries `metadata.requestBytes`, a body over
 * `maxInputBytes` is never sent, and reported usage is priced with `pricing`.
 */
export function createModelSteps(transport: ProviderTransport, protocol: ModelStepProtocol) {
  const contextFor = (startedAt: number, requestBytes: number, outcome?: JsonCallOutcome | StreamCallOutcome): OutputContext => ({
    provider: protocol.provider,
    model: protocol.model,
    startedAt,
    attempts: outcome !== undefined && 'attempts' in outcome ? outcome.attempts : 0,
    redactor: outcome?.redactor ?? createRedactor([]),
    now: Date.now,
    requestBytes,
  });
  const priced = (output: HarnessModelOutput): HarnessModelOutput =>
    protocol.pricing === undefined || output.usage === undefined ? output : { ...output, usage: priceUsage(output.usage, protocol.pricing) };

  const serialize = (input: HarnessModelInput, stream: boolean, startedAt: number): Serialized => {
    let text: string;
    try {
      text = JSON.stringify(protocol.buildBody(input, stream));
    } catch (error) {
      if (UnsupportedInputError.isInstance(error)) {
        return { ok: false, output: invalidOutput('provider_error', error.message, contextFor(startedAt, 0), { retryable: false, code: error.code }) };
      }
      const output = invalidOutput('provider_error', 'The request could not be serialized as JSON.', contextFor(startedAt, 0), { retryable: false });
      return { ok: false, output };
    }
    const bytes = utf8ByteLength(text);
    const limit = protocol.maxInputBytes;
    if (limit === undefined || bytes <= limit) return { ok: true, text, bytes };
    const reason = `The request would be ${bytes} bytes, more than maxInputBytes (${limit}); nothing was sent.`;
    const output = invalidOutput('input_too_large', reason, contextFor(startedAt, bytes), {
      retryable: false,
      metadata: { maxInputBytes: limit },
    });
    return { ok: false, output };
  };

  return {
    async nextStep(input: HarnessModelInput): Promise<HarnessModelOutput> {
      const startedAt = Date.now();
      const request = serialize(input, false, startedAt);
      if (!request.ok) return request.output;
      const outcome = await transport.sendJson(undefined, { signal: input.signal, bodyText: request.text });
      const context = contextFor(startedAt, request.bytes, outcome);
      return priced(outcome.type === 'json' ? protocol.mapJson(outcome.value, context) : transportFailureOutput(outcome, context));
    },
    async *streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart> {
      const startedAt = Date.now();
      const request = serialize(input, true, startedAt);
      if (!request.ok) {
        yield { type: 'output', output: request.output };
        return;
      }
      const outcome = await transport.openStream(undefined, { signal: input.signal, bodyText: request.text });
      const context = contextFor(startedAt, request.bytes, outcome);
      if (outcome.type !== 'stream') {
        const output = outcome.type === 'json' ? protocol.mapJson(outcome.value, context) : transportFailureOutput(outcome, context);
        yield { type: 'output', output: priced(output) };
        return;
      }
      for await (const part of driveSseStep(outcome, protocol.streamHandler(context), context)) {
        yield part.type === 'output' ? { type: 'output', output: priced(part.output) } : part;
      }
    },
  };
}
