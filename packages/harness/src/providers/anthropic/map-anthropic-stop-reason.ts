import type { ModelFinishReason } from '../model-finish-reason.js';

/** Maps a Messages API `stop_reason` to `ModelFinishReason` (unknown or absent → `other`). */
export function mapAnthropicStopReason(value: string | null | undefined): ModelFinishReason {
  switch (value) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'refusal';
    default:
      return 'other';
  }
}
