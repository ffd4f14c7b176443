import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { parsePartialJson } from './parse-partial-json.js';

// Partial structured output only ever grows: for every prefix of any text, the value shown extends
// the one shown before (issue 22, item 14: a repeated key used to take a shown value back).

const prefixes = (text: string) => Array.from({ length: text.length + 1 }, (_, index) => text.slice(0, index));

/** A JSON text built member by member (so keys may repeat), with the value read keeping each key's first value. */
interface Node {
  text: string;
  value: unknown;
}

const leafArb: fc.Arbitrary<Node> = fc.oneof(
  fc.string({ maxLength: 6, unit: fc.constantFrom('a', 'é', '"', '\\', '\n', '\u0000', '😀', 'u') }).map((value) => ({ text: JSON.stringify(value), value })),
  fc.integer().map((value) => ({ text: String(value), value })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => ({ text: JSON.stringify(value), value: value === 0 ? 0 : value })),
  fc.constantFrom<Node>({ text: 'true', value: true }, { text: 'false', value: false }, { text: 'null', value: null }),
);
const keyArb = fc.constantFrom('a', 'b', '__proto__', 'constructor', '', 'é');

const { node: nodeArb } = fc.letrec<{ node: Node; array: Node; object: Node }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leafArb, tie('array'), tie('object')),
  array: fc.tuple(fc.array(tie('node'), { maxLength: 4 }), fc.boolean()).map(([items, spaced]) => ({
    text: `[${items.map((item) => item.text).join(spaced ? ', ' : ',')}]`,
    value: items.map((item) => item.value),
  })),
  object: fc.tuple(fc.array(fc.tuple(keyArb, tie('node')), { maxLength: 5 }), fc.boolean()).map(([members, spaced]) => {
    const value: Record<string, unknown> = {};
    for (const [key, member] of members) {
      if (!Object.hasOwn(value, key)) Object.defineProperty(value, key, { value: member.value, enumerable: true, writable: true, configurable: true });
    }
    const text = members.map(([key, member]) => `${JSON.stringify(key)}${spaced ? ': ' : ':'}${member.text}`).join(spaced ? ',\n ' : ',');
    return { text: `{${text}}`, value };
  }),
}));

/** Any text at all, mostly made of JSON's pieces so that it often gets far before going wrong. */
const anyTextArb = fc.oneof(
  fc.string(),
  fc.array(fc.constantFrom('{', '}', '[', ']', ',', ':', ' ', '"', '"a"', '"a":', '\\', '\\u00', 'e9', '1', '-', '.5', 'e+', 'tr', 'ue', 'null', '```json\n', '😀'), { maxLength: 30 }).map((parts) => parts.join('')),
  fc.tuple(nodeArb, fc.string({ maxLength: 4 })).map(([node, tail]) => node.text + tail),
);

/**
 * Checks that each value shown for the prefixes of `text` extends the one shown before it; for a
 * JSON text also that, once a value is shown, every longer prefix shows one.
 */
function expectOnlyGrowth(text: string, isJson = false): void {
  let previous: unknown;
  for (const prefix of prefixes(text)) {
    const partial = parsePartialJson(prefix);
    if (isJson && previous !== undefined) expect(partial, JSON.stringify(prefix)).toBeDefined();
    if (partial === undefined) continue;
    if (previous !== undefined) expect(isGrowthOf(previous, partial), `${JSON.stringify(previous)} → ${JSON.stringify(partial)}`).toBe(true);
    previous = partial;
  }
}

describe('parsePartialJson (properties)', () => {
  it('for every prefix of any JSON text: never throws, and each value shown is kept by the finished text', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), (value, spaced) => {
        const text = JSON.stringify(value, null, spaced ? 1 : undefined);
        expectOnlyGrowth(text, true);
        const finished = JSON.parse(text) as unknown;
        const whole = parsePartialJson(text);
        // Only a bare number is never shown (nothing after it says it is finished).
        if (whole === undefined) expect(typeof finished).toBe('number');
        else expect(whole).toEqual(finished);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('with repeated keys: each value shown extends the last, and the whole text reads with each key\'s first value', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(nodeArb, ({ text, value }) => {
        expectOnlyGrowth(text, true);
        const whole = parsePartialJson(text);
        if (whole === undefined) expect(typeof value).toBe('number');
        else expect(whole).toEqual(value);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('for any text: never throws, and each value shown extends the last', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(anyTextArb, (text) => expectOnlyGrowth(text)),
      { numRuns: propertyRuns() },
    );
  });
});

/** Whether `next` keeps everything `earlier` showed: strings may only grow, containers only gain. */
function isGrowthOf(earlier: unknown, next: unknown): boolean {
  if (typeof earlier === 'string') return typeof next === 'string' && next.startsWith(earlier);
  if (Array.isArray(earlier)) {
    if (!Array.isArray(next) || next.length < earlier.length) return false;
    return earlier.every((item, index) => (index === earlier.length - 1 ? isGrowthOf(item, next[index]) : JSON.stringify(item) === JSON.stringify(next[index]) || isGrowthOf(item, next[index])));
  }
  if (typeof earlier === 'object' && earlier !== null) {
    if (typeof next !== 'object' || next === null || Array.isArray(next)) return false;
    return Object.keys(earlier).every((key) => Object.hasOwn(next, key) && isGrowthOf((earlier as Record<string, unknown>)[key], (next as Record<string, unknown>)[key]));
  }
  return Object.is(earlier, next);
}
