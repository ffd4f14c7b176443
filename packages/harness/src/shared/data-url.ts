/** A base64 `data:` URL: the media type, optional parameters, `;base64,` and the data. */
const BASE64_DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*);base64,/i;

/**
 * Splits a base64 `data:` URL (`data:image/png;name=a.png;base64,iVBOR…`) into its media type
 * (possibly empty) and its base64 data; `undefined` for anything else.
 */
export function splitDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = BASE64_DATA_URL.exec(url);
  return match === null ? undefined : { mediaType: match[1] ?? '', data: url.slice(match[0].length) };
}
