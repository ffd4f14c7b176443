import type { HarnessModelInput } from '../../core/types/model.js';

/** A complete `HarnessModelInput` for provider tests; override what the test cares about. */
export function createModelInput(overrides: Partial<HarnessModelInput> = {}): HarnessModelInput {
  return {
    assistantId: 'assistant-test',
    turnId: 'turn-test',
    message: { id: 'message-1', text: 'What is the weather in Oslo?', receivedAt: '2026-01-01T00:00:00.000Z' },
    instructions: { systemPrompt: 'You are a weather assistant.' },
    transcript: [],
    availableTools: [],
    iteration: 1,
    toolCallCount: 0,
    elapsedMs: 0,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** A weather tool definition with a JSON Schema input. */
export const weatherTool = {
  name: 'lookup_weather',
  description: 'Looks up the weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
