import type { HarnessToolCall } from '../../shared/types/tools.js';
import type { Redactor } from '../../shared/redact-secrets.js';
import { generateCallId, parseToolArguments } from './parse-tool-arguments.js';

/** A tool call as a provider assembled it, before checking. */
export interface RawToolCall {
  id?: string;
  name?: string;
  /** JSON text (streamed or chat-completions) or an already parsed value (Anthropic `input`). */
  arguments?: unknown;
}

/** A checked tool call, or why the model's call is unusable. */
export type ReadToolCall = { ok: true; call: HarnessToolCall } | { ok: false; reason: string };

/**
 * Checks one tool call from a model response and scrubs known secrets from it: the name and the
 * arguments are redacted (arguments before parsing, so escaped secrets are caught too), and an id
 * that held a secret is replaced by a fresh one, as is a missing id. A call without a name, or
 * with arguments that are not a JSON object, is refused with a reason.
 */
export function readToolCall(raw: RawToolCall, redactor: Redactor): ReadToolCall {
  if (raw.name === undefined || raw.name.trim() === '') return { ok: false, reason: 'The model asked for a tool call without a tool name.' };
  const name = redactor.exact(raw.name);
  const parsed = parseToolArguments(raw.arguments, name, redactor.exact);
  if (!parsed.ok) return parsed;
  const id = raw.id === undefined || raw.id === '' || redactor.exact(raw.id) !== raw.id ? generateCallId() : raw.id;
  return { ok: true, call: { id, name, input: parsed.input } };
}
