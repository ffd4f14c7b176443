import * as v from '../../shared/validation/index.js';
import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import { modelOutputSchemas } from './model-output-schema.js';
import { turnInputSchemas } from './turn-input-schema.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';

/** The schemas of this file, built on first use. */
export const continuationSchemas = /* @__PURE__ */ memo(() => {
  const { aggregateUsageSchema, approvalRequestSchema, decisionsSchema, integer, nonEmptyString, recordSchema, toolCallSchema, toolResultSchema } = commonSchemas();
  const { invalidOutputKindSchema, reasoningSchema } = modelOutputSchemas();
  const { contextSchema, continuationInputSchema, historyMessageSchema, instructionsSchema, userMessageSchema } = turnInputSchemas();
  const iteration = integer.check(v.gte(0));

  const transcriptItemSchema = v.discriminatedUnion('type', [
    v.object({
      type: v.literal('assistant_step'),
      iteration,
      outputType: v.enum(['final_answer', 'tool_request', 'clarification', 'approval_request', 'refusal']),
      text: v.optional(v.string()),
      calls: v.optional(v.array(toolCallSchema)),
      reasoning: v.optional(reasoningSchema),
    }),
    v.object({
      type: v.literal('invalid_output'),
      iteration,
      kind: invalidOutputKindSchema,
      reason: v.string(),
      code: v.optional(v.string().check(v.maxLength(200))),
      providerCode: v.optional(v.string().check(v.maxLength(200))),
    }),
    v.object({ type: v.literal('tool_result'), iteration, result: toolResultSchema }),
    v.object({
      type: v.literal('clarification_request'),
      iteration,
      question: v.string(),
      callId: v.optional(nonEmptyString),
      choices: v.optional(v.array(v.string())),
    }),
    v.object({ type: v.literal('clarification_answer'), iteration, answer: v.string(), callId: v.optional(nonEmptyString) }),
    v.object({ type: v.literal('approval_request'), iteration, request: approvalRequestSchema }),
    v.object({
      type: v.literal('approval_decision'),
      iteration,
      requestId: v.string(),
      decision: v.enum(['approved', 'rejected']),
    }),
    v.object({
      type: v.literal('compaction'),
      iteration,
      summary: v.string(),
      replacedItems: integer.check(v.gte(0)),
      replacedMessages: integer.check(v.gte(0)),
    }),
  ]);

  const stopReasonSchema = v.enum([
    'clarification_required',
    'approval_required',
    'max_iterations_reached',
    'max_tool_calls_reached',
    'timeout_reached',
    'budget_reached',
    'cancelled',
  ]);

  const executionContinuationSchema = v.object({
    kind: v.optional(v.string()),
    continuationId: v.optional(v.string()),
    state: v.optional(recordSchema),
    metadata: v.optional(recordSchema),
  });

  const executionRequestSchema = v.looseObject({
    assistantId: v.string(),
    turnId: v.string(),
    message: userMessageSchema,
    instructions: instructionsSchema,
    context: v.optional(contextSchema),
    history: v.optional(v.array(historyMessageSchema)),
    continuation: v.optional(executionContinuationSchema),
  });

  const loopStateSchema = v.object({
    mode: v.literal('loop'),
    stopReason: stopReasonSchema,
    input: continuationInputSchema,
    transcript: v.array(transcriptItemSchema),
    usage: aggregateUsageSchema,
    question: v.optional(v.string()),
    approvals: v.optional(v.array(approvalRequestSchema)),
    pendingCalls: v.optional(v.array(toolCallSchema)),
    reportedUnknownTools: v.optional(v.array(v.string())),
    toolState: v.optional(v.array(v.object({ key: nonEmptyString, value: v.unknown() }))),
    iteration,
  });

  const backendStateSchema = v.object({
    mode: v.literal('backend'),
    stopReason: stopReasonSchema,
    backendId: nonEmptyString,
    request: executionRequestSchema,
    backendContinuation: v.optional(executionContinuationSchema),
    usage: aggregateUsageSchema,
    question: v.optional(v.string()),
    approvals: v.optional(v.array(approvalRequestSchema)),
  });

  const continuationSchema = v.object({
    version: v.number(),
    id: nonEmptyString,
    type: v.enum(['clarification', 'approval', 'deferred']),
    turnId: nonEmptyString,
    sessionId: v.optional(v.string()),
    createdAt: v.string(),
    expiresAt: v.optional(v.string()),
    resumeToken: nonEmptyString,
    state: v.discriminatedUnion('mode', [loopStateSchema, backendStateSchema]),
    signature: v.optional(v.string()),
  });

  const resumeResolutionSchema = v.discriminatedUnion('type', [
    v.object({ type: v.literal('clarification'), answer: v.string().check(v.minLength(1)) }),
    v.object({ type: v.literal('approval'), decisions: decisionsSchema }),
    v.object({ type: v.literal('deferred') }),
  ]);
  return { iteration, transcriptItemSchema, stopReasonSchema, executionContinuationSchema, executionRequestSchema, loopStateSchema, backendStateSchema, continuationSchema, resumeResolutionSchema };
});

export const continuationSchema = /* @__PURE__ */ lazySchema(() => continuationSchemas().continuationSchema);

export const resumeResolutionSchema = /* @__PURE__ */ lazySchema(() => continuationSchemas().resumeResolutionSchema);
