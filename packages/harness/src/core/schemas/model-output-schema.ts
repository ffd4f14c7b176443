import * as z from 'zod/mini';
import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';

/** The schemas of this file, built on first use. */
export const modelOutputSchemas = /* @__PURE__ */ memo(() => {
  const { approvalRequestSchema, recordSchema, toolCallSchema, usageSchema } = commonSchemas();
  const base = { usage: z.optional(usageSchema), metadata: z.optional(recordSchema) };

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
    z.object({ type: z.literal('final_answer'), text: z.string(), ...base }),
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
      httpStatus: z.optional(z.number()),
      ...base,
    }),
  ]);
  return { base, invalidOutputKindSchema, modelOutputSchema };
});

export const modelOutputSchema = /* @__PURE__ */ lazySchema(() => modelOutputSchemas().modelOutputSchema);
