const encoder = /* @__PURE__ */ new TextEncoder();
const HMAC = { name: 'HMAC', hash: 'SHA-256' } as const;

/** Signs and verifies strings with HMAC-SHA-256 through WebCrypto (Node 20+, Workers, browsers). */
export interface HmacSigner {
  sign(payload: string): Promise<string>;
  /** True when any key of the signer made `signature` for `payload`. */
  verify(payload: string, signature: string): Promise<boolean>;
}

/**
 * Creates a signer over a rotation list: it signs with the first secret and accepts a signature
 * made with any of them. Keys are imported once, on first use.
 */
export function createHmacSigner(secrets: readonly string[]): HmacSigner {
  const keys = secrets.map((secret) => {
    let key: Promise<CryptoKey> | undefined;
    return () => (key ??= crypto.subtle.importKey('raw', encoder.encode(secret), HMAC, false, ['sign', 'verify']));
  });
  return keyringSigner(keys);
}

let processKey: Promise<CryptoKey> | undefined;

/**
 * A signer with a random, non-extractable key made once per process (per isolate in a Worker) on
 * first use. Continuations it signs resume only in the same process.
 */
export function processHmacSigner(): HmacSigner {
  return keyringSigner([
    () => {
      processKey ??= crypto.subtle.generateKey({ ...HMAC, length: 256 }, false, ['sign', 'verify']);
      processKey.catch(() => {
        processKey = undefined;
      });
      return processKey;
    },
  ]);
}

function keyringSigner(keys: (() => Promise<CryptoKey>)[]): HmacSigner {
  return {
    async sign(payload) {
      const signature = await crypto.subtle.sign('HMAC', await keys[0]!(), encoder.encode(payload));
      return toBase64Url(new Uint8Array(signature));
    },
    async verify(payload, signature) {
      const bytes = fromBase64Url(signature);
      if (bytes === undefined) return false;
      const data = encoder.encode(payload);
      for (const key of keys) {
        if (await crypto.subtle.verify('HMAC', await key(), bytes, data)) return true;
      }
      return false;
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
