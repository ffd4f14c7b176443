import * as v from '../../shared/validation/index.js';
import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';

/** Most reasoning parts one model output may carry. */
export const MAX_REASONING_PARTS = 1_024;
/** Longest reasoning `text`, `signature` or `data`, in characters (1 MiB). */
export const MAX_REASONING_CHARS = 1_048_576;
/** Most `notes` one model output keeps (the rest are dropped). */
export const MAX_OUTPUT_NOTES = 16;
/** Longest note kept, in characters (longer ones are cut). */
export const MAX_OUTPUT_NOTE_CHARS = 500;

/** An output's `notes`, read leniently: they only inform the trace, so bad ones are dropped or cut, never fatal. */
function readNotes(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const notes: string[] = [];
  for (const note of value.slice(0, MAX_OUTPUT_NOTES) as unknown[]) {
    if (typeof note !== 'string' || note === '') continue;
    notes.push(note.length > MAX_OUTPUT_NOTE_CHARS ? `${note.slice(0, MAX_OUTPUT_NOTE_CHARS - 1)}…` : note);
  }
  return notes.length === 0 ? undefined : notes;
}

/** The schemas of this file, built on first use. */
export const modelOutputSchemas = /* @__PURE__ */ memo(() => {
  const { approvalRequestSchema, recordSchema, toolCallSchema, usageSchema } = commonSchemas();
  const reasoningString = v.string().check(v.maxLength(MAX_REASONING_CHARS));
  /** One reasoning part (`HarnessReasoningPart`): bounded, opaque fields kept as they are. */
  const reasoningPartSchema = v.object({
    provider: v.string().check(v.minLength(1), v.maxLength(64)),
    text: v.optional(reasoningString),
    signature: v.optional(reasoningString),
    data: v.optional(reasoningString),
    id: v.optional(v.string().check(v.maxLength(512))),
  });
  const reasoningSchema = v.array(reasoningPartSchema).check(v.maxLength(MAX_REASONING_PARTS));
  const base = {
    usage: v.optional(usageSchema),
    metadata: v.optional(recordSchema),
    reasoning: v.optional(reasoningSchema),
    notes: v.optional(v.transform(readNotes)),
  };

  const invalidOutputKindSchema = v.enum([
    'transient',
    'schema_mismatch',
    'empty_response',
    'missing_message',
    'model_refused',
    'provider_error',
    'input_too_large',
  ]);

  const modelOutputSchema = v.discriminatedUnion('type', [
    v.object({ type: v.literal('final_answer'), text: v.string(), value: v.optional(v.unknown()), ...base }),
    v.object({ type: v.literal('tool_request'), calls: v.array(toolCallSchema), text: v.optional(v.string()), ...base }),
    v.object({ type: v.literal('clarification'), question: v.string().check(v.trim(), v.minLength(1)), ...base }),
    v.object({ type: v.literal('approval_request'), request: approvalRequestSchema, ...base }),
    v.object({ type: v.literal('refusal'), reason: v.string(), ...base }),
    v.object({
      type: v.literal('invalid'),
      kind: invalidOutputKindSchema,
      reason: v.string(),
      retryable: v.optional(v.boolean()),
      code: v.optional(v.string().check(v.minLength(1), v.maxLength(200))),
      providerCode: v.optional(v.string().check(v.minLength(1), v.maxLength(200))),
      httpStatus: v.optional(v.number()),
      ...base,
    }),
  ]);
  return { base, invalidOutputKindSchema, reasoningPartSchema, reasoningSchema, modelOutputSchema };
});

export const modelOutputSchema = /* @__PURE__ */ lazySchema(() => modelOutputSchemas().modelOutputSchema);
