import * as z from '../validation/index.js';
import { lazySchema, memo } from './lazy-schema.js';

/** Schemas shared by the others, built on first use. */
export const commonSchemas = /* @__PURE__ */ memo(() => {
  // An object of string keys.
  const recordSchema = z.catchall(z.object({}), z.unknown());
  /** Approval decisions by call id. */
  const decisionsSchema = z.catchall(z.object({}), z.enum(['approved', 'rejected']));
  const nonEmptyString = z.string().check(z.minLength(1));
  const nonNegativeNumber = z.number().check(z.gte(0));
  // A safe integer, reported as `expected an integer`.
  const integer = z.number().check(z.refine(Number.isSafeInteger, { error: 'expected an integer' }));

  const usageSchema = z.object({
    inputTokens: z.optional(nonNegativeNumber),
    outputTokens: z.optional(nonNegativeNumber),
    cachedInputTokens: z.optional(nonNegativeNumber),
    reasoningTokens: z.optional(nonNegativeNumber),
    costUnits: z.optional(nonNegativeNumber),
    latencyMs: z.optional(nonNegativeNumber),
  });

  const aggregateUsageSchema = z.object({
    totalInputTokens: nonNegativeNumber,
    totalOutputTokens: nonNegativeNumber,
    totalCostUnits: nonNegativeNumber,
    totalCachedInputTokens: z.optional(nonNegativeNumber),
    totalReasoningTokens: z.optional(nonNegativeNumber),
    totalLatencyMs: nonNegativeNumber,
    modelCalls: nonNegativeNumber,
    toolCalls: nonNegativeNumber,
  });

  const toolCallSchema = z.object({
    id: nonEmptyString,
    name: nonEmptyString,
    input: recordSchema,
  });

  const approvalRequestSchema = z.object({
    id: nonEmptyString,
    kind: nonEmptyString,
    summary: z.string(),
    details: z.optional(recordSchema),
    metadata: z.optional(recordSchema),
  });

  /** A tool's or a backend's error: `{ code, message, retryable?, metadata? }`. */
  const errorSchema = z.object({
    code: z.string(),
    message: z.string(),
    retryable: z.optional(z.boolean()),
    metadata: z.optional(recordSchema),
  });

  const toolResultSchema = z.object({
    callId: z.string(),
    toolName: z.string(),
    status: z.enum(['success', 'error']),
    output: z.optional(z.string()),
    structuredOutput: z.optional(recordSchema),
    error: z.optional(errorSchema),
    usage: z.optional(usageSchema),
    metadata: z.optional(recordSchema),
  });
  return { recordSchema, decisionsSchema, integer, nonEmptyString, nonNegativeNumber, usageSchema, aggregateUsageSchema, toolCallSchema, approvalRequestSchema, errorSchema, toolResultSchema };
});

/** Validates what a tool registry returned. */
export const toolResultSchema = /* @__PURE__ */ lazySchema(() => commonSchemas().toolResultSchema);
