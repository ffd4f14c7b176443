import type { OpenAIResponsesOutputItem, OpenAIResponsesStreamEvent } from '../openai-responses-api-types.js';
import { readProviderError } from '../../http/provider-error-class.js';
import { readOpenAIResponse, type AssembledOpenAIResponse } from './map-openai-responses-output.js';

/** What one stream event adds to the streamed answer: answer text or reasoning text. */
export interface OpenAIResponsesStreamDelta {
  text?: string;
  reasoning?: string;
}

/**
 * Collects Responses API stream events into one response: output items by `output_index`
 * (`response.output_item.added` / `.done`), `response.output_text.delta` and `response.refusal.delta`
 * appended to their content part, `response.function_call_arguments.delta` joined per call;
 * `response.reasoning_summary_text.delta` and `response.reasoning_text.delta` are streamed as
 * reasoning (summary parts and items separated by a blank line; the reasoning items themselves come
 * with `response.output_item.done`). The
 * terminal `response.completed` / `response.incomplete` / `response.failed` event supplies status
 * and usage (and its output, when it carries one, wins over the assembled items).
 */
export interface OpenAIResponsesStreamAssembler {
  /** Adds an event; returns its answer-text or reasoning delta, if any. */
  push(event: OpenAIResponsesStreamEvent): OpenAIResponsesStreamDelta | undefined;
  /** True after a terminal response event. */
  isComplete(): boolean;
  /** True after an `error` event or `response.failed`. */
  hasError(): boolean;
  result(): AssembledOpenAIResponse;
}

type ContentPart = NonNullable<OpenAIResponsesOutputItem['content']>[number];

/** Creates an empty assembler. */
export function createOpenAIResponsesStreamAssembler(): OpenAIResponsesStreamAssembler {
  const items = new Map<number, OpenAIResponsesOutputItem>();
  let final: AssembledOpenAIResponse | undefined;
  let error: AssembledOpenAIResponse['error'];
  // Where the last reasoning delta came from, to separate summary parts and items.
  let reasoningAt: string | undefined;

  const part = (event: OpenAIResponsesStreamEvent, type: 'output_text' | 'refusal'): ContentPart | undefined => {
    if (event.output_index == null) return undefined;
    const item = items.get(event.output_index) ?? { type: 'message' };
    items.set(event.output_index, item);
    const content = (item.content ??= []);
    const index = event.content_index ?? 0;
    if (!Number.isInteger(index) || index < 0 || index > content.length) return undefined;
    return (content[index] ??= { type, text: '', refusal: '' });
  };

  return {
    push(event) {
      switch (event.type) {
        case 'response.output_item.added':
        case 'response.output_item.done':
          if (event.output_index != null && event.item != null) items.set(event.output_index, { ...event.item });
          return undefined;
        case 'response.output_text.delta': {
          const target = part(event, 'output_text');
          if (target === undefined || event.delta == null || event.delta === '') return undefined;
          target.text = (target.text ?? '') + event.delta;
          return { text: event.delta };
        }
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta': {
          if (event.delta == null || event.delta === '') return undefined;
          const at = `${String(event.output_index)}:${String(event.summary_index ?? event.content_index)}`;
          const separator = reasoningAt !== undefined && reasoningAt !== at ? '\n\n' : '';
          reasoningAt = at;
          return { reasoning: separator + event.delta };
        }
        case 'response.refusal.delta': {
          const target = part(event, 'refusal');
          if (target !== undefined && event.delta != null) target.refusal = (target.refusal ?? '') + event.delta;
          return undefined;
        }
        case 'response.function_call_arguments.delta':
        case 'response.function_call_arguments.done': {
          const item = event.output_index == null ? undefined : items.get(event.output_index);
          if (item === undefined || item.type !== 'function_call') return undefined;
          if (event.type === 'response.function_call_arguments.done') {
            if (event.arguments != null) item.arguments = event.arguments;
          } else if (event.delta != null) item.arguments = (item.arguments ?? '') + event.delta;
          return undefined;
        }
        case 'response.completed':
        case 'response.incomplete':
        case 'response.failed':
          final =
            event.response == null
              ? { hasOutput: false, items: [], status: event.type.slice('response.'.length) }
              : readOpenAIResponse(event.response);
          if (event.type === 'response.failed' && final.error === undefined) final.error = readProviderError({ message: 'The response failed.' });
          return undefined;
        case 'error':
          // The code and message sit at the top level (as documented) or inside `error` (as sent).
          error = readProviderError(event);
          return undefined;
        default:
          return undefined;
      }
    },
    isComplete: () => final !== undefined,
    hasError: () => error !== undefined || final?.error !== undefined,
    result() {
      const assembled = [...items.entries()].sort(([left], [right]) => left - right).map(([, item]) => item);
      const base: AssembledOpenAIResponse = final ?? { hasOutput: false, items: [] };
      const useAssembled = base.items.length === 0 && assembled.length > 0;
      return {
        ...base,
        ...(useAssembled ? { items: assembled, hasOutput: true } : {}),
        ...(error === undefined ? {} : { error }),
      };
    },
  };
}
