import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleStreamAssembler } from './assemble-openai-compatible-stream.js';

describe('createOpenAICompatibleStreamAssembler', () => {
  it('assembles calls from servers that omit index: a new id starts a call, no id continues the last', () => {
    const assembler = createOpenAICompatibleStreamAssembler();
    assembler.push({ choices: [{ delta: { tool_calls: [{ id: 'a', function: { name: 'one', arguments: '{"x"' } }] } }] });
    assembler.push({ choices: [{ delta: { tool_calls: [{ function: { arguments: ':1}' } }] } }] });
    assembler.push({ choices: [{ delta: { tool_calls: [{ id: 'b', function: { name: 'two', arguments: '{}' } }] } }] });
    assembler.push({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] });
    expect(assembler.isComplete()).toBe(true);
    expect(assembler.result().toolCalls).toEqual([
      { id: 'a', name: 'one', arguments: '{"x":1}' },
      { id: 'b', name: 'two', arguments: '{}' },
    ]);
  });

  it('collects text, refusal, usage, ids and errors; [DONE] completes', () => {
    const assembler = createOpenAICompatibleStreamAssembler();
    expect(assembler.push({ id: 'r1', model: 'm', choices: [{ delta: { content: 'Hel' } }] })).toEqual({ text: 'Hel' });
    expect(assembler.push({ choices: [{ delta: { content: 'lo', refusal: 'no' } }] })).toEqual({ text: 'lo' });
    expect(assembler.push({ choices: [], usage: { prompt_tokens: 1 } })).toEqual({});
    expect(assembler.isComplete()).toBe(false);
    assembler.markDone();
    expect(assembler.isComplete()).toBe(true);
    expect(assembler.result()).toMatchObject({ hasMessage: true, text: 'Hello', refusal: 'no', responseId: 'r1', responseModel: 'm', usage: { prompt_tokens: 1 } });
    assembler.push({ error: { message: 'boom', code: 500 } });
    expect(assembler.hasError()).toBe(true);
  });

  it('keeps reasoning apart: reasoning_content (DeepSeek) or reasoning (OpenRouter), and merges reasoning_details by index', () => {
    const assembler = createOpenAICompatibleStreamAssembler();
    expect(assembler.push({ choices: [{ delta: { reasoning_content: 'Think' } }] })).toEqual({ reasoning: 'Think' });
    expect(assembler.push({ choices: [{ delta: { reasoning: 'ing.', reasoning_details: [{ type: 'reasoning.text', text: 'Thinking', index: 0 }] } }] })).toEqual({ reasoning: 'ing.' });
    assembler.push({ choices: [{ delta: { reasoning_details: [{ type: 'reasoning.text', text: '.', signature: null, index: 0 }] } }] });
    assembler.push({ choices: [{ delta: { reasoning_details: [{ type: 'reasoning.text', signature: 'sig', index: 0 }, { type: 'reasoning.encrypted', data: 'abc', index: 1 }] } }] });
    assembler.push({ choices: [{ delta: { content: 'Answer', reasoning_details: 'not an array' } }] });
    assembler.push({ choices: [{ delta: {}, finish_reason: 'stop' }] });
    expect(assembler.result()).toMatchObject({
      text: 'Answer',
      reasoning: 'Thinking.',
      reasoningDetails: [
        { type: 'reasoning.text', text: 'Thinking.', signature: 'sig', index: 0 },
        { type: 'reasoning.encrypted', data: 'abc', index: 1 },
      ],
    });
  });
});
