import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import type { HarnessToolCall, HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessInstructions, HarnessPreparedContext, HarnessUserMessage } from '../../shared/types/turn-input.js';
import { renderInstructions } from '../internal/render-instructions.js';
import { replayTranscript, type ReplayedToolResult } from '../internal/replay-transcript.js';
import type { GeminiContent, GeminiFunctionDeclaration, GeminiPart } from './gemini-api-types.js';

/** What `convertToGeminiContents` needs: the parts of `HarnessModelInput` that make the prompt. */
export interface GeminiConversation {
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  message: HarnessUserMessage;
  transcript: readonly HarnessTranscriptItem[];
}

/** What Gemini returned with one function call that the transcript does not keep. */
export interface GeminiCallState {
  /** The `thoughtSignature` of the call's part, to send back unchanged. */
  thoughtSignature?: string | undefined;
  /** Whether the id is Gemini's own (sent back on the call and its response) rather than one the adapter made up. */
  providerId: boolean;
}

/** Provider state of one tool step, per harness call id. */
export type GeminiStepState = ReadonlyMap<string, GeminiCallState>;

/** Options of `convertToGeminiContents`. */
export interface ConvertToGeminiContentsOptions {
  /** Looks up the remembered state of a tool step. @default none */
  recallStep?: ((calls: readonly HarnessToolCall[]) => GeminiStepState | undefined) | undefined;
}

/** A Gemini request's `systemInstruction` and `contents`. */
export interface GeminiPrompt {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
}

/**
 * The signature Google documents for function calls whose real signature is unknown (a step
 * replayed after a resume in another process); models that validate signatures accept it.
 */
export const GEMINI_UNKNOWN_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Builds a Gemini prompt: system prompt, developer prompt and prepared context as
 * `systemInstruction` parts; the user's message; then the turn so far — each tool step as a
 * `model` content (its text, then one `functionCall` part per call with the real arguments and the
 * `thoughtSignature` Gemini gave it), followed by a `user` content with one `functionResponse` per
 * call (`{ output }`, or `{ error }` for a failure). Gemini's own call ids are sent back; ids the
 * adapter made up are not. The first call of a step whose signature is unknown carries
 * `GEMINI_UNKNOWN_THOUGHT_SIGNATURE`. Clarification answers are user text; approval decisions and
 * unusable replies become short user notes.
 */
export function convertToGeminiContents(conversation: GeminiConversation, options: ConvertToGeminiContentsOptions = {}): GeminiPrompt {
  const rendered = renderInstructions(conversation.instructions, conversation.context);
  const system = [rendered.system, rendered.developer, rendered.context].filter((part): part is string => part !== undefined);
  const contents: GeminiContent[] = [{ role: 'user', parts: [{ text: conversation.message.text }] }];
  let state: GeminiStepState | undefined;
  for (const entry of replayTranscript(conversation.transcript)) {
    switch (entry.role) {
      case 'assistant': {
        state = entry.calls === undefined ? undefined : options.recallStep?.(entry.calls);
        const parts: GeminiPart[] = entry.text === undefined ? [] : [{ text: entry.text }];
        (entry.calls ?? []).forEach((call, index) => {
          const known = state?.get(call.id);
          const signature = known?.thoughtSignature ?? (index === 0 && state === undefined ? GEMINI_UNKNOWN_THOUGHT_SIGNATURE : undefined);
          parts.push({
            functionCall: { name: call.name, args: call.input, ...(known?.providerId === true ? { id: call.id } : {}) },
            ...(signature === undefined ? {} : { thoughtSignature: signature }),
          });
        });
        contents.push({ role: 'model', parts });
        break;
      }
      case 'tool_results':
        contents.push({ role: 'user', parts: entry.results.map((result) => functionResponse(result, state)) });
        break;
      case 'user':
        contents.push({ role: 'user', parts: [{ text: entry.text }] });
        break;
      case 'note':
        contents.push({ role: 'user', parts: [{ text: `[Runtime note] ${entry.text}` }] });
        break;
    }
  }
  return { ...(system.length === 0 ? {} : { systemInstruction: { parts: system.map((text) => ({ text })) } }), contents };
}

function functionResponse(result: ReplayedToolResult, state: GeminiStepState | undefined): GeminiPart {
  const response = result.isError ? errorResponse(result.content) : { output: result.content };
  const id = state?.get(result.call.id)?.providerId === true ? { id: result.call.id } : {};
  return { functionResponse: { name: result.call.name, response, ...id } };
}

function errorResponse(content: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(content);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Not our JSON: send it as the error text.
  }
  return { error: content };
}

/** Describes the available tools as one Gemini tool with `functionDeclarations` (JSON Schema parameters). */
export function convertToGeminiTools(tools: readonly HarnessToolDefinition[]): { functionDeclarations: GeminiFunctionDeclaration[] }[] {
  if (tools.length === 0) return [];
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parametersJsonSchema: tool.inputSchema ?? { type: 'object', properties: {} },
      })),
    },
  ];
}
