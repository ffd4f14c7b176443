const decoder = /* @__PURE__ */ new TextDecoder('utf-8');

/**
 * Decodes at most `maxBytes` bytes from GitHub's base64 `content` (which has line breaks),
 * touching only the characters needed.
 */
export function decodeBase64Prefix(content: string, maxBytes: number): Uint8Array {
  const wanted = Math.ceil(maxBytes / 3) * 4;
  let compact = '';
  for (let index = 0; index < content.length && compact.length < wanted; index += 1) {
    const char = content[index]!;
    if (char !== '\n' && char !== '\r' && char !== ' ') compact += char;
  }
  const usable = compact.length - (compact.length % 4);
  const binary = atob(compact.slice(0, usable));
  const bytes = new Uint8Array(Math.min(binary.length, maxBytes));
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** True when the bytes look binary (contain a NUL byte). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.includes(0);
}

/**
 * Decodes UTF-8; when `cut` is true the bytes are a prefix, so a character split at the end is
 * dropped instead of becoming a replacement character. Returns the text and the bytes used.
 */
export function decodeUtf8Prefix(bytes: Uint8Array, cut: boolean): { text: string; byteLength: number } {
  let end = bytes.length;
  if (cut && end > 0) {
    let start = end - 1;
    while (start > 0 && start > end - 4 && (bytes[start]! & 0xc0) === 0x80) start -= 1;
    const lead = bytes[start]!;
    const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (start + length > end) end = start;
  }
  const used = bytes.subarray(0, end);
  return { text: decoder.decode(used), byteLength: used.length };
}

/** Joins chunks into one array. */
export function concatBytes(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk.subarray(0, total - offset), offset);
    offset += Math.min(chunk.length, total - offset);
    if (offset >= total) break;
  }
  return out;
}
