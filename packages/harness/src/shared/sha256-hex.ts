/**
 * The SHA-256 of `bytes` as 64 lower-case hex characters, with Web Crypto (`crypto.subtle`), so
 * it runs in Node.js, Workers and browsers alike.
 */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
