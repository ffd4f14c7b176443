import { describe, expect, it } from 'vitest';
import { errorWithThrowingMessage, hostileThrowables } from '../core/__fixtures__/hostile-values.js';
import { describeError, MAX_ERROR_DESCRIPTION_LENGTH } from './describe-error.js';

describe('describeError', () => {
  it('gives the message of an Error, an error-like object, or a thrown string', () => {
    expect(describeError(new TypeError('bad type'))).toBe('bad type');
    expect(describeError({ message: 'plain object' })).toBe('plain object');
    expect(describeError('thrown text')).toBe('thrown text');
  });

  it.each(hostileThrowables())('never throws for %s, and always returns text', (_label, make) => {
    const description = describeError(make());
    expect(typeof description).toBe('string');
    expect(description.length).toBeGreaterThan(0);
  });

  it('names thrown primitives and reads no hostile message', () => {
    expect(describeError(42)).toBe('Unknown error (thrown value: 42)');
    expect(describeError(10n)).toBe('Unknown error (thrown value: 10)');
    expect(describeError(Symbol('odd'))).toBe('Unknown error (thrown symbol: odd)');
    expect(describeError(null)).toBe('Unknown error');
    expect(describeError({ weird: true })).toBe('Unknown error');
    expect(describeError(errorWithThrowingMessage())).toBe('Unknown error (the thrown value could not be read)');
  });

  it('cuts long descriptions', () => {
    const description = describeError(new Error('x'.repeat(1_000_000)));
    expect(description).toHaveLength(MAX_ERROR_DESCRIPTION_LENGTH + 1);
    expect(description.endsWith('…')).toBe(true);
    expect(describeError('abcdef', 3)).toBe('abc…');
  });
});
