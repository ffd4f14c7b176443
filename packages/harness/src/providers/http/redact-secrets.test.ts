import { describe, expect, it } from 'vitest';
import { createRedactor, sensitiveHeaderValues, truncateText } from './redact-secrets.js';

describe('createRedactor', () => {
  const redactor = createRedactor(['canary-key-0123456789', undefined, 'abc']);

  it('replaces known secrets everywhere', () => {
    expect(redactor.exact('a canary-key-0123456789 b canary-key-0123456789')).toBe('a [REDACTED] b [REDACTED]');
    expect(redactor.text('key=canary-key-0123456789')).toBe('key=[REDACTED]');
  });

  it('redacts bearer tokens and sk- keys in error text only', () => {
    expect(redactor.text('Authorization: Bearer other-token-123')).toBe('Authorization: Bearer [REDACTED]');
    expect(redactor.text('bad key sk-or-v1-abcdef0123456789')).toBe('bad key [REDACTED]');
    expect(redactor.exact('sk-or-v1-abcdef0123456789')).toBe('sk-or-v1-abcdef0123456789');
  });

  it('ignores secrets too short to match safely', () => {
    expect(redactor.exact('abc')).toBe('abc');
  });
});

describe('sensitiveHeaderValues', () => {
  it('picks values of secret-looking headers', () => {
    expect(sensitiveHeaderValues({ 'X-Api-Key': 'k1', Authorization: 'a1', 'X-Title': 'app', 'x-session-token': 't1' })).toEqual(['k1', 'a1', 't1']);
  });
});

describe('truncateText', () => {
  it('marks a cut', () => {
    expect(truncateText('abcdef', 3)).toBe('abc…[truncated]');
    expect(truncateText('abc', 3)).toBe('abc');
  });
});
