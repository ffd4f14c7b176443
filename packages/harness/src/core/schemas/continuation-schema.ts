import * as z from '../../shared/validation/index.js';
import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import { modelOutputSchemas } from './model-output-schema.js';
import { turnInputSchemas } from './turn-input-schema.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';

/** The schemas of this file, built on first use. */
export const continuationSchemas = /* @__PURE__ */ memo(() => {
  const { aggregateUsageSchema, approvalRequestSchema, decisionsSchema, integer, nonEmptyString, recordSchema, toolCallSchema, toolResultSchema } = commonSchemas();
  const { invalidOutputKindSchema, reasoningSchema } = modelOutputSchemas();
  const { contextSchema, continuationInputSchema, historyMessageSchema, instructionsSchema, userMessageSchema } = turnInputSchemas();
  const iteration = integer.check(z.gte(0));

  const transcriptItemSchema = z.discriminatedUnion('type', [
    z.object({
      type: z.literal('assistant_step'),
      iteration,
      outputType: z.enum(['final_answer', 'tool_request', 'clarification', 'approval_request', 'refusal']),
      text: z.optional(z.string()),
      calls: z.optional(z.array(toolCallSchema)),
      reasoning: z.optional(reasoningSchema),
    }),
    z.object({
      type: z.literal('invalid_output'),
      iteration,
      kind: invalidOutputKindSchema,
      reason: z.string(),
      code: z.optional(z.string().check(z.maxLength(200))),
      providerCode: z.optional(z.string().check(z.maxLength(200))),
    }),
    z.object({ type: z.literal('tool_result'), iteration, result: toolResultSchema }),
    z.object({
      type: z.literal('clarification_request'),
      iteration,
      question: z.string(),
      callId: z.optional(nonEmptyString),
      choices: z.optional(z.array(z.string())),
    }),
    z.object({ type: z.literal('clarification_answer'), iteration, answer: z.string(), callId: z.optional(nonEmptyString) }),
    z.object({ type: z.literal('approval_request'), iteration, request: approvalRequestSchema }),
    z.object({
      type: z.literal('approval_decision'),
      iteration,
      requestId: z.string(),
      decision: z.enum(['approved', 'rejected']),
    }),
    z.object({
      type: z.literal('compaction'),
      iteration,
      summary: z.string(),
      replacedItems: integer.check(z.gte(0)),
      replacedMessages: integer.check(z.gte(0)),
    }),
  ]);

  const stopReasonSchema = z.enum([
    'clarification_required',
    'approval_required',
    'max_iterations_reached',
    'max_tool_calls_reached',
    'timeout_reached',
    'budget_reached',
    'cancelled',
  ]);

  const executionContinuationSchema = z.object({
    kind: z.optional(z.string()),
    continuationId: z.optional(z.string()),
    state: z.optional(recordSchema),
    metadata: z.optional(recordSchema),
  });

  const executionRequestSchema = z.looseObject({
    assistantId: z.string(),
    turnId: z.string(),
    message: userMessageSchema,
    instructions: instructionsSchema,
    context: z.optional(contextSchema),
    history: z.optional(z.array(historyMessageSchema)),
    continuation: z.optional(executionContinuationSchema),
  });

  const loopStateSchema = z.object({
    mode: z.literal('loop'),
    stopReason: stopReasonSchema,
    input: continuationInputSchema,
    transcript: z.array(transcriptItemSchema),
    usage: aggregateUsageSchema,
    question: z.optional(z.string()),
    approvals: z.optional(z.array(approvalRequestSchema)),
    pendingCalls: z.optional(z.array(toolCallSchema)),
    reportedUnknownTools: z.optional(z.array(z.string())),
    toolState: z.optional(z.array(z.object({ key: nonEmptyString, value: z.unknown() }))),
    iteration,
  });

  const backendStateSchema = z.object({
    mode: z.literal('backend'),
    stopReason: stopReasonSchema,
    backendId: nonEmptyString,
    request: executionRequestSchema,
    backendContinuation: z.optional(executionContinuationSchema),
    usage: aggregateUsageSchema,
    question: z.optional(z.string()),
    approvals: z.optional(z.array(approvalRequestSchema)),
  });

  const continuationSchema = z.object({
    version: z.number(),
    id: nonEmptyString,
    type: z.enum(['clarification', 'approval', 'deferred']),
    turnId: nonEmptyString,
    sessionId: z.optional(z.string()),
    createdAt: z.string(),
    expiresAt: z.optional(z.string()),
    resumeToken: nonEmptyString,
    state: z.discriminatedUnion('mode', [loopStateSchema, backendStateSchema]),
    signature: z.optional(z.string()),
  });

  const resumeResolutionSchema = z.discriminatedUnion('type', [
    z.object({ type: z.literal('clarification'), answer: z.string().check(z.minLength(1)) }),
    z.object({ type: z.literal('approval'), decisions: decisionsSchema }),
    z.object({ type: z.literal('deferred') }),
  ]);
  return { iteration, transcriptItemSchema, stopReasonSchema, executionContinuationSchema, executionRequestSchema, loopStateSchema, backendStateSchema, continuationSchema, resumeResolutionSchema };
});

export const continuationSchema = /* @__PURE__ */ lazySchema(() => continuationSchemas().continuationSchema);

export const resumeResolutionSchema = /* @__PURE__ */ lazySchema(() => continuationSchemas().resumeResolutionSchema);
