import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessAttachment, HarnessHistoryMessage, HarnessInstructions, HarnessPreparedContext, HarnessUserMessage } from '../../shared/types/turn-input.js';
import { readAttachment, unsupportedAttachment } from '../internal/read-attachment.js';
import { renderInstructions } from '../internal/render-instructions.js';
import { replayTranscript, type ReplayedToolResult } from '../internal/replay-transcript.js';
import type { GeminiContent, GeminiFunctionDeclaration, GeminiPart } from './gemini-api-types.js';
import { isGeminiCallId, readGeminiSignatures } from './internal/gemini-reasoning.js';
import { isRecord } from '../../shared/is-record.js';
import { appendAll } from '../../shared/append-all.js';

/** What `convertToGeminiContents` needs: the parts of `HarnessModelInput` that make the prompt. */
export interface GeminiConversation {
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  /** The conversation before `message`, oldest first. */
  history?: readonly HarnessHistoryMessage[] | undefined;
  message: HarnessUserMessage;
  transcript: readonly HarnessTranscriptItem[];
}

/** A Gemini request's `systemInstruction` and `contents`. */
export interface GeminiPrompt {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
}

/**
 * The signature Google documents for function calls whose real signature is unknown (a step
 * this adapter did not produce); models that validate signatures accept it.
 */
export const GEMINI_UNKNOWN_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Builds a Gemini prompt: system prompt, developer prompt and prepared context as
 * `systemInstruction` parts; the history (`user` / `model` contents, consecutive ones of a role
 * merged) and the user's message, attachments as `inlineData` (base64) or `fileData` (by URL); then
 * the turn so far — each tool step as a `model` content (its text, then one `functionCall` part per
 * call with the real arguments), with the thought signatures Gemini gave (kept in the transcript
 * as `gemini` reasoning parts) back on the same parts, followed by a `user` content with one
 * `functionResponse` per call (`{ output }`, or `{ error }` for a failure). Gemini's own call ids
 * are sent back; ids the adapter made up are not. The first call of a step without `gemini`
 * reasoning parts (one this adapter did not produce) carries `GEMINI_UNKNOWN_THOUGHT_SIGNATURE`.
 * Clarification answers are user text; approval decisions and unusable replies become short user notes.
 * @throws UnsupportedInputError (reason `attachments_unsupported`) for a URL attachment without a media type.
 */
export function convertToGeminiContents(conversation: GeminiConversation): GeminiPrompt {
  const rendered = renderInstructions(conversation.instructions, conversation.context);
  const system = [rendered.system, rendered.developer, rendered.context].filter((part): part is string => part !== undefined);
  const contents: GeminiContent[] = [];
  const add = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    const last = contents.at(-1);
    if (last?.role === role) appendAll(last.parts, parts);
    else contents.push({ role, parts });
  };
  for (const message of conversation.history ?? []) add(message.role === 'assistant' ? 'model' : 'user', messageParts(message.text, message.attachments));
  add('user', messageParts(conversation.message.text, conversation.message.attachments));
  for (const entry of replayTranscript(conversation.transcript)) {
    switch (entry.role) {
      case 'assistant': {
        const signatures = readGeminiSignatures(entry.reasoning ?? []);
        const parts: GeminiPart[] = entry.text === undefined ? [] : [{ text: entry.text, ...(signatures.text === undefined ? {} : { thoughtSignature: signatures.text }) }];
        (entry.calls ?? []).forEach((call, index) => {
          const signature = signatures.call(call.id) ?? (index === 0 && !signatures.known ? GEMINI_UNKNOWN_THOUGHT_SIGNATURE : undefined);
          parts.push({
            functionCall: { name: call.name, args: call.input, ...(isGeminiCallId(call.id) ? { id: call.id } : {}) },
            ...(signature === undefined ? {} : { thoughtSignature: signature }),
          });
        });
        contents.push({ role: 'model', parts });
        break;
      }
      case 'tool_results':
        contents.push({ role: 'user', parts: entry.results.map(functionResponse) });
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

function messageParts(text: string, attachments: readonly HarnessAttachment[] | undefined): GeminiPart[] {
  const parts: GeminiPart[] = text === '' && attachments !== undefined && attachments.length > 0 ? [] : [{ text }];
  for (const attachment of attachments ?? []) parts.push(toAttachmentPart(attachment));
  return parts;
}

/** Maps an attachment to `inlineData` (base64, `data:` URLs included) or `fileData` (a URL, which needs a media type). */
function toAttachmentPart(attachment: HarnessAttachment): GeminiPart {
  const read = readAttachment(attachment);
  if (read.source.type === 'base64') return { inlineData: { mimeType: read.source.mediaType, data: read.source.data } };
  if (read.mediaType === undefined) throw unsupportedAttachment(attachment, 'Gemini needs the media type of a file given by URL (set mediaType)');
  return { fileData: { mimeType: read.mediaType, fileUri: read.source.url } };
}

function functionResponse(result: ReplayedToolResult): GeminiPart {
  const response = result.isError ? errorResponse(result.content) : { output: result.content };
  const id = isGeminiCallId(result.call.id) ? { id: result.call.id } : {};
  return { functionResponse: { name: result.call.name, response, ...id } };
}

function errorResponse(content: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(content);
    if (isRecord(value)) return value;
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
