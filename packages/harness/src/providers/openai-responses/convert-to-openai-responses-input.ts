import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import type { HarnessToolCall, HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessInstructions, HarnessPreparedContext, HarnessUserMessage } from '../../shared/types/turn-input.js';
import { renderInstructions } from '../internal/render-instructions.js';
import { replayTranscript } from '../internal/replay-transcript.js';
import type { OpenAIResponsesInputItem, OpenAIResponsesReasoningItem, OpenAIResponsesTool } from './openai-responses-api-types.js';

/** What `convertToOpenAIResponsesInput` needs: the parts of `HarnessModelInput` that make the prompt. */
export interface OpenAIResponsesConversation {
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  message: HarnessUserMessage;
  transcript: readonly HarnessTranscriptItem[];
}

/**
 * Provider state of one tool step that the transcript does not keep: the reasoning items that
 * preceded the calls and the output item ids they belong with.
 */
export interface OpenAIResponsesStepState {
  reasoning: OpenAIResponsesReasoningItem[];
  /** The id of the assistant message item said alongside the calls, if any. */
  messageId?: string | undefined;
  /** Output item id (`fc_…`) per harness call id. */
  callItemIds: ReadonlyMap<string, string>;
}

/** Options of `convertToOpenAIResponsesInput`. */
export interface ConvertToOpenAIResponsesInputOptions {
  /** Looks up the remembered state of a tool step. @default none (steps replay without reasoning) */
  recallStep?: ((calls: readonly HarnessToolCall[]) => OpenAIResponsesStepState | undefined) | undefined;
}

/** A Responses API request's `instructions` and `input`. */
export interface OpenAIResponsesPrompt {
  instructions?: string;
  input: OpenAIResponsesInputItem[];
}

/**
 * Builds a Responses API prompt: the system prompt as `instructions`; the developer prompt and
 * prepared context as `developer` messages; the user's message; then the turn so far — each tool
 * step as its reasoning items (when remembered), the text said alongside, one `function_call` per
 * call (real JSON arguments), then one `function_call_output` per call (errors as JSON with an
 * `error` field). Output item ids are sent only together with the step's reasoning items, which
 * the API requires to travel with them. Clarification answers are user messages; approval
 * decisions and unusable replies become short user notes.
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
  input.push({ type: 'message', role: 'user', content: conversation.message.text });
  for (const entry of replayTranscript(conversation.transcript)) {
    switch (entry.role) {
      case 'assistant': {
        const state = entry.calls === undefined ? undefined : options.recallStep?.(entry.calls);
        if (state !== undefined) input.push(...state.reasoning);
        if (entry.text !== undefined) {
          input.push({ type: 'message', role: 'assistant', content: entry.text, ...(state?.messageId === undefined ? {} : { id: state.messageId }) });
        }
        for (const call of entry.calls ?? []) {
          const id = state?.callItemIds.get(call.id);
          input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: JSON.stringify(call.input), ...(id === undefined ? {} : { id }) });
        }
        break;
      }
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
