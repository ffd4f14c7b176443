import * as z from 'zod/mini';

export const recordSchema = z.record(z.string(), z.unknown());
export const nonEmptyString = z.string().check(z.minLength(1));
export const nonNegativeNumber = z.number().check(z.gte(0));

export const usageSchema = z.object({
  inputTokens: z.optional(nonNegativeNumber),
  outputTokens: z.optional(nonNegativeNumber),
  costUnits: z.optional(nonNegativeNumber),
  latencyMs: z.optional(nonNegativeNumber),
});

export const aggregateUsageSchema = z.object({
  totalInputTokens: nonNegativeNumber,
  totalOutputTokens: nonNegativeNumber,
  totalCostUnits: nonNegativeNumber,
  totalLatencyMs: nonNegativeNumber,
  modelCalls: nonNegativeNumber,
  toolCalls: nonNegativeNumber,
});

export const toolCallSchema = z.object({
  id: nonEmptyString,
  name: nonEmptyString,
  input: recordSchema,
});

export const approvalRequestSchema = z.object({
  id: nonEmptyString,
  kind: nonEmptyString,
  summary: z.string(),
  details: z.optional(recordSchema),
  metadata: z.optional(recordSchema),
});

export const toolResultSchema = z.object({
  callId: z.string(),
  toolName: z.string(),
  status: z.enum(['success', 'error']),
  output: z.optional(z.string()),
  structuredOutput: z.optional(recordSchema),
  error: z.optional(
    z.object({
      code: z.string(),
      message: z.string(),
      retryable: z.optional(z.boolean()),
      metadata: z.optional(recordSchema),
    }),
  ),
  usage: z.optional(usageSchema),
  metadata: z.optional(recordSchema),
});
