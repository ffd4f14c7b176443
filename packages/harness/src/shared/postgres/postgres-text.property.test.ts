import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { fromPostgresText, toPostgresText } from './postgres-text.js';

/** Any UTF-16 string, lone surrogates and control characters included, weighted towards the escaped ones. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('\u0000', '\u0001', '\ud800', '\udfff', '\ud83d\ude00', 'a', 'u', '0', '1', 'é') }),
);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('text for Postgres (NUL, U+0001 and lone surrogates escaped)', () => {
  it('gives back exactly the text it stored, and stores no NUL and no lone surrogate', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const stored = toPostgresText(text);
        expect(stored).not.toContain('\u0000');
        expect(stored).not.toMatch(LONE_SURROGATE);
        expect(fromPostgresText(stored)).toBe(text);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('leaves text without those characters as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }).filter((text) => !text.includes('\u0000') && !text.includes('\u0001')), (text) => {
        expect(toPostgresText(text)).toBe(text);
        expect(fromPostgresText(text)).toBe(text);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('escapes the three kinds of character', () => {
    expect(toPostgresText('a\u0000b\u0001c\ud800d')).toBe('a\u00010b\u00011c\u0001ud800d');
  });
});
