import type { HarnessReasoningPart } from '../../../core/types/reasoning.js';
import type { Redactor } from '../../../shared/redact-secrets.js';
import { appendAll } from '../../../shared/append-all.js';

/** The `provider` of the reasoning parts chat completions produce and replay. */
export const CHAT_REASONING_PROVIDER = 'openai-compatible';

/** At most this many `reasoning_details` entries are kept per step (a hostile stream cannot grow it without bound). */
const MAX_DETAILS = 256;

type Detail = Record<string, unknown>;

function isDetail(value: unknown): value is Detail {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy with own properties only (`__proto__` stays a plain key, never a prototype). */
function copyDetail(detail: Detail): Detail {
  return Object.fromEntries(Object.entries(detail));
}

/** Reads OpenRouter `reasoning_details` leniently: the objects of an array, copied; anything else is ignored. */
export function readReasoningDetails(value: unknown): Detail[] {
  return Array.isArray(value) ? value.filter(isDetail).slice(0, MAX_DETAILS).map(copyDetail) : [];
}

const joinedFields = ['text', 'summary', 'data'];

/**
 * Adds streamed `reasoning_details` pieces to `details`: a piece with the same `index` and `type`
 * as one already there continues it (its `text`, `summary` and `data` are appended, other fields
 * such as `signature` set); any other piece is a new entry.
 */
export function mergeReasoningDetails(details: Detail[], pieces: unknown): void {
  for (const piece of readReasoningDetails(pieces)) {
    const index = piece.index;
    const existing = typeof index === 'number' ? details.find((detail) => detail.index === index && detail.type === piece.type) : undefined;
    if (existing === undefined) {
      if (details.length < MAX_DETAILS) details.push(piece);
      continue;
    }
    for (const [key, value] of Object.entries(piece)) {
      if (value === null || value === undefined) continue;
      if (joinedFields.includes(key) && typeof value === 'string' && typeof existing[key] === 'string') existing[key] = `${existing[key]}${value}`;
      else Object.defineProperty(existing, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
}

/**
 * The reasoning part of a step: the reasoning text (redacted) and, when OpenRouter sent
 * `reasoning_details`, their JSON in `data` so the next step can send them back.
 */
export function chatReasoningPart(text: string | undefined, details: readonly Detail[], redactor: Redactor): HarnessReasoningPart | undefined {
  const shown = text === undefined ? '' : redactor.exact(text).trim();
  if (shown === '' && details.length === 0) return undefined;
  return {
    provider: CHAT_REASONING_PROVIDER,
    ...(shown === '' ? {} : { text: shown }),
    ...(details.length === 0 ? {} : { data: redactor.exact(JSON.stringify(details)) }),
  };
}

/**
 * The `reasoning_details` to replay on an assistant message: those kept in the step's chat
 * reasoning parts (other providers' parts, plain reasoning text, and data that is not a JSON array
 * of objects are skipped).
 */
export function replayReasoningDetails(parts: readonly HarnessReasoningPart[] | undefined): Detail[] | undefined {
  const details: Detail[] = [];
  for (const part of parts ?? []) {
    if (part.provider !== CHAT_REASONING_PROVIDER || typeof part.data !== 'string') continue;
    try {
      appendAll(details, readReasoningDetails(JSON.parse(part.data)));
    } catch {
      // Not JSON (a damaged continuation): nothing to replay.
    }
  }
  return details.length === 0 ? undefined : details;
}
