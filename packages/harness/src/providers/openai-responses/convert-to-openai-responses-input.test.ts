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
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Oslo?' }] },
      ],
    });
  });

  it('replays history before the message, with attachments as input_image / input_file parts', () => {
    const prompt = convertToOpenAIResponsesInput({
      instructions: { systemPrompt: '' },
      history: [
        { role: 'user', text: 'Here is a chart.', attachments: [{ id: 'a1', type: 'image', url: 'https://example.com/chart.png' }] },
        { role: 'assistant', text: 'Nice chart.' },
      ],
      message: {
        ...message,
        text: '',
        attachments: [
          { id: 'a2', type: 'image', data: 'iVBORw0=', mediaType: 'image/png' },
          { id: '__proto__', type: 'file', name: 'report.pdf', data: 'JVBERi0=', mediaType: 'application/pdf' },
          { id: 'a4', type: 'file', url: 'https://example.com/notes.pdf' },
          { id: 'a5', type: 'file', url: 'data:text/plain;base64,aGk=' },
        ],
      },
      transcript: [],
    });
    expect(prompt.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Here is a chart.' }, { type: 'input_image', image_url: 'https://example.com/chart.png', detail: 'auto' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Nice chart.' }] },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0=', detail: 'auto' },
          { type: 'input_file', filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
          { type: 'input_file', file_url: 'https://example.com/notes.pdf' },
          { type: 'input_file', filename: 'a5', file_data: 'data:text/plain;base64,aGk=' },
        ],
      },
    ]);
  });

  it('refuses an attachment on an assistant history message', () => {
    expect(() =>
      convertToOpenAIResponsesInput({
        instructions: { systemPrompt: '' },
        history: [{ role: 'assistant', text: 'Drawn.', attachments: [{ id: 'img', type: 'image', url: 'https://example.com/x.png' }] }],
        message,
        transcript: [],
      }),
    ).toThrow(expect.objectContaining({ code: 'HARNESS_ERR_UNSUPPORTED_INPUT', reason: 'attachments_unsupported', message: expect.stringContaining('"img"') }));
  });

  it('replays tool steps with their reasoning items (and the item ids issued with them), missing results, clarifications and notes in order', () => {
    const following = JSON.stringify([
      { type: 'message', id: 'msg_1' },
      { type: 'function_call', id: 'fc_1', callId: 'call_1' },
    ]);
    const transcript = [
      {
        type: 'assistant_step' as const,
        iteration: 1,
        outputType: 'tool_request' as const,
        text: 'Looking.',
        calls,
        reasoning: [
          { provider: 'openai-responses', id: 'rs_1', text: 'Think.', data: 'enc', signature: following },
          { provider: 'anthropic', text: 'Not ours.', signature: 'sig' },
        ],
      },
      { type: 'clarification_request' as const, iteration: 2, question: 'Which Oslo?' },
      { type: 'clarification_answer' as const, iteration: 2, answer: 'Norway.' },
      { type: 'invalid_output' as const, iteration: 3, kind: 'schema_mismatch' as const, reason: 'Bad arguments.' },
    ];
    const prompt = convertToOpenAIResponsesInput({ instructions: { systemPrompt: '' }, message, transcript });
    expect(prompt.instructions).toBeUndefined();
    expect(prompt.input.slice(1)).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Think.' }], encrypted_content: 'enc' },
      { type: 'message', role: 'assistant', content: 'Looking.', id: 'msg_1' },
      { type: 'function_call', call_id: 'call_1', name: 'lookup_weather', arguments: '{"city":"Oslo"}', id: 'fc_1' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"error":{"code":"not_executed","message":"This tool call was not executed."}}' },
      { type: 'message', role: 'assistant', content: 'Which Oslo?' },
      { type: 'message', role: 'user', content: 'Norway.' },
      { type: 'message', role: 'user', content: '[Runtime note] Your previous reply could not be used, so nothing in it was run: Bad arguments. Please try again.' },
    ]);
  });

  it('without store, leaves out reasoning without encrypted content (and sends its items without ids); a tampered signature reads as none', () => {
    const transcript = [
      {
        type: 'assistant_step' as const,
        iteration: 1,
        outputType: 'tool_request' as const,
        calls,
        reasoning: [
          { provider: 'openai-responses', id: 'rs_1', signature: JSON.stringify([{ type: 'function_call', id: 'fc_1', callId: 'call_1' }]) },
          { provider: 'openai-responses', id: 'rs_2', data: 'enc', signature: '{"__proto__":1' },
        ],
      },
    ];
    const conversation = { instructions: { systemPrompt: '' }, message, transcript };
    expect(convertToOpenAIResponsesInput(conversation).input.slice(1, 3)).toEqual([
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'enc' },
      { type: 'function_call', call_id: 'call_1', name: 'lookup_weather', arguments: '{"city":"Oslo"}' },
    ]);
    expect(convertToOpenAIResponsesInput(conversation, { store: true }).input.slice(1, 4)).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', call_id: 'call_1', name: 'lookup_weather', arguments: '{"city":"Oslo"}', id: 'fc_1' },
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'enc' },
    ]);
  });

  it('describes tools as flat, non-strict function tools', () => {
    expect(convertToOpenAIResponsesTools([{ name: 'ping' }])).toEqual([{ type: 'function', name: 'ping', parameters: { type: 'object', properties: {} }, strict: false }]);
  });
});
