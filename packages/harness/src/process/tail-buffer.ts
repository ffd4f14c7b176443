/** Keeps the most recent `maxBytes` of a stream as text. */
export class TailBuffer {
  private chunks: Uint8Array[] = [];
  private kept = 0;
  /** True once earlier bytes were dropped (the text starts mid-stream). */
  dropped = false;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Uint8Array): void {
    if (this.maxBytes <= 0) return;
    if (this.kept + chunk.byteLength > this.maxBytes) this.dropped = true;
    const piece = chunk.byteLength > this.maxBytes ? chunk.subarray(chunk.byteLength - this.maxBytes) : chunk;
    this.chunks.push(piece);
    this.kept += piece.byteLength;
    while (this.kept > this.maxBytes && this.chunks.length > 0) {
      const first = this.chunks[0]!;
      const excess = this.kept - this.maxBytes;
      if (first.byteLength <= excess) {
        this.chunks.shift();
        this.kept -= first.byteLength;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.kept -= excess;
      }
    }
  }

  text(): string {
    const joined = new Uint8Array(this.kept);
    let offset = 0;
    for (const chunk of this.chunks) {
      joined.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return new TextDecoder().decode(joined);
  }
}
