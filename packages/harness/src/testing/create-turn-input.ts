import type { HarnessTurnInput } from '../shared/types/turn-input.js';

/** A valid turn input with sensible test values; pass overrides for what the test cares about. */
export function createTurnInput(overrides: Partial<HarnessTurnInput> & { text?: string } = {}): HarnessTurnInput {
  const { text, ...rest } = overrides;
  return {
    assistantId: 'assistant-test',
    turnId: 'turn-test',
    message: { id: 'message-1', text: text ?? 'Hello', receivedAt: '2026-01-01T00:00:00.000Z' },
    instructions: { systemPrompt: 'You are a helpful assistant.' },
    ...rest,
  };
}
