import { describe, expect, it } from 'vitest';
import { mapOpenAICompatibleFinishReason } from './map-openai-compatible-finish-reason.js';

describe('mapOpenAICompatibleFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['error', 'error'],
    ['something_new', 'other'],
    [null, 'other'],
    [undefined, 'other'],
  ])('maps %j to %s', (wire, mapped) => {
    expect(mapOpenAICompatibleFinishReason(wire)).toBe(mapped);
  });
});
