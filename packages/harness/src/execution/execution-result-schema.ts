import * as z from '../shared/validation/index.js';
import { commonSchemas } from '../shared/schemas/common-schemas.js';
import { lazySchema, memo } from '../shared/schemas/lazy-schema.js';

/** The schemas of this file, built on first use. */
export const executionResultSchemas = /* @__PURE__ */ memo(() => {
  const { errorSchema, recordSchema, usageSchema } = commonSchemas();
  const reasonSchema = z.object({
    code: z.string(),
    message: z.string(),
    severity: z.enum(['info', 'warning', 'blocking']),
  });

  const executionResultSchema = z.object({
    backendId: z.string(),
    status: z.enum(['completed', 'needs_clarification', 'awaiting_approval', 'deferred', 'failed', 'unsupported']),
    output: z.optional(
      z.object({
        text: z.optional(z.string()),
        structured: z.optional(recordSchema),
        attachments: z.optional(z.array(recordSchema)),
      }),
    ),
    continuation: z.optional(
      z.object({
        kind: z.optional(z.string()),
        continuationId: z.optional(z.string()),
        state: z.optional(recordSchema),
        metadata: z.optional(recordSchema),
      }),
    ),
    approvalRequest: z.optional(
      z.object({
        reason: z.optional(z.string()),
        approvalKey: z.optional(z.string()),
        metadata: z.optional(recordSchema),
      }),
    ),
    error: z.optional(errorSchema),
    usage: z.optional(usageSchema),
    trace: z.optional(recordSchema),
    degradation: z.optional(z.array(reasonSchema)),
    metadata: z.optional(recordSchema),
  });

  const negotiationSchema = z.object({
    supported: z.boolean(),
    degraded: z.boolean(),
    reasons: z.array(reasonSchema),
  });
  return { reasonSchema, executionResultSchema, negotiationSchema };
});

export const executionResultSchema = /* @__PURE__ */ lazySchema(() => executionResultSchemas().executionResultSchema);

export const negotiationSchema = /* @__PURE__ */ lazySchema(() => executionResultSchemas().negotiationSchema);
