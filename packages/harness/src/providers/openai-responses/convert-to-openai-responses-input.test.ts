import { describe, expect, it } from 'vitest';
import { convertToOpenAIResponsesInput, convertToOpenAIResponsesTools } from './convert-to-openai-responses-input.js';

const message = { id: 'm1', text: 'Weather in Oslo?', receivedAt: '2026-01-01T00:00:00.000Z' };
const calls = [{ id: 'call_1', name: 'lookup_weather', input: { city: 'Oslo' } }];

describe('convertToOpenAIResponsesInput', () => {
  it('puts the system prompt in instructions, developer prompt and context in developer messages', () => {
    expect(
      convertToOpenAIResponsesInput({
        instructions: { systemPrompt: 'Be a weather bot.', developerPrompt: 'Short answers.', responseStyle: { preferMarkdown: false } },
        context: { blocks: [{ id: 'b', label: 'notes', content: 'Oslo is in Norway.' }] },
        message,
        transcript: [],
      }),
    ).toEqual({
      instructions: 'Be a weather bot.',
      input: [
        { type: 'message', role: 'developer', content: 'Short answers.\n\nWrite the final answer as plain text, without Markdown.' },
        { type: 'message', role: 'developer', content: 'Context prepared for this turn:\n\n[notes]\nOslo is in Norway.' },
        { type: 'message', role: 'user', content: 'Weather in Oslo?' },
      ],
    });
  });

  it('replays tool steps, missing results, clarifications and notes in order, and reasoning only when recalled', () => {
    const transcript = [
      { type: 'assistant_step' as const, iteration: 1, outputType: 'tool_request' as const, calls },
      { type: 'clarification_request' as const, iteration: 2, question: 'Which Oslo?' },
      { type: 'clarification_answer' as const, iteration: 2, answer: 'Norway.' },
      { type: 'invalid_output' as const, iteration: 3, kind: 'schema_mismatch' as const, reason: 'Bad arguments.' },
    ];
    const reasoning = { type: 'reasoning' as const, id: 'rs_1', summary: [], encrypted_content: 'enc' };
    const prompt = convertToOpenAIResponsesInput(
      { instructions: { systemPrompt: '' }, message, transcript },
      { recallStep: (recalled) => (recalled[0]?.id === 'call_1' ? { reasoning: [reasoning], callItemIds: new Map([['call_1', 'fc_1']]) } : undefined) },
    );
    expect(prompt.instructions).toBeUndefined();
    expect(prompt.input.slice(1)).toEqual([
      reasoning,
      { type: 'function_call', call_id: 'call_1', name: 'lookup_weather', arguments: '{"city":"Oslo"}', id: 'fc_1' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"error":{"code":"not_executed","message":"This tool call was not executed."}}' },
      { type: 'message', role: 'assistant', content: 'Which Oslo?' },
      { type: 'message', role: 'user', content: 'Norway.' },
      { type: 'message', role: 'user', content: '[Runtime note] Your previous reply could not be used: Bad arguments. Please try again.' },
    ]);
  });

  it('describes tools as flat, non-strict function tools', () => {
    expect(convertToOpenAIResponsesTools([{ name: 'ping' }])).toEqual([{ type: 'function', name: 'ping', parameters: { type: 'object', properties: {} }, strict: false }]);
  });
});
