import { describe, expect, it } from 'vitest';
import { createRedactor, headerSecrets, sensitiveHeaderValues, truncateText } from './redact-secrets.js';

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

  it('finds a secret written with JSON escapes, in any mix and hex case', () => {
    const secret = 'canary-key-0123456789';
    const lower = [...secret].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(redactor.exact(`{"message":"bad ${lower}"}`)).toBe('{"message":"bad [REDACTED]"}');
    expect(redactor.text(`x \\u0063anary-key-\\u0030123456789 y`)).toBe('x [REDACTED] y');
    expect(redactor.exact(`\\u0043anary-key-0123456789`)).toBe(`\\u0043anary-key-0123456789`);
    const slashy = createRedactor(['a/b"c\\d-secret']);
    expect(slashy.exact('k=a\\/b\\"c\\\\d-secret;')).toBe('k=[REDACTED];');
    expect(slashy.exact('k=a/b"c\\d-secret;')).toBe('k=[REDACTED];');
  });

  it('reports how much of a text end could begin a secret', () => {
    expect(redactor.pendingPrefixLength('hello canary-ke')).toBe('canary-ke'.length);
    expect(redactor.pendingPrefixLength('hello')).toBe(0);
    expect(redactor.pendingPrefixLength('canary-key-0123456789')).toBe(0);
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

describe('headerSecrets', () => {
  it('takes every value, as sent, and the credentials after an auth scheme', () => {
    expect(headerSecrets({ Authorization: 'Bearer tok-123456', 'X-Title': ' my app ', 'X-Key': 'k1' })).toEqual([
      'Bearer tok-123456',
      'Bearer tok-123456',
      'tok-123456',
      ' my app ',
      'my app',
      'app',
      'k1',
      'k1',
    ]);
    expect(headerSecrets(undefined)).toEqual([]);
  });
});

describe('truncateText', () => {
  it('marks a cut', () => {
    expect(truncateText('abcdef', 3)).toBe('abc…[truncated]');
    expect(truncateText('abc', 3)).toBe('abc');
  });
});
