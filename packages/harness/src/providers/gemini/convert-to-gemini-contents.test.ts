import { describe, expect, it } from 'vitest';
import { convertToGeminiContents, convertToGeminiTools, GEMINI_UNKNOWN_THOUGHT_SIGNATURE } from './convert-to-gemini-contents.js';

const message = { id: 'm1', text: 'Weather in Oslo?', receivedAt: '2026-01-01T00:00:00.000Z' };
const calls = [
  { id: 'call_1', name: 'lookup_weather', input: { city: 'Oslo' } },
  { id: 'gemini_local_0123', name: 'lookup_weather', input: { city: 'Bergen' } },
];
const transcript = [
  { type: 'assistant_step' as const, iteration: 1, outputType: 'tool_request' as const, text: 'Checking both.', calls },
  { type: 'tool_result' as const, iteration: 1, result: { callId: 'gemini_local_0123', toolName: 'lookup_weather', status: 'error' as const, error: { code: 'down', message: 'No data.' } } },
  { type: 'tool_result' as const, iteration: 1, result: { callId: 'call_1', toolName: 'lookup_weather', status: 'success' as const, structuredOutput: { temp: 21 } } },
  { type: 'approval_decision' as const, iteration: 2, requestId: 'r1', decision: 'approved' as const },
];

describe('convertToGeminiContents', () => {
  it('puts system, developer and context into systemInstruction parts', () => {
    expect(convertToGeminiContents({ instructions: { systemPrompt: 'Sys.', developerPrompt: 'Dev.' }, message, transcript: [] })).toEqual({
      systemInstruction: { parts: [{ text: 'Sys.' }, { text: 'Dev.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Weather in Oslo?' }] }],
    });
    expect(convertToGeminiContents({ instructions: { systemPrompt: ' ' }, message, transcript: [] }).systemInstruction).toBeUndefined();
  });

  it('replays a step with the signatures of its reasoning parts on their parts, Gemini ids (not local ones), results in call order', () => {
    const reasoning = [
      { provider: 'gemini', text: 'Thinking about both cities.' },
      { provider: 'gemini', id: 'text', signature: 'sig-text' },
      { provider: 'gemini', id: 'functionCall:call_1', signature: 'sig-1' },
      { provider: 'gemini', id: 'functionCall:gemini_local_0123' },
      { provider: 'anthropic', id: 'functionCall:gemini_local_0123', signature: 'foreign' },
    ];
    const signed = [{ ...transcript[0]!, reasoning }, ...transcript.slice(1)];
    const { contents } = convertToGeminiContents({ instructions: { systemPrompt: '' }, message, transcript: signed });
    expect(contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Checking both.', thoughtSignature: 'sig-text' },
          { functionCall: { name: 'lookup_weather', args: { city: 'Oslo' }, id: 'call_1' }, thoughtSignature: 'sig-1' },
          { functionCall: { name: 'lookup_weather', args: { city: 'Bergen' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'lookup_weather', response: { output: '{"temp":21}' }, id: 'call_1' } },
          { functionResponse: { name: 'lookup_weather', response: { error: { code: 'down', message: 'No data.' } } } },
        ],
      },
      { role: 'user', parts: [{ text: '[Runtime note] Approval decision for request "r1": approved.' }] },
    ]);
  });

  it('replays history as user / model contents (same roles merged) with inlineData / fileData attachments', () => {
    const { contents } = convertToGeminiContents({
      instructions: { systemPrompt: '' },
      history: [
        { role: 'user', text: 'Look.', attachments: [{ id: 'a1', type: 'image', url: 'https://example.com/a.png', mediaType: 'image/png' }] },
        { role: 'assistant', text: 'A cat.' },
        { role: 'user', text: 'And this?', attachments: [{ id: '__proto__', type: 'file', name: 'x.pdf', data: 'JVBERi0=', mediaType: 'application/pdf' }] },
      ],
      message: { ...message, attachments: [{ id: 'a3', type: 'image', url: 'data:image/jpeg;base64,/9j/' }] },
      transcript: [],
    });
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'Look.' }, { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/a.png' } }] },
      { role: 'model', parts: [{ text: 'A cat.' }] },
      {
        role: 'user',
        parts: [
          { text: 'And this?' },
          { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
          { text: 'Weather in Oslo?' },
          { inlineData: { mimeType: 'image/jpeg', data: '/9j/' } },
        ],
      },
    ]);
  });

  it('refuses a URL attachment without a media type', () => {
    expect(() =>
      convertToGeminiContents({ instructions: { systemPrompt: '' }, message: { ...message, attachments: [{ id: 'doc', type: 'file', url: 'https://example.com/doc' }] }, transcript: [] }),
    ).toThrow(expect.objectContaining({ code: 'HARNESS_ERR_UNSUPPORTED_INPUT', reason: 'attachments_unsupported', message: expect.stringContaining('"doc"') }));
  });

  it('marks the first call of a step without gemini reasoning parts with the placeholder signature and sends no local ids', () => {
    const { contents } = convertToGeminiContents({ instructions: { systemPrompt: '' }, message, transcript });
    expect(contents[1]!.parts.slice(1)).toEqual([
      { functionCall: { name: 'lookup_weather', args: { city: 'Oslo' }, id: 'call_1' }, thoughtSignature: GEMINI_UNKNOWN_THOUGHT_SIGNATURE },
      { functionCall: { name: 'lookup_weather', args: { city: 'Bergen' } } },
    ]);
  });

  it('declares tools with parametersJsonSchema, and none without tools', () => {
    expect(convertToGeminiTools([])).toEqual([]);
    expect(convertToGeminiTools([{ name: 'ping', description: 'Pings.' }])).toEqual([
      { functionDeclarations: [{ name: 'ping', description: 'Pings.', parametersJsonSchema: { type: 'object', properties: {} } }] },
    ]);
  });
});
