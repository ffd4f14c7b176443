import { describe, expect, it } from 'vitest';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { UnsupportedInputError } from '../internal/unsupported-input-error.js';
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

describe('history, attachments and reasoning', () => {
  it('replays the history as role messages before the message, attachments before text, merging one role', () => {
    const prompt = convertToAnthropicMessages(
      createModelInput({
        history: [
          { role: 'user', text: 'Here is a photo.', attachments: [{ id: 'img', type: 'image', url: 'https://example.test/sky.jpg' }] },
          { role: 'assistant', text: 'A clear sky.' },
          { role: 'assistant', text: ' ' },
          { role: 'user', text: 'And this report?' },
        ],
        message: {
          id: 'm',
          text: ' ',
          receivedAt: '2026-01-01T00:00:00.000Z',
          attachments: [{ id: 'pdf', type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf' }],
        },
      }),
    );
    expect(prompt.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'url', url: 'https://example.test/sky.jpg' } },
          { type: 'text', text: 'Here is a photo.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'A clear sky.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'And this report?' },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
        ],
      },
    ]);
  });

  it('refuses an attachment on an assistant history message', () => {
    const input = createModelInput({ history: [{ role: 'assistant', text: 'Look.', attachments: [{ id: 'a1', type: 'image', url: 'https://example.test/a.png' }] }] });
    expect(() => convertToAnthropicMessages(input)).toThrow(UnsupportedInputError);
    expect(() => convertToAnthropicMessages(input)).toThrow(/"a1".*only on user messages/);
  });

  it('opens a replayed tool step with its Anthropic thinking blocks, unchanged and in order, skipping other providers', () => {
    const transcript: HarnessTranscriptItem[] = [
      {
        type: 'assistant_step',
        iteration: 1,
        outputType: 'tool_request',
        text: 'Checking.',
        calls: [{ id: 'toolu_1', name: 'lookup_weather', input: { city: 'Oslo' } }],
        reasoning: [
          { provider: 'anthropic', text: 'I should look it up.', signature: 'c2lnMQ==' },
          { provider: 'gemini', text: 'not mine', signature: 'g' },
          { provider: 'anthropic', data: 'cmVkYWN0ZWQ=' },
          { provider: 'anthropic', text: 'unsigned: cannot be replayed' },
        ],
      },
      { type: 'tool_result', iteration: 1, result: { callId: 'toolu_1', toolName: 'lookup_weather', status: 'success', output: 'Sunny' } },
    ];
    expect(convertToAnthropicMessages(createModelInput({ transcript })).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should look it up.', signature: 'c2lnMQ==' },
        { type: 'redacted_thinking', data: 'cmVkYWN0ZWQ=' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup_weather', input: { city: 'Oslo' } },
      ],
    });
  });

  it('keeps thinking blocks first when an assistant message is merged into another', () => {
    const transcript: HarnessTranscriptItem[] = [
      { type: 'approval_request', iteration: 1, request: { id: 'r', kind: 'action', summary: 'Send it?' } },
      {
        type: 'assistant_step',
        iteration: 2,
        outputType: 'tool_request',
        calls: [{ id: 'toolu_2', name: 'lookup_weather', input: { city: 'Bergen' } }],
        reasoning: [{ provider: 'anthropic', text: 'Go.', signature: 'c2ln' }],
      },
    ];
    const content = convertToAnthropicMessages(createModelInput({ transcript })).messages[1]!.content;
    expect(content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
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
