const NEWLINE = 0x0a;

/**
 * Splits a byte stream into UTF-8 lines (`\n`, with a trailing `\r` removed) and refuses a line
 * longer than `maxLineBytes`: memory stays bounded by one line however long the stream runs.
 */
export class LineFramer {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private failed = false;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
  ) {}

  /** Adds a chunk and delivers every line it completes. False once a line went past the cap. */
  push(chunk: Uint8Array): boolean {
    if (this.failed) return false;
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline);
      if (this.pendingBytes + piece.byteLength > this.maxLineBytes) return this.fail();
      this.deliver(piece);
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    const rest = chunk.subarray(start);
    if (rest.byteLength === 0) return true;
    if (this.pendingBytes + rest.byteLength > this.maxLineBytes) return this.fail();
    // Copy: the stream may reuse its buffer.
    this.pending.push(rest.slice());
    this.pendingBytes += rest.byteLength;
    return true;
  }

  /** Delivers a last line that had no newline (when the stream ended). */
  finish(): void {
    if (this.failed || this.pendingBytes === 0) return;
    this.deliver(new Uint8Array(0));
  }

  private fail(): false {
    this.failed = true;
    this.pending = [];
    this.pendingBytes = 0;
    return false;
  }

  private deliver(last: Uint8Array): void {
    let bytes = last;
    if (this.pendingBytes > 0) {
      bytes = new Uint8Array(this.pendingBytes + last.byteLength);
      let offset = 0;
      for (const piece of this.pending) {
        bytes.set(piece, offset);
        offset += piece.byteLength;
      }
      bytes.set(last, offset);
      this.pending = [];
      this.pendingBytes = 0;
    }
    const line = this.decoder.decode(bytes).replace(/\r$/, '');
    this.onLine(line);
  }
}
