import type { HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import { utf8ByteLength } from '../../core/continuation/utf8-byte-length.js';
import { createRedactor } from '../../shared/redact-secrets.js';
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
 *
 * One retry budget per step (`retry.maxRetries`), spent here and in the transport: failed HTTP
 * attempts, and a retryable error the provider reports inside a 200 response (or a stream cut
 * short) while nothing of the step has been streamed to the caller. A stream cut short is repeated
 * at most once in all: here, or — when it had already streamed text — by the loop as a new step
 * (the output is then `transient`). Every output's `metadata.attempts` is the number of requests
 * the step made.
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
        return { ok: false, output: invalidOutput('provider_error', error.message, contextFor(startedAt, 0), { retryable: false, code: error.reason }) };
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

  const call = (input: HarnessModelInput, bodyText: string, firstAttempt: number) => ({
    signal: input.signal,
    deadlineAt: input.deadline,
    bodyText,
    firstAttempt,
  });
  /** Whether to send the step again after `output` (from a 200 response) at attempt `attempt`; waits when so. */
  const repeat = async (input: HarnessModelInput, output: HarnessModelOutput, attempt: number, failure: 'provider_error' | 'network') =>
    isRetryableProviderFailure(output) &&
    (await transport.waitToRetry(attempt, { signal: input.signal, deadlineAt: input.deadline }, { retryable: true, failure })) === 'retry';

  return {
    async nextStep(input: HarnessModelInput): Promise<HarnessModelOutput> {
      const startedAt = Date.now();
      const request = serialize(input, false, startedAt);
      if (!request.ok) return request.output;
      for (let firstAttempt = 1; ; ) {
        const outcome = await transport.sendJson(undefined, call(input, request.text, firstAttempt));
        const context = contextFor(startedAt, request.bytes, outcome);
        const output = outcome.type === 'json' ? protocol.mapJson(outcome.value, context) : transportFailureOutput(outcome, context);
        if (outcome.type !== 'json' || !(await repeat(input, output, outcome.attempts, 'provider_error'))) return priced(output);
        firstAttempt = outcome.attempts + 1;
      }
    },
    async *streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart> {
      const startedAt = Date.now();
      const request = serialize(input, true, startedAt);
      if (!request.ok) {
        yield { type: 'output', output: request.output };
        return;
      }
      let cutRepeated = false;
      for (let firstAttempt = 1; ; ) {
        const outcome = await transport.openStream(undefined, call(input, request.text, firstAttempt));
        const context = contextFor(startedAt, request.bytes, outcome);
        if (outcome.type !== 'stream') {
          const output = outcome.type === 'json' ? protocol.mapJson(outcome.value, context) : transportFailureOutput(outcome, context);
          if (outcome.type === 'json' && (await repeat(input, output, outcome.attempts, 'provider_error'))) {
            firstAttempt = outcome.attempts + 1;
            continue;
          }
          yield { type: 'output', output: priced(output) };
          return;
        }
        let streamed = false;
        let output: HarnessModelOutput | undefined;
        for await (const part of driveSseStep(outcome, protocol.streamHandler(context), context)) {
          if (part.type === 'output') output = part.output;
          else {
            streamed = true;
            yield part;
          }
        }
        const final = output ?? invalidOutput('empty_response', 'The stream ended without an output.', context);
        const cut = isCutShort(final);
        // A stream cut short is repeated at most once: here while nothing of it reached the caller, or
        // else by the loop as a new step (`transient`), so the partial text stays apart.
        const cutBefore = cutRepeated || (cut && wasCutShort(input.transcript.at(-1)));
        if (!streamed && !(cut && cutBefore) && (await repeat(input, final, outcome.attempts, cut ? 'network' : 'provider_error'))) {
          cutRepeated ||= cut;
          firstAttempt = outcome.attempts + 1;
          continue;
        }
        const repeatable = cut && streamed && !cutBefore && final.type === 'invalid' && final.retryable === true;
        yield { type: 'output', output: priced(repeatable ? { ...final, kind: 'transient' } : final) };
        return;
      }
    },
  };
}

/** A failed provider call worth repeating: a `provider_error` the adapter marked retryable. */
function isRetryableProviderFailure(output: HarnessModelOutput): boolean {
  return output.type === 'invalid' && output.kind === 'provider_error' && output.retryable === true;
}

const cutShortCodes = new Set(['stream_truncated', 'network_error', 'provider_timeout']);

/** A stream that ended, broke or went silent before its terminal event. */
function isCutShort(output: HarnessModelOutput): boolean {
  return output.type === 'invalid' && output.code !== undefined && cutShortCodes.has(output.code);
}

/** Whether the step before this one was a stream cut short (the loop's one repeat is spent). */
function wasCutShort(item: HarnessTranscriptItem | undefined): boolean {
  return item?.type === 'invalid_output' && item.code !== undefined && cutShortCodes.has(item.code);
}
