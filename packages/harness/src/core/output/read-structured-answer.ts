import type { HarnessOutputSchema } from '../../shared/types/schema.js';
import { detachValue } from '../continuation/detach-value.js';
import { parseSchemaValue, type SchemaIssue } from './parse-schema-value.js';

/** A structured answer that validated, or why it did not (told to the model on the next step). */
export type StructuredAnswer =
  /** `value` is what the schema's validator returned; `text` the answer's JSON text. */
  | { ok: true; value: unknown; text: string }
  | { ok: false; reason: string };

/** Issues listed in a reason; the rest are counted. */
const MAX_ISSUES = 10;
/** Longest issue path or message kept in a reason, in characters. */
const MAX_ISSUE_CHARS = 200;

/**
 * Reads a final answer against the turn's `output` schema: `value` when the provider received the
 * answer as a value, otherwise `text` parsed as JSON (the whole text, a text that is one fenced
 * code block, or else the first fenced `json` block in it). The parsed value is bounded like every
 * other model value (size, depth) before the schema's validator sees it; object keys such as
 * `__proto__` stay plain data. Whatever the validator throws propagates.
 */
export async function readStructuredAnswer(
  schema: HarnessOutputSchema,
  answer: { text: string; value?: unknown },
): Promise<StructuredAnswer> {
  let raw: unknown;
  let text: string;
  let textOfValue = false;
  if (answer.value !== undefined) {
    raw = answer.value;
    text = '';
    textOfValue = true;
  } else {
    const parsed = parseJsonText(answer.text);
    if (!parsed.ok) return parsed;
    raw = parsed.value;
    text = parsed.text;
  }
  const detached = detachValue(raw);
  if (!detached.ok) return { ok: false, reason: `The answer cannot be used: ${detached.reason}.` };
  if (textOfValue) text = JSON.stringify(detached.value);
  const result = await parseSchemaValue(schema, detached.value);
  if (result.ok) return { ok: true, value: result.value, text };
  return { ok: false, reason: `The answer does not match the output schema: ${describeIssues(result.issues)}.` };
}

type ParsedText = { ok: true; value: unknown; text: string } | { ok: false; reason: string };

function parseJsonText(answer: string): ParsedText {
  const trimmed = answer.trim();
  if (trimmed === '') return { ok: false, reason: 'The answer is empty; answer with only a JSON value matching the output schema.' };
  const whole = unfence(trimmed);
  const first = tryParse(whole ?? trimmed);
  if (first !== undefined) return first;
  const embedded = whole === undefined ? embeddedJsonBlock(trimmed) : undefined;
  const second = embedded === undefined ? undefined : tryParse(embedded);
  if (second !== undefined) return second;
  return { ok: false, reason: 'The answer is not valid JSON; answer with only a JSON value matching the output schema.' };
}

function tryParse(text: string): { ok: true; value: unknown; text: string } | undefined {
  try {
    return { ok: true, value: JSON.parse(text) as unknown, text };
  } catch {
    return undefined;
  }
}

/** The inside of a text that is exactly one fenced code block (```json … ```), trimmed. */
function unfence(text: string): string | undefined {
  if (!text.startsWith('```') || !text.endsWith('```') || text.length < 6) return undefined;
  const newline = text.indexOf('\n');
  if (newline === -1 || newline > text.length - 3) return undefined;
  const inner = text.slice(newline + 1, text.length - 3);
  return inner.includes('```') ? undefined : inner.trim();
}

/** The inside of the first ```json block of a longer text, trimmed. */
function embeddedJsonBlock(text: string): string | undefined {
  const start = text.toLowerCase().indexOf('```json');
  if (start === -1) return undefined;
  const newline = text.indexOf('\n', start);
  if (newline === -1) return undefined;
  const end = text.indexOf('```', newline + 1);
  return end === -1 ? undefined : text.slice(newline + 1, end).trim();
}

function describeIssues(issues: SchemaIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path === '' ? '(root)' : clip(issue.path);
    return `${path}: ${clip(issue.message)}`;
  });
  const more = issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}

function clip(text: string): string {
  return text.length > MAX_ISSUE_CHARS ? `${text.slice(0, MAX_ISSUE_CHARS)}…` : text;
}
