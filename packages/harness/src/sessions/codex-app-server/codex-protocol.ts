import * as z from '../../shared/validation/index.js';
import { memo } from '../../shared/schemas/lazy-schema.js';

/** Longest id (thread, turn, item) accepted from the engine. */
const MAX_ID = 512;

/**
 * The parts of codex app-server messages (protocol v2, codex 0.171) this client reads, built on
 * first use. Unknown fields are dropped; a message that does not match is ignored, never trusted.
 */
export const codexSchemas = /* @__PURE__ */ memo(() => {
  const id = z.string().check(z.minLength(1), z.maxLength(MAX_ID));
  const text = z.string();
  const optionalText = z.optional(z.nullable(z.string()));
  const count = z.number().check(z.gte(0));

  const threadResult = z.object({ thread: z.object({ id }) });
  const turnResult = z.object({ turn: z.object({ id }) });
  const turnCompleted = z.object({
    threadId: id,
    turn: z.object({
      id,
      status: z.string(),
      error: z.optional(z.nullable(z.object({ message: z.string() }))),
    }),
  });
  const item = z.object({
    type: z.string(),
    id,
    text: z.optional(z.string()),
    command: optionalText,
    status: z.optional(z.string()),
    tool: optionalText,
    server: optionalText,
    changes: z.optional(z.array(z.object({ path: z.string() }))),
  });
  const itemEvent = z.object({ threadId: id, turnId: id, item });
  const agentDelta = z.object({ threadId: id, turnId: id, itemId: id, delta: text });
  const plan = z.object({
    threadId: id,
    turnId: id,
    plan: z.array(z.object({ step: z.string(), status: z.string() })),
  });
  const breakdown = z.object({
    inputTokens: count,
    outputTokens: count,
    cachedInputTokens: z.optional(count),
    reasoningOutputTokens: z.optional(count),
  });
  const tokenUsage = z.object({ threadId: id, turnId: id, tokenUsage: z.object({ last: breakdown }) });
  const error = z.object({
    threadId: id,
    turnId: id,
    willRetry: z.boolean(),
    error: z.object({ message: z.string() }),
  });
  const commandApproval = z.object({
    threadId: id,
    turnId: id,
    itemId: id,
    command: optionalText,
    cwd: optionalText,
    reason: optionalText,
  });
  const fileChangeApproval = z.object({
    threadId: id,
    turnId: id,
    itemId: id,
    reason: optionalText,
    grantRoot: optionalText,
  });
  return { threadResult, turnResult, turnCompleted, itemEvent, agentDelta, plan, tokenUsage, error, commandApproval, fileChangeApproval };
});

/** A decision codex accepts for a command or file-change approval request. */
export type CodexApprovalDecision = 'accept' | 'acceptForSession' | 'decline' | 'cancel';
