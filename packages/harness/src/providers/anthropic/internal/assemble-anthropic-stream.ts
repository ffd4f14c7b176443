import type { AnthropicStreamEvent } from '../anthropic-api-types.js';
import { readProviderError } from '../../http/provider-error-class.js';
import { readAnthropicMessage, type AssembledAnthropicBlock, type AssembledAnthropicMessage } from './map-anthropic-message-to-output.js';

/** What one event adds to the streamed step: answer text, reasoning text, or neither. */
export interface AnthropicStreamDelta {
  text?: string;
  reasoning?: string;
}

/**
 * Collects Messages API stream events into one message: `input_json_delta` parts are joined per
 * block, `thinking_delta` parts into a thinking block and `signature_delta` parts into its
 * signature; `redacted_thinking` blocks arrive whole.
 */
export interface AnthropicStreamAssembler {
  /** Adds an event; returns its text or reasoning delta, if any. */
  push(event: AnthropicStreamEvent): AnthropicStreamDelta | undefined;
  /** True after `message_stop`. */
  isComplete(): boolean;
  /** True after an `error` event. */
  hasError(): boolean;
  result(): AssembledAnthropicMessage;
}

type StreamBlock = AssembledAnthropicBlock & { json?: string };

const nonEmpty = (value: string | null | undefined): string | undefined => (value == null || value === '' ? undefined : value);

/** Creates an empty assembler. */
export function createAnthropicStreamAssembler(): AnthropicStreamAssembler {
  let message: AssembledAnthropicMessage = { hasMessage: false, blocks: [], usage: {} };
  const blocks = new Map<number, StreamBlock>();
  let complete = false;
  return {
    push(event) {
      switch (event.type) {
        case 'message_start':
          if (event.message !== undefined) message = { ...readAnthropicMessage(event.message), hasMessage: true, blocks: [] };
          return undefined;
        case 'content_block_start': {
          const block = event.content_block;
          if (event.index === undefined || block === undefined) return undefined;
          switch (block.type) {
            case 'text':
              blocks.set(event.index, { type: 'text', text: block.text ?? '' });
              return nonEmpty(block.text) === undefined ? undefined : { text: block.text! };
            case 'tool_use':
              blocks.set(event.index, {
                type: 'tool_use',
                ...(block.id == null ? {} : { id: block.id }),
                ...(block.name == null ? {} : { name: block.name }),
                input: block.input,
                json: '',
              });
              return undefined;
            case 'thinking':
              blocks.set(event.index, { type: 'thinking', thinking: block.thinking ?? '', signature: block.signature ?? '' });
              return nonEmpty(block.thinking) === undefined ? undefined : { reasoning: block.thinking! };
            case 'redacted_thinking':
              blocks.set(event.index, { type: 'redacted_thinking', data: block.data ?? '' });
              return undefined;
            default:
              blocks.set(event.index, { type: 'other' });
              return undefined;
          }
        }
        case 'content_block_delta': {
          const block = event.index === undefined ? undefined : blocks.get(event.index);
          const delta = event.delta;
          if (block === undefined || delta === undefined) return undefined;
          if (block.type === 'text' && delta.type === 'text_delta' && delta.text != null) {
            block.text += delta.text;
            return nonEmpty(delta.text) === undefined ? undefined : { text: delta.text };
          }
          if (block.type === 'thinking' && delta.type === 'thinking_delta' && delta.thinking != null) {
            block.thinking += delta.thinking;
            return nonEmpty(delta.thinking) === undefined ? undefined : { reasoning: delta.thinking };
          }
          if (block.type === 'thinking' && delta.type === 'signature_delta' && delta.signature != null) block.signature += delta.signature;
          if (block.type === 'tool_use' && delta.type === 'input_json_delta' && delta.partial_json != null) block.json += delta.partial_json;
          return undefined;
        }
        case 'message_delta':
          if (event.delta?.stop_reason != null) message.stopReason = event.delta.stop_reason;
          if (event.delta?.stop_details != null) message.stopDetails = event.delta.stop_details;
          if (typeof event.usage === 'object' && event.usage !== null) message.usage = { ...message.usage, ...(event.usage as Record<string, unknown>) };
          return undefined;
        case 'message_stop':
          complete = true;
          return undefined;
        case 'error':
          message.error = readProviderError(event.error ?? { message: 'The stream reported an error.' });
          return undefined;
        default:
          return undefined;
      }
    },
    isComplete: () => complete,
    hasError: () => message.error !== undefined,
    result() {
      const ordered = [...blocks.entries()].sort(([left], [right]) => left - right).map(([, block]) => block);
      return {
        ...message,
        blocks: ordered.map((block): AssembledAnthropicBlock => {
          if (block.type !== 'tool_use') return block;
          const { json, ...rest } = block;
          return json === undefined || json === '' ? rest : { ...rest, input: json };
        }),
      };
    },
  };
}
