import * as v from '../shared/validation/index.js';
import { commonSchemas } from '../shared/schemas/common-schemas.js';
import { formatIssues } from '../shared/schemas/format-issues.js';
import { lazySchema, memo } from '../shared/schemas/lazy-schema.js';
import { turnInputPartSchemas } from '../shared/schemas/turn-input-part-schemas.js';
import type { ExecutionRequest, ExecutionResult } from './types.js';

/** The schemas of an `ExecutionRequest`, built on first use. Unknown keys are dropped from parsed values. */
export const executionRequestSchemas = /* @__PURE__ */ memo(() => {
  const { decisionsSchema, nonEmptyString, recordSchema } = commonSchemas();
  const { contextSchema, historyMessageSchema, instructionsSchema, userMessageSchema } = turnInputPartSchemas();

  const requirementsSchema = v.object({
    toolUse: v.optional(v.enum(['forbidden', 'allowed', 'required'])),
    structuredToolCalls: v.optional(v.enum(['forbidden', 'preferred', 'required'])),
    continuationSupport: v.optional(v.enum(['none', 'preferred', 'required'])),
    approvalInterrupts: v.optional(v.enum(['none', 'preferred', 'required'])),
    traceDepth: v.optional(v.enum(['minimal', 'standard', 'detailed'])),
    attachments: v.optional(v.enum(['forbidden', 'allowed', 'required'])),
  });

  const toolDescriptorSchema = v.object({
    name: nonEmptyString,
    description: v.optional(v.string()),
    inputSchema: v.optional(recordSchema),
    requiresApproval: v.optional(v.boolean()),
    metadata: v.optional(recordSchema),
  });

  const executionContinuationSchema = v.object({
    kind: v.optional(v.string()),
    continuationId: v.optional(v.string()),
    state: v.optional(recordSchema),
    metadata: v.optional(recordSchema),
  });

  const resumeResolutionSchema = v.discriminatedUnion('type', [
    v.object({ type: v.literal('clarification'), answer: v.string() }),
    v.object({ type: v.literal('approval'), decisions: decisionsSchema }),
    v.object({ type: v.literal('deferred') }),
  ]);

  const executionRequestSchema = v.object({
    assistantId: nonEmptyString,
    turnId: nonEmptyString,
    workspaceId: v.optional(v.string()),
    sessionId: v.optional(v.string()),
    userId: v.optional(v.string()),
    threadId: v.optional(v.string()),
    message: userMessageSchema,
    instructions: instructionsSchema,
    context: v.optional(contextSchema),
    history: v.optional(v.array(historyMessageSchema)),
    continuation: v.optional(executionContinuationSchema),
    resume: v.optional(resumeResolutionSchema),
    tools: v.optional(v.array(toolDescriptorSchema)),
    requirements: v.optional(requirementsSchema),
    timeoutMs: v.optional(v.number().check(v.positive())),
    metadata: v.optional(recordSchema),
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
