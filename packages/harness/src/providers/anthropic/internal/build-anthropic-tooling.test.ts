import { describe, expect, it } from 'vitest';
import type { HarnessModelInput, HarnessModelOutput } from '../../../core/types/model.js';
import { weatherTool } from '../../__fixtures__/create-model-input.js';
import { UnsupportedInputError } from '../../internal/unsupported-input-error.js';
import { buildAnthropicTooling, isAnthropicThinkingEnabled, readAnthropicAnswerTool } from './build-anthropic-tooling.js';

type Tooling = Pick<HarnessModelInput, 'availableTools' | 'output' | 'toolChoice'>;
const output = { name: 'forecast', jsonSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] } };
const answerTool = { name: 'forecast', description: 'Give your final answer by calling this tool: its input is the answer.', input_schema: output.jsonSchema };
const weather = { name: 'lookup_weather', description: weatherTool.description, input_schema: weatherTool.inputSchema };

function refusal(input: Tooling, thinking = false): UnsupportedInputError {
  try {
    buildAnthropicTooling(input, thinking);
  } catch (error) {
    if (error instanceof UnsupportedInputError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('buildAnthropicTooling', () => {
  it.each<[Tooling['toolChoice'], unknown]>([
    [undefined, { type: 'auto' }],
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
    [{ name: 'lookup_weather' }, { type: 'tool', name: 'lookup_weather' }],
  ])('maps tool choice %j to %j', (toolChoice, expected) => {
    expect(buildAnthropicTooling({ availableTools: [weatherTool], toolChoice }, false)).toEqual({ tools: [weather], tool_choice: expected });
  });

  it('sends neither tools nor a choice without tools', () => {
    expect(buildAnthropicTooling({ availableTools: [], toolChoice: 'none' }, false)).toEqual({});
    expect(buildAnthropicTooling({ availableTools: [], toolChoice: 'required' }, false)).toEqual({});
  });

  it('forces the answer tool when it is the only tool or the choice is none, and asks for any tool otherwise', () => {
    expect(buildAnthropicTooling({ availableTools: [], output: { ...output, description: 'The forecast.' } }, false)).toEqual({
      tools: [{ ...answerTool, description: `${answerTool.description} The forecast.` }],
      tool_choice: { type: 'tool', name: 'forecast' },
    });
    expect(buildAnthropicTooling({ availableTools: [weatherTool], output, toolChoice: 'none' }, false)).toEqual({
      tools: [weather, answerTool],
      tool_choice: { type: 'tool', name: 'forecast' },
    });
    for (const toolChoice of [undefined, 'auto', 'required'] as const) {
      expect(buildAnthropicTooling({ availableTools: [weatherTool], output, toolChoice }, false)).toEqual({ tools: [weather, answerTool], tool_choice: { type: 'any' } });
    }
    expect(buildAnthropicTooling({ availableTools: [weatherTool], output, toolChoice: { name: 'lookup_weather' } }, false)).toEqual({
      tools: [weather, answerTool],
      tool_choice: { type: 'tool', name: 'lookup_weather' },
    });
  });

  it('with extended thinking offers the answer tool with auto and a system note, and refuses forced choices', () => {
    expect(buildAnthropicTooling({ availableTools: [], output, toolChoice: 'none' }, true)).toEqual({
      tools: [answerTool],
      tool_choice: { type: 'auto' },
      systemNote: 'When you have the final answer, give it by calling the tool "forecast" with the answer as its input; do not answer in plain text.',
    });
    expect(buildAnthropicTooling({ availableTools: [weatherTool], toolChoice: 'none' }, true)).toEqual({ tools: [weather], tool_choice: { type: 'none' } });
    expect(refusal({ availableTools: [weatherTool], toolChoice: 'required' }, true).reason).toBe('tool_choice_unsupported');
    expect(refusal({ availableTools: [weatherTool], toolChoice: { name: 'lookup_weather' } }, true).message).toContain('extended thinking');
  });

  it('refuses an unknown tool name, a malformed choice and an answer tool named like a real tool', () => {
    expect(refusal({ availableTools: [weatherTool], toolChoice: { name: '__proto__' } })).toMatchObject({ code: 'HARNESS_ERR_UNSUPPORTED_INPUT', reason: 'tool_choice_unsupported', message: expect.stringContaining('"__proto__"') });
    expect(refusal({ availableTools: [weatherTool], toolChoice: 'sometimes' as never }).reason).toBe('tool_choice_unsupported');
    expect(refusal({ availableTools: [weatherTool], output: { ...output, name: 'lookup_weather' } }).reason).toBe('output_unsupported');
  });
});

describe('readAnthropicAnswerTool', () => {
  const request: HarnessModelOutput = {
    type: 'tool_request',
    text: 'Here it is.',
    calls: [{ id: 'toolu_1', name: 'forecast', input: { summary: 'Sunny' } }],
    usage: { inputTokens: 3 },
    metadata: { finishReason: 'tool_calls', rawFinishReason: 'tool_use' },
    reasoning: [{ provider: 'anthropic', text: 'Hm.', signature: 's' }],
  };

  it('turns a call of the answer tool into a final answer with its value', () => {
    expect(readAnthropicAnswerTool(request, 'forecast')).toEqual({
      type: 'final_answer',
      text: '{"summary":"Sunny"}',
      value: { summary: 'Sunny' },
      usage: { inputTokens: 3 },
      metadata: { finishReason: 'stop', rawFinishReason: 'tool_use' },
      reasoning: [{ provider: 'anthropic', text: 'Hm.', signature: 's' }],
    });
  });

  it('runs other tools first, dropping the answer call, and leaves other outputs alone', () => {
    const both: HarnessModelOutput = { ...request, calls: [request.calls[0]!, { id: 'toolu_2', name: 'lookup_weather', input: { city: 'Oslo' } }] };
    expect(readAnthropicAnswerTool(both, 'forecast')).toEqual({ ...request, calls: [{ id: 'toolu_2', name: 'lookup_weather', input: { city: 'Oslo' } }] });
    expect(readAnthropicAnswerTool(request, undefined)).toBe(request);
    expect(readAnthropicAnswerTool(request, 'other')).toBe(request);
    const answer: HarnessModelOutput = { type: 'final_answer', text: '{}' };
    expect(readAnthropicAnswerTool(answer, 'forecast')).toBe(answer);
  });
});

describe('isAnthropicThinkingEnabled', () => {
  it('reads extraBody.thinking', () => {
    expect(isAnthropicThinkingEnabled({ type: 'enabled', budget_tokens: 1024 })).toBe(true);
    expect(isAnthropicThinkingEnabled({ type: 'adaptive' })).toBe(true);
    expect(isAnthropicThinkingEnabled({ type: 'disabled' })).toBe(false);
    expect(isAnthropicThinkingEnabled(undefined)).toBe(false);
    expect(isAnthropicThinkingEnabled('enabled')).toBe(false);
  });
});
