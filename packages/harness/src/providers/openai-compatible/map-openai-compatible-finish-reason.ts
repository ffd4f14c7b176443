import type { ModelFinishReason } from '../model-finish-reason.js';

/** Maps a chat-completions `finish_reason` to `ModelFinishReason` (unknown or absent → `other`). */
export function mapOpenAICompatibleFinishReason(value: string | null | undefined): ModelFinishReason {
  switch (value) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    case 'error':
      return 'error';
    default:
      return 'other';
  }
}
