import { describe, expect, it } from 'vitest';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'refusal'],
    ['brand_new', 'other'],
    [null, 'other'],
  ])('maps %j to %s', (wire, mapped) => {
    expect(mapAnthropicStopReason(wire)).toBe(mapped);
  });
});
