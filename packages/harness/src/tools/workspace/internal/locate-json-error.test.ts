import { describe, expect, it } from 'vitest';
import { locateJsonError } from './locate-json-error.js';

describe('locateJsonError', () => {
  it.each([
    '{}',
    '[]',
    ' {"a": [1, -2.5e+3, true, false, null, "x\\n\\u00e9\\"", {"b": {}}]} ',
    '0',
    '"just a string"',
  ])('finds no error in valid JSON %s', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(locateJsonError(text)).toBeUndefined();
  });

  it.each([
    ['', 1, 1, 'expected a value but found the end of the file'],
    ['{"a":1,}', 1, 8, 'expected a double-quoted property name but found "}"'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, 'expected "," or "}" after a property value but found "\\""'],
    ["{'a': 1}", 1, 2, 'expected a double-quoted property name but found "\'"'],
    ['{"a" 1}', 1, 6, 'expected ":" after a property name but found "1"'],
    ['[1, 2', 1, 6, 'expected "," or "]" after an array element but found the end of the file'],
    ['[1,]', 1, 4, 'expected a value but found "]"'],
    ['{"a": tru}', 1, 7, 'expected a value but found "t"'],
    ['{"a": 01}', 1, 8, 'invalid number'],
    ['{"a": -}', 1, 7, 'invalid number'],
    ['"abc', 1, 5, 'unterminated string'],
    ['"a\tb"', 1, 3, 'unescaped control character in a string'],
    ['"\\x"', 1, 3, 'invalid escape in a string'],
    ['"\\u12G4"', 1, 3, 'invalid \\u escape in a string'],
    ['{} {}', 1, 4, 'unexpected "{" after the end of the JSON value'],
    ['NaN', 1, 1, 'expected a value but found "N"'],
  ])('locates the error in %j at line %i, column %i', (text, line, column, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(locateJsonError(text)).toMatchObject({ line, column, reason });
  });

  it('reports absurd nesting instead of overflowing the stack', () => {
    expect(locateJsonError('['.repeat(5000))).toMatchObject({ reason: 'nesting deeper than 1000 levels' });
  });
});
