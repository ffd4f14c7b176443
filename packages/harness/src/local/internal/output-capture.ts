/** Bytes left for several captures together (stdout and stderr of one process). */
export interface CapturePool {
  remaining: number;
}

/** Collects one output stream up to a byte cap (and a pool shared with other streams); bytes past the cap are counted, then dropped. */
export class OutputCapture {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  /** Every byte the stream produced, including dropped ones. */
  totalBytes = 0;
  /** True once the stream went past the cap. */
  overflowed = false;
  private readonly lineDecoder: TextDecoder | undefined;
  private partialLine = '';

  constructor(
    private readonly maxBytes: number,
    private readonly onLine?: (line: string) => void,
    private readonly pool: CapturePool = { remaining: Number.POSITIVE_INFINITY },
  ) {
    this.lineDecoder = onLine === undefined ? undefined : new TextDecoder();
  }

  /** Adds a chunk. Returns false when this chunk crossed the cap (the caller stops the process). */
  push(chunk: Uint8Array): boolean {
    this.totalBytes += chunk.byteLength;
    if (this.overflowed) return true;
    const room = Math.min(this.maxBytes - this.kept, this.pool.remaining);
    const accepted = chunk.byteLength <= room ? chunk : chunk.subarray(0, room);
    if (accepted.byteLength > 0) {
      this.chunks.push(accepted);
      this.kept += accepted.byteLength;
      this.pool.remaining -= accepted.byteLength;
      this.emitLines(accepted, false);
    }
    if (chunk.byteLength > room) {
      this.overflowed = true;
      return false;
    }
    return true;
  }

  /** Flushes a last unterminated line to `onLine` (not after an overflow). */
  finish(): void {
    if (this.lineDecoder === undefined || this.overflowed) return;
    this.emitLines(new Uint8Array(0), true);
    if (this.partialLine !== '') this.deliver(this.partialLine);
    this.partialLine = '';
  }

  /** The kept bytes. */
  bytes(): Uint8Array {
    const joined = new Uint8Array(this.kept);
    let offset = 0;
    for (const chunk of this.chunks) {
      joined.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return joined;
  }

  /** The kept bytes as UTF-8 text. */
  text(): string {
    return new TextDecoder().decode(this.bytes());
  }

  private emitLines(bytes: Uint8Array, flush: boolean): void {
    if (this.lineDecoder === undefined) return;
    this.partialLine += this.lineDecoder.decode(bytes, { stream: !flush });
    let newline = this.partialLine.indexOf('\n');
    while (newline !== -1) {
      const line = this.partialLine.slice(0, newline).replace(/\r$/, '');
      this.partialLine = this.partialLine.slice(newline + 1);
      this.deliver(line);
      newline = this.partialLine.indexOf('\n');
    }
  }

  private deliver(line: string): void {
    try {
      this.onLine?.(line);
    } catch {
      // A faulty line listener never breaks the capture.
    }
  }
}
