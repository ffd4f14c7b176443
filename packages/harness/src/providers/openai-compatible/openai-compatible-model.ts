import type { HarnessModelAdapter, HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';

/** A chat-completions model adapter: `nextStep` (one JSON call) and `streamStep` (SSE). */
export interface OpenAICompatibleModel extends HarnessModelAdapter {
  /** The configured model id. */
  readonly model: string;
  /** The provider name written to output metadata. */
  readonly provider: string;
  /** Runs one model step with a single JSON request (retried on transient failures); never rejects for provider faults. */
  nextStep(input: HarnessModelInput): Promise<HarnessModelOutput>;
  /** Runs one model step over SSE: `text_delta` (and `reasoning_delta`) parts as they arrive, then exactly one `output` part. */
  streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart>;
}
