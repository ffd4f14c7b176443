import { describe, expect, it } from 'vitest';
import { HarnessModelHttpError } from '../http/harness-model-http-error.js';
import { readSseEvents, type SseEvent } from './read-sse-events.js';

const encoder = new TextEncoder();

function streamOf(chunks: (string | Uint8Array)[], options: { end?: boolean } = {}): ReadableStream<Uint8Array> & { cancelled: () => boolean } {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      if (options.end !== false) controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return Object.assign(stream, { cancelled: () => cancelled });
}

async function collect(stream: ReadableStream<Uint8Array>, options: { idleTimeoutMs?: number; signal?: AbortSignal; maxEventChars?: number } = {}) {
  const events: SseEvent[] = [];
  for await (const event of readSseEvents(stream, { idleTimeoutMs: options.idleTimeoutMs ?? 1000, ...options })) events.push(event);
  return events;
}

const sample = ': OPENROUTER PROCESSING\n\nevent: message_start\ndata: {"a":1}\n\ndata: line one\ndata: line two\n\ndata: {"text":"héllo ✓"}\r\n\r\ndata: [DONE]\n\n';

describe('readSseEvents', () => {
  it('parses comments, event names, multi-line data, CRLF and [DONE]', async () => {
    const events = await collect(streamOf([sample]));
    expect(events.map(({ event, data }) => ({ event, data }))).toEqual([
      { event: 'message_start', data: '{"a":1}' },
      { event: undefined, data: 'line one\nline two' },
      { event: undefined, data: '{"text":"héllo ✓"}' },
      { event: undefined, data: '[DONE]' },
    ]);
  });

  it('gives the same events whatever the chunk boundaries, including inside multi-byte characters', async () => {
    const bytes = encoder.encode(sample);
    const expected = await collect(streamOf([bytes]));
    for (let split = 1; split < bytes.length; split += 1) {
      const events = await collect(streamOf([bytes.subarray(0, split), bytes.subarray(split)]));
      expect(events).toEqual(expected);
    }
    const byteByByte = await collect(streamOf([...bytes].map((byte) => new Uint8Array([byte]))));
    expect(byteByByte).toEqual(expected);
  });

  it('drops an event cut off by the end of the body', async () => {
    const events = await collect(streamOf(['data: {"complete":true}\n\ndata: {"cut":']));
    expect(events.map((event) => event.data)).toEqual(['{"complete":true}']);
  });

  it('throws a retryable timeout when the stream goes silent, and cancels the body', async () => {
    const stream = streamOf(['data: first\n\n'], { end: false });
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const event of readSseEvents(stream, { idleTimeoutMs: 20 })) seen.push(event.data);
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual(['first']);
    expect(HarnessModelHttpError.isInstance(caught)).toBe(true);
    expect((caught as HarnessModelHttpError).failure).toBe('timeout');
    expect((caught as HarnessModelHttpError).isRetryable).toBe(true);
    expect(stream.cancelled()).toBe(true);
  });

  it('stops with an aborted error when the signal fires', async () => {
    const controller = new AbortController();
    const stream = streamOf(['data: first\n\n'], { end: false });
    let caught: unknown;
    try {
      for await (const _event of readSseEvents(stream, { idleTimeoutMs: 60_000, signal: controller.signal })) controller.abort();
    } catch (error) {
      caught = error;
    }
    expect((caught as HarnessModelHttpError).failure).toBe('aborted');
    expect(stream.cancelled()).toBe(true);
  });

  it('reports a broken stream as a retryable network failure', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: first\n\n'));
        controller.error(new Error('socket hang up'));
      },
    });
    await expect(collect(stream)).rejects.toMatchObject({ failure: 'network', isRetryable: true });
  });

  it('refuses an oversized event', async () => {
    await expect(collect(streamOf([`data: ${'x'.repeat(200)}`]), { maxEventChars: 64 })).rejects.toMatchObject({
      failure: 'response_too_large',
    });
  });

  it('cancels the body when the consumer stops early', async () => {
    const stream = streamOf(['data: 1\n\ndata: 2\n\n'], { end: false });
    for await (const _event of readSseEvents(stream, { idleTimeoutMs: 60_000 })) break;
    expect(stream.cancelled()).toBe(true);
  });
});
