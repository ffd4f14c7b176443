import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessAttachment, HarnessHistoryMessage, HarnessInstructions, HarnessPreparedContext, HarnessUserMessage } from '../../shared/types/turn-input.js';
import { readAttachment, unsupportedAttachment } from '../internal/read-attachment.js';
import { renderInstructions } from '../internal/render-instructions.js';
import { replayTranscript } from '../internal/replay-transcript.js';
import type { OllamaMessage, OllamaTool } from './ollama-api-types.js';
import { toFunctionTools } from '../internal/to-function-tools.js';

/** What `convertToOllamaMessages` needs: the parts of `HarnessModelInput` that make the prompt. */
export interface OllamaConversation {
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  /** The conversation before `message`, oldest first. */
  history?: readonly HarnessHistoryMessage[] | undefined;
  message: HarnessUserMessage;
  transcript: readonly HarnessTranscriptItem[];
}

/**
 * Builds Ollama `/api/chat` `messages`: system prompt, developer prompt and prepared context as
 * `system` messages, the conversation `history` (oldest first), the user's message, then the turn
 * so far — each tool step as an assistant message with `tool_calls` (arguments as JSON objects),
 * followed by one `tool` message per call carrying `tool_name` (errors as JSON with an `error`
 * field). Clarification answers are user messages; approval decisions and unusable replies become
 * short user notes. Image attachments of user messages go in `images` as base64.
 * @throws UnsupportedInputError (reason `attachments_unsupported`) for an attachment Ollama cannot take:
 * an image by URL (not a `data:` URL), any other file, any attachment on an assistant message.
 */
export function convertToOllamaMessages(conversation: OllamaConversation): OllamaMessage[] {
  const messages: OllamaMessage[] = [];
  const rendered = renderInstructions(conversation.instructions, conversation.context);
  for (const part of [rendered.system, rendered.developer, rendered.context]) {
    if (part !== undefined) messages.push({ role: 'system', content: part });
  }
  for (const earlier of conversation.history ?? []) {
    if (earlier.role === 'user') {
      messages.push(userMessage(earlier.text, earlier.attachments));
      continue;
    }
    const attachment = earlier.attachments?.[0];
    if (attachment !== undefined) throw unsupportedAttachment(attachment, 'Ollama assistant messages cannot carry attachments');
    messages.push({ role: 'assistant', content: earlier.text });
  }
  messages.push(userMessage(conversation.message.text, conversation.message.attachments));
  for (const entry of replayTranscript(conversation.transcript)) {
    switch (entry.role) {
      case 'assistant':
        messages.push({
          role: 'assistant',
          content: entry.text ?? '',
          ...(entry.calls === undefined
            ? {}
            : { tool_calls: entry.calls.map((call) => ({ id: call.id, function: { name: call.name, arguments: call.input } })) }),
        });
        break;
      case 'tool_results':
        for (const result of entry.results) messages.push({ role: 'tool', content: result.content, tool_name: result.call.name });
        break;
      case 'user':
        messages.push({ role: 'user', content: entry.text });
        break;
      case 'note':
        messages.push({ role: 'user', content: `[Runtime note] ${entry.text}` });
        break;
    }
  }
  return messages;
}

function userMessage(text: string, attachments: readonly HarnessAttachment[] | undefined): OllamaMessage {
  if (attachments === undefined || attachments.length === 0) return { role: 'user', content: text };
  const images = attachments.map((attachment) => {
    const read = readAttachment(attachment);
    if (read.kind !== 'image') throw unsupportedAttachment(attachment, 'Ollama takes images only, not other files');
    if (read.source.type !== 'base64') throw unsupportedAttachment(attachment, 'Ollama takes images only as inline base64 data, not by URL');
    return read.source.data;
  });
  return { role: 'user', content: text, images };
}

/** Describes the available tools as Ollama `tools` (function tools with JSON Schema parameters). */
export function convertToOllamaTools(tools: readonly HarnessToolDefinition[]): OllamaTool[] {
  return toFunctionTools(tools);
}
