import type { HarnessModelOutput } from '../../core/types/model.js';
import type { SseStepHandler, SseStepUpdate } from './drive-sse-step.js';
import { parseStreamPayload, type PayloadSchema, type StreamPayloadNames } from './parse-stream-payload.js';
import { truncatedStreamOutput, type OutputContext } from './transport-failure-output.js';

/** A protocol's stream assembler: takes each event, says when the stream is over, gives the whole message. */
export interface StreamAssembler<TEvent, TMessage> {
  /** Text and reasoning to stream for this event, if any. */
  push(event: TEvent): Pick<SseStepUpdate, 'text' | 'reasoning'> | undefined;
  isComplete(): boolean;
  hasError(): boolean;
  result(): TMessage;
}

/** What `assembledStreamHandler` needs of a protocol whose stream says when it is complete. */
export interface AssembledStreamProtocol<TEvent, TMessage> {
  assembler: StreamAssembler<TEvent, TMessage>;
  schema: PayloadSchema<TEvent>;
  names: StreamPayloadNames;
  toOutput(message: TMessage, context: OutputContext): HarnessModelOutput;
}

/**
 * The SSE handler of a protocol that announces its end (Anthropic `message_stop`, Responses
 * `response.completed`): each event is checked against `schema` and fed to the assembler, its
 * deltas streamed; the stream ends once the assembler is complete or saw an error, and a stream
 * that stops before that ends as a truncated stream (`truncatedStreamOutput`).
 */
export function assembledStreamHandler<TEvent, TMessage>(
  context: OutputContext,
  protocol: AssembledStreamProtocol<TEvent, TMessage>,
): SseStepHandler {
  const { assembler } = protocol;
  return {
    onEvent(event, position) {
      const parsed = parseStreamPayload(event.data, protocol.schema, context, protocol.names, position);
      if (!parsed.ok) return { output: parsed.output };
      const delta = assembler.push(parsed.value);
      const end = assembler.isComplete() || assembler.hasError();
      return delta === undefined && !end ? undefined : { ...delta, ...(end ? { end } : {}) };
    },
    finish() {
      if (!assembler.isComplete() && !assembler.hasError()) {
        return truncatedStreamOutput(context);
      }
      return protocol.toOutput(assembler.result(), context);
    },
  };
}
