/** How deeply a partial value may nest; deeper parts are left out. */
const MAX_DEPTH = 64;

/** Marks the end of the text inside a value: what was read so far is kept, what was not is dropped. */
const END = Symbol('end');

/**
 * The value a prefix of a JSON text stands for so far: objects with the members read completely
 * (and the last one's value as far as it goes), arrays with their elements, strings cut where the
 * text ends. Partial numbers and literals (`12` of `123`, `tr` of `true`) are left out, so every
 * value shown is one the finished text keeps, and the value of a longer prefix only extends the
 * value of a shorter one. A key repeated in an object keeps its first value (where `JSON.parse`
 * keeps the last). A leading ```` ```json ```` fence is skipped.
 * `undefined` when nothing is readable yet, or the text is not JSON. Never throws; keys such as
 * `__proto__` are plain data.
 */
export function parsePartialJson(text: string): unknown {
  let start = skipSpace(text, 0);
  if (text.startsWith('```', start)) {
    const newline = text.indexOf('\n', start);
    if (newline === -1) return undefined;
    start = newline + 1;
  }
  try {
    const reader = new PartialReader(text, start);
    const value = reader.value(0);
    return value === END ? undefined : value;
  } catch {
    return undefined;
  }
}

function skipSpace(text: string, index: number): number {
  let at = index;
  while (at < text.length && (text[at] === ' ' || text[at] === '\n' || text[at] === '\r' || text[at] === '\t')) at += 1;
  return at;
}

const LITERALS: readonly (readonly [string, unknown])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

/** A recursive reader that stops quietly at the end of the text; malformed text throws (caught above). */
class PartialReader {
  constructor(
    private readonly text: string,
    private at: number,
  ) {}

  value(depth: number): unknown {
    this.at = skipSpace(this.text, this.at);
    if (depth > MAX_DEPTH || this.at >= this.text.length) return this.end(); // Too deep is read as the end too.
    const char = this.text[this.at]!;
    if (char === '{') return this.object(depth);
    if (char === '[') return this.array(depth);
    if (char === '"') return this.string().value;
    if (char === '-' || (char >= '0' && char <= '9')) return this.number();
    for (const [word, value] of LITERALS) {
      const rest = this.text.slice(this.at, this.at + word.length);
      if (rest === word) {
        this.at += word.length;
        return value;
      }
      if (word.startsWith(rest)) return this.end();
    }
    throw new SyntaxError('not JSON');
  }

  private object(depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.at += 1;
    for (;;) {
      this.at = skipSpace(this.text, this.at);
      if (this.at >= this.text.length) return result;
      if (this.text[this.at] === '}') {
        this.at += 1;
        return result;
      }
      if (this.text[this.at] === ',') {
        this.at += 1;
        continue;
      }
      if (this.text[this.at] !== '"') throw new SyntaxError('not JSON');
      const key = this.string();
      if (!key.complete) return result;
      this.at = skipSpace(this.text, this.at);
      if (this.at >= this.text.length) return result;
      if (this.text[this.at] !== ':') throw new SyntaxError('not JSON');
      this.at += 1;
      const value = this.value(depth + 1);
      if (value === END) return result;
      // A repeated key keeps its first value, so nothing shown is taken back (JSON.parse keeps the last).
      if (Object.hasOwn(result, key.value)) continue;
      Object.defineProperty(result, key.value, { value, enumerable: true, writable: true, configurable: true });
    }
  }

  private array(depth: number): unknown[] {
    const result: unknown[] = [];
    this.at += 1;
    for (;;) {
      this.at = skipSpace(this.text, this.at);
      if (this.at >= this.text.length) return result;
      if (this.text[this.at] === ']') {
        this.at += 1;
        return result;
      }
      if (this.text[this.at] === ',') {
        this.at += 1;
        continue;
      }
      const value = this.value(depth + 1);
      if (value === END) return result;
      result.push(value);
    }
  }

  /** Reads on as if the text ended here: the containers around keep what they have. */
  private end(): typeof END {
    this.at = this.text.length;
    return END;
  }

  /** A string, or its part before the end of the text (an escape cut in half is left out). */
  private string(): { value: string; complete: boolean } {
    let end = this.at + 1;
    while (end < this.text.length && this.text[end] !== '"') end += this.text[end] === '\\' ? 2 : 1;
    if (end < this.text.length) {
      const value = JSON.parse(this.text.slice(this.at, end + 1)) as string;
      this.at = end + 1;
      return { value, complete: true };
    }
    const body = this.text.slice(this.at + 1);
    this.at = this.text.length;
    return { value: JSON.parse(`"${withoutCutEscape(body)}"`) as string, complete: false };
  }

  /** A number, only once a delimiter follows it (until then it may still grow: `1` of `1.5`). */
  private number(): unknown {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.at, this.at + 400));
    if (match === null) return this.end();
    const end = this.at + match[0].length;
    if (end >= this.text.length || !DELIMITERS.has(this.text[end]!)) return this.end();
    this.at = end;
    return Number(match[0]);
  }
}

const DELIMITERS = new Set([',', ']', '}', ' ', '\n', '\r', '\t']);

/** `body` without an escape it ends inside (`\`, `\u00`); an escaped backslash at the end stays. */
function withoutCutEscape(body: string): string {
  const unicode = /\\u[0-9a-fA-F]{0,3}$/.exec(body);
  const start = unicode !== null ? unicode.index : body.endsWith('\\') ? body.length - 1 : -1;
  if (start === -1) return body;
  let slashes = 0;
  for (let index = start; index >= 0 && body[index] === '\\'; index -= 1) slashes += 1;
  return slashes % 2 === 1 ? body.slice(0, start) : body;
}
