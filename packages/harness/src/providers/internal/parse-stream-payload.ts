import type { ValidationIssue } from '../../shared/validation/index.js';
import type { HarnessInvalidOutput } from '../../core/types/model.js';
import type { HarnessInvalidOutputKind } from '../../core/types/transcript.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { invalidOutput, type OutputContext } from './transport-failure-output.js';

/** A provider schema: anything with `safeParse`. */
export interface PayloadSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly ValidationIssue[] } };
}

/** How a provider names what it streams, for the messages of a bad payload. */
export interface StreamPayloadNames {
  /** E.g. `A stream event`, `A stream chunk`, `A stream line`. */
  item: string;
  /** E.g. `the Messages API format`. */
  format: string;
  /** How unparseable JSON is classified. @default a retryable `provider_error` */
  invalidJson?: { kind: HarnessInvalidOutputKind; reason: string };
}

/**
 * Parses one streamed payload (an SSE event's data or an NDJSON line) and checks it against the
 * provider's schema; anything else becomes the step's retryable `invalid` output.
 */
export function parseStreamPayload<T>(
  data: string,
  schema: PayloadSchema<T>,
  context: OutputContext,
  names: StreamPayloadNames,
): { ok: true; value: T } | { ok: false; output: HarnessInvalidOutput } {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    const { kind, reason } = names.invalidJson ?? { kind: 'provider_error', reason: `${names.item} was not valid JSON.` };
    return { ok: false, output: invalidOutput(kind, reason, context, { retryable: true }) };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    output: invalidOutput('provider_error', `${names.item} does not match ${names.format}: ${formatIssues(parsed.error.issues)}.`, context, {
      retryable: true,
    }),
  };
}
