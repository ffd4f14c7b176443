import { readProviderError } from '../../http/provider-error-class.js';
import { createProviderNotes } from '../../internal/provider-notes.js';
import type { OpenAIResponsesContentPart, OpenAIResponsesOutputItem, OpenAIResponsesStreamEvent } from '../openai-responses-api-types.js';
import { readOpenAIResponse, readOutputItem, type AssembledOpenAIResponse } from './map-openai-responses-output.js';

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
 * and usage (and its output, when it carries one, wins over the assembled items). Output items and
 * content parts of other kinds are skipped (`readOutputItem`), and so are events of other types —
 * the lifecycle events the adapter has no use for silently, any other type with a note.
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

/** Events the adapter has no use for: skipped without a note. */
const unusedEvents = new Set([
  'response.created',
  'response.in_progress',
  'response.queued',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.done',
  'response.output_text.annotation.added',
  'response.refusal.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done',
  'response.reasoning_summary_text.done',
  'response.reasoning_text.done',
]);

/** Creates an empty assembler. */
export function createOpenAIResponsesStreamAssembler(): OpenAIResponsesStreamAssembler {
  const items = new Map<number, OpenAIResponsesOutputItem>();
  // Output index of each item id: some servers (xAI) name a delta's item only by `item_id`.
  const indexById = new Map<string, number>();
  const indexOf = (event: { output_index?: number | null | undefined; item_id?: string | null | undefined }) =>
    event.output_index ?? (event.item_id == null ? undefined : indexById.get(event.item_id));
  const notes = createProviderNotes();
  let final: AssembledOpenAIResponse | undefined;
  let error: AssembledOpenAIResponse['error'];
  // Where the last reasoning delta came from, to separate summary parts and items.
  let reasoningAt: string | undefined;

  const part = <T extends OpenAIResponsesContentPart['type']>(
    event: { output_index?: number | null | undefined; item_id?: string | null | undefined; content_index?: number | null | undefined },
    type: T,
  ): Extract<OpenAIResponsesContentPart, { type: T }> | undefined => {
    const at = indexOf(event);
    if (at === undefined) return undefined;
    const item = items.get(at) ?? { type: 'message', content: [] };
    if (item.type !== 'message') return undefined;
    items.set(at, item);
    const { content } = item;
    const index = event.content_index ?? 0;
    if (!Number.isInteger(index) || index < 0 || index > content.length) return undefined;
    const target = (content[index] ??= type === 'output_text' ? { type: 'output_text', text: '' } : { type: 'refusal', refusal: '' });
    return target.type === type ? (target as Extract<OpenAIResponsesContentPart, { type: T }>) : undefined;
  };

  return {
    push(event) {
      switch (event.type) {
        case 'response.output_item.added':
        case 'response.output_item.done': {
          if (event.output_index == null || event.item == null) return undefined;
          const read = readOutputItem(event.item, event.output_index, notes);
          if (read === undefined) return undefined;
          // A finished message item without content (xAI) keeps the text its deltas built.
          const previous = items.get(event.output_index);
          const item = read.type === 'message' && read.content.length === 0 && previous?.type === 'message' ? { ...read, content: previous.content } : read;
          items.set(event.output_index, item);
          if (typeof item.id === 'string') indexById.set(item.id, event.output_index);
          return undefined;
        }
        case 'response.output_text.delta': {
          const target = part(event, 'output_text');
          if (target === undefined || event.delta == null || event.delta === '') return undefined;
          target.text += event.delta;
          return { text: event.delta };
        }
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta': {
          if (event.delta == null || event.delta === '') return undefined;
          const slot = event.type === 'response.reasoning_summary_text.delta' ? event.summary_index : event.content_index;
          const at = `${String(event.output_index)}:${String(slot)}`;
          const separator = reasoningAt !== undefined && reasoningAt !== at ? '\n\n' : '';
          reasoningAt = at;
          return { reasoning: separator + event.delta };
        }
        case 'response.refusal.delta': {
          const target = part(event, 'refusal');
          if (target !== undefined && event.delta != null) target.refusal += event.delta;
          return undefined;
        }
        case 'response.function_call_arguments.delta':
        case 'response.function_call_arguments.done': {
          const at = indexOf(event);
          const item = at === undefined ? undefined : items.get(at);
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
              : readOpenAIResponse(event.response, notes);
          if (event.type === 'response.failed' && final.error === undefined) final.error = readProviderError({ message: 'The response failed.' });
          return undefined;
        case 'error':
          // The code and message sit at the top level (as documented) or inside `error` (as sent).
          error = readProviderError(event);
          return undefined;
        case null:
          if (!unusedEvents.has(event.otherType)) notes.add(`Skipped stream events of type "${event.otherType}", which the adapter does not read.`);
          return undefined;
      }
    },
    isComplete: () => final !== undefined,
    hasError: () => error !== undefined || final?.error !== undefined,
    result() {
      const assembled = [...items.entries()].sort(([left], [right]) => left - right).map(([, item]) => item);
      const base: AssembledOpenAIResponse = final ?? { hasOutput: false, items: [] };
      const useAssembled = base.items.length === 0 && assembled.length > 0;
      const noted = notes.list();
      return {
        ...base,
        ...(useAssembled ? { items: assembled, hasOutput: true } : {}),
        ...(error === undefined ? {} : { error }),
        ...(noted.length === 0 ? {} : { notes: noted }),
      };
    },
  };
}
