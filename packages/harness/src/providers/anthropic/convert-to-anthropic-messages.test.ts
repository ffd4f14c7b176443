import { describe, expect, it } from 'vitest';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { convertToAnthropicMessages, convertToAnthropicTools } from './convert-to-anthropic-messages.js';

describe('convertToAnthropicMessages', () => {
  it('joins the system parts and replays tool steps as tool_use and tool_result blocks', () => {
    const prompt = convertToAnthropicMessages(
      createModelInput({
        instructions: { systemPrompt: 'System.', developerPrompt: 'Developer.' },
        context: { blocks: [{ id: 'b', label: 'memory', content: 'Likes sun.' }] },
        transcript: [
          { type: 'invalid_output', iteration: 1, kind: 'transient', reason: 'HTTP 529' },
          {
            type: 'assistant_step',
            iteration: 2,
            outputType: 'tool_request',
            text: 'Checking.',
            calls: [
              { id: 'toolu_1', name: 'lookup_weather', input: { city: 'Oslo' } },
              { id: 'toolu_2', name: 'lookup_weather', input: { city: 'Atlantis' } },
            ],
          },
          { type: 'tool_result', iteration: 2, result: { callId: 'toolu_1', toolName: 'lookup_weather', status: 'success', output: 'Sunny' } },
          {
            type: 'tool_result',
            iteration: 2,
            result: { callId: 'toolu_2', toolName: 'lookup_weather', status: 'error', error: { code: 'not_found', message: 'No city.' } },
          },
          { type: 'approval_decision', iteration: 2, requestId: 'r1', decision: 'approved' },
          { type: 'assistant_step', iteration: 3, outputType: 'final_answer', text: 'Oslo is sunny.' },
        ],
      }),
    );
    expect(prompt.system).toBe('System.\n\nDeveloper.\n\nContext prepared for this turn:\n\n[memory]\nLikes sun.');
    expect(prompt.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is the weather in Oslo?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'lookup_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'lookup_weather', input: { city: 'Atlantis' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: '{"error":{"code":"not_found","message":"No city."}}', is_error: true },
          { type: 'text', text: '[Runtime note] Approval decision for request "r1": approved.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Oslo is sunny.' }] },
    ]);
    expect(JSON.stringify(prompt)).not.toContain('529');
  });

  it('merges a clarification answer into one user turn and omits an empty system', () => {
    const prompt = convertToAnthropicMessages(
      createModelInput({
        instructions: { systemPrompt: ' ' },
        transcript: [
          { type: 'clarification_request', iteration: 1, question: 'Which city?' },
          { type: 'clarification_answer', iteration: 1, answer: 'Oslo' },
        ],
      }),
    );
    expect(prompt.system).toBeUndefined();
    expect(prompt.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });
});

describe('convertToAnthropicTools', () => {
  it('uses input_schema', () => {
    expect(convertToAnthropicTools([weatherTool, { name: 'ping' }])).toEqual([
      { name: 'lookup_weather', description: weatherTool.description, input_schema: weatherTool.inputSchema },
      { name: 'ping', input_schema: { type: 'object', properties: {} } },
    ]);
  });
});
