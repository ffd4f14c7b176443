import type { ValidationIssue } from '../../shared/validation/index.js';
import type { HarnessInvalidOutput } from '../../core/types/model.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { truncateText } from '../../shared/redact-secrets.js';
import { invalidOutput, truncatedStreamOutput, type OutputContext } from './transport-failure-output.js';

/** A provider schema: anything with `safeParse`. */
export interface PayloadSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly ValidationIssue[] } };
}

/** How a provider names what it streams, for the messages of a bad payload. */
export interface StreamPayloadNames {
  /** E.g. `Stream event`, `Stream chunk`, `Stream line`. */
  item: string;
  /** E.g. `the Messages API format`. */
  format: string;
  /**
   * Whether a payload that is not JSON means the stream was cut off (an NDJSON last line without its
   * end) rather than a malformed event.
   * @default false
   */
  invalidJsonMeansTruncated?: boolean;
}

/** Where a payload sits in its stream: its 1-based position and the SSE event name, if any. */
export interface StreamPosition {
  index: number;
  name?: string | undefined;
}

/**
 * Parses one streamed payload (an SSE event's data or an NDJSON line) and checks it against the
 * provider's schema. A payload that is not JSON or not the wire shape ends the step with a
 * non-retryable `provider_error` (`invalid_response`: the same request gets the same answer) that
 * names the payload by position and type — never by its content.
 */
export function parseStreamPayload<T>(
  data: string,
  schema: PayloadSchema<T>,
  context: OutputContext,
  names: StreamPayloadNames,
  position: StreamPosition,
): { ok: true; value: T } | { ok: false; output: HarnessInvalidOutput } {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    const where = describePosition(names.item, position, undefined);
    if (names.invalidJsonMeansTruncated === true) {
      return { ok: false, output: truncatedStreamOutput(context, `${where} was not valid JSON: the stream was cut off.`) };
    }
    return { ok: false, output: invalidResponse(`${where} was not valid JSON.`, context) };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const where = describePosition(names.item, position, json);
  return { ok: false, output: invalidResponse(`${where} does not match ${names.format}: ${formatIssues(parsed.error.issues)}.`, context) };
}

/** The step's output for a whole response body that does not match the wire shape (`mapJson`). */
export function responseMismatchOutput(format: string, issues: readonly ValidationIssue[], context: OutputContext): HarnessInvalidOutput {
  return invalidResponse(`The response does not match ${format}: ${formatIssues(issues)}.`, context);
}

function invalidResponse(reason: string, context: OutputContext): HarnessInvalidOutput {
  return invalidOutput('provider_error', reason, context, { retryable: false, code: 'invalid_response' });
}

/** E.g. `Stream event 4 ("response.output_item.done")`: the position and the event's type, never its content. */
function describePosition(item: string, position: StreamPosition, json: unknown): string {
  const declared = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as { type?: unknown }).type : undefined;
  const type = typeof declared === 'string' && declared !== '' ? declared : position.name;
  return `${item} ${position.index}${type === undefined || type === '' ? '' : ` (${JSON.stringify(truncateText(type, 60))})`}`;
}
