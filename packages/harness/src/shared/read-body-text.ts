/** The text of a body read up to a byte limit. */
export interface BodyText {
  text: string;
  /** True when the body was longer than the limit and reading stopped there. */
  truncated: boolean;
}

/**
 * Reads a response (or request) body as UTF-8 text, stopping (and cancelling the body) after `maxBytes`.
 * Rejects when the connection fails or the request's signal fires while reading.
 */
export async function readBodyText(response: Pick<Response, 'body'>, maxBytes: number): Promise<BodyText> {
  if (response.body === null) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - bytes;
      if (value.byteLength > room) {
        text += decoder.decode(value.subarray(0, Math.max(0, room)));
        await reader.cancel().catch(() => undefined);
        return { text, truncated: true };
      }
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
    return { text: text + decoder.decode(), truncated: false };
  } finally {
    reader.releaseLock();
  }
}
