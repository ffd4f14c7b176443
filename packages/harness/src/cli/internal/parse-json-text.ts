import { usageError } from './cli-usage-error.js';

/** Where JSON text first goes wrong: a 1-based line and column (UTF-16 code units). */
export interface JsonSyntaxPosition {
  line: number;
  column: number;
}

/**
 * Parses the text of a file the command line read. A syntax error never quotes the text (it may be
 * a key file named by mistake): the message gives the position only.
 * @throws HarnessConfigError (a usage error, exit 2): `<What> is not valid JSON (line L, column C). <hint>`
 */
export function parseJsonText(text: string, what: string, field: string, hint = ''): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const { line, column } = jsonSyntaxErrorPosition(text);
    throw usageError(`${what} is not valid JSON (line ${line}, column ${column}).${hint === '' ? '' : ` ${hint}`}`, field);
  }
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const LITERALS = new Map([
  ['t', 'true'],
  ['f', 'false'],
  ['n', 'null'],
]);
// eslint-disable-next-line no-control-regex -- JSON strings may not hold raw control characters
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/**
 * The position of the first syntax error in text `JSON.parse` refused (the end of the text when it
 * ends too early). Iterative: nesting depth costs no stack.
 */
export function jsonSyntaxErrorPosition(text: string): JsonSyntaxPosition {
  return positionOf(text, firstErrorOffset(text));
}

function firstErrorOffset(text: string): number {
  // What may come next: a value, an object key (or `}` right after `{`), `:`, or `,`/closer.
  const closers: string[] = [];
  let expect: 'value' | 'first-value' | 'key' | 'first-key' | 'colon' | 'after' = 'value';
  let at = 0;
  for (;;) {
    while (at < text.length && WHITESPACE.has(text[at] as string)) at += 1;
    if (at >= text.length) return expect === 'after' && closers.length === 0 ? at : text.length;
    const char = text[at] as string;
    if (expect === 'after') {
      const closer = closers.at(-1);
      if (closer === undefined) return at; // text after the value
      if (char === closer) {
        closers.pop();
        at += 1;
      } else if (char === ',') {
        at += 1;
        expect = closer === '}' ? 'key' : 'value';
      } else return at;
      continue;
    }
    if (expect === 'colon') {
      if (char !== ':') return at;
      at += 1;
      expect = 'value';
      continue;
    }
    if (expect === 'key' || expect === 'first-key') {
      if (expect === 'first-key' && char === '}') {
        closers.pop();
        at += 1;
        expect = 'after';
        continue;
      }
      if (char !== '"') return at;
      const end = matchAt(STRING_BODY, text, at + 1);
      if (end === undefined) return stringErrorOffset(text, at + 1);
      at = end;
      expect = 'colon';
      continue;
    }
    if (expect === 'first-value' && char === ']') {
      closers.pop();
      at += 1;
      expect = 'after';
      continue;
    }
    if (char === '{' || char === '[') {
      closers.push(char === '{' ? '}' : ']');
      at += 1;
      expect = char === '{' ? 'first-key' : 'first-value';
      continue;
    }
    if (char === '"') {
      const end = matchAt(STRING_BODY, text, at + 1);
      if (end === undefined) return stringErrorOffset(text, at + 1);
      at = end;
    } else {
      const literal = LITERALS.get(char);
      const scanned = literal === undefined ? scanNumber(text, at) : scanLiteral(text, at, literal);
      if (!scanned.ok) return scanned.at;
      at = scanned.at;
    }
    expect = 'after';
  }
}

/** A scan that ended at `at`: after the token, or where it went wrong. */
interface Scanned {
  ok: boolean;
  at: number;
}

function scanLiteral(text: string, at: number, literal: string): Scanned {
  for (let index = 0; index < literal.length; index += 1) {
    if (text[at + index] !== literal[index]) return { ok: false, at: Math.min(at + index, text.length) };
  }
  return { ok: true, at: at + literal.length };
}

const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

function scanNumber(text: string, start: number): Scanned {
  let at = start;
  const digits = (): boolean => {
    if (!isDigit(text[at])) return false;
    while (isDigit(text[at])) at += 1;
    return true;
  };
  if (text[at] === '-') at += 1;
  if (text[at] === '0') at += 1;
  else if (!digits()) return { ok: false, at };
  if (text[at] === '.') {
    at += 1;
    if (!digits()) return { ok: false, at };
  }
  if (text[at] === 'e' || text[at] === 'E') {
    at += 1;
    if (text[at] === '+' || text[at] === '-') at += 1;
    if (!digits()) return { ok: false, at };
  }
  return { ok: true, at };
}

function matchAt(pattern: RegExp, text: string, at: number): number | undefined {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : undefined;
}

/** Where a string that does not close properly goes wrong: a bad escape, a raw control character, or the end. */
function stringErrorOffset(text: string, at: number): number {
  let index = at;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"') return index;
    if (char.charCodeAt(0) < 0x20) return index;
    if (char === '\\') {
      const next = text[index + 1];
      if (next === undefined) return text.length;
      if (next === 'u') {
        for (let hex = index + 2; hex < index + 6; hex += 1) if (!/[0-9a-fA-F]/.test(text[hex] ?? '')) return Math.min(hex, text.length);
        index += 6;
      } else if ('"\\/bfnrt'.includes(next)) index += 2;
      else return index + 1;
    } else index += 1;
  }
  return text.length;
}

function positionOf(text: string, offset: number): JsonSyntaxPosition {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
