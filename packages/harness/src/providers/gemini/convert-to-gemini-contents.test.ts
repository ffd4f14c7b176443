import { describe, expect, it } from 'vitest';
import { convertToGeminiContents, convertToGeminiTools, GEMINI_UNKNOWN_THOUGHT_SIGNATURE } from './convert-to-gemini-contents.js';

const message = { id: 'm1', text: 'Weather in Oslo?', receivedAt: '2026-01-01T00:00:00.000Z' };
const calls = [
  { id: 'call_1', name: 'lookup_weather', input: { city: 'Oslo' } },
  { id: 'call_2', name: 'lookup_weather', input: { city: 'Bergen' } },
];
const transcript = [
  { type: 'assistant_step' as const, iteration: 1, outputType: 'tool_request' as const, text: 'Checking both.', calls },
  { type: 'tool_result' as const, iteration: 1, result: { callId: 'call_2', toolName: 'lookup_weather', status: 'error' as const, error: { code: 'down', message: 'No data.' } } },
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

  it('replays a step with remembered signatures and provider ids, results in call order', () => {
    const state = new Map([
      ['call_1', { thoughtSignature: 'sig-1', providerId: true }],
      ['call_2', { providerId: false }],
    ]);
    const { contents } = convertToGeminiContents({ instructions: { systemPrompt: '' }, message, transcript }, { recallStep: () => state });
    expect(contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Checking both.' },
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

  it('marks the first call of an unknown step with the placeholder signature and sends no made-up ids', () => {
    const { contents } = convertToGeminiContents({ instructions: { systemPrompt: '' }, message, transcript });
    expect(contents[1]!.parts.slice(1)).toEqual([
      { functionCall: { name: 'lookup_weather', args: { city: 'Oslo' } }, thoughtSignature: GEMINI_UNKNOWN_THOUGHT_SIGNATURE },
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
