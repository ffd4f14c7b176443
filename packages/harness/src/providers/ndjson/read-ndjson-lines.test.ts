import { describe, expect, it } from 'vitest';
import { HarnessModelHttpError } from '../http/harness-model-http-error.js';
import { readNdjsonLines } from './read-ndjson-lines.js';

const encoder = new TextEncoder();

function bodyOf(chunks: (string | Uint8Array)[], options: { end?: boolean } = {}) {
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
  return { stream, cancelled: () => cancelled };
}

async function lines(chunks: (string | Uint8Array)[], options: Partial<Parameters<typeof readNdjsonLines>[1]> = {}) {
  const seen: string[] = [];
  for await (const event of readNdjsonLines(bodyOf(chunks).stream, { idleTimeoutMs: 1000, ...options })) seen.push(event.data);
  return seen;
}

describe('readNdjsonLines', () => {
  it('yields each non-blank line, joining lines split across chunks and dropping CR', async () => {
    expect(await lines(['{"a":1}\n{"b"', ':2}\r\n\n  \n{"c":', '3}'])).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('decodes UTF-8 characters split between chunks', async () => {
    const bytes = encoder.encode('{"t":"ø€😀"}\n');
    const pieces = [bytes.slice(0, 7), bytes.slice(7, 9), bytes.slice(9, 12), bytes.slice(12)];
    expect(await lines(pieces)).toEqual(['{"t":"ø€😀"}']);
  });

  it('gives the same lines for every split point of the input', async () => {
    const text = '{"message":{"content":"Hé"},"done":false}\r\n{"message":{"content":"llo"},"done":true}\n';
    const bytes = encoder.encode(text);
    const expected = await lines([text]);
    for (let cut = 1; cut < bytes.length; cut += 1) expect(await lines([bytes.slice(0, cut), bytes.slice(cut)])).toEqual(expected);
  });

  it('fails an oversized line or stream with response_too_large and cancels the body', async () => {
    const long = bodyOf(['x'.repeat(50), 'y'.repeat(50)], { end: false });
    await expect(async () => {
      for await (const _event of readNdjsonLines(long.stream, { idleTimeoutMs: 1000, maxLineChars: 60 })) {
        // drain
      }
    }).rejects.toSatisfy((error) => HarnessModelHttpError.isInstance(error) && error.failure === 'response_too_large');
    expect(long.cancelled()).toBe(true);
    await expect(lines(['{"a":1}\n'.repeat(20)], { maxTotalBytes: 100 })).rejects.toSatisfy(
      (error) => HarnessModelHttpError.isInstance(error) && error.failure === 'response_too_large',
    );
  });

  it('fails a silent stream with timeout and a cancelled one with aborted', async () => {
    const silent = bodyOf(['{"a":1}\n'], { end: false });
    const seen: string[] = [];
    await expect(async () => {
      for await (const event of readNdjsonLines(silent.stream, { idleTimeoutMs: 50 })) seen.push(event.data);
    }).rejects.toSatisfy((error) => HarnessModelHttpError.isInstance(error) && error.failure === 'timeout');
    expect(seen).toEqual(['{"a":1}']);
    expect(silent.cancelled()).toBe(true);
    const controller = new AbortController();
    const open = bodyOf(['{"a":1}\n'], { end: false });
    await expect(async () => {
      for await (const _event of readNdjsonLines(open.stream, { idleTimeoutMs: 10_000, signal: controller.signal })) controller.abort();
    }).rejects.toSatisfy((error) => HarnessModelHttpError.isInstance(error) && error.failure === 'aborted');
    expect(open.cancelled()).toBe(true);
  });

  it('cancels the body when the consumer stops early', async () => {
    const open = bodyOf(['{"a":1}\n{"b":2}\n'], { end: false });
    for await (const _event of readNdjsonLines(open.stream, { idleTimeoutMs: 10_000 })) break;
    expect(open.cancelled()).toBe(true);
  });
});
