import * as z from 'zod/mini';
import { continuationSchemas } from '../../core/schemas/continuation-schema.js';
import { turnInputSchemas } from '../../core/schemas/turn-input-schema.js';
import { executionResultSchemas } from '../../execution/execution-result-schema.js';
import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import { memo } from '../../shared/schemas/lazy-schema.js';
import {
  AGENT_RELAY_EXECUTION_CANCEL_TYPE,
  AGENT_RELAY_EXECUTION_REQUEST_TYPE,
  AGENT_RELAY_EXECUTION_RESULT_TYPE,
} from './message-types.js';

/** The relay wire schemas, built on first use. Unknown keys are dropped from parsed values. */
export const relayWireSchemas = memo(() => {
  const { nonEmptyString, recordSchema } = commonSchemas();
  const { contextSchema, instructionsSchema, userMessageSchema } = turnInputSchemas();
  const { executionContinuationSchema, resumeResolutionSchema } = continuationSchemas();
  const { executionResultSchema } = executionResultSchemas();
  const isoTime = z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO-8601 time'));

  const requirementsSchema = z.object({
    toolUse: z.optional(z.enum(['forbidden', 'allowed', 'required'])),
    structuredToolCalls: z.optional(z.enum(['forbidden', 'preferred', 'required'])),
    continuationSupport: z.optional(z.enum(['none', 'preferred', 'required'])),
    approvalInterrupts: z.optional(z.enum(['none', 'preferred', 'required'])),
    traceDepth: z.optional(z.enum(['minimal', 'standard', 'detailed'])),
    attachments: z.optional(z.enum(['forbidden', 'allowed', 'required'])),
  });

  const toolDescriptorSchema = z.object({
    name: nonEmptyString,
    description: z.optional(z.string()),
    inputSchema: z.optional(recordSchema),
    requiresApproval: z.optional(z.boolean()),
    metadata: z.optional(recordSchema),
  });

  /** A whole `ExecutionRequest`. */
  const executionRequestSchema = z.object({
    assistantId: nonEmptyString,
    turnId: nonEmptyString,
    workspaceId: z.optional(z.string()),
    sessionId: z.optional(z.string()),
    userId: z.optional(z.string()),
    threadId: z.optional(z.string()),
    message: userMessageSchema,
    instructions: instructionsSchema,
    context: z.optional(contextSchema),
    continuation: z.optional(executionContinuationSchema),
    resume: z.optional(resumeResolutionSchema),
    tools: z.optional(z.array(toolDescriptorSchema)),
    requirements: z.optional(requirementsSchema),
    timeoutMs: z.optional(z.number().check(z.positive())),
    metadata: z.optional(recordSchema),
  });

  const ids = { requestId: nonEmptyString, turnId: nonEmptyString, threadId: nonEmptyString, sentAt: isoTime };

  const requestMessageSchema = z.object({
    type: z.literal(AGENT_RELAY_EXECUTION_REQUEST_TYPE),
    ...ids,
    replyTo: z.object({ agentId: nonEmptyString, channelId: z.optional(z.string()) }),
    deadline: z.optional(isoTime),
    request: executionRequestSchema,
  });

  const resultMessageSchema = z.object({
    type: z.literal(AGENT_RELAY_EXECUTION_RESULT_TYPE),
    ...ids,
    executionResult: executionResultSchema,
  });

  const cancelMessageSchema = z.object({
    type: z.literal(AGENT_RELAY_EXECUTION_CANCEL_TYPE),
    ...ids,
    reason: z.enum(['cancelled', 'timeout']),
  });

  /** The correlation fields of a result envelope, each optional (worker shorthand). */
  const resultEnvelopeSchema = z.object({
    requestId: z.optional(nonEmptyString),
    turnId: z.optional(nonEmptyString),
    threadId: z.optional(nonEmptyString),
    sentAt: z.optional(z.string()),
  });

  return {
    executionRequestSchema,
    requestMessageSchema,
    resultMessageSchema,
    cancelMessageSchema,
    resultEnvelopeSchema,
    executionResultSchema,
    executionContinuationSchema,
  };
});
