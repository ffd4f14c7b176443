/**
 * The longest prefix of `bytes` that is at most `maxBytes` long and does not end inside a
 * UTF-8 multi-byte sequence.
 */
export function truncateUtf8(bytes: Uint8Array, maxBytes: number): Uint8Array {
  if (bytes.length <= maxBytes) return bytes;
  let end = Math.max(0, maxBytes);
  // Step back over continuation bytes (10xxxxxx) so the cut falls on a character boundary.
  while (end > 0 && end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end);
}

// `ignoreBOM`: a byte-order mark stays in the text, so the text encodes back to the file's bytes.
const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes `bytes` as UTF-8 text, or returns `undefined` for binary data (NUL bytes or invalid
 * UTF-8). A leading byte-order mark is kept (as U+FEFF).
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** `bytes` without a UTF-8 sequence cut off at its end (e.g. after a byte-capped read). */
export function trimIncompleteUtf8(bytes: Uint8Array): Uint8Array {
  let index = bytes.length - 1;
  let continuation = 0;
  while (index >= 0 && continuation < 3 && (bytes[index]! & 0xc0) === 0x80) {
    index -= 1;
    continuation += 1;
  }
  if (index < 0) return bytes;
  const lead = bytes[index]!;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - index < needed ? bytes.subarray(0, index) : bytes;
}
