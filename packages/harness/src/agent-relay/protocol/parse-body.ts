import { isRecord } from '../../shared/is-record.js';
import type { RelayDecodeOptions, RelayDecodeResult } from './message-types.js';

/** Default cap on the characters of a body the decoders parse. */
export const DEFAULT_MAX_BODY_CHARS = 4_000_000;

/** A JSON object parsed from a body, keyed by outside text. */
export type JsonObject = Record<string, unknown>;

/** Parses a body into a JSON object, refusing oversized, non-JSON and non-object bodies. Never throws. */
export function parseBody(text: unknown, options: RelayDecodeOptions = {}): RelayDecodeResult<JsonObject> {
  if (typeof text !== 'string') return { ok: false, reason: 'not_json', detail: 'The body is not text.' };
  const maxChars = options.maxChars ?? DEFAULT_MAX_BODY_CHARS;
  if (text.length > maxChars) {
    return { ok: false, reason: 'too_large', detail: `The body has ${text.length} characters; the limit is ${maxChars}.` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not_json', detail: 'The body is not JSON.' };
  }
  if (!isRecord(value)) return { ok: false, reason: 'not_json', detail: 'The body is JSON but not an object.' };
  return { ok: true, message: value };
}

/** The `type` field of a parsed body, when it is a string. */
export function typeOf(body: JsonObject): string | undefined {
  const type = body['type'];
  return typeof type === 'string' ? type : undefined;
}

/** Describes a foreign message without echoing much of its content. */
export function foreign(type: string | undefined, expected: string): { ok: false; reason: 'foreign'; detail: string } {
  const shown = type === undefined ? 'no type' : `type ${JSON.stringify(type.slice(0, 80))}`;
  return { ok: false, reason: 'foreign', detail: `The message has ${shown}, not ${expected}.` };
}
