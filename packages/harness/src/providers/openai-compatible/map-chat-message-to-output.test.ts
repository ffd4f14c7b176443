import { describe, expect, it } from 'vitest';
import { readProviderError } from '../http/provider-error-class.js';
import { createRedactor } from '../../shared/redact-secrets.js';
import type { OutputContext } from '../internal/transport-failure-output.js';
import { mapChatMessageToOutput, readOpenAICompatibleUsage } from './map-chat-message-to-output.js';

const context: OutputContext = { provider: 'p', model: 'm', startedAt: 0, attempts: 1, redactor: createRedactor(['secret-key-123']), now: () => 5 };

describe('readOpenAICompatibleUsage', () => {
  it('maps tokens and cost, ignoring junk', () => {
    expect(readOpenAICompatibleUsage({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, cost: 0.01 })).toEqual({ inputTokens: 3, outputTokens: 4, costUnits: 0.01 });
    expect(readOpenAICompatibleUsage({ prompt_tokens: '3', cost: -1 })).toEqual({});
    expect(readOpenAICompatibleUsage(null)).toEqual({});
  });
});

describe('mapChatMessageToOutput', () => {
  it('generates ids for calls without one, and reports calls without a name', () => {
    const output = mapChatMessageToOutput({ hasMessage: true, text: '', toolCalls: [{ name: 'search', arguments: '{}' }] }, context);
    expect(output.type === 'tool_request' && output.calls[0]!.id).toMatch(/^call_/);
    expect(mapChatMessageToOutput({ hasMessage: true, text: '', toolCalls: [{ arguments: '{}' }] }, context)).toMatchObject({ type: 'invalid', kind: 'schema_mismatch' });
  });

  it('reports provider errors by code, a missing message, and an error stop', () => {
    const bad = readProviderError({ error: { message: 'bad', code: 400 } });
    expect(mapChatMessageToOutput({ hasMessage: true, text: '', toolCalls: [], error: bad }, context)).toMatchObject({ kind: 'provider_error', retryable: false, httpStatus: 400 });
    const busy = readProviderError({ error: { message: 'busy', code: 'server_error' } });
    expect(mapChatMessageToOutput({ hasMessage: true, text: '', toolCalls: [], error: busy }, context)).toMatchObject({ kind: 'provider_error', retryable: true, providerCode: 'server_error' });
    expect(mapChatMessageToOutput({ hasMessage: false, text: '', toolCalls: [] }, context)).toMatchObject({ kind: 'missing_message' });
    expect(mapChatMessageToOutput({ hasMessage: true, text: 'partial', toolCalls: [], finishReason: 'error' }, context)).toMatchObject({ kind: 'provider_error', retryable: true });
  });

  it('keeps a token-limit answer with its finish reason, and redacts the key from text', () => {
    expect(mapChatMessageToOutput({ hasMessage: true, text: 'Long answer secret-key-123', toolCalls: [], finishReason: 'length' }, context)).toMatchObject({
      type: 'final_answer',
      text: 'Long answer [REDACTED]',
      usage: { latencyMs: 5 },
      metadata: { finishReason: 'length', rawFinishReason: 'length', provider: 'p', model: 'm', attempts: 1 },
    });
  });
});
