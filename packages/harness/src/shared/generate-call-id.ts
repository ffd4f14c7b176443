/** A fresh tool call id (`call_` and 24 hex digits), for calls whose own id is missing or unusable. */
export function generateCallId(): string {
  return `call_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;
}
