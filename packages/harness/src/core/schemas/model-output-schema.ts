import * as z from '../../shared/validation/index.js';
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
  const reasoningString = z.string().check(z.maxLength(MAX_REASONING_CHARS));
  /** One reasoning part (`HarnessReasoningPart`): bounded, opaque fields kept as they are. */
  const reasoningPartSchema = z.object({
    provider: z.string().check(z.minLength(1), z.maxLength(64)),
    text: z.optional(reasoningString),
    signature: z.optional(reasoningString),
    data: z.optional(reasoningString),
    id: z.optional(z.string().check(z.maxLength(512))),
  });
  const reasoningSchema = z.array(reasoningPartSchema).check(z.maxLength(MAX_REASONING_PARTS));
  const base = {
    usage: z.optional(usageSchema),
    metadata: z.optional(recordSchema),
    reasoning: z.optional(reasoningSchema),
    notes: z.optional(z.transform(readNotes)),
  };

  const invalidOutputKindSchema = z.enum([
    'transient',
    'schema_mismatch',
    'empty_response',
    'missing_message',
    'model_refused',
    'provider_error',
    'input_too_large',
  ]);

  const modelOutputSchema = z.discriminatedUnion('type', [
    z.object({ type: z.literal('final_answer'), text: z.string(), value: z.optional(z.unknown()), ...base }),
    z.object({ type: z.literal('tool_request'), calls: z.array(toolCallSchema), text: z.optional(z.string()), ...base }),
    z.object({ type: z.literal('clarification'), question: z.string().check(z.trim(), z.minLength(1)), ...base }),
    z.object({ type: z.literal('approval_request'), request: approvalRequestSchema, ...base }),
    z.object({ type: z.literal('refusal'), reason: z.string(), ...base }),
    z.object({
      type: z.literal('invalid'),
      kind: invalidOutputKindSchema,
      reason: z.string(),
      retryable: z.optional(z.boolean()),
      code: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
      providerCode: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
      httpStatus: z.optional(z.number()),
      ...base,
    }),
  ]);
  return { base, invalidOutputKindSchema, reasoningPartSchema, reasoningSchema, modelOutputSchema };
});

export const modelOutputSchema = /* @__PURE__ */ lazySchema(() => modelOutputSchemas().modelOutputSchema);
