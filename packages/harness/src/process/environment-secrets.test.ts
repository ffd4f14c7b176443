import { describe, expect, it } from 'vitest';
import { buildEnvironment } from './build-environment.js';
import { environmentSecrets, processOutputRedactor } from './environment-secrets.js';

describe('environmentSecrets', () => {
  it('takes the values of secret-looking names and the credentials of proxy URLs, nothing else', () => {
    const secrets = environmentSecrets({
      ANTHROPIC_API_KEY: 'key-value-1',
      GITHUB_TOKEN: 'token-value-2',
      AWS_SECRET_ACCESS_KEY: 'secret-value-3',
      db_password: 'password-value-4',
      CLAUDE_CODE_OAUTH_TOKEN: 'oauth-value-5',
      MY_CREDENTIALS: 'credential-value-6',
      HTTPS_PROXY: 'http://alice:pr0xy-pass@proxy:3128',
      NO_PROXY: 'user:not-a-secret@example.com',
      PATH: '/usr/bin:/bin',
      HOME: '/home/alice',
      MISSING_TOKEN: undefined,
    });
    expect(secrets).toEqual([
      'key-value-1',
      'token-value-2',
      'secret-value-3',
      'password-value-4',
      'oauth-value-5',
      'credential-value-6',
      'alice:pr0xy-pass',
      'pr0xy-pass',
    ]);
  });

  it('takes every value the caller configured, whatever its name, and no inherited one by name alone', () => {
    const env = buildEnvironment({ PATH: '/usr/bin:/bin', SHELL_NAME: 'inherited-value' }, ['PATH', 'SHELL_NAME'], { SERVICE_LOGIN: 'configured-value' }, 'linux');
    expect(environmentSecrets(env)).toEqual(['configured-value']);
    expect(processOutputRedactor(env).text('login as configured-value failed')).toBe('login as [REDACTED] failed');
  });
});

describe('processOutputRedactor', () => {
  const redactor = processOutputRedactor({ OPENAI_API_KEY: 'abc-123-secret', SHORT_KEY: 'abc', PATH: '/usr/bin' });

  it('blanks the secrets, written literally or JSON-escaped, and bearer tokens and sk- keys', () => {
    expect(redactor.text('key abc-123-secret and \\u0061bc-123-s\\u0065cret')).toBe('key [REDACTED] and [REDACTED]');
    expect(redactor.text('Authorization: Bearer xyz.123 and sk-proj-0123456789')).toBe('Authorization: Bearer [REDACTED] and [REDACTED]');
  });

  it('leaves short values and values of other names alone', () => {
    expect(redactor.text('abc in /usr/bin')).toBe('abc in /usr/bin');
  });

  it('blanks the piece of a secret that a window cuts off at its start or end, and only then', () => {
    expect(redactor.text('123-secret: rejected', { start: true })).toBe('…: rejected');
    expect(redactor.text('bad key abc-12', { end: true })).toBe('bad key …');
    expect(redactor.text('-123-', { start: true, end: true })).toBe('…');
    expect(redactor.text('123-secret: rejected')).toBe('123-secret: rejected');
    expect(redactor.text('done', { start: true, end: true })).toBe('done');
    // The start of a secret that also looks like the end of one, cut at the window's end.
    expect(processOutputRedactor({ T_TOKEN: '3900000039' }).text('390', { start: true, end: true })).toBe('…');
  });
});
