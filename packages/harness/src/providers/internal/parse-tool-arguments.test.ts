import { describe, expect, it } from 'vitest';
import { generateCallId, parseToolArguments, readCount } from './parse-tool-arguments.js';

describe('parseToolArguments', () => {
  it.each([
    [undefined, {}],
    [null, {}],
    ['', {}],
    ['  ', {}],
    ['{"city":"Oslo"}', { city: 'Oslo' }],
    [{ city: 'Oslo' }, { city: 'Oslo' }],
  ])('accepts %j', (raw, input) => {
    expect(parseToolArguments(raw, 'weather')).toEqual({ ok: true, input });
  });

  it.each(['{"city":', '[1,2]', '"text"', '42', 'null', [1]])('refuses %j, naming the tool', (raw) => {
    const parsed = parseToolArguments(raw, 'weather');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain('"weather"');
  });
});

describe('helpers', () => {
  it('generates distinct call ids', () => {
    expect(generateCallId()).not.toBe(generateCallId());
    expect(generateCallId()).toMatch(/^call_[0-9a-f]{24}$/);
  });
  it('reads only finite non-negative counts', () => {
    expect(readCount(3)).toBe(3);
    expect(readCount(-1)).toBeUndefined();
    expect(readCount('3')).toBeUndefined();
    expect(readCount(Number.NaN)).toBeUndefined();
  });
});
