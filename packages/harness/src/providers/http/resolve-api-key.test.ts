import { afterEach, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { describeApiKeySource, resolveApiKey, validateApiKeySource } from './resolve-api-key.js';

const variable = 'HARNESS_TEST_RESOLVE_KEY';

describe('resolveApiKey', () => {
  afterEach(() => {
    delete process.env[variable];
  });

  it('returns a literal key', () => {
    expect(resolveApiKey('sk-literal-123456')).toBe('sk-literal-123456');
  });

  it('reads an env reference at call time, not at construction', () => {
    const source = { env: variable };
    expect(resolveApiKey(source)).toBeUndefined();
    process.env[variable] = 'from-process-env';
    expect(resolveApiKey(source)).toBe('from-process-env');
  });

  it('prefers the env option (Workers bindings) over process.env', () => {
    process.env[variable] = 'from-process-env';
    expect(resolveApiKey({ env: variable }, { [variable]: 'from-binding' })).toBe('from-binding');
  });

  it('treats blank values as missing', () => {
    process.env[variable] = '  ';
    expect(resolveApiKey({ env: variable })).toBeUndefined();
  });

  it('describes where a missing key was looked for without revealing a value', () => {
    expect(describeApiKeySource({ env: variable })).toContain(variable);
    expect(describeApiKeySource('sk-secret-value-1234')).not.toContain('sk-secret');
  });
});

describe('validateApiKeySource', () => {
  it.each([undefined, null, 'key-123', { env: 'NAME' }])('accepts %j', (value) => {
    expect(() => validateApiKeySource(value, 'apiKey')).not.toThrow();
  });
  it.each(['', '  ', { env: '' }, { name: 'X' }, 42])('refuses %j', (value) => {
    expect(() => validateApiKeySource(value, 'apiKey')).toThrow(HarnessConfigError);
  });
});
