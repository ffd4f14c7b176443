// The one escape for outside text on a terminal (issue 22, CLI 5): nothing a terminal acts on is
// left raw, line breaks stay only when asked, and escaped JSON still parses to the same value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { terminalJson, terminalText } from './terminal-text.js';

/** Every code point a terminal acts on or that reorders a line. */
const ACTIVE = (point: number) =>
  point < 0x20 || (point >= 0x7f && point <= 0x9f) || [0x61c, 0x200e, 0x200f, 0x2028, 0x2029].includes(point) || (point >= 0x202a && point <= 0x202e) || (point >= 0x2066 && point <= 0x2069);
const activeIn = (text: string, allowed: readonly number[] = []) =>
  [...text].map((char) => char.codePointAt(0) as number).filter((point) => ACTIVE(point) && !allowed.includes(point));

const unit = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
  fc.constantFrom('\u001b', '\u009b', '\u202e', '\u2066', '\n', '\t', '\r', '\u0007', 'a', '\\', '\ud800'),
);
const textArb = fc.string({ unit, maxLength: 30 });

describe('terminalText and terminalJson', () => {
  it('leave nothing raw that a terminal acts on, and change nothing else', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const escaped = terminalText(text);
        expect(activeIn(escaped)).toEqual([]);
        expect(terminalText(escaped)).toBe(escaped);
        if (activeIn(text).length === 0) expect(escaped).toBe(text);
        expect(activeIn(terminalText(text, { keepLineBreaks: true }), [0x0a, 0x09])).toEqual([]);
        expect(terminalText(text, { keepLineBreaks: true }).split('\n').length).toBe(text.split('\n').length);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('JSON: parses back to the same value, with nothing raw a terminal acts on (pretty-printed too)', () => {
    fc.assert(
      fc.property(fc.dictionary(textArb, fc.oneof(textArb, fc.array(textArb, { maxLength: 3 }))), (value) => {
        for (const json of [terminalJson(value), terminalJson(value, 2)]) {
          expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(value)));
          expect(activeIn(json, json === terminalJson(value) ? [] : [0x0a])).toEqual([]);
        }
      }),
      { numRuns: propertyRuns() },
    );
  });
});
