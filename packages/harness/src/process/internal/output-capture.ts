import { LineFramer } from './line-framer.js';

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
  /** Splits the kept bytes into lines for `onLine`; no line can outgrow the cap, so it never refuses one. */
  private readonly lines: LineFramer | undefined;

  constructor(
    private readonly maxBytes: number,
    onLine?: (line: string) => void,
    private readonly pool: CapturePool = { remaining: Number.POSITIVE_INFINITY },
  ) {
    this.lines = onLine === undefined ? undefined : new LineFramer(Number.POSITIVE_INFINITY, (line) => deliver(onLine, line));
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
      this.lines?.push(accepted);
    }
    if (chunk.byteLength > room) {
      this.overflowed = true;
      return false;
    }
    return true;
  }

  /** Flushes a last unterminated line to `onLine` (not after an overflow). */
  finish(): void {
    if (!this.overflowed) this.lines?.finish();
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
}

function deliver(onLine: (line: string) => void, line: string): void {
  try {
    onLine(line);
  } catch {
    // A faulty line listener never breaks the capture.
  }
}
