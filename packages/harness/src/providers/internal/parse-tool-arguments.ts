/** The parsed input of a tool call, or why it could not be parsed. */
export type ParsedToolArguments = { ok: true; input: Record<string, unknown> } | { ok: false; reason: string };

/**
 * Parses a tool call's arguments strictly: a JSON object (as text or already parsed) is accepted;
 * absent, `null` or blank arguments mean `{}`; anything else (bad JSON, arrays, primitives) fails
 * with a reason that names the tool. `redact` runs on the JSON text before it is parsed (an object
 * is serialised first), so a secret is caught whether the model wrote it plainly or `\u`-escaped,
 * in a value or in a key.
 */
export function parseToolArguments(raw: unknown, toolName: string, redact: (text: string) => string = (text) => text): ParsedToolArguments {
  if (raw === undefined || raw === null) return { ok: true, input: {} };
  let text: string;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { ok: true, input: {} };
    text = raw;
  } else {
    try {
      text = JSON.stringify(raw);
    } catch {
      return { ok: false, reason: `The arguments of tool call "${toolName}" cannot be read as JSON.` };
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(redact(text));
  } catch {
    return { ok: false, reason: `The arguments of tool call "${toolName}" are not valid JSON.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `The arguments of tool call "${toolName}" are not a JSON object.` };
  }
  return { ok: true, input: value as Record<string, unknown> };
}

/** A call id for providers that send none: unique within the turn. */
export { generateCallId } from '../../shared/generate-call-id.js';

/** A finite, non-negative number from an unknown wire value, else `undefined`. */
export function readCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
