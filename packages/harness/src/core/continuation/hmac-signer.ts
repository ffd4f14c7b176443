const encoder = new TextEncoder();

/** Signs and verifies strings with HMAC-SHA-256 through WebCrypto (Node 20+, Workers, browsers). */
export interface HmacSigner {
  sign(payload: string): Promise<string>;
  verify(payload: string, signature: string): Promise<boolean>;
}

/** Creates a signer; the key is imported once, on first use. */
export function createHmacSigner(secret: string): HmacSigner {
  let key: Promise<CryptoKey> | undefined;
  const getKey = () =>
    (key ??= crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]));
  return {
    async sign(payload) {
      const signature = await crypto.subtle.sign('HMAC', await getKey(), encoder.encode(payload));
      return toBase64Url(new Uint8Array(signature));
    },
    async verify(payload, signature) {
      const bytes = fromBase64Url(signature);
      if (bytes === undefined) return false;
      return crypto.subtle.verify('HMAC', await getKey(), bytes, encoder.encode(payload));
    },
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes;
  } catch {
    return undefined;
  }
}
