import * as v from '../shared/validation/index.js';
import { commonSchemas } from '../shared/schemas/common-schemas.js';
import { lazySchema, memo } from '../shared/schemas/lazy-schema.js';

/** The schemas of this file, built on first use. */
export const executionResultSchemas = /* @__PURE__ */ memo(() => {
  const { errorSchema, recordSchema, usageSchema } = commonSchemas();
  const reasonSchema = v.object({
    code: v.string(),
    message: v.string(),
    severity: v.enum(['info', 'warning', 'blocking']),
  });

  const executionResultSchema = v.object({
    backendId: v.string(),
    status: v.enum(['completed', 'needs_clarification', 'awaiting_approval', 'deferred', 'failed', 'unsupported']),
    output: v.optional(
      v.object({
        text: v.optional(v.string()),
        structured: v.optional(recordSchema),
        attachments: v.optional(v.array(recordSchema)),
      }),
    ),
    continuation: v.optional(
      v.object({
        kind: v.optional(v.string()),
        continuationId: v.optional(v.string()),
        state: v.optional(recordSchema),
        metadata: v.optional(recordSchema),
      }),
    ),
    approvalRequest: v.optional(
      v.object({
        reason: v.optional(v.string()),
        approvalKey: v.optional(v.string()),
        metadata: v.optional(recordSchema),
      }),
    ),
    error: v.optional(errorSchema),
    usage: v.optional(usageSchema),
    trace: v.optional(recordSchema),
    degradation: v.optional(v.array(reasonSchema)),
    metadata: v.optional(recordSchema),
  });

  const negotiationSchema = v.object({
    supported: v.boolean(),
    degraded: v.boolean(),
    reasons: v.array(reasonSchema),
  });
  return { reasonSchema, executionResultSchema, negotiationSchema };
});

export const executionResultSchema = /* @__PURE__ */ lazySchema(() => executionResultSchemas().executionResultSchema);

export const negotiationSchema = /* @__PURE__ */ lazySchema(() => executionResultSchemas().negotiationSchema);
