import { describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { assertEndpointAllowed, joinUrl } from './assert-endpoint-allowed.js';

describe('assertEndpointAllowed', () => {
  it.each(['https://openrouter.ai/api/v1', 'http://127.0.0.1:8080/v1', 'http://localhost:11434/v1', 'http://[::1]:9000'])('allows %s', (url) => {
    expect(assertEndpointAllowed(url, 'baseUrl').href.startsWith(url.replace(/\/$/, ''))).toBe(true);
  });

  it.each([
    'http://example.com/v1',
    'http://10.0.0.5:8000/v1',
    'http://127.0.0.2/v1',
    'ftp://localhost/v1',
    'https://user:secret@example.com/v1',
    'https://example.com/v1?key=abc',
    'not a url',
    '',
  ])('refuses %s with a HarnessConfigError naming the field', (url) => {
    let caught: unknown;
    try {
      assertEndpointAllowed(url, 'baseUrl');
    } catch (error) {
      caught = error;
    }
    expect(HarnessConfigError.isInstance(caught)).toBe(true);
    expect((caught as HarnessConfigError).field).toBe('baseUrl');
    expect((caught as HarnessConfigError).code).toBe('HARNESS_ERR_INVALID_CONFIG');
    expect((caught as Error).message).not.toContain('secret');
  });

  it('joins paths with or without a trailing slash', () => {
    expect(joinUrl(new URL('https://api.example.com/v1/'), '/chat/completions')).toBe('https://api.example.com/v1/chat/completions');
    expect(joinUrl(new URL('https://api.example.com/v1'), '/messages')).toBe('https://api.example.com/v1/messages');
  });
});
