import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../shared/redact-secrets.js';
import { chatReasoningPart, mergeReasoningDetails, readReasoningDetails, replayReasoningDetails } from './chat-reasoning.js';

describe('chat reasoning', () => {
  it('reads only the objects of an array, as own-property copies (a __proto__ key stays a key)', () => {
    const hostile = JSON.parse('[{"__proto__":{"polluted":true},"type":"reasoning.text"},"x",null,[1]]') as unknown;
    const details = readReasoningDetails(hostile);
    expect(details).toHaveLength(1);
    expect(Object.getPrototypeOf(details[0])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(details)).toBe('[{"__proto__":{"polluted":true},"type":"reasoning.text"}]');
    expect(readReasoningDetails({ type: 'reasoning.text' })).toEqual([]);
  });

  it('caps the number of entries a stream can add', () => {
    const details: Record<string, unknown>[] = [];
    for (let index = 0; index < 400; index += 1) mergeReasoningDetails(details, [{ type: 'reasoning.text', text: 'x', index }]);
    expect(details).toHaveLength(256);
  });

  it('builds a part with redacted text and the details as JSON, and replays only its own parsable parts', () => {
    const redactor = createRedactor(['secret-key-123']);
    const part = chatReasoningPart(' I saw secret-key-123 ', [{ type: 'reasoning.text', text: 'secret-key-123', signature: 's' }], redactor);
    expect(part).toEqual({ provider: 'openai-compatible', text: 'I saw [REDACTED]', data: '[{"type":"reasoning.text","text":"[REDACTED]","signature":"s"}]' });
    expect(chatReasoningPart('  ', [], redactor)).toBeUndefined();
    expect(
      replayReasoningDetails([
        part!,
        { provider: 'openai-compatible', text: 'plain text only' },
        { provider: 'anthropic', text: 't', signature: 'x', data: '[{"type":"thinking"}]' },
        { provider: 'openai-compatible', data: 'not json' },
        { provider: 'openai-compatible', data: '{"type":"object, not array"}' },
      ]),
    ).toEqual([{ type: 'reasoning.text', text: '[REDACTED]', signature: 's' }]);
    expect(replayReasoningDetails([{ provider: 'openai-compatible', text: 'x' }])).toBeUndefined();
    expect(replayReasoningDetails(undefined)).toBeUndefined();
  });
});
