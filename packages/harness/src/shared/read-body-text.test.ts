import { describe, expect, it } from 'vitest';
import { readBodyText } from './read-body-text.js';

describe('readBodyText', () => {
  it('reads a whole body, decoding UTF-8 across chunks', async () => {
    const bytes = new TextEncoder().encode('héllo ✓ world');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 2));
        controller.enqueue(bytes.subarray(2, 9));
        controller.enqueue(bytes.subarray(9));
        controller.close();
      },
    });
    expect(await readBodyText(new Response(body), 1000)).toEqual({ text: 'héllo ✓ world', truncated: false });
    expect(await readBodyText(new Response(null, { status: 204 }), 10)).toEqual({ text: '', truncated: false });
  });

  it('stops at the byte limit and cancels the body', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('0123456789'));
      },
      cancel() {
        cancelled = true;
      },
    });
    expect(await readBodyText(new Response(body), 25)).toEqual({ text: '0123456789012345678901234', truncated: true });
    expect(cancelled).toBe(true);
  });
});
