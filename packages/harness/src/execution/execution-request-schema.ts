import * as z from '../shared/validation/index.js';
import { commonSchemas } from '../shared/schemas/common-schemas.js';
import { formatIssues } from '../shared/schemas/format-issues.js';
import { lazySchema, memo } from '../shared/schemas/lazy-schema.js';
import { turnInputPartSchemas } from '../shared/schemas/turn-input-part-schemas.js';
import type { ExecutionRequest, ExecutionResult } from './types.js';

/** The schemas of an `ExecutionRequest`, built on first use. Unknown keys are dropped from parsed values. */
export const executionRequestSchemas = /* @__PURE__ */ memo(() => {
  const { decisionsSchema, nonEmptyString, recordSchema } = commonSchemas();
  const { contextSchema, historyMessageSchema, instructionsSchema, userMessageSchema } = turnInputPartSchemas();

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

  const executionContinuationSchema = z.object({
    kind: z.optional(z.string()),
    continuationId: z.optional(z.string()),
    state: z.optional(recordSchema),
    metadata: z.optional(recordSchema),
  });

  const resumeResolutionSchema = z.discriminatedUnion('type', [
    z.object({ type: z.literal('clarification'), answer: z.string() }),
    z.object({ type: z.literal('approval'), decisions: decisionsSchema }),
    z.object({ type: z.literal('deferred') }),
  ]);

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
    history: z.optional(z.array(historyMessageSchema)),
    continuation: z.optional(executionContinuationSchema),
    resume: z.optional(resumeResolutionSchema),
    tools: z.optional(z.array(toolDescriptorSchema)),
    requirements: z.optional(requirementsSchema),
    timeoutMs: z.optional(z.number().check(z.positive())),
    metadata: z.optional(recordSchema),
  });
  return { requirementsSchema, toolDescriptorSchema, executionContinuationSchema, resumeResolutionSchema, executionRequestSchema };
});

/** Validates a whole `ExecutionRequest` (built on first use). */
export const executionRequestSchema = /* @__PURE__ */ lazySchema(() => executionRequestSchemas().executionRequestSchema);

/** The outcome of `checkExecutionRequest`: the request as parsed, or the `failed` result to return. */
export type CheckedExecutionRequest = { ok: true; request: ExecutionRequest } | { ok: false; result: ExecutionResult };

/**
 * Checks a request at the door of an adapter's `execute`, so a malformed one (a missing message,
 * a context block without text, a throwing getter, a non-object) becomes a `failed` result with
 * error code `invalid_request` instead of a crash. On success it returns the parsed copy (unknown
 * keys dropped; context blocks may spell their text `content` or `text`, read it with
 * `contextBlockText`). Never throws.
 * @example
 * ```ts
 * async execute(request: ExecutionRequest): Promise<ExecutionResult> {
 *   const checked = checkExecutionRequest(request, this.backendId);
 *   if (!checked.ok) return checked.result;
 *   // … use checked.request …
 * }
 * ```
 */
export function checkExecutionRequest(request: unknown, backendId: string): CheckedExecutionRequest {
  let message: string;
  try {
    const parsed = executionRequestSchema.safeParse(request);
    if (parsed.success) return { ok: true, request: parsed.data as ExecutionRequest };
    message = `Invalid execution request: ${formatIssues(parsed.error.issues, 'request')}.`;
  } catch {
    message = 'Invalid execution request: it could not be read (a property threw when accessed).';
  }
  return {
    ok: false,
    result: {
      backendId,
      status: 'failed',
      error: { code: 'invalid_request', message, retryable: false },
      trace: { summary: { stepCount: 0, toolCallCount: 0, degraded: false }, events: [{ type: 'failure', data: { code: 'invalid_request' } }] },
    },
  };
}
