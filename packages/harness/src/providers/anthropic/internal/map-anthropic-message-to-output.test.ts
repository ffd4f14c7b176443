import { describe, expect, it } from 'vitest';
import { readProviderError } from '../../http/provider-error-class.js';
import { createRedactor } from '../../../shared/redact-secrets.js';
import type { OutputContext } from '../../internal/transport-failure-output.js';
import { createAnthropicStreamAssembler } from './assemble-anthropic-stream.js';
import { mapAnthropicMessageToOutput, readAnthropicUsage } from './map-anthropic-message-to-output.js';

const context: OutputContext = { provider: 'anthropic', model: 'claude', startedAt: 0, attempts: 1, redactor: createRedactor([]), now: () => 1 };

describe('readAnthropicUsage', () => {
  it('counts cache reads and writes as input, and cache reads as cached input', () => {
    expect(readAnthropicUsage({ input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 7 })).toEqual({
      inputTokens: 115,
      outputTokens: 7,
      cachedInputTokens: 100,
    });
    expect(readAnthropicUsage({})).toEqual({});
  });
});

describe('mapAnthropicMessageToOutput', () => {
  it('prefers the refusal explanation from stop_details', () => {
    const output = mapAnthropicMessageToOutput(
      { hasMessage: true, blocks: [{ type: 'text', text: 'partial' }], stopReason: 'refusal', stopDetails: { type: 'refusal', explanation: 'Policy.' }, usage: {} },
      context,
    );
    expect(output).toMatchObject({ type: 'refusal', reason: 'Policy.' });
    expect(mapAnthropicMessageToOutput({ hasMessage: true, blocks: [], stopReason: 'refusal', usage: {} }, context)).toMatchObject({ reason: 'The model declined to answer.' });
  });

  it('classifies an error event by its type: overload retryable, a bad request not, both with the provider code', () => {
    const overloaded = readProviderError({ type: 'overloaded_error', message: 'busy' });
    expect(mapAnthropicMessageToOutput({ hasMessage: true, blocks: [], usage: {}, error: overloaded }, context)).toMatchObject({
      kind: 'provider_error',
      retryable: true,
      code: 'provider_unavailable',
      providerCode: 'overloaded_error',
    });
    const invalid = readProviderError({ type: 'invalid_request_error', message: 'bad' });
    expect(mapAnthropicMessageToOutput({ hasMessage: true, blocks: [], usage: {}, error: invalid }, context)).toMatchObject({
      kind: 'provider_error',
      retryable: false,
      code: 'bad_request',
      providerCode: 'invalid_request_error',
    });
  });

  it('ignores unknown blocks and reports a missing message', () => {
    expect(mapAnthropicMessageToOutput({ hasMessage: true, blocks: [{ type: 'other' }, { type: 'text', text: 'Hi' }], usage: {} }, context)).toMatchObject({ type: 'final_answer', text: 'Hi' });
    expect(mapAnthropicMessageToOutput({ hasMessage: false, blocks: [], usage: {} }, context)).toMatchObject({ kind: 'missing_message' });
  });
});

describe('thinking blocks', () => {
  it('become reasoning parts in order (text + signature, or data), redacted, on answers, tool requests and refusals only', () => {
    const secret = createRedactor(['sk-ant-secret-123456']);
    const blocks = [
      { type: 'thinking' as const, thinking: 'Plan with sk-ant-secret-123456.', signature: 'c2ln' },
      { type: 'redacted_thinking' as const, data: 'ZW5j' },
      { type: 'tool_use' as const, id: 't', name: 'n', input: {} },
    ];
    expect(mapAnthropicMessageToOutput({ hasMessage: true, blocks, usage: {} }, { ...context, redactor: secret })).toMatchObject({
      type: 'tool_request',
      reasoning: [
        { provider: 'anthropic', text: 'Plan with [REDACTED].', signature: 'c2ln' },
        { provider: 'anthropic', data: 'ZW5j' },
      ],
    });
    const thinking = { type: 'thinking' as const, thinking: 'Hm.', signature: 's' };
    expect(mapAnthropicMessageToOutput({ hasMessage: true, blocks: [thinking, { type: 'text', text: 'Hi' }], usage: {} }, context)).toMatchObject({
      type: 'final_answer',
      reasoning: [{ provider: 'anthropic', text: 'Hm.', signature: 's' }],
    });
    expect(mapAnthropicMessageToOutput({ hasMessage: true, blocks: [thinking], stopReason: 'refusal', usage: {} }, context)).toMatchObject({ type: 'refusal', reasoning: [{ text: 'Hm.' }] });
    const empty = mapAnthropicMessageToOutput({ hasMessage: true, blocks: [thinking], usage: {} }, context);
    expect(empty).toMatchObject({ type: 'invalid', kind: 'empty_response' });
    expect(empty.reasoning).toBeUndefined();
  });

  it('streams thinking_delta as reasoning, accumulates signature_delta, and keeps redacted_thinking whole', () => {
    const assembler = createAnthropicStreamAssembler();
    assembler.push({ type: 'message_start', message: { id: 'msg', usage: {} } });
    expect(assembler.push({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } })).toBeUndefined();
    expect(assembler.push({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } })).toEqual({ reasoning: 'Let me ' });
    expect(assembler.push({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'think.' } })).toEqual({ reasoning: 'think.' });
    expect(assembler.push({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } })).toBeUndefined();
    assembler.push({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'Cg==' } });
    // A thinking delta aimed at a text block (or the reverse) is ignored.
    assembler.push({ type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'opaque' } });
    assembler.push({ type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: 'no' } });
    assembler.push({ type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } });
    expect(assembler.push({ type: 'content_block_delta', index: 2, delta: { type: 'thinking_delta', thinking: 'no' } })).toBeUndefined();
    expect(assembler.push({ type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Done.' } })).toEqual({ text: 'Done.' });
    assembler.push({ type: 'message_stop' });
    expect(assembler.result().blocks).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'EqQBCg==' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Done.' },
    ]);
  });
});

describe('createAnthropicStreamAssembler', () => {
  it('orders blocks by index, keeps non-streamed tool input, and merges usage', () => {
    const assembler = createAnthropicStreamAssembler();
    assembler.push({ type: 'message_start', message: { id: 'msg', usage: { input_tokens: 4, output_tokens: 1 } } });
    assembler.push({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't', name: 'n', input: { ready: true } } });
    expect(assembler.push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Hi' } })).toEqual({ text: 'Hi' });
    assembler.push({ type: 'content_block_start', index: 2, content_block: { type: 'server_tool_use' } });
    assembler.push({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } });
    expect(assembler.isComplete()).toBe(false);
    assembler.push({ type: 'message_stop' });
    expect(assembler.isComplete()).toBe(true);
    expect(assembler.result()).toMatchObject({
      responseId: 'msg',
      stopReason: 'tool_use',
      usage: { input_tokens: 4, output_tokens: 9 },
      blocks: [{ type: 'text', text: 'Hi' }, { type: 'tool_use', id: 't', name: 'n', input: { ready: true } }, { type: 'other' }],
    });
  });
});
