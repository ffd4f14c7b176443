import { HarnessModelHttpError } from '../http/harness-model-http-error.js';
import { readChunk, type SseEvent } from '../sse/read-sse-events.js';

/** Options of `readNdjsonLines`. */
export interface ReadNdjsonLinesOptions {
  /** Longest silence allowed between two chunks, in milliseconds. */
  idleTimeoutMs: number;
  /** Stops reading (and cancels the body) when it fires. */
  signal?: AbortSignal | undefined;
  /**
   * Largest line kept in memory, in characters.
   * @default 8388608
   */
  maxLineChars?: number | undefined;
  /**
   * Largest whole stream, in bytes as received; reading stops there with `response_too_large`.
   * @default Infinity
   */
  maxTotalBytes?: number | undefined;
}

/**
 * Reads a newline-delimited JSON body (`application/x-ndjson`, as Ollama streams) and yields each
 * non-blank line as an event whose `data` is the line (a trailing `\r` removed), so the SSE step
 * plumbing handles both framings. A last line without a newline is yielded too; its JSON tells
 * whether it is whole. Fails like `readSseEvents`: silence (`timeout`), a broken stream
 * (`network`), cancellation (`aborted`), an oversized line or stream (`response_too_large`). The
 * body is cancelled whenever reading stops early.
 */
export async function* readNdjsonLines(
  body: ReadableStream<Uint8Array>,
  options: ReadNdjsonLinesOptions,
): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const maxLineChars = options.maxLineChars ?? 8 * 1024 * 1024;
  const maxTotalBytes = options.maxTotalBytes ?? Number.POSITIVE_INFINITY;
  let pending = '';
  let totalBytes = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await readChunk(reader, options);
      totalBytes += done ? 0 : value.byteLength;
      if (totalBytes > maxTotalBytes) {
        throw new HarnessModelHttpError(`The stream was larger than ${maxTotalBytes} bytes.`, { failure: 'response_too_large', isRetryable: false });
      }
      const chunk = done ? decoder.decode() : decoder.decode(value, { stream: true });
      // Only the new chunk is searched, so a long line arriving in many chunks costs linear time.
      let start = 0;
      for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
        const line = cleanLine(pending === '' ? chunk.slice(start, end) : pending + chunk.slice(start, end));
        pending = '';
        start = end + 1;
        if (line !== undefined) yield { data: line };
      }
      pending += start === 0 ? chunk : chunk.slice(start);
      if (pending.length > maxLineChars) {
        throw new HarnessModelHttpError('A stream line was larger than the allowed size.', { failure: 'response_too_large', isRetryable: false });
      }
      if (done) {
        finished = true;
        const last = cleanLine(pending);
        if (last !== undefined) yield { data: last };
        return;
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

/** A line without its trailing `\r`, or `undefined` when it is blank. */
function cleanLine(line: string): string | undefined {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  return text.trim() === '' ? undefined : text;
}
