import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { HarnessModelHttpError } from '../http/harness-model-http-error.js';
import { describeError } from '../../shared/describe-error.js';

/** One server-sent event: its `event` name (if the server set one) and its `data`. */
export type SseEvent = EventSourceMessage;

/** Options of `readSseEvents`. */
export interface ReadSseEventsOptions {
  /** Longest silence allowed between two chunks, in milliseconds. */
  idleTimeoutMs: number;
  /** Stops reading (and cancels the body) when it fires. */
  signal?: AbortSignal;
  /**
   * Largest event (or unterminated line) kept in memory, in characters.
   * @default 8388608
   */
  maxEventChars?: number;
  /**
   * Largest whole stream, in bytes as received; reading stops there with `response_too_large`.
   * @default Infinity
   */
  maxTotalBytes?: number;
}

/**
 * Reads a `text/event-stream` body with `eventsource-parser` and yields each complete event
 * (comments are skipped, multi-line `data:` fields are joined with `\n`). An event cut off by the
 * end of the body is dropped, so a truncated stream shows up as a missing terminal event. Throws a
 * `HarnessModelHttpError` when the stream stays silent past `idleTimeoutMs` (`timeout`), breaks
 * (`network`), is cancelled (`aborted`), holds an oversized event or grows past `maxTotalBytes`
 * (`response_too_large`). The body is cancelled whenever reading stops early, and no timer outlives a read.
 */
export async function* readSseEvents(
  body: ReadableStream<Uint8Array>,
  options: ReadSseEventsOptions,
): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let queue: SseEvent[] = [];
  let oversized = false;
  const parser = createParser({
    onEvent: (event) => {
      queue.push(event);
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') oversized = true;
    },
    maxBufferSize: options.maxEventChars ?? 8 * 1024 * 1024,
  });
  let finished = false;
  let totalBytes = 0;
  const maxTotalBytes = options.maxTotalBytes ?? Number.POSITIVE_INFINITY;
  try {
    for (;;) {
      const { done, value } = await readChunk(reader, options);
      totalBytes += done ? 0 : value.byteLength;
      if (totalBytes > maxTotalBytes) {
        throw new HarnessModelHttpError(`The stream was larger than ${maxTotalBytes} bytes.`, {
          failure: 'response_too_large',
          isRetryable: false,
        });
      }
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (text !== '') parser.feed(text);
      if (oversized) {
        throw new HarnessModelHttpError('A stream event was larger than the allowed size.', {
          failure: 'response_too_large',
          isRetryable: false,
        });
      }
      if (queue.length > 0) {
        const events = queue;
        queue = [];
        for (const event of events) yield event;
      }
      if (done) {
        finished = true;
        return;
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

/**
 * Reads one chunk of a streamed body, failing with a `HarnessModelHttpError` when the stream stays
 * silent past `idleTimeoutMs` (`timeout`), breaks (`network`) or `signal` fires (`aborted`). Shared
 * by the SSE and NDJSON readers.
 */
export function readChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  options: Pick<ReadSseEventsOptions, 'idleTimeoutMs' | 'signal'>,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const { signal, idleTimeoutMs } = options;
  if (signal?.aborted) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      cleanup();
      reject(aborted());
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new HarnessModelHttpError(`The stream was silent for more than ${idleTimeoutMs} ms.`, {
          failure: 'timeout',
          isRetryable: true,
        }),
      );
    }, idleTimeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    reader.read().then(
      (result) => {
        cleanup();
        resolve(result);
      },
      (error: unknown) => {
        cleanup();
        if (signal?.aborted) {
          reject(aborted());
          return;
        }
        const message = describeError(error);
        reject(
          new HarnessModelHttpError(`The stream broke before it was complete: ${message.slice(0, 200)}`, {
            failure: 'network',
            isRetryable: true,
            cause: error,
          }),
        );
      },
    );
  });
}

function aborted(): HarnessModelHttpError {
  return new HarnessModelHttpError('The request was cancelled.', { failure: 'aborted', isRetryable: false });
}
