import * as v from '../validation/index.js';
import { lazySchema, memo } from './lazy-schema.js';

/** Schemas shared by the others, built on first use. */
export const commonSchemas = /* @__PURE__ */ memo(() => {
  // An object of string keys.
  const recordSchema = v.catchall(v.object({}), v.unknown());
  /** Approval decisions by call id. */
  const decisionsSchema = v.catchall(v.object({}), v.enum(['approved', 'rejected']));
  const nonEmptyString = v.string().check(v.minLength(1));
  const nonNegativeNumber = v.number().check(v.gte(0));
  // A safe integer, reported as `expected an integer`.
  const integer = v.number().check(v.refine(Number.isSafeInteger, { error: 'expected an integer' }));

  const usageSchema = v.object({
    inputTokens: v.optional(nonNegativeNumber),
    outputTokens: v.optional(nonNegativeNumber),
    cachedInputTokens: v.optional(nonNegativeNumber),
    reasoningTokens: v.optional(nonNegativeNumber),
    costUnits: v.optional(nonNegativeNumber),
    latencyMs: v.optional(nonNegativeNumber),
  });

  const aggregateUsageSchema = v.object({
    totalInputTokens: nonNegativeNumber,
    totalOutputTokens: nonNegativeNumber,
    totalCostUnits: nonNegativeNumber,
    totalCachedInputTokens: v.optional(nonNegativeNumber),
    totalReasoningTokens: v.optional(nonNegativeNumber),
    totalLatencyMs: nonNegativeNumber,
    modelCalls: nonNegativeNumber,
    toolCalls: nonNegativeNumber,
  });

  const toolCallSchema = v.object({
    id: nonEmptyString,
    name: nonEmptyString,
    input: recordSchema,
  });

  const approvalRequestSchema = v.object({
    id: nonEmptyString,
    kind: nonEmptyString,
    summary: v.string(),
    details: v.optional(recordSchema),
    metadata: v.optional(recordSchema),
  });

  /** A tool's or a backend's error: `{ code, message, retryable?, metadata? }`. */
  const errorSchema = v.object({
    code: v.string(),
    message: v.string(),
    retryable: v.optional(v.boolean()),
    metadata: v.optional(recordSchema),
  });

  const toolResultSchema = v.object({
    callId: v.string(),
    toolName: v.string(),
    status: v.enum(['success', 'error']),
    output: v.optional(v.string()),
    structuredOutput: v.optional(recordSchema),
    error: v.optional(errorSchema),
    usage: v.optional(usageSchema),
    metadata: v.optional(recordSchema),
  });
  return { recordSchema, decisionsSchema, integer, nonEmptyString, nonNegativeNumber, usageSchema, aggregateUsageSchema, toolCallSchema, approvalRequestSchema, errorSchema, toolResultSchema };
});

/** Validates what a tool registry returned. */
export const toolResultSchema = /* @__PURE__ */ lazySchema(() => commonSchemas().toolResultSchema);
