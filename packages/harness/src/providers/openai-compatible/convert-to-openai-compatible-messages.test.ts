import { describe, expect, it } from 'vitest';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { convertToOpenAICompatibleMessages, convertToOpenAICompatibleTools } from './convert-to-openai-compatible-messages.js';

describe('convertToOpenAICompatibleMessages', () => {
  it('orders system, developer, context, the user message, then tool steps with real arguments and their results', () => {
    const transcript: HarnessTranscriptItem[] = [
      { type: 'invalid_output', iteration: 1, kind: 'transient', reason: 'HTTP 503' },
      {
        type: 'assistant_step',
        iteration: 2,
        outputType: 'tool_request',
        text: 'Checking two cities.',
        calls: [
          { id: 'c1', name: 'lookup_weather', input: { city: 'Oslo' } },
          { id: 'c2', name: 'lookup_weather', input: { city: 'Atlantis' } },
        ],
      },
      { type: 'tool_result', iteration: 2, result: { callId: 'c1', toolName: 'lookup_weather', status: 'success', output: 'Sunny' } },
      {
        type: 'tool_result',
        iteration: 2,
        result: { callId: 'c2', toolName: 'lookup_weather', status: 'error', error: { code: 'not_found', message: 'Unknown city.' } },
      },
    ];
    const messages = convertToOpenAICompatibleMessages(
      createModelInput({
        instructions: { systemPrompt: 'System.', developerPrompt: 'Developer.' },
        context: { blocks: [{ id: 'b', label: 'memory', content: 'Likes sun.' }] },
        transcript,
      }),
    );
    expect(messages).toEqual([
      { role: 'system', content: 'System.' },
      { role: 'system', content: 'Developer.' },
      { role: 'system', content: 'Context prepared for this turn:\n\n[memory]\nLikes sun.' },
      { role: 'user', content: 'What is the weather in Oslo?' },
      {
        role: 'assistant',
        content: 'Checking two cities.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'lookup_weather', arguments: '{"city":"Oslo"}' } },
          { id: 'c2', type: 'function', function: { name: 'lookup_weather', arguments: '{"city":"Atlantis"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'Sunny' },
      { role: 'tool', tool_call_id: 'c2', content: '{"error":{"code":"not_found","message":"Unknown city."}}' },
    ]);
    expect(JSON.stringify(messages)).not.toContain('HTTP 503');
  });

  it('uses the developer role when asked, null content for silent tool steps, and user notes for decisions', () => {
    const messages = convertToOpenAICompatibleMessages(
      createModelInput({
        instructions: { systemPrompt: 'S', developerPrompt: 'D' },
        transcript: [
          { type: 'assistant_step', iteration: 1, outputType: 'tool_request', calls: [{ id: 'c1', name: 'deploy', input: {} }] },
          { type: 'approval_request', iteration: 1, request: { id: 'c1', kind: 'tool_call', summary: 'Run deploy' } },
          { type: 'approval_decision', iteration: 1, requestId: 'c1', decision: 'approved' },
          { type: 'tool_result', iteration: 1, result: { callId: 'c1', toolName: 'deploy', status: 'success', output: 'deployed' } },
          { type: 'assistant_step', iteration: 2, outputType: 'clarification', text: 'Which region?' },
          { type: 'clarification_request', iteration: 2, question: 'Which region?' },
          { type: 'clarification_answer', iteration: 2, answer: 'eu-west' },
        ],
      }),
      { developerRole: 'developer' },
    );
    expect(messages.map((message) => message.role)).toEqual(['system', 'developer', 'user', 'assistant', 'tool', 'user', 'assistant', 'user']);
    expect(messages[3]).toMatchObject({ role: 'assistant', content: null });
    expect(messages[5]).toEqual({ role: 'user', content: '[Runtime note] Approval decision for request "c1": approved.' });
    expect(messages[7]).toEqual({ role: 'user', content: 'eu-west' });
  });
});

describe('convertToOpenAICompatibleTools', () => {
  it('describes tools as functions, with an empty object schema when none is given', () => {
    expect(convertToOpenAICompatibleTools([weatherTool, { name: 'ping' }])).toEqual([
      { type: 'function', function: { name: 'lookup_weather', description: weatherTool.description, parameters: weatherTool.inputSchema } },
      { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } },
    ]);
  });
});
