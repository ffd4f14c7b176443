import type { HarnessReasoningPart } from '../../core/types/reasoning.js';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import type { HarnessToolCall, HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessAttachment, HarnessHistoryMessage, HarnessInstructions, HarnessPreparedContext, HarnessUserMessage } from '../../shared/types/turn-input.js';
import { readAttachment, unsupportedAttachment } from '../internal/read-attachment.js';
import { renderInstructions } from '../internal/render-instructions.js';
import { replayTranscript } from '../internal/replay-transcript.js';
import type { OpenAIResponsesInputContent, OpenAIResponsesInputItem, OpenAIResponsesTool } from './openai-responses-api-types.js';
import { OPENAI_RESPONSES_PROVIDER, readFollowingItems } from './internal/openai-responses-reasoning.js';
import { appendAll } from '../../shared/append-all.js';

/** What `convertToOpenAIResponsesInput` needs: the parts of `HarnessModelInput` that make the prompt. */
export interface OpenAIResponsesConversation {
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  /** The conversation before `message`, oldest first. */
  history?: readonly HarnessHistoryMessage[] | undefined;
  message: HarnessUserMessage;
  transcript: readonly HarnessTranscriptItem[];
}

/** Options of `convertToOpenAIResponsesInput`. */
export interface ConvertToOpenAIResponsesInputOptions {
  /**
   * Whether the responses are stored (`store`). Without storage a reasoning item can only be sent
   * back with its encrypted content, so reasoning parts without `data` are left out.
   * @default false
   */
  store?: boolean | undefined;
}

/** A Responses API request's `instructions` and `input`. */
export interface OpenAIResponsesPrompt {
  instructions?: string;
  input: OpenAIResponsesInputItem[];
}

/**
 * Builds a Responses API prompt: the system prompt as `instructions`; the developer prompt and
 * prepared context as `developer` messages; the history (user messages as `input_text` with their
 * attachments, assistant messages as `output_text`); the user's message with its attachments
 * (images as `input_image`, other files as `input_file`, inline or by URL); then the turn so far —
 * each step as its `openai-responses` reasoning items (from the transcript's reasoning parts), the
 * text said alongside, one `function_call` per call (real JSON arguments), then one
 * `function_call_output` per call (errors as JSON with an `error` field). The output item ids a
 * reasoning item was issued with go back only together with that reasoning item, which the API
 * requires to travel with them. Clarification answers are user messages; approval decisions and
 * unusable replies become short user notes.
 * @throws UnsupportedInputError (reason `attachments_unsupported`) for an attachment on an assistant
 * history message (the API takes only text there).
 */
export function convertToOpenAIResponsesInput(
  conversation: OpenAIResponsesConversation,
  options: ConvertToOpenAIResponsesInputOptions = {},
): OpenAIResponsesPrompt {
  const input: OpenAIResponsesInputItem[] = [];
  const rendered = renderInstructions(conversation.instructions, conversation.context);
  for (const part of [rendered.developer, rendered.context]) {
    if (part !== undefined) input.push({ type: 'message', role: 'developer', content: part });
  }
  for (const message of conversation.history ?? []) {
    if (message.role === 'assistant') {
      const attachment = message.attachments?.[0];
      if (attachment !== undefined) throw unsupportedAttachment(attachment, 'the Responses API takes only text in assistant messages');
      input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: message.text }] });
    } else {
      input.push({ type: 'message', role: 'user', content: userContent(message.text, message.attachments) });
    }
  }
  input.push({ type: 'message', role: 'user', content: userContent(conversation.message.text, conversation.message.attachments) });
  for (const entry of replayTranscript(conversation.transcript)) {
    switch (entry.role) {
      case 'assistant':
        appendAll(input, assistantItems(entry.text, entry.calls ?? [], entry.reasoning ?? [], options.store === true));
        break;
      case 'tool_results':
        for (const result of entry.results) input.push({ type: 'function_call_output', call_id: result.call.id, output: result.content });
        break;
      case 'user':
        input.push({ type: 'message', role: 'user', content: entry.text });
        break;
      case 'note':
        input.push({ type: 'message', role: 'user', content: `[Runtime note] ${entry.text}` });
        break;
    }
  }
  return { ...(rendered.system === undefined ? {} : { instructions: rendered.system }), input };
}

function userContent(text: string, attachments: readonly HarnessAttachment[] | undefined): OpenAIResponsesInputContent[] {
  const content: OpenAIResponsesInputContent[] = text === '' && attachments !== undefined && attachments.length > 0 ? [] : [{ type: 'input_text', text }];
  for (const attachment of attachments ?? []) content.push(toInputContent(attachment));
  return content;
}

/** Maps one attachment to an `input_image` (URL or `data:` URL) or `input_file` (`file_data` or `file_url`). */
function toInputContent(attachment: HarnessAttachment): OpenAIResponsesInputContent {
  const read = readAttachment(attachment);
  const { source } = read;
  if (read.kind === 'image') {
    return { type: 'input_image', image_url: source.type === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`, detail: 'auto' };
  }
  if (source.type === 'url') return { type: 'input_file', file_url: source.url };
  return { type: 'input_file', filename: read.name ?? attachment.id, file_data: `data:${source.mediaType};base64,${source.data}` };
}

/**
 * One replayed step: each of its replayable reasoning items followed by the items it was issued
 * with (by their ids), then whatever is left (text, calls) without ids.
 */
function assistantItems(text: string | undefined, calls: readonly HarnessToolCall[], reasoning: readonly HarnessReasoningPart[], store: boolean): OpenAIResponsesInputItem[] {
  const items: OpenAIResponsesInputItem[] = [];
  const sent = new Set<number>();
  let textSent = text === undefined;
  const pushText = (id?: string) => {
    if (textSent || text === undefined) return;
    items.push({ type: 'message', role: 'assistant', content: text, ...(id === undefined ? {} : { id }) });
    textSent = true;
  };
  const pushCall = (index: number, id?: string) => {
    const call = calls[index];
    if (call === undefined || sent.has(index)) return;
    items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: JSON.stringify(call.input), ...(id === undefined ? {} : { id }) });
    sent.add(index);
  };
  for (const part of reasoning) {
    if (part.provider !== OPENAI_RESPONSES_PROVIDER || part.id === undefined || (!store && part.data === undefined)) continue;
    items.push({
      type: 'reasoning',
      id: part.id,
      summary: part.text === undefined || part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
      ...(part.data === undefined ? {} : { encrypted_content: part.data }),
    });
    for (const following of readFollowingItems(part.signature)) {
      if (following.type === 'message') pushText(following.id);
      else pushCall(calls.findIndex((call, index) => call.id === following.callId && !sent.has(index)), following.id);
    }
  }
  pushText();
  calls.forEach((_call, index) => pushCall(index));
  return items;
}

/** Describes the available tools as Responses API function tools (JSON Schema parameters, not strict). */
export function convertToOpenAIResponsesTools(tools: readonly HarnessToolDefinition[]): OpenAIResponsesTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: tool.inputSchema ?? { type: 'object', properties: {} },
    strict: false,
  }));
}
