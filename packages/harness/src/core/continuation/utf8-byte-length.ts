// eslint-disable-next-line no-control-regex -- every character outside ASCII
const NON_ASCII = /[^\u0000-\u007f]/;

/** The number of bytes a string takes as UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8ByteLength(text: string): number {
  // ASCII text (most JSON) is one byte a character; the regex scan is native, the loop below is not.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
