// Where JSON text first goes wrong, without quoting it (issue 22, CLI 3): for text JSON.parse
// refuses, the position agrees with V8's own when V8 gives one, and the message never holds the text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { jsonSyntaxErrorPosition, parseJsonText } from './parse-json-text.js';

const tokens = ['{', '}', '[', ']', ',', ':', '"a"', '"', '1', '-', '0.5', '1e', 'true', 'tru', 'null', ' ', '\n', '\\', '"\\u12"', '"\\x"', '"\u0001"'];
const textArb = fc.array(fc.constantFrom(...tokens), { maxLength: 16 }).map((parts) => parts.join(''));

/** V8's offset for a syntax error, when its message gives one. */
function v8Offset(text: string): number | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const match = / at position (\d+)/.exec((error as Error).message);
    return match === null ? undefined : Number(match[1]);
  }
}

function offsetOf(text: string): number {
  const { line, column } = jsonSyntaxErrorPosition(text);
  const lines = text.split('\n');
  return lines.slice(0, line - 1).reduce((sum, part) => sum + part.length + 1, 0) + column - 1;
}

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('jsonSyntaxErrorPosition', () => {
  it('agrees with V8 wherever V8 names a position, and stays within the text', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        fc.pre(!isJson(text));
        const offset = offsetOf(text);
        expect(offset).toBeGreaterThanOrEqual(0);
        expect(offset).toBeLessThanOrEqual(text.length);
        const v8 = v8Offset(text);
        if (v8 !== undefined) expect(offset).toBe(v8);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('a refused text is never quoted in the error', () => {
    fc.assert(
      fc.property(textArb, textArb, (before, after) => {
        const text = `${before}sk-canary${after}`;
        fc.pre(!isJson(text)); // `"` + `sk-canary` + `"` is JSON
        let message = '';
        try {
          parseJsonText(text, 'The file', 'file');
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).toMatch(/^The file is not valid JSON \(line \d+, column \d+\)\.$/);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('nesting a million levels deep costs no stack', () => {
    expect(jsonSyntaxErrorPosition(`${'['.repeat(1_000_000)}x`)).toEqual({ line: 1, column: 1_000_001 });
  });
});
