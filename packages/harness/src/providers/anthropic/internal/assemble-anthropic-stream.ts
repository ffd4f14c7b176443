import type { AnthropicStreamEvent } from '../anthropic-api-types.js';
import { readAnthropicMessage, type AssembledAnthropicBlock, type AssembledAnthropicMessage } from './map-anthropic-message-to-output.js';

/** Collects Messages API stream events into one message; `input_json_delta` parts are joined per block. */
export interface AnthropicStreamAssembler {
  /** Adds an event; returns its text delta, if any. */
  push(event: AnthropicStreamEvent): string | undefined;
  /** True after `message_stop`. */
  isComplete(): boolean;
  /** True after an `error` event. */
  hasError(): boolean;
  result(): AssembledAnthropicMessage;
}

type StreamBlock = AssembledAnthropicBlock & { json?: string };

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
          if (block.type === 'text') blocks.set(event.index, { type: 'text', text: block.text ?? '' });
          else if (block.type === 'tool_use') {
            blocks.set(event.index, {
              type: 'tool_use',
              ...(block.id == null ? {} : { id: block.id }),
              ...(block.name == null ? {} : { name: block.name }),
              input: block.input,
              json: '',
            });
          } else blocks.set(event.index, { type: 'other' });
          return block.type === 'text' && block.text != null && block.text !== '' ? block.text : undefined;
        }
        case 'content_block_delta': {
          const block = event.index === undefined ? undefined : blocks.get(event.index);
          const delta = event.delta;
          if (block === undefined || delta === undefined) return undefined;
          if (block.type === 'text' && delta.type === 'text_delta' && delta.text != null) {
            block.text += delta.text;
            return delta.text === '' ? undefined : delta.text;
          }
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
          message.error = event.error ?? { type: 'error', message: 'The stream reported an error.' };
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
