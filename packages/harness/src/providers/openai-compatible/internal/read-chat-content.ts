import type { ProviderNotes } from '../../internal/provider-notes.js';
import type { OpenAICompatibleContent } from '../openai-compatible-api-types.js';

/** What a message's (or a delta's) `content` says: answer text and reasoning text. */
export interface ChatContent {
  text: string;
  reasoning: string;
}

/**
 * Reads `content` given as a string or as an array of parts: `text` parts are answer text, and
 * Mistral's `thinking` parts (`{ type: 'thinking', thinking: [{ type: 'text', text }] }`) are
 * reasoning. Parts of other kinds (and other kinds inside `thinking`) are skipped, each with a note.
 */
export function readChatContent(content: OpenAICompatibleContent, notes: ProviderNotes): ChatContent {
  if (content == null) return { text: '', reasoning: '' };
  if (typeof content === 'string') return { text: content, reasoning: '' };
  let text = '';
  let reasoning = '';
  for (const part of content) {
    if (part.type === null) notes.add(`Skipped a content part of type "${part.otherType}".`);
    else if (part.type === 'thinking') reasoning += readThinking(part.thinking, notes);
    else text += part.text ?? '';
  }
  return { text, reasoning };
}

function readThinking(thinking: Extract<NonNullable<OpenAICompatibleContent>[number], { type: 'thinking' }>['thinking'], notes: ProviderNotes): string {
  if (thinking == null) return '';
  if (typeof thinking === 'string') return thinking;
  let text = '';
  for (const part of thinking) {
    if (part.type === null) notes.add(`Skipped a thinking part of type "${part.otherType}".`);
    else text += part.text;
  }
  return text;
}
