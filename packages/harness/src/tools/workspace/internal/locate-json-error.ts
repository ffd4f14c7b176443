/** Where and why JSON text fails to parse. */
export interface JsonErrorLocation {
  /** 0-based offset in the text (UTF-16 code units). */
  position: number;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  reason: string;
}

const MAX_NESTING = 1000;

/**
 * Finds the first JSON syntax error in `text` with a small scanner, so the location does not
 * depend on the JavaScript engine's `JSON.parse` message. Returns `undefined` for valid JSON.
 */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  const scanner = new JsonScanner(text);
  const failure = scanner.run();
  if (failure === undefined) return undefined;
  const before = text.slice(0, failure.position);
  const lastNewline = before.lastIndexOf('\n');
  return {
    position: failure.position,
    line: before.split('\n').length,
    column: failure.position - lastNewline,
    reason: failure.reason,
  };
}

class ScanError {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {}
}

class JsonScanner {
  private index = 0;

  constructor(private readonly text: string) {}

  run(): ScanError | undefined {
    try {
      this.skipSpace();
      this.value(0);
      this.skipSpace();
      if (this.index < this.text.length) this.fail(`unexpected ${this.describe()} after the end of the JSON value`);
      return undefined;
    } catch (error) {
      if (error instanceof ScanError) return error;
      throw error;
    }
  }

  private value(depth: number): void {
    if (depth > MAX_NESTING) this.fail(`nesting deeper than ${MAX_NESTING} levels`);
    const char = this.text[this.index];
    if (char === '{') return this.object(depth);
    if (char === '[') return this.array(depth);
    if (char === '"') return this.string();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.number();
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.index)) {
        this.index += literal.length;
        return;
      }
    }
    this.fail(`expected a value but found ${this.describe()}`);
  }

  private object(depth: number): void {
    this.index += 1;
    this.skipSpace();
    if (this.text[this.index] === '}') {
      this.index += 1;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.index] !== '"') this.fail(`expected a double-quoted property name but found ${this.describe()}`);
      this.string();
      this.skipSpace();
      if (this.text[this.index] !== ':') this.fail(`expected ":" after a property name but found ${this.describe()}`);
      this.index += 1;
      this.skipSpace();
      this.value(depth + 1);
      this.skipSpace();
      const next = this.text[this.index];
      if (next === '}') {
        this.index += 1;
        return;
      }
      if (next !== ',') this.fail(`expected "," or "}" after a property value but found ${this.describe()}`);
      this.index += 1;
    }
  }

  private array(depth: number): void {
    this.index += 1;
    this.skipSpace();
    if (this.text[this.index] === ']') {
      this.index += 1;
      return;
    }
    for (;;) {
      this.skipSpace();
      this.value(depth + 1);
      this.skipSpace();
      const next = this.text[this.index];
      if (next === ']') {
        this.index += 1;
        return;
      }
      if (next !== ',') this.fail(`expected "," or "]" after an array element but found ${this.describe()}`);
      this.index += 1;
    }
  }

  private string(): void {
    this.index += 1;
    for (;;) {
      const char = this.text[this.index];
      if (char === undefined) this.fail('unterminated string');
      if (char === '"') {
        this.index += 1;
        return;
      }
      if (char! < ' ') this.fail('unescaped control character in a string');
      if (char === '\\') {
        const escape = this.text[this.index + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.index + 2, this.index + 6))) {
            this.index += 1;
            this.fail('invalid \\u escape in a string');
          }
          this.index += 6;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) {
          this.index += 1;
          this.fail('invalid escape in a string');
        }
        this.index += 2;
        continue;
      }
      this.index += 1;
    }
  }

  private number(): void {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.index, this.index + 400));
    if (match === null || match[0] === '-') this.fail('invalid number');
    this.index += match![0].length;
    const next = this.text[this.index];
    if (next !== undefined && /[0-9.eE+-]/.test(next)) this.fail('invalid number');
  }

  private skipSpace(): void {
    while (this.index < this.text.length && ' \t\n\r'.includes(this.text[this.index]!)) this.index += 1;
  }

  private describe(): string {
    const char = this.text[this.index];
    return char === undefined ? 'the end of the file' : JSON.stringify(char);
  }

  private fail(reason: string): never {
    throw new ScanError(this.index, reason);
  }
}
