import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import type { HarnessReasoningPart } from '../../core/types/reasoning.js';
import type {
  HarnessAttachment,
  HarnessHistoryMessage,
  HarnessInstructions,
  HarnessPreparedContext,
  HarnessUserMessage,
} from '../../shared/types/turn-input.js';
import { unsupportedAttachment } from '../internal/read-attachment.js';
import { renderInstructions } from '../internal/render-instructions.js';
import { replayTranscript } from '../internal/replay-transcript.js';
import type { AnthropicRequestContentBlock, AnthropicRequestMessage, AnthropicTool } from './anthropic-api-types.js';
import { toAnthropicAttachmentBlock } from './internal/to-anthropic-attachment-block.js';
import { appendAll } from '../../shared/append-all.js';

/** What `convertToAnthropicMessages` needs: the parts of `HarnessModelInput` that make the prompt. */
export interface AnthropicConversation {
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  message: HarnessUserMessage;
  /** The conversation before `message`, oldest first. */
  history?: readonly HarnessHistoryMessage[] | undefined;
  transcript: readonly HarnessTranscriptItem[];
}

/** The `system` and `messages` of a Messages API request. */
export interface AnthropicPrompt {
  system?: string | undefined;
  messages: AnthropicRequestMessage[];
}

/**
 * Builds a Messages API prompt: the system prompt, developer prompt and context joined into
 * `system`; then the history (oldest first) and the user's message, each user message with its
 * attachments (`image` / `document` blocks) before its text; then each tool step as an assistant
 * message (its Anthropic thinking blocks first and unchanged, then its text and `tool_use` blocks
 * with the real input) followed by a user message of `tool_result` blocks (failures with
 * `is_error: true`). Clarification answers and runtime notes are user text; consecutive messages of
 * one role are merged, as the API expects alternating roles.
 * @throws UnsupportedInputError (reason `attachments_unsupported`) for an attachment the API cannot take,
 *   including any attachment on an assistant history message.
 */
export function convertToAnthropicMessages(conversation: AnthropicConversation): AnthropicPrompt {
  const rendered = renderInstructions(conversation.instructions, conversation.context);
  const systemParts = [rendered.system, rendered.developer, rendered.context].filter((part): part is string => part !== undefined);
  const messages: AnthropicRequestMessage[] = [];
  const push = (role: AnthropicRequestMessage['role'], blocks: AnthropicRequestContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    if (last?.role !== role) messages.push({ role, content: blocks });
    else if (role === 'assistant' && isThinking(blocks[0]!)) {
      // Thinking blocks must open an assistant message: keep them ahead of what was merged before.
      const at = last.content.findIndex((block) => !isThinking(block));
      const merged = last.content.splice(at === -1 ? last.content.length : at);
      appendAll(last.content, blocks.filter(isThinking));
      appendAll(last.content, merged);
      appendAll(last.content, blocks.filter((block) => !isThinking(block)));
    } else appendAll(last.content, blocks);
  };
  for (const message of conversation.history ?? []) {
    if (message.role === 'user') push('user', userBlocks(message.text, message.attachments));
    else {
      const attachment = message.attachments?.[0];
      if (attachment !== undefined) throw unsupportedAttachment(attachment, 'the Messages API takes attachments only on user messages');
      if (message.text.trim() !== '') push('assistant', [{ type: 'text', text: message.text }]);
    }
  }
  push('user', userBlocks(conversation.message.text, conversation.message.attachments));
  for (const entry of replayTranscript(conversation.transcript)) {
    switch (entry.role) {
      case 'assistant':
        push('assistant', [
          ...replayReasoning(entry.reasoning),
          ...(entry.text === undefined ? [] : [{ type: 'text' as const, text: entry.text }]),
          ...(entry.calls ?? []).map((call) => ({ type: 'tool_use' as const, id: call.id, name: call.name, input: call.input })),
        ]);
        break;
      case 'tool_results':
        push(
          'user',
          entry.results.map((result) => ({
            type: 'tool_result' as const,
            tool_use_id: result.call.id,
            content: result.content,
            ...(result.isError ? { is_error: true } : {}),
          })),
        );
        break;
      case 'user':
        push('user', [{ type: 'text', text: entry.text }]);
        break;
      case 'note':
        push('user', [{ type: 'text', text: `[Runtime note] ${entry.text}` }]);
        break;
    }
  }
  return { ...(systemParts.length === 0 ? {} : { system: systemParts.join('\n\n') }), messages };
}

/** A user message's blocks: its attachments, then its text (a placeholder when there is neither). */
function userBlocks(text: string, attachments: readonly HarnessAttachment[] | undefined): AnthropicRequestContentBlock[] {
  const blocks = (attachments ?? []).map(toAnthropicAttachmentBlock);
  if (text.trim() !== '') blocks.push({ type: 'text', text });
  else if (blocks.length === 0) blocks.push({ type: 'text', text: '(empty message)' });
  return blocks;
}

/** The Anthropic reasoning of a step as the API wants it back: unchanged, in order; other providers' parts are skipped. */
function replayReasoning(parts: readonly HarnessReasoningPart[] | undefined): AnthropicRequestContentBlock[] {
  const blocks: AnthropicRequestContentBlock[] = [];
  for (const part of parts ?? []) {
    if (part.provider !== 'anthropic') continue;
    if (part.data !== undefined) blocks.push({ type: 'redacted_thinking', data: part.data });
    else if (part.signature !== undefined) blocks.push({ type: 'thinking', thinking: part.text ?? '', signature: part.signature });
  }
  return blocks;
}

function isThinking(block: AnthropicRequestContentBlock): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

/** Describes the available tools for the Messages API (`input_schema` is the tool's JSON Schema). */
export function convertToAnthropicTools(tools: readonly HarnessToolDefinition[]): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    input_schema: tool.inputSchema ?? { type: 'object', properties: {} },
  }));
}
